import { PROGRESS_TRANSITION_MS, type MonitorRun, type RunStatus, type StepOutcome } from '@/api/contracts/monitors';
import { formatTimestamp } from '@/ui/datetime';
import { ProgressBar } from '@/ui/progress-bar';

/** Small pieces shared by the monitor panes. */

/** MON-057: job status pills; 'never' reads Never Ran. */
const STATUS_CLASS: Record<string, string> = {
  completed: 'border-emerald-500/50 text-emerald-300',
  errored: 'border-red-500/60 text-red-300',
  cancelled: 'border-slate-500 text-slate-300',
  never: 'border-line text-muted',
  sleeping: 'border-sky-500/50 text-sky-300',
};
export function StatusPill({ status }: { status: RunStatus }) {
  const label = status === 'never' ? 'Never Ran' : status.charAt(0).toUpperCase() + status.slice(1);
  return <span className={`inline-block w-[110px] rounded-full border px-2 py-px text-center text-2xs ${STATUS_CLASS[status] ?? 'border-amber-500/50 text-amber-300'}`}>{label}</span>;
}

export const OUTCOME_LABEL: Record<StepOutcome, string> = { pass: 'Pass', fail: 'Fail', not_run: 'Not Run' };
export const OUTCOME_CLASS: Record<StepOutcome, string> = { pass: 'text-emerald-300', fail: 'text-red-300', not_run: 'text-muted' };

export function when(iso: string | null): string {
  return formatTimestamp(iso);
}

const ENDED: RunStatus[] = ['completed', 'errored', 'cancelled', 'never', 'sleeping'];
/** A run's status, with its progress while it runs (MON-176: the fill moves in 350 ms). */
export function RunStatusCell({ run }: { run: Pick<MonitorRun, 'status' | 'progress'> }) {
  return (
    <span className="flex flex-col gap-0.5">
      <StatusPill status={run.status} />
      {!ENDED.includes(run.status) && <ProgressBar value={run.progress} label={`Run progress ${run.progress}%`} transitionMs={PROGRESS_TRANSITION_MS} className="max-w-[110px]" />}
    </span>
  );
}
