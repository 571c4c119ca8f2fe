import { useSyncExternalStore } from 'react';
import { hotkeyAria, hotkeyText } from './hotkey-format';
import type { MenuArgsOf, MenuId, MenuItemModel } from './menus';
import { paneContexts, type PaneInstance } from './pane-contexts';
import { usePaneInstance } from './pane-instance';
import { commands as workbenchRegistry, type CommandRegistry } from './registry';
import type { CommandContext, CommandSource, ExecuteOptions } from './types';
import { useRegistryVersion } from './use-registry';

// The hooks of command menus and buttons without the menus' UI library (headless UI), so the
// workbench's first download can show hotkey hints and run commands without it (src/commands/command-menu.tsx).

/** The pane a menu or button lives in, as the command's active pane (none outside a workbench). */
const paneOption = (instance: PaneInstance): ExecuteOptions => (instance.kind === '*' ? {} : { pane: { kind: instance.kind, params: instance.params ?? {}, id: instance.id } });

/** Runs a command from a menu or a button; errors are already shown as toasts by the registry. */
export function runFrom(registry: CommandRegistry, id: string, args: unknown, source: CommandSource, opts: ExecuteOptions = {}): void {
  void registry.execute(id, args, source, opts).catch(() => undefined);
}

/** The context a menu or button inside this pane sees: the registry's, with its own pane as the active one. */
export function usePaneCommandContext(registry: CommandRegistry = workbenchRegistry): { ctx: CommandContext; opts: ExecuteOptions } {
  useRegistryVersion(registry);
  useSyncExternalStore(
    (cb) => paneContexts.subscribe(cb),
    () => paneContexts.getVersion(),
  );
  const opts = paneOption(usePaneInstance());
  return { ctx: registry.contextWith(opts), opts };
}

/** The items of one menu for its args, re-read when commands come and go (compute inside the open menu for fresh state). */
export function useMenuItems<M extends MenuId>(menu: M, args?: MenuArgsOf<M>, registry: CommandRegistry = workbenchRegistry): MenuItemModel[] {
  const { ctx } = usePaneCommandContext(registry);
  return registry.menuItems(menu, args, ctx);
}

/** The first hotkey of a command as text ('Shift+S'), or null: the one source of every hotkey hint. */
export function commandHotkeyText(registry: CommandRegistry, id: string): string | null {
  const first = firstHotkey(registry, id);
  return first ? hotkeyText(first) : null;
}

function firstHotkey(registry: CommandRegistry, id: string): string | undefined {
  const h = registry.get(id)?.hotkey;
  return Array.isArray(h) ? h[0] : h;
}

/** The first hotkey of a command as an `aria-keyshortcuts` value ('Control+S'), or undefined. */
export function commandAriaKeyshortcuts(registry: CommandRegistry, id: string): string | undefined {
  const first = firstHotkey(registry, id);
  return first ? hotkeyAria(first) : undefined;
}

/**
 * The hotkey texts of commands, in order (null for one without a hotkey or not registered), re-read
 * when commands come and go: what a pane's keyboard hint shows instead of hand-typed key names.
 */
export function useCommandHotkeys(ids: readonly string[], registry: CommandRegistry = workbenchRegistry): (string | null)[] {
  useRegistryVersion(registry);
  return ids.map((id) => commandHotkeyText(registry, id));
}
