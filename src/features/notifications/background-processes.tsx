import { formatDistanceToNow } from 'date-fns';
import { useEffect } from 'react';
import { http } from '@/api/http';
import type { BackgroundProcessesAnswer } from '@/api/contracts/session';
import { flash } from '@/ui/toasts';

export const BACKGROUND_CHECK_MS = 60_000;

export const fetchBackgroundProcesses = () => http.get<BackgroundProcessesAnswer>('/check_completed_background_processes', { background: true });

/** Shows finished background processes as toasts: failed as alert, completed as notice, with relative time. */
export function showBackgroundProcesses(answer: BackgroundProcessesAnswer, now = new Date()): void {
  const when = (iso: string) => formatDistanceToNow(new Date(iso), { addSuffix: true, includeSeconds: true }).replace(/^in /, '') || now.toISOString();
  for (const p of answer.failed ?? []) flash('alert', p.result, { detail: when(p.updated_at) });
  for (const p of answer.completed ?? []) flash('notice', p.result, { detail: when(p.updated_at) });
}

/** Spec: a failed check is logged to the console only. A check cancelled (the session signing out) did not fail: nothing is logged. */
export function logFailedCheck(e: unknown): void {
  if (!(e instanceof DOMException && e.name === 'AbortError')) console.error('Background-process check failed', e);
}

export function BackgroundProcessPoller({ intervalMs = BACKGROUND_CHECK_MS }: { intervalMs?: number }) {
  useEffect(() => {
    const check = () =>
      fetchBackgroundProcesses()
        .then((a) => showBackgroundProcesses(a))
        .catch(logFailedCheck);
    void check();
    const t = setInterval(check, intervalMs);
    return () => clearInterval(t);
  }, [intervalMs]);
  return null;
}
