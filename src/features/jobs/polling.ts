import { useEffect, useRef, useState } from 'react';
import {
  LIST_POLL_DONE_MS,
  LIST_POLL_MS,
  POLLING_STOPPED,
  PUBLISHED,
  REPOLL_LIMIT,
  STEPS_POLL_DONE_MS,
  STEPS_POLL_MS,
  isJobFinished,
  type JobDetail,
  type JobListItem,
} from '@/api/contracts/jobs';
import { flash } from '@/ui/toasts';

/**
 * Polling of the jobs panes (JOB-055, JOB-056): re-polls at the interval given (30 s, or 60 s when
 * everything shown is done), stops after REPOLL_LIMIT re-polls with the spec's toast, and pauses while
 * the browser tab is hidden or a modal dialog is open.
 *
 * Support and tests can shorten both through browser storage, e.g.
 * `localStorage['vigil.jobs.polling'] = '{"intervalMs": 500, "limit": 2}'`.
 */
export const POLLING_OVERRIDE_KEY = 'vigil.jobs.polling';

export function pollingOverride(): { intervalMs?: number; limit?: number } {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(POLLING_OVERRIDE_KEY) ?? 'null');
    if (!v || typeof v !== 'object') return {};
    const o = v as { intervalMs?: unknown; limit?: unknown };
    return {
      ...(typeof o.intervalMs === 'number' && o.intervalMs >= 50 ? { intervalMs: o.intervalMs } : {}),
      ...(typeof o.limit === 'number' && o.limit >= 1 ? { limit: Math.floor(o.limit) } : {}),
    };
  } catch {
    return {};
  }
}

/** A listed job is done when it finished and was published. */
export const jobIsDone = (j: Pick<JobListItem, 'job_status' | 'published_status'>) => isJobFinished(j.job_status) && j.published_status === PUBLISHED;

/** The list polls every 30 s, and every 60 s when every job shown is complete and published (JOB-055). */
export const listPollMs = (jobs: readonly Pick<JobListItem, 'job_status' | 'published_status'>[]) =>
  jobs.length > 0 && jobs.every(jobIsDone) ? LIST_POLL_DONE_MS : LIST_POLL_MS;

/** Steps poll every 60 s once the job errored or was cancelled or all its actions are complete (JOB-055). */
export const stepsDone = (j: Pick<JobDetail, 'status' | 'steps'>) =>
  j.status === 'errored' || j.status === 'cancelled' || (j.steps.length > 0 && j.steps.every((s) => s.completed_count >= s.action_count));

export const stepsPollMs = (j: Pick<JobDetail, 'status' | 'steps'> | undefined) => (j && stepsDone(j) ? STEPS_POLL_DONE_MS : STEPS_POLL_MS);

/** Polling waits while this is true: the tab is hidden, or a modal dialog (not a menu) is open. */
export const pollingPaused = (doc: Document = document) => doc.hidden || !!doc.querySelector('[role="dialog"]');

export interface Poller {
  /** The re-poll limit was reached (the toast was shown). */
  stopped: boolean;
  /** Re-polls done since the last (re)start. */
  count: number;
  /** Starts counting again (a manual refresh). */
  restart(): void;
}

export function usePolling(intervalMs: number, poll: () => Promise<unknown> | void, enabled = true): Poller {
  const pollRef = useRef(poll);
  pollRef.current = poll;
  const intervalRef = useRef(intervalMs);
  const override = useRef(pollingOverride());
  intervalRef.current = override.current.intervalMs ?? intervalMs;
  const limit = override.current.limit ?? REPOLL_LIMIT;
  const [run, setRun] = useState(0);
  const [stopped, setStopped] = useState(false);
  const [count, setCount] = useState(0);

  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout>;
    let done = 0;
    let waited = 0;
    setStopped(false);
    setCount(0);
    const step = 250;
    const schedule = (ms: number) => {
      timer = setTimeout(() => void tick(ms), ms);
    };
    const tick = async (slept: number) => {
      if (cancelled) return;
      // Paused time does not count towards the interval.
      if (pollingPaused()) return schedule(step);
      waited += slept;
      if (waited < intervalRef.current) return schedule(Math.min(step, intervalRef.current - waited));
      waited = 0;
      done += 1;
      try {
        await pollRef.current();
      } catch {
        // A failed poll shows in the pane's error state; polling goes on.
      }
      if (cancelled) return;
      setCount(done);
      if (done >= limit) {
        setStopped(true);
        flash('info', POLLING_STOPPED);
        return;
      }
      schedule(Math.min(step, intervalRef.current));
    };
    schedule(Math.min(step, intervalRef.current));
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [enabled, run, limit]);

  return { stopped, count, restart: () => setRun((n) => n + 1) };
}
