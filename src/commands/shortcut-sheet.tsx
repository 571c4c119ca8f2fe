import { useMemo } from 'react';
import { useSnapshot } from 'valtio';
import { Modal } from '@/ui/modal';
import { hotkeyText } from './hotkey-format';
import { shortcutSheet } from './palette-store';
import { hotkeysOf, type CommandRegistry } from './registry';
import type { AnyCommand } from './types';
import { useRegistryVersion } from './use-registry';

/** Where a command's hotkey works: everywhere, or in the named pane kinds. */
function contextOf(c: AnyCommand): string {
  if (!c.hotkeyContext) return 'Everywhere';
  const kinds = Array.isArray(c.hotkeyContext) ? c.hotkeyContext : [c.hotkeyContext];
  return kinds.includes('global') ? 'Everywhere' : `In ${kinds.join(', ')}`;
}

/** Every command that has a hotkey, by category: generated from the registry, so it cannot go stale. */
export function shortcutGroups(commands: readonly AnyCommand[]): { category: string; rows: { command: AnyCommand; keys: string[]; where: string }[] }[] {
  const groups = new Map<string, { command: AnyCommand; keys: string[]; where: string }[]>();
  for (const c of [...commands].sort((a, b) => a.category.localeCompare(b.category) || a.title.localeCompare(b.title))) {
    const keys = hotkeysOf(c);
    if (!keys.length) continue;
    const list = groups.get(c.category) ?? [];
    list.push({ command: c, keys: keys.map((k) => hotkeyText(k)), where: contextOf(c) });
    groups.set(c.category, list);
  }
  return [...groups].map(([category, rows]) => ({ category, rows }));
}

export function ShortcutSheet({ registry }: { registry: CommandRegistry }) {
  const { open } = useSnapshot(shortcutSheet);
  const version = useRegistryVersion(registry);
  const groups = useMemo(() => (open && version >= 0 ? shortcutGroups(registry.list()) : []), [open, registry, version]);
  return (
    <Modal open={open} title="Keyboard Shortcuts" size="lg" onClose={() => (shortcutSheet.open = false)}>
      <div className="max-h-[65vh] columns-1 gap-6 overflow-y-auto md:columns-2">
        {groups.map((g) => (
          <section key={g.category} aria-label={g.category} className="mb-3 break-inside-avoid">
            <h3 className="mb-1 text-2xs font-semibold tracking-wider text-muted uppercase">{g.category}</h3>
            <table className="w-full text-sm">
              <tbody>
                {g.rows.map(({ command, keys, where }) => (
                  <tr key={command.id}>
                    <td className="py-0.5 pr-2">{command.title}</td>
                    <td className="py-0.5 pr-2 text-2xs text-muted">{where}</td>
                    <td className="py-0.5 text-right whitespace-nowrap">
                      {keys.map((k) => (
                        <kbd key={k} className="ml-1 rounded border border-line bg-surface px-1 font-mono text-2xs">
                          {k}
                        </kbd>
                      ))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        ))}
      </div>
    </Modal>
  );
}
