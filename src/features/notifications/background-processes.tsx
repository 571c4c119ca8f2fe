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

export function BackgroundProcessPoller({ intervalMs = BACKGROUND_CHECK_MS }: { intervalMs?: number }) {
  useEffect(() => {
    const check = () =>
      fetchBackgroundProcesses()
        .then((a) => showBackgroundProcesses(a))
        // Spec: a failed check is logged to the console only.
        .catch((e: unknown) => console.error('Background-process check failed', e));
    void check();
    const t = setInterval(check, intervalMs);
    return () => clearInterval(t);
  }, [intervalMs]);
  return null;
}
