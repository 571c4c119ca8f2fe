import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { MonitorListItem } from '@/api/contracts/monitors';
import { Pagination, usePaging } from '@/ui/pagination';
import { CommandButton } from '@/commands/command-menu';
import { fetchMonitor, fetchMonitorRuns, monitorKeys } from './api';
import { OUTCOME_CLASS, OUTCOME_LABEL, RunStatusCell, StatusPill, when } from './ui';


/** The selected monitor: definition summary, steps with their latest outcome and drift, run history (paged). */
export function MonitorDetailPanel({ monitor, menu }: { monitor: MonitorListItem; menu: ReactNode }) {
  // MON-077, MON-174: 10, 20 or 30 runs a page, remembered under monitor-runs-perPage.
  const { page, perPage, setPage, setPerPage } = usePaging('monitor-runs', 10);
  const detail = useQuery({ queryKey: monitorKeys.one(monitor.id), queryFn: ({ signal }) => fetchMonitor(monitor.id, signal) });
  const runs = useQuery({ queryKey: [...monitorKeys.runs(monitor.id, page), perPage], queryFn: () => fetchMonitorRuns(monitor.id, page, perPage), refetchInterval: 15_000 });
  const m = detail.data;
  let stepNo = 0;
  return (
    <section aria-label={`Monitor ${monitor.name}`} className="flex flex-col gap-4 p-4 text-sm">
      <header className="flex items-start gap-2">
        <div className="min-w-0 flex-1">
          <h2 className="text-base font-semibold">{monitor.name}</h2>
          <p className="text-xs text-muted">{monitor.description || 'No description.'}</p>
        </div>
        <CommandButton command="monitors.edit" args={{ id: monitor.id }}>
          Edit
        </CommandButton>
        <CommandButton command="monitors.runNow" args={{ id: monitor.id }}>
          Run Now
        </CommandButton>
        {menu}
      </header>
      <dl className="grid grid-cols-[9rem_1fr] gap-x-3 gap-y-1 text-xs">
        <dt className="text-muted">Schedule</dt>
        <dd>{monitor.schedule}</dd>
        <dt className="text-muted">Monitor Group</dt>
        <dd>{monitor.monitor_group ?? '—'}</dd>
        <dt className="text-muted">Next run</dt>
        <dd>{monitor.paused ? 'Paused' : when(monitor.next_run_at)}</dd>
        <dt className="text-muted">Last run</dt>
        <dd className="flex items-center gap-2">
          <StatusPill status={monitor.last_run_status} /> {when(monitor.last_run_at)}
        </dd>
      </dl>
      <div>
        <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-muted">Steps</h3>
        {detail.isLoading && <p className="text-muted">Loading…</p>}
        {detail.isError && <p className="text-red-300">{detail.error.message}</p>}
        {m?.steps.map((g, gi) => (
          <div key={g.id} className="mb-2">
            <div className="text-xs text-muted">
              Group {gi + 1}: {g.name || 'Unnamed'}
            </div>
            <ul className="ml-2">
              {g.actions.map((a) => {
                stepNo++;
                return (
                  <li key={a.id} className="flex items-center gap-2">
                    <span className="w-6 text-right text-muted">{stepNo}</span>
                    <span className="flex-1 truncate">{a.name}</span>
                    {a.drift && <span className="rounded bg-red-500/20 px-1 text-2xs text-red-200">Drift</span>}
                    <span className={`w-14 text-xs ${a.last_outcome ? OUTCOME_CLASS[a.last_outcome] : 'text-muted'}`}>{a.last_outcome ? OUTCOME_LABEL[a.last_outcome] : '—'}</span>
                  </li>
                );
              })}
            </ul>
          </div>
        ))}
      </div>
      <div>
        <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-muted">Run history</h3>
        {runs.data && runs.data.data.length === 0 && <p className="text-muted">No runs yet.</p>}
        <table className="w-full text-xs">
          <thead className="text-left text-muted">
            <tr>
              <th className="py-1">Job</th>
              <th>Status</th>
              <th>Started</th>
              <th>Trigger</th>
              <th>Pass</th>
              <th>Fail</th>
              <th>Drift</th>
            </tr>
          </thead>
          <tbody>
            {runs.data?.data.map((r) => (
              <tr key={r.job_id} className="border-t border-line/60">
                <td className="py-1">
                  <a href={`/jobs/${r.job_id}`} className="text-accent hover:underline">
                    {r.job_id}
                  </a>
                </td>
                <td>
                  <RunStatusCell run={r} />
                </td>
                <td>{when(r.started_at)}</td>
                <td>{r.trigger === 'catch_up' ? 'Catch-up' : r.trigger === 'run_now' ? 'Run now' : 'Schedule'}</td>
                <td className="text-emerald-300">{r.evaluated ? r.passed : '…'}</td>
                <td className="text-red-300">{r.evaluated ? r.failed : '…'}</td>
                <td>{r.drift > 0 ? <span className="rounded bg-red-500/20 px-1 text-red-200">{r.drift}</span> : r.evaluated ? 0 : '…'}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {runs.data && runs.data.meta.total_count > 10 && (
          <div className="mt-2">
            <Pagination label="Run history" page={page} perPage={perPage} total={runs.data.meta.total_count} onPage={setPage} onPerPage={setPerPage} />
          </div>
        )}
      </div>
    </section>
  );
}
