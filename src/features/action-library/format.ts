import { formatDistanceToNowStrict } from 'date-fns';
import { formatDay, formatTimestamp } from '@/ui/datetime';
import { LIBRARY_MESSAGES, isFinishedJobStatus, type JobSummary, type LatestJob } from '@/api/contracts/library';
import { type FileRestriction } from '@/api/contracts/vocabulary';

/** The date part only (actions.md: created and modified dates, date part only). */
export function datePart(iso: string | null | undefined): string {
  return formatDay(iso, '--');
}

export function dateTime(iso: string | null | undefined): string {
  return formatTimestamp(iso, { fallback: '--' });
}

export function relative(iso: string | null | undefined): string {
  if (!iso) return 'never';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '--' : `${formatDistanceToNowStrict(d)} ago`;
}

/** A job's user, or 'Scheduled Process' when it has none (ACT-002). */
export function ranBy(user: JobSummary['user']): string {
  if (!user) return 'Scheduled Process';
  const name = `${user.first_name} ${user.last_name}`.trim();
  return name || 'Scheduled Process';
}

/** Refetch every 30 s while any latest job is not in a finished status (ACT-063, ACT-090). */
export function anyRunning(jobs: readonly (LatestJob | JobSummary | null | undefined)[]): boolean {
  return jobs.some((j) => j && !isFinishedJobStatus(j.status));
}

/** web_request values: missing shows '--'; a value split by ':v:' into three parts shows the third (ACT-049). */
export function webValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '--';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  const text = String(value);
  const parts = text.split(':v:');
  if (parts.length === 3) return parts[2] || '--';
  return text;
}

/** Cloud logs: a list or a string; anything else is 'Log output unavailable' (ACT-112). */
export function logLines(logs: unknown): string[] | null {
  if (typeof logs === 'string') return logs.split(/\r?\n/);
  if (Array.isArray(logs)) return logs.map((l) => (typeof l === 'string' ? l : JSON.stringify(l)));
  return null;
}
export const LOG_UNAVAILABLE = LIBRARY_MESSAGES.logUnavailable;

export const RESTRICTION_LABELS: Record<FileRestriction, string> = {
  none: 'Approved',
  pending_approval: 'Pending Approval',
  restricted_malicious: 'Restricted Malicious',
};

export function yesNo(v: boolean | null | undefined): string {
  return v === null || v === undefined ? '--' : v ? 'Yes' : 'No';
}
