import { useQuery } from '@tanstack/react-query';
import { useState, type KeyboardEvent } from 'react';
import { commands } from '@/commands/registry';
import { Button } from '@/ui/button';
import { listDashboards, qk } from './api';

/** The Dashboards list: own and shared dashboards; arrows move, Enter opens, buttons run the commands. */

const run = (id: string, args: Record<string, unknown> = {}) => commands.execute(id, args, 'button').catch(() => undefined);

export function DashboardsPane() {
  const q = useQuery({ queryKey: qk.dashboards, queryFn: listDashboards });
  const [active, setActive] = useState(0);
  const list = q.data?.dashboards ?? [];
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown') setActive((i) => Math.min(list.length - 1, i + 1));
    else if (e.key === 'ArrowUp') setActive((i) => Math.max(0, i - 1));
    else if (e.key === 'Enter' && list[active]) void run('reports.openDashboard', { id: list[active].id });
    else return;
    e.preventDefault();
  };
  return (
    <div className="flex h-full flex-col">
      <div className="flex items-center gap-2 border-b border-line px-3 py-2">
        <h2 className="text-base font-semibold">Dashboards</h2>
        <Button className="ml-auto" variant="primary" onClick={() => void run('reports.createDashboard')}>
          New Dashboard
        </Button>
        <Button onClick={() => void run('reports.openMitre')}>ATT&CK View</Button>
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
              onDoubleClick={() => void run('reports.openDashboard', { id: d.id })}
              className={`flex items-center gap-3 rounded px-2 py-1.5 text-sm ${i === active ? 'bg-raised' : ''}`}
            >
              <a href={`/dashboards/${d.id}`} className="font-medium hover:underline" tabIndex={-1}>
                {d.name}
              </a>
              <span className="text-xs text-muted">{d.panel_count} panels</span>
              <span className="text-xs text-muted">{d.editable ? (d.shared_with.length ? `shared with ${d.shared_with.length}` : 'private') : `shared by ${d.owner.name}`}</span>
              <span className="ml-auto flex gap-1">
                <Button onClick={() => void run('reports.duplicateDashboard', { id: d.id })}>Duplicate</Button>
                {d.editable && <Button onClick={() => void run('reports.renameDashboard', { id: d.id })}>Rename</Button>}
                {d.editable && (
                  <Button variant="danger" onClick={() => void run('reports.deleteDashboard', { id: d.id })}>
                    Delete
                  </Button>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
