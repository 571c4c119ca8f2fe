import { localToUtc, wallMs } from '../time/wall-clock';

/**
 * MON-051 repeat_week_days: a report range that keeps some days of the week, by the user's local day,
 * as the windows of time it keeps: each run of consecutive kept local days is one window [a, b), from the
 * first day's local midnight to the midnight after the last (DST days are 23 or 25 hours long), clipped to
 * the range. The rollups then answer each window as they answer any range (slices.ts): whole UTC slices
 * from the rollups, the edges raw.
 */

const DAY = 86_400_000;

export interface KeptDays {
  /** Sunday-based day numbers (0 Sunday .. 6 Saturday), fewer than seven. */
  days: ReadonlySet<number>;
  /** The IANA time zone whose local days they are. */
  tz: string;
}

/** The local calendar day of an instant, as the UTC midnight of that date (its weekday is getUTCDay). */
const localDate = (t: number, tz: string) => Math.floor(wallMs(t, tz) / DAY) * DAY;

/** Whether an instant falls on a kept local day. */
export const isKeptDay = (t: number, k: KeptDays): boolean => k.days.has(new Date(localDate(t, k.tz)).getUTCDay());

/** The windows [a, b) of [start, end] on kept local days, in time order, disjoint and not touching. */
export function keptWindows(start: number, end: number, k: KeptDays): [number, number][] {
  const out: [number, number][] = [];
  if (end < start || !k.days.size) return out;
  for (let date = localDate(start, k.tz); ; date += DAY) {
    const a = Math.max(start, localToUtc(date, k.tz));
    if (a > end) break;
    if (!k.days.has(new Date(date).getUTCDay())) continue;
    const b = Math.min(end, localToUtc(date + DAY, k.tz));
    const last = out[out.length - 1];
    if (last && last[1] === a) last[1] = b;
    else if (b > a) out.push([a, b]);
  }
  return out;
}
