import { formatDistanceToNowStrict } from 'date-fns';
import { formatTimestamp } from '@/ui/datetime';
import { actionResult, statusLabel, type JobAction } from '@/api/contracts/jobs';
import { type JobStatus } from '@/api/contracts/vocabulary';

/** Colour bar per job status (ours: the spec does not show its table; 'reverting' has no bar). */
const STATUS_BAR: Record<JobStatus, string> = {
  sleeping: 'border-l-slate-400',
  pending: 'border-l-slate-400',
  waiting: 'border-l-violet-400',
  preparing: 'border-l-violet-400',
  running: 'border-l-sky-400',
  reverting: 'border-l-transparent',
  errored: 'border-l-red-500',
  cancelled: 'border-l-amber-400',
  completed: 'border-l-emerald-500',
};

export function StatusCell({ status, progress }: { status: JobStatus; progress: number }) {
  const live = status !== 'completed' && status !== 'errored' && status !== 'cancelled';
  return (
    <div className={`flex min-w-0 flex-col gap-0.5 border-l-4 pl-2 ${STATUS_BAR[status]}`} data-status={status}>
      <span className="truncate">{statusLabel(status)}</span>
      {live && (
        <span className="h-1 w-full max-w-24 overflow-hidden rounded bg-line/60" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress} aria-label={`Progress ${progress}%`}>
          <span className="block h-full bg-sky-400" style={{ width: `${progress}%` }} />
        </span>
      )}
    </div>
  );
}

const TONE = {
  pass: 'border-emerald-500/60 bg-emerald-500/15 text-emerald-700 dark:text-emerald-300',
  fail: 'border-red-500/60 bg-red-500/15 text-red-700 dark:text-red-300',
  neutral: 'border-line bg-raised text-muted',
};

/** The result text of a job action with its pass/fail colour (JOB-050..054). */
export function ResultBadge({ action }: { action: Pick<JobAction, 'status' | 'alerted' | 'blocked' | 'events'> }) {
  const r = actionResult(action);
  return (
    <span className={`inline-flex items-center rounded border px-1.5 py-0.5 text-2xs font-medium whitespace-nowrap ${TONE[r.tone]}`} data-result={r.tone}>
      {r.text}
    </span>
  );
}

export function TimeCell({ iso }: { iso: string | null }) {
  if (!iso) return <span className="text-muted">—</span>;
  const d = new Date(iso);
  return (
    <time dateTime={iso} title={`${formatDistanceToNowStrict(d, { addSuffix: true })} (${d.toISOString()})`} className="tabular-nums">
      {formatTimestamp(d)}
    </time>
  );
}

/** A small percent-blocked bar (summary report). */
export function PercentBar({ value, label }: { value: number; label: string }) {
  return (
    <div className="flex items-center gap-2">
      <div className="h-2 w-40 overflow-hidden rounded bg-red-500/25 print:border print:border-slate-400" role="meter" aria-valuemin={0} aria-valuemax={100} aria-valuenow={value} aria-label={label}>
        <div className="h-full bg-emerald-500" style={{ width: `${Math.max(0, Math.min(100, value))}%` }} />
      </div>
      <span className="tabular-nums">{value.toFixed(1)}%</span>
    </div>
  );
}
