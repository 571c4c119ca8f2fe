import * as yup from 'yup';
import { SEARCH_KIND_LABELS, type SearchKind } from '@/api/contracts/search';
import { actionPicks, resolveEntity, searchPicks } from '@/commands/entity-picks';
import { pickFrom, type PickSource } from '@/commands/pick';
import { defineCommand } from '@/commands/registry';
import { openPalette, shortcutSheet } from '@/commands/palette-store';
import type { AnyCommand, CommandContext } from '@/commands/types';
import { hasPendingUndo, undoLatest, UNDO_COMMAND } from '@/ui/undo';
import { pathParamNames, paneUrl } from './route-match';
import type { PaneKind } from './types';

const hasDock = (ctx: CommandContext) => ctx.dock !== null;

function dock(ctx: CommandContext) {
  if (!ctx.dock) throw new Error('This command needs the workbench');
  return ctx.dock;
}

/** Commands of the workbench itself: palette, focus and layout. */
export function workbenchCommands(): AnyCommand[] {
  return [
    defineCommand({
      id: 'palette.open',
      title: 'Show Command Palette',
      category: 'Workbench',
      hotkey: ['mod+k', 'mod+shift+p'],
      needsWorkbench: true,
      run: () => openPalette(),
    }),
    defineCommand({
      id: 'palette.shortcuts',
      title: 'Show Keyboard Shortcuts',
      category: 'Workbench',
      keywords: ['help', 'keys', 'hotkeys', 'keybindings', 'cheat sheet'],
      // `?` (Shift+/ on the keyboard); plain keys never fire while typing in a field.
      hotkey: 'shift+/',
      needsWorkbench: true,
      run: () => void (shortcutSheet.open = true),
    }),
    defineCommand({
      id: UNDO_COMMAND,
      title: 'Undo',
      category: 'Workbench',
      keywords: ['undo', 'revert', 'cancel', 'approval'],
      // An operation held back with an Undo (approving by hotkey) waits: Undo stops it; listed only then.
      hotkey: 'z',
      when: () => hasPendingUndo(),
      run: () => {
        const undone = undoLatest();
        if (undone === null) throw new Error('Nothing to undo.');
        return { undone };
      },
    }),
    defineCommand({ id: 'pane.next', menus: ['pane/tab'], title: 'Focus Next Pane', category: 'Workbench', hotkey: 'alt+]', needsWorkbench: true, when: hasDock, run: (_a, ctx) => dock(ctx).focusNext(1) }),
    defineCommand({ id: 'pane.previous', menus: ['pane/tab'], title: 'Focus Previous Pane', category: 'Workbench', hotkey: 'alt+[', needsWorkbench: true, when: hasDock, run: (_a, ctx) => dock(ctx).focusNext(-1) }),
    defineCommand({ id: 'pane.moveRight', menus: ['pane/tab'], title: 'Move Pane Right', category: 'Workbench', hotkey: 'alt+shift+]', needsWorkbench: true, when: hasDock, run: (_a, ctx) => dock(ctx).moveActive('right') }),
    defineCommand({ id: 'pane.moveLeft', menus: ['pane/tab'], title: 'Move Pane Left', category: 'Workbench', hotkey: 'alt+shift+[', needsWorkbench: true, when: hasDock, run: (_a, ctx) => dock(ctx).moveActive('left') }),
    defineCommand({ id: 'pane.close', menus: ['pane/tab'], title: 'Close Pane', category: 'Workbench', hotkey: 'alt+w', needsWorkbench: true, when: hasDock, run: (_a, ctx) => dock(ctx).closeActive() }),
    defineCommand({ id: 'layout.reset', title: 'Reset Layout', category: 'Workbench', keywords: ['default', 'panes'], needsWorkbench: true, when: hasDock, run: (_a, ctx) => dock(ctx).resetLayout() }),
    defineCommand({
      id: 'theme.toggle',
      title: 'Toggle Dark and Light Theme',
      category: 'Workbench',
      keywords: ['dark', 'light', 'appearance'],
      needsWorkbench: true,
      run: () => {
        const dark = !document.documentElement.classList.contains('dark');
        document.documentElement.classList.toggle('dark', dark);
        localStorage.setItem('vigil.theme', dark ? 'dark' : 'light');
        return { theme: dark ? 'dark' : 'light' };
      },
    }),
    defineCommand<{ url: string }>({
      id: 'pane.openUrl',
      title: 'Go to URL…',
      category: 'Workbench',
      keywords: ['route', 'link', 'navigate'],
      needsWorkbench: true,
      when: hasDock,
      args: yup.object({ url: yup.string().trim().required('Enter a path such as /jobs/12').matches(/^\//, 'The path must start with /') }),
      run: ({ url }, ctx) => dock(ctx).openUrl(url),
    }),
  ];
}

/** The pick list of an entity a pane's path names (the Action in view chosen at first for an Action). */
const entityPicks = (kind: SearchKind): PickSource => (kind === 'action' ? actionPicks : searchPicks(kind, SEARCH_KIND_LABELS[kind].toLowerCase()));

/**
 * A path param's value: as given, except a VID param given an id (what its pick list chooses, or a
 * script's number), which is looked up to the entity's VID.
 */
async function paramValue(kind: PaneKind, name: string, value: string): Promise<string> {
  if (name !== 'vid' || !kind.entity || !/^\d+$/.test(value)) return value;
  const found = await resolveEntity(kind.entity, { id: Number(value) }, undefined, SEARCH_KIND_LABELS[kind.entity].toLowerCase());
  if (!found.vid) throw new Error(`${SEARCH_KIND_LABELS[kind.entity]} ${value} has no VID.`);
  return found.vid;
}

/**
 * `pane.open.<id>` for every pane kind a feature command does not open already (`openedBy`: one title
 * per thing in the palette); kinds whose route has path params ask for them, with a pick list where the
 * param names an entity (`entity` of the pane kind).
 */
export function paneOpenCommands(kinds: readonly PaneKind[]): AnyCommand[] {
  return kinds.filter((kind) => !kind.openedBy).map((kind) => {
    const names = pathParamNames(kind).filter((n) => (kind.identity ?? pathParamNames(kind)).includes(n));
    const shape: Record<string, yup.StringSchema> = {};
    for (const n of names) {
      const param = yup.string().trim().required(`${n} is required`);
      shape[n] = kind.entity ? param.label(SEARCH_KIND_LABELS[kind.entity]).meta(pickFrom(entityPicks(kind.entity))) : param.label(n);
    }
    return defineCommand<Record<string, string>>({
      id: `pane.open.${kind.id}`,
      title: `Open ${kind.title.replace(/ ?\{\w+\}/g, '').trim()}${names.length ? '…' : ''}`,
      category: 'Panes',
      keywords: [kind.id, ...kind.routes],
      needsWorkbench: true,
      when: (ctx) => ctx.dock !== null && (!kind.permission || ctx.permissions.has(kind.permission)),
      ...(names.length ? { args: yup.object(shape) as unknown as yup.Schema<Record<string, string>> } : {}),
      run: async (args, ctx) => {
        const params: Record<string, string> = {};
        for (const [n, v] of Object.entries(args ?? {})) params[n] = await paramValue(kind, n, v);
        dock(ctx).openUrl(paneUrl(kind, params));
      },
    });
  });
}
