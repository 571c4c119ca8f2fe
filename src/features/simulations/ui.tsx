import { formatDistanceToNowStrict } from 'date-fns';
import { formatTimestamp } from '@/ui/datetime';
import type { JobSummary } from '@/api/contracts/library';

/** Small helpers of the Simulations panes (sections come from src/ui/section.tsx). */

export function dateTime(iso: string | null | undefined): string {
  return formatTimestamp(iso, { fallback: '--' });
}

export function relative(iso: string | null | undefined): string {
  const d = iso ? new Date(iso) : null;
  return d && !Number.isNaN(d.getTime()) ? `${formatDistanceToNowStrict(d)} ago` : 'never';
}

/** A job's user, or 'Scheduled Process' when it has none. */
export function ranBy(user: JobSummary['user']): string {
  const name = user ? `${user.first_name} ${user.last_name}`.trim() : '';
  return name || 'Scheduled Process';
}

export function statusTone(status: string): string {
  return status === 'completed' ? 'text-emerald-500' : status === 'errored' || status === 'cancelled' ? 'text-red-500' : 'text-accent';
}
