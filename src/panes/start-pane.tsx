import { useCommandHotkeys } from '@/commands/command-hooks';
import { commands } from '@/commands/registry';
import { openPalette } from '@/commands/palette-store';
import { useWorkbench } from './pane-context';

/** The workbench commands whose keys the start pane lists (titles and keys read from the registry). */
const KEY_COMMANDS = ['palette.open', 'pane.next', 'pane.previous', 'pane.moveRight', 'pane.moveLeft', 'pane.close'] as const;

/** The start pane: where to go, and the keys to get there. */
export function StartPane() {
  const { panes, controller } = useWorkbench();
  const kinds = panes.list().filter((k) => k.listed !== false);
  const ctx = commands.context();
  const keys = useCommandHotkeys(KEY_COMMANDS);
  return (
    <div className="mx-auto max-w-3xl p-6">
      <h1 className="text-xl font-semibold">Vigil workbench</h1>
      <p className="mt-1 text-muted">
        Open panes side by side, drag tabs to tile them, and run every operation from the command palette.{' '}
        <button type="button" className="text-accent underline" onClick={() => openPalette()}>
          Open the palette
        </button>
      </p>
      <h2 className="mt-6 mb-2 text-xs font-semibold tracking-wider text-muted uppercase">Panes</h2>
      <ul className="grid grid-cols-2 gap-2">
        {kinds
          .filter((k) => !k.permission || ctx.permissions.has(k.permission))
          .map((k) => (
            <li key={k.id}>
              <button
                type="button"
                className="w-full rounded border border-line bg-raised/40 px-3 py-2 text-left hover:border-accent"
                onClick={() => controller.open({ kind: k.id, params: {} })}
              >
                <div className="font-medium">{k.title}</div>
                {k.description && <div className="text-2xs text-muted">{k.description}</div>}
              </button>
            </li>
          ))}
      </ul>
      <h2 className="mt-6 mb-2 text-xs font-semibold tracking-wider text-muted uppercase">Keys</h2>
      <table className="text-sm">
        <tbody>
          {KEY_COMMANDS.map((id, i) =>
            keys[i] ? (
              <tr key={id}>
                <td className="py-0.5 pr-4 font-mono text-2xs">{keys[i]}</td>
                <td>{commands.get(id)?.title}</td>
              </tr>
            ) : null,
          )}
        </tbody>
      </table>
    </div>
  );
}
