import { useQuery } from '@tanstack/react-query';
import { ADD_TO_DASHBOARD, PANELS_DISABLED_NOTE, PANEL_LIBRARY_TITLE, type LibraryGroup, type LibraryPanel, type PanelLibraryAnswer } from '@/api/contracts/reports';
import { Modal } from '@/ui/modal';
import { fetchPanelLibrary } from './api';
import { PanelLogo } from './panel-logo';

/**
 * The Panel Library modal (monitors-actors-reporting.md section 2, 4, 7, 8): panels, optionally in named
 * groups, each with name, description, logo and an add button ('Add to Dashboard' by default). When the
 * enabled list is non-empty, panels not in it get a disabled button and the note is shown. The library
 * comes from GET {library path}; a non-array answer is treated as an empty list.
 */

const isGroups = (a: PanelLibraryAnswer): a is LibraryGroup[] => a.length > 0 && 'panels' in a[0]!;

export function PanelLibrary({
  open,
  onClose,
  onAdd,
  path = '/reports/panel_library.json',
  enabledIds = [],
  buttonLabel = ADD_TO_DASHBOARD,
}: {
  open: boolean;
  onClose(): void;
  onAdd(panel: LibraryPanel): void;
  path?: string;
  enabledIds?: readonly number[];
  buttonLabel?: string;
}) {
  const q = useQuery({ queryKey: ['panel-library', path], queryFn: () => fetchPanelLibrary(path), enabled: open });
  const answer = q.data ?? [];
  const groups: { name: string | null; panels: LibraryPanel[] }[] = isGroups(answer) ? answer : [{ name: null, panels: answer as LibraryPanel[] }];
  const restricted = enabledIds.length > 0;
  const enabled = (p: LibraryPanel) => !restricted || enabledIds.includes(p.id);
  const someDisabled = restricted && groups.some((g) => g.panels.some((p) => !enabled(p)));
  return (
    <Modal open={open} onClose={onClose} title={PANEL_LIBRARY_TITLE} size="lg">
      {q.isPending && open && <p className="text-sm text-muted">Loading panels…</p>}
      {q.isError && <p className="text-sm text-red-400">{q.error instanceof Error ? q.error.message : 'An error occurred'}</p>}
      {q.isSuccess && answer.length === 0 && <p className="text-sm text-muted">No panels are available.</p>}
      {someDisabled && <p className="mb-2 text-sm text-muted">{PANELS_DISABLED_NOTE}</p>}
      <div className="flex max-h-[60vh] flex-col gap-3 overflow-auto">
        {groups.map((g, gi) => (
          <section key={g.name ?? gi} aria-label={g.name ?? 'Panels'}>
            {g.name && <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-muted">{g.name}</h3>}
            <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2">
              {g.panels.map((p) => (
                <li key={p.key} className="flex gap-2 rounded border border-line p-2" aria-label={p.name}>
                  <PanelLogo logo={p.logo} />
                  <div className="flex min-w-0 flex-1 flex-col gap-1">
                    <span className="text-sm font-medium">{p.name}</span>
                    <span className="text-xs text-muted">{p.description}</span>
                    <button
                      type="button"
                      disabled={!enabled(p)}
                      onClick={() => onAdd(p)}
                      aria-label={`${buttonLabel}: ${p.name}`}
                      className="self-start rounded border border-line px-2 py-0.5 text-xs hover:bg-raised disabled:cursor-not-allowed disabled:opacity-50"
                    >
                      {buttonLabel}
                    </button>
                  </div>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </Modal>
  );
}
