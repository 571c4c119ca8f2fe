import { Menu, MenuButton, MenuItem, MenuItems, MenuSeparator } from '@headlessui/react';
import type { ReactNode } from 'react';
import { Button } from '@/ui/button';
import { commandAriaKeyshortcuts, commandHotkeyText, runFrom, useMenuItems, usePaneCommandContext } from './command-hooks';
import type { MenuArgsOf, MenuId } from './menus';
import { commands as workbenchRegistry, type CommandRegistry } from './registry';

export { commandHotkeyText, runFrom, useCommandHotkeys, useMenuItems, usePaneCommandContext } from './command-hooks';

function ItemsList({ menu, args, registry }: { menu: MenuId; args: unknown; registry: CommandRegistry }) {
  const items = useMenuItems(menu, args as never, registry);
  const { opts } = usePaneCommandContext(registry);
  if (!items.length) return <div className="px-2 py-1 text-muted">No commands available</div>;
  return (
    <>
      {items.map((e) => [
        e.separatorBefore ? <MenuSeparator key={`${e.key}-sep`} className="my-1 h-px bg-line" /> : null,
        <MenuItem key={e.key} disabled={e.disabled}>
          <button
            type="button"
            title={e.disabled ? (e.reason ?? undefined) : undefined}
            onClick={() => runFrom(registry, e.commandId, e.args, 'menu', opts)}
            className="flex w-full items-center justify-between gap-4 rounded px-2 py-1 text-left data-[disabled]:cursor-not-allowed data-[disabled]:opacity-45 data-[focus]:bg-accent/15"
          >
            <span>{e.label}</span>
            {e.hotkey && <kbd className="font-mono text-2xs text-muted">{e.hotkey}</kbd>}
          </button>
        </MenuItem>,
      ])}
    </>
  );
}

export interface CommandMenuProps<M extends MenuId> {
  menu: M;
  args?: MenuArgsOf<M>;
  /** The menu button's accessible name (and tooltip). */
  label: string;
  /** The button's face (default ⋯). */
  button?: ReactNode;
  className?: string;
  /** Hidden entirely when no item is visible (default true). */
  hideWhenEmpty?: boolean;
  registry?: CommandRegistry;
}

/**
 * A Headless UI menu whose items come from the registry: every command placed in `menu`, with its
 * label, hotkey hint and disabled state; choosing one runs `execute(id, args, 'menu')`.
 */
export function CommandMenu<M extends MenuId>({ menu, args, label, button, className = '', hideWhenEmpty = true, registry = workbenchRegistry }: CommandMenuProps<M>) {
  const { ctx } = usePaneCommandContext(registry);
  if (hideWhenEmpty && registry.menuItems(menu, args, ctx).length === 0) return null;
  return (
    <Menu>
      <MenuButton aria-label={label} title={label} className={`inline-flex items-center gap-1 rounded border border-transparent px-1.5 py-0.5 text-sm hover:border-line hover:bg-raised data-[open]:border-line data-[open]:bg-raised ${className}`}>
        {button ?? <span aria-hidden="true">⋯</span>}
      </MenuButton>
      <MenuItems anchor="bottom end" className="z-[1055] min-w-52 rounded-md border border-line bg-panel p-1 text-sm text-ink shadow-xl focus:outline-none">
        <ItemsList menu={menu} args={args} registry={registry} />
      </MenuItems>
    </Menu>
  );
}

export interface CommandButtonProps {
  command: string;
  args?: unknown;
  /** Overrides the command's buttonLabel/title (e.g. an icon with a visible text elsewhere). */
  children?: ReactNode;
  variant?: 'primary' | 'secondary' | 'danger' | 'ghost';
  className?: string;
  /** Extra disabled condition of the pane (e.g. a run in progress). */
  disabled?: boolean;
  /** Why the pane blocks the button for these args (disables it; the reason is its tooltip), or null. */
  blockedReason?: string | null;
  /** The accessible name when the visible label alone is ambiguous in a list ('Installer for Lab'). */
  'aria-label'?: string;
  /** A toggle's state (aria-pressed), e.g. Show All Steps. */
  pressed?: boolean;
  registry?: CommandRegistry;
}

/**
 * A button for one command: its label (buttonLabel or title), a tooltip and `aria-keyshortcuts` with the
 * hotkey from the keybinding, disabled from `enabled`/`blockedReason` (the reason as tooltip), hidden when `when`
 * fails; a click runs `execute(id, args, 'button')`.
 */
export function CommandButton({ command, args, children, variant, className, disabled, blockedReason, 'aria-label': ariaLabel, pressed, registry = workbenchRegistry }: CommandButtonProps) {
  const { ctx, opts } = usePaneCommandContext(registry);
  const c = registry.get(command);
  if (!c) return null;
  const state = registry.state(command, args, ctx);
  if (!state.visible) return null;
  const label = c.buttonLabel ?? c.title;
  const hotkey = commandHotkeyText(registry, command);
  const reason = (state.disabled && state.reason) || blockedReason;
  const title = reason ? reason : hotkey ? `${c.title} (${hotkey})` : c.title;
  return (
    <Button
      variant={variant}
      className={className}
      disabled={state.disabled || !!disabled || !!blockedReason}
      title={title}
      aria-label={ariaLabel}
      aria-keyshortcuts={commandAriaKeyshortcuts(registry, command)}
      aria-pressed={pressed}
      onClick={() => runFrom(registry, command, args, 'button', opts)}
      onMouseEnter={() => registry.prefetch(command, args, ctx)}
      onFocus={() => registry.prefetch(command, args, ctx)}
    >
      {children ?? label}
    </Button>
  );
}

/**
 * The items of one menu as a row of buttons (a pane's toolbar): same labels, hotkey tooltips, disabled
 * states and reasons as the menus, from the same placements.
 */
export function CommandToolbar<M extends MenuId>({ menu, args, label, registry = workbenchRegistry }: { menu: M; args?: MenuArgsOf<M>; label: string; registry?: CommandRegistry }) {
  const items = useMenuItems(menu, args, registry);
  const { ctx, opts } = usePaneCommandContext(registry);
  return (
    <div className="flex flex-wrap gap-1.5" role="toolbar" aria-label={label}>
      {items.map((e) => {
        const title = e.disabled && e.reason ? e.reason : e.hotkey ? `${registry.get(e.commandId)?.title ?? e.label} (${e.hotkey})` : undefined;
        return (
          <Button
            key={e.key}
            variant={e.style ?? 'secondary'}
            disabled={e.disabled}
            title={title}
            onClick={() => runFrom(registry, e.commandId, e.args, 'button', opts)}
            onMouseEnter={() => registry.prefetch(e.commandId, e.args, ctx)}
            onFocus={() => registry.prefetch(e.commandId, e.args, ctx)}
          >
            {e.label}
          </Button>
        );
      })}
    </div>
  );
}
