import { hotkeyText } from './hotkey-format';
import type { AnyCommand, CommandContext } from './types';

/**
 * Every menu and toolbar the workbench renders from the registry, declared once. A command names the
 * menus that list it (`menus: ['pane/tab']` or `menus: [inMenu('row/job', {...})]`); the components in
 * `command-menu.tsx` render a menu id and pass its arguments. A test walks this table.
 */
export const MENUS = {
  'pane/tab': 'The context menu of a pane tab',
  'row/job': 'The ⋯ menu of a job row (Jobs list and Job pane); args: the job',
  'row/job-action': 'The ⋯ menu of a job action row; args: the job action and its row key',
  'toolbar/jobs-selection': "The Jobs pane's Selected menu (acts on the selected jobs)",
  'toolbar/jobs-export': "The Jobs pane's Export menu",
  'toolbar/job': "The Job pane's operation buttons; args: the job (as a row menu sees it)",
  'toolbar/action-detail': "The Action library detail panel's buttons; args: the Action's detail",
  'menu/action-queue': "The Action library's Queue menu (add the selection to a simulation draft)",
  'row/bulk-token': 'The ⋯ menu of a bulk token row (Actors pane); args: the token row',
  'row/monitor': "The ⋯ menu of the selected monitor (Monitors list); args: { id }",
  'toolbar/monitors': "The Monitors list's buttons (New Monitor, drift)",
  'toolbar/simulation': "A simulation's header buttons (JOB-024); args: { id, vid, simulation_type }",
  'toolbar/dashboards': "The Dashboards list's buttons",
  'row/dashboard': 'The buttons of a dashboard in the Dashboards list; args: { id, editable }',
  'toolbar/dashboard': "A dashboard pane's buttons; args: { id, editable }",
  'panel/dashboard': "The buttons in a dashboard panel's header; args: { id, uid, title }",
} as const satisfies Record<string, string>;

export type MenuId = keyof typeof MENUS;

/** The arguments a menu passes its items, by menu id. Features add their menus' types here (declaration merging). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- augmented by features
export interface MenuArgsMap {}

export type MenuArgsOf<M extends string> = M extends keyof MenuArgsMap ? MenuArgsMap[M] : unknown;

/** Where one command appears in one menu. */
export interface MenuPlacement<M = unknown> {
  menu: MenuId;
  /** Items of a group sit together; groups are ordered by name and separated by a line ('1_open', '2_change'). */
  group?: string;
  /** Order within the group (default 0, then registration order). */
  order?: number;
  /** The item's label in this menu (default the command's title); may depend on the menu's args. */
  title?: string | ((args: M) => string);
  /** The command's arguments from the menu's args (default: the menu's args). */
  args?(menuArgs: M): unknown;
  /** How a toolbar renders the item's button (default secondary). */
  style?: 'primary' | 'danger';
  /** Shown only when this holds for the menu's args (besides the command's own `when`). */
  when?(ctx: CommandContext, menuArgs: M): boolean;
  /** Why the item is disabled for these args (its tooltip), or null when it can run. */
  blockedReason?(ctx: CommandContext, menuArgs: M): string | null;
}

/** A typed placement: `menus: [inMenu('row/job', { group: '1_open', args: (j: JobRow) => ({ id: j.id }) })]`. */
export function inMenu<M = unknown>(menu: MenuId, placement: Omit<MenuPlacement<M>, 'menu'> = {}): MenuPlacement {
  return { menu, ...placement } as MenuPlacement;
}

const placementOf = (entry: string | MenuPlacement): MenuPlacement => (typeof entry === 'string' ? { menu: entry as MenuId } : entry);

/** The placements of a command (strings turned into plain placements). */
export const placementsOf = (c: AnyCommand): MenuPlacement[] => (c.menus ?? []).map(placementOf);

/** One rendered item: what a menu shows and what it executes. */
export interface MenuItemModel {
  key: string;
  commandId: string;
  label: string;
  /** The first hotkey of the command, formatted ('Shift+S'). */
  hotkey: string | null;
  args: unknown;
  disabled: boolean;
  reason: string | null;
  group: string;
  style?: 'primary' | 'danger';
  /** A line above this item (first item of a later group). */
  separatorBefore: boolean;
}

/** Whether a command may run with these args: when, enabled and blockedReason, as `execute` checks them. */
export interface CommandState {
  visible: boolean;
  disabled: boolean;
  reason: string | null;
}

export function commandState(command: AnyCommand, ctx: CommandContext, args: unknown): CommandState {
  if (command.when && !command.when(ctx, args)) return { visible: false, disabled: true, reason: null };
  const blocked = command.blockedReason?.(ctx, args) ?? null;
  if (blocked) return { visible: true, disabled: true, reason: blocked };
  if (command.enabled && !command.enabled(ctx, args)) return { visible: true, disabled: true, reason: `"${command.title}" cannot run right now` };
  return { visible: true, disabled: false, reason: null };
}

/** The items of one menu for its args, ordered by group then order, hidden ones left out. */
export function menuItems(all: readonly AnyCommand[], menu: string, menuArgs: unknown, ctx: CommandContext): MenuItemModel[] {
  const rows: (MenuItemModel & { order: number; index: number })[] = [];
  all.forEach((command, index) => {
    placementsOf(command).forEach((p, nth) => {
      if (p.menu !== menu) return;
      if (p.when && !p.when(ctx, menuArgs)) return;
      const args = p.args ? p.args(menuArgs) : menuArgs;
      const state = commandState(command, ctx, args);
      if (!state.visible) return;
      const placeBlocked = p.blockedReason?.(ctx, menuArgs) ?? null;
      const label = typeof p.title === 'function' ? p.title(menuArgs) : (p.title ?? command.title);
      const first = command.hotkey ? (Array.isArray(command.hotkey) ? command.hotkey[0] : command.hotkey) : undefined;
      rows.push({
        key: `${command.id}@${p.menu}#${nth}`,
        commandId: command.id,
        label,
        hotkey: first ? hotkeyText(first) : null,
        args,
        disabled: !!placeBlocked || state.disabled,
        reason: placeBlocked ?? state.reason,
        group: p.group ?? '',
        ...(p.style ? { style: p.style } : {}),
        separatorBefore: false,
        order: p.order ?? 0,
        index,
      });
    });
  });
  rows.sort((a, b) => a.group.localeCompare(b.group) || a.order - b.order || a.index - b.index);
  return rows.map(({ order: _o, index: _i, ...item }, i) => ({ ...item, separatorBefore: i > 0 && rows[i - 1]!.group !== item.group }));
}
