/**
 * When a monitor runs next: pure functions over the schedule fields, in the monitor's IANA timezone.
 *
 * - minutes and hours are elapsed time from the first run (a 90-minute monitor stays 90 minutes apart
 *   across a DST change);
 * - days, weeks and months keep the wall-clock time of the first run in the timezone: weeks run on the
 *   chosen weekdays of every Nth week (weeks start on Sunday, counted from the first run's week), months
 *   on the first..fourth or last chosen weekday of every Nth month counted from the first run's month;
 * - a wall time that does not exist (the spring-forward gap) runs at the same distance after the gap
 *   (02:30 becomes 03:30); a wall time that happens twice (fall back) runs at its first occurrence;
 * - extra_sleep seconds are added to every slot;
 * - no run before the first run (monitor_runtime).
 */
import { MONITOR_RUNTIME_RE, type MonthlyFrequency } from '../../src/api/contracts/monitors';
import { WEEKDAYS, parseWeekdays, type Weekday } from '../../src/api/contracts/weekdays';
import type { ScheduleFields } from '../../src/api/contracts/monitor-schedule';
import { localToUtc, wallMs } from '../time/wall-clock';

const MIN = 60_000;
const DAY = 86_400_000;

export interface Wall {
  y: number;
  m: number;
  d: number;
  h: number;
  min: number;
}

export function parseRuntime(runtime: string): Wall {
  const m = MONITOR_RUNTIME_RE.exec(runtime);
  if (!m) throw new Error(`not a monitor runtime: ${runtime}`);
  const [y, mo, d, h, min] = m.slice(1).map(Number) as [number, number, number, number, number];
  return { y, m: mo, d, h, min };
}

/** Days since 1970-01-01 of a civil date, and back. */
const dayNumber = (y: number, m: number, d: number) => Math.floor(Date.UTC(y, m - 1, d) / DAY);
const weekdayOf = (day: number) => (((day + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday (4)

function slotOn(day: number, time: Wall, tz: string): number {
  return localToUtc(day * DAY + time.h * 3_600_000 + time.min * MIN, tz);
}

/** The day number of the nth (or last) given weekday of a month. */
export function nthWeekdayOfMonth(y: number, m: number, weekday: number, freq: MonthlyFrequency): number {
  if (freq === 'last') {
    const last = dayNumber(y, m + 1, 0);
    return last - ((weekdayOf(last) - weekday + 7) % 7);
  }
  const first = dayNumber(y, m, 1);
  const n = ['first', 'second', 'third', 'fourth'].indexOf(freq);
  return first + ((weekday - weekdayOf(first) + 7) % 7) + 7 * n;
}

/**
 * The first run of the schedule strictly after `after` (ms since the epoch), extra_sleep included.
 * Null when the schedule has no slot (weeks without weekdays, months without a frequency or weekday).
 */
export function nextRunAfter(s: ScheduleFields, after: number): number | null {
  const tz = s.timezone;
  const start = parseRuntime(s.monitor_runtime);
  const sleep = s.extra_sleep * 1000;
  const anchor = slotOn(dayNumber(start.y, start.m, start.d), start, tz);
  const n = Math.max(1, Math.floor(s.repeat_job_period_number));
  const from = after - sleep; // the slot must be > from
  if (s.repeat_job_period_type === 'minutes' || s.repeat_job_period_type === 'hours') {
    const step = n * (s.repeat_job_period_type === 'minutes' ? MIN : 60 * MIN);
    if (anchor > from) return anchor + sleep;
    return anchor + (Math.floor((from - anchor) / step) + 1) * step + sleep;
  }
  const d0 = dayNumber(start.y, start.m, start.d);
  // A local date at least a day before `from`'s, so the slot (one wall time per date) is not missed.
  const fromDay = Math.max(d0, Math.floor(wallMs(Math.max(from, anchor - DAY), tz) / DAY) - 1);
  if (s.repeat_job_period_type === 'days') {
    let k = Math.max(0, Math.floor((fromDay - d0) / n));
    for (;; k++) {
      const t = slotOn(d0 + k * n, start, tz);
      if (t > from) return t + sleep;
    }
  }
  if (s.repeat_job_period_type === 'weeks') {
    const days = new Set(parseWeekdays(s.repeat_week_days).map((d) => WEEKDAYS.indexOf(d)));
    if (!days.size) return null;
    const w0 = d0 - weekdayOf(d0);
    let day = fromDay;
    for (let guard = 0; guard < 10_000; guard++) {
      const week = Math.floor((day - w0) / 7);
      if (week % n !== 0) {
        day = w0 + (week + n - (week % n)) * 7;
        continue;
      }
      if (day >= d0 && days.has(weekdayOf(day))) {
        const t = slotOn(day, start, tz);
        if (t > from) return t + sleep;
      }
      day++;
    }
    return null;
  }
  const weekday = WEEKDAYS.indexOf(s.repeat_day_of_the_week as Weekday);
  const freq = s.repeat_monthly_frequency as MonthlyFrequency;
  if (weekday < 0 || !['first', 'second', 'third', 'fourth', 'last'].includes(freq)) return null;
  const m0 = start.y * 12 + (start.m - 1);
  const fromDate = new Date(fromDay * DAY);
  const fromMonth = fromDate.getUTCFullYear() * 12 + fromDate.getUTCMonth();
  let k = Math.max(0, Math.floor((fromMonth - m0) / n) - 1);
  for (let guard = 0; guard < 1000; guard++, k++) {
    const mi = m0 + k * n;
    const day = nthWeekdayOfMonth(Math.floor(mi / 12), (mi % 12) + 1, weekday, freq);
    if (day < d0) continue;
    const t = slotOn(day, start, tz);
    if (t > from) return t + sleep;
  }
  return null;
}
