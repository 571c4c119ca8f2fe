import { useQuery } from '@tanstack/react-query';
import { Button } from '@/ui/button';
import { fetchDrift, monitorKeys } from './api';
import { OUTCOME_CLASS, OUTCOME_LABEL, when } from './ui';

/** The monitors.drift command's list: steps whose latest outcome differs from the run before. */
export function DriftPanel({ onClose, onOpen }: { onClose(): void; onOpen(monitorId: number): void }) {
  const drift = useQuery({ queryKey: monitorKeys.drift, queryFn: fetchDrift, refetchInterval: 15_000 });
  return (
    <section aria-label="Drifting steps" className="flex flex-col gap-3 p-4 text-sm">
      <header className="flex items-center gap-2">
        <h2 className="flex-1 text-base font-semibold">Drifting steps</h2>
        <Button onClick={onClose}>Close</Button>
      </header>
      <p className="text-xs text-muted">Steps whose outcome changed since the monitor's previous run.</p>
      {drift.isLoading && <p className="text-muted">Loading…</p>}
      {drift.isError && <p className="text-red-300">{drift.error.message}</p>}
      {drift.data?.length === 0 && <p className="text-muted">No step has drifted.</p>}
      <ul className="flex flex-col gap-1">
        {drift.data?.map((d) => (
          <li key={d.monitor_action_id}>
            <button type="button" onClick={() => onOpen(d.monitor_id)} className="flex w-full items-center gap-3 rounded border border-line px-2 py-1 text-left hover:bg-raised">
              <span className="min-w-0 flex-1 truncate">
                <span className="font-medium">{d.monitor_name}</span> · Step {d.step}: {d.action_name}
              </span>
              <span className={OUTCOME_CLASS[d.previous_outcome]}>{OUTCOME_LABEL[d.previous_outcome]}</span>
              <span aria-hidden>→</span>
              <span className={OUTCOME_CLASS[d.outcome]}>{OUTCOME_LABEL[d.outcome]}</span>
              <span className="text-2xs text-muted">{when(d.at)}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
