import { format } from 'date-fns';

/**
 * The one way Vigil shows a point in time: ISO-like, 24-hour, in the browser's (the user's) time zone,
 * e.g. 2026-11-26 17:42 (with seconds where a log needs them: 2026-11-26 17:42:05).
 */
export const TIMESTAMP_FORMAT = 'yyyy-MM-dd HH:mm';
const WITH_SECONDS = 'yyyy-MM-dd HH:mm:ss';
const DATE_ONLY = 'yyyy-MM-dd';

type When = string | number | Date | null | undefined;

function toDate(value: When): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A timestamp as shown everywhere; `fallback` when there is none (or it is not a date). */
export function formatTimestamp(value: When, opts: { seconds?: boolean; fallback?: string } = {}): string {
  const d = toDate(value);
  return d ? format(d, opts.seconds ? WITH_SECONDS : TIMESTAMP_FORMAT) : (opts.fallback ?? '—');
}

/** The date part only, in the same style. */
export function formatDay(value: When, fallback = '—'): string {
  const d = toDate(value);
  return d ? format(d, DATE_ONLY) : fallback;
}

/** The time of day only (HH:mm:ss), e.g. "Checked 17:42:05". */
export function formatTimeOfDay(value: When, fallback = '—'): string {
  const d = toDate(value);
  return d ? format(d, 'HH:mm:ss') : fallback;
}
