import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type KeyboardEvent } from 'react';
import { CommandToolbar, runFrom, usePaneCommandContext } from '@/commands/command-menu';
import { commands } from '@/commands/registry';
import { listDashboards, qk } from './api';
import { prefetchDashboard } from './panel-data';

/** A dashboard pointed at (hovered, or chosen with the arrows) this long has its calls started ahead of Enter or a click. */
const PREFETCH_AFTER_MS = 150;

/** The Dashboards list: own and shared dashboards; arrows move, Enter opens, buttons run the commands. */

export function DashboardsPane() {
  const q = useQuery({ queryKey: qk.dashboards, queryFn: listDashboards });
  const [active, setActive] = useState(0);
  const [pointed, setPointed] = useState<number | null>(null);
  const qc = useQueryClient();
  const { opts } = usePaneCommandContext();
  const open = (id: number) => runFrom(commands, 'reports.openDashboard', { id }, 'button', opts);
  const list = q.data?.dashboards ?? [];
  // The dashboard about to be opened has its figures on the way (a pointer resting on it, or the arrows
  // stopping on it): opening it then draws from the cache. Passing over many starts nothing.
  useEffect(() => {
    if (pointed === null) return;
    const t = setTimeout(() => void prefetchDashboard(qc, pointed), PREFETCH_AFTER_MS);
    return () => clearTimeout(t);
  }, [pointed, qc]);
  const onKey = (e: KeyboardEvent) => {
    const next = e.key === 'ArrowDown' ? Math.min(list.length - 1, active + 1) : e.key === 'ArrowUp' ? Math.max(0, active - 1) : null;
    if (next !== null) {
      setActive(next);
      setPointed(list[next]?.id ?? null);
    }
    else if (e.key === 'Enter' && list[active]) open(list[active].id);
    else return;
    e.preventDefault();
  };
  return (
    <div className="flex h-full flex-col">
      <div className="flex items-center gap-2 border-b border-line px-3 py-2">
        <h2 className="text-base font-semibold">Dashboards</h2>
        <span className="ml-auto">
          <CommandToolbar menu="toolbar/dashboards" label="Dashboards actions" />
        </span>
      </div>
      {q.isPending && <p className="p-3 text-sm text-muted">Loading dashboards…</p>}
      {q.isError && <p className="p-3 text-sm text-red-400">{q.error instanceof Error ? q.error.message : 'An error occurred'}</p>}
      {q.isSuccess && list.length === 0 && <p className="p-3 text-sm text-muted">No dashboards yet. Choose New Dashboard to make one.</p>}
      {list.length > 0 && (
        <ul role="listbox" aria-label="Dashboards" tabIndex={0} onKeyDown={onKey} aria-activedescendant={list[active] ? `dash-${list[active].id}` : undefined} className="overflow-auto p-1">
          {list.map((d, i) => (
            <li
              key={d.id}
              id={`dash-${d.id}`}
              role="option"
              aria-selected={i === active}
              onClick={() => setActive(i)}
              onMouseEnter={() => setPointed(d.id)}
              onMouseLeave={() => setPointed(null)}
              onDoubleClick={() => open(d.id)}
              className={`flex items-center gap-3 rounded px-2 py-1.5 text-sm ${i === active ? 'bg-raised' : ''}`}
            >
              <a href={`/dashboards/${d.id}`} className="font-medium hover:underline" tabIndex={-1}>
                {d.name}
              </a>
              <span className="text-xs text-muted">{d.panel_count} panels</span>
              <span className="text-xs text-muted">{d.editable ? (d.shared_with.length ? `shared with ${d.shared_with.length}` : 'private') : `shared by ${d.owner.name}`}</span>
              <span className="ml-auto">
                <CommandToolbar menu="row/dashboard" args={{ id: d.id, editable: d.editable }} label={`${d.name} actions`} />
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
