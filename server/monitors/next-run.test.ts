/**
 * Property tests of the next-run computation against an oracle built only on Intl: the oracle walks
 * civil dates one day at a time, keeps those the schedule's rule allows, and finds each slot's instant
 * by scanning UTC instants whose Intl-formatted wall time is the wanted one.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { nextRunAfter } from './next-run';
import { localToUtc, wallMs } from '../time/wall-clock';
import { MONTHLY_FREQUENCIES, type PeriodType } from '../../src/api/contracts/monitors';
import { WEEKDAYS } from '../../src/api/contracts/weekdays';
import type { ScheduleFields } from '../../src/api/contracts/monitor-schedule';

const MIN = 60_000;
const DAY = 86_400_000;
const ZONES = ['UTC', 'Europe/Paris', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'America/Santiago', 'Pacific/Chatham', 'Asia/Tokyo'];

const fmt = new Map<string, Intl.DateTimeFormat>();
/** 'YYYY-MM-DD HH:mm' of an instant in a timezone, from Intl alone. */
function wallText(t: number, tz: string): string {
  let f = fmt.get(tz);
  if (!f) fmt.set(tz, (f = new Intl.DateTimeFormat('sv-SE', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })));
  return f.format(t).replace('T', ' ');
}
const pad = (n: number) => String(n).padStart(2, '0');
const dateText = (day: number) => new Date(day * DAY).toISOString().slice(0, 10);

/** The first instant showing `text` as wall time, scanning minute by minute around the naive guess; null in a gap. */
function oracleInstant(date: string, hhmm: string, tz: string): number | null {
  const guess = Date.parse(`${date}T${hhmm}:00Z`);
  for (let t = guess - 15 * 60 * MIN; t <= guess + 15 * 60 * MIN; t += 15 * MIN) {
    if (wallText(t, tz) === `${date} ${hhmm}`) {
      // Step back minute by minute in case an earlier instant (repeated hour) shows the same minute.
      return t;
    }
  }
  return null;
}

/** The oracle's slot for a date: the wall time, or just after the gap when it does not exist. */
function oracleSlot(day: number, hhmm: string, tz: string): number {
  const at = oracleInstant(dateText(day), hhmm, tz);
  if (at !== null) return at;
  // In a gap: the first instant whose wall time is later than the wanted one, plus the distance into the gap.
  const wanted = Date.parse(`${dateText(day)}T${hhmm}:00Z`);
  for (let t = wanted - 15 * 60 * MIN; ; t += MIN) {
    if (Date.parse(`${wallText(t, tz).replace(' ', 'T')}:00Z`) > wanted) {
      const gapStartWall = Date.parse(`${wallText(t - MIN, tz).replace(' ', 'T')}:00Z`) + MIN;
      return t + (wanted - gapStartWall);
    }
  }
}

const weekday = (day: number) => (((day + 4) % 7) + 7) % 7;

function oracleAllows(s: ScheduleFields, day: number, d0: number): boolean {
  if (day < d0) return false;
  const n = s.repeat_job_period_number;
  if (s.repeat_job_period_type === 'days') return (day - d0) % n === 0;
  if (s.repeat_job_period_type === 'weeks') {
    const w0 = d0 - weekday(d0);
    const days = s.repeat_week_days.split(',').map((d) => WEEKDAYS.indexOf(d as (typeof WEEKDAYS)[number]));
    return Math.floor((day - w0) / 7) % n === 0 && days.includes(weekday(day));
  }
  const date = new Date(day * DAY);
  const start = new Date(d0 * DAY);
  const months = (date.getUTCFullYear() - start.getUTCFullYear()) * 12 + date.getUTCMonth() - start.getUTCMonth();
  if (months % n !== 0 || weekday(day) !== WEEKDAYS.indexOf(s.repeat_day_of_the_week as (typeof WEEKDAYS)[number])) return false;
  const dom = date.getUTCDate();
  const daysInMonth = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  if (s.repeat_monthly_frequency === 'last') return dom + 7 > daysInMonth;
  return Math.ceil(dom / 7) === MONTHLY_FREQUENCIES.indexOf(s.repeat_monthly_frequency as (typeof MONTHLY_FREQUENCIES)[number]) + 1;
}

/** The oracle's next run: walk the dates from `after`'s (minus a day) until an allowed slot is later. */
function oracleNext(s: ScheduleFields, after: number): number {
  const hhmm = s.monitor_runtime.slice(11, 16);
  const d0 = Math.floor(Date.parse(`${s.monitor_runtime.slice(0, 10)}T00:00:00Z`) / DAY);
  const sleep = s.extra_sleep * 1000;
  let day = Math.max(d0, Math.floor(Date.parse(`${wallText(after, s.timezone).replace(' ', 'T')}:00Z`) / DAY) - 1);
  for (let i = 0; i < 40 * 366; i++, day++) {
    if (!oracleAllows(s, day, d0)) continue;
    const t = oracleSlot(day, hhmm, s.timezone) + sleep;
    if (t > after) return t;
  }
  throw new Error('oracle found no slot');
}

const scheduleArb = (type: PeriodType) =>
  fc.record({
    monitor_runtime: fc
      .record({ day: fc.integer({ min: 0, max: 3 * 365 }), h: fc.integer({ min: 0, max: 23 }), m: fc.constantFrom(0, 15, 30, 45, 59) })
      .map(({ day, h, m }) => `${dateText(Math.floor(Date.UTC(2025, 0, 1) / DAY) + day)} ${pad(h)}:${pad(m)}`),
    timezone: fc.constantFrom(...ZONES),
    repeat_job_period_number: fc.integer({ min: 1, max: type === 'minutes' ? 500 : type === 'months' ? 4 : 5 }),
    repeat_job_period_type: fc.constant(type),
    repeat_week_days: fc.subarray([...WEEKDAYS], { minLength: 1 }).map((d) => d.join(',')),
    repeat_monthly_frequency: fc.constantFrom(...MONTHLY_FREQUENCIES),
    repeat_day_of_the_week: fc.constantFrom(...WEEKDAYS),
    extra_sleep: fc.integer({ min: 0, max: 300 }),
  });
const afterArb = fc.integer({ min: Date.UTC(2024, 11, 1), max: Date.UTC(2029, 0, 1) });

describe('next run (property tests against Intl)', () => {
  for (const type of ['days', 'weeks', 'months'] as const) {
    it(`MON-033 ${type}: the next run is the oracle's, strictly after the given time, at the first run's wall time`, () => {
      fc.assert(
        fc.property(scheduleArb(type), afterArb, (s, after) => {
          const next = nextRunAfter(s, after);
          expect(next).not.toBeNull();
          expect(next).toBeGreaterThan(after);
          expect(next).toBe(oracleNext(s, after));
        }),
        { numRuns: 150 },
      );
    });
  }

  for (const type of ['minutes', 'hours'] as const) {
    it(`MON-033 ${type}: runs are the first run plus whole periods of elapsed time, the first one after the given time`, () => {
      fc.assert(
        fc.property(scheduleArb(type), afterArb, (s, after) => {
          const next = nextRunAfter(s, after) as number;
          const step = s.repeat_job_period_number * (type === 'minutes' ? MIN : 60 * MIN);
          const first = (oracleInstant(s.monitor_runtime.slice(0, 10), s.monitor_runtime.slice(11, 16), s.timezone) ?? oracleSlot(Math.floor(Date.parse(`${s.monitor_runtime.slice(0, 10)}T00:00:00Z`) / DAY), s.monitor_runtime.slice(11, 16), s.timezone)) + s.extra_sleep * 1000;
          expect(next).toBeGreaterThan(after);
          expect((next - first) % step).toBe(0);
          expect(next - first).toBeGreaterThanOrEqual(0);
          if (next > first) expect(next - step).toBeLessThanOrEqual(after);
        }),
        { numRuns: 300 },
      );
    });
  }

  it('a wall time in the spring-forward gap runs after the gap; a repeated hour runs at its first occurrence', () => {
    // Paris: 2026-03-29 02:00 -> 03:00; 2026-10-25 03:00 -> 02:00.
    expect(wallText(localToUtc(Date.UTC(2026, 2, 29, 2, 30), 'Europe/Paris'), 'Europe/Paris')).toBe('2026-03-29 03:30');
    expect(new Date(localToUtc(Date.UTC(2026, 9, 25, 2, 30), 'Europe/Paris')).toISOString()).toBe('2026-10-25T00:30:00.000Z');
    // A daily 02:30 monitor keeps 02:30 on either side of the change.
    const daily: ScheduleFields = { monitor_runtime: '2026-03-27 02:30', timezone: 'Europe/Paris', repeat_job_period_number: 1, repeat_job_period_type: 'days', repeat_week_days: '', repeat_monthly_frequency: '', repeat_day_of_the_week: '', extra_sleep: 0 };
    const runs: string[] = [];
    let t = Date.UTC(2026, 2, 26);
    for (let i = 0; i < 4; i++) runs.push(wallText((t = nextRunAfter(daily, t) as number), 'Europe/Paris'));
    expect(runs).toEqual(['2026-03-27 02:30', '2026-03-28 02:30', '2026-03-29 03:30', '2026-03-30 02:30']);
  });

  it('MON-178 every 2 weeks on M, Th at 09:00 Europe/Paris, with extra sleep', () => {
    const s: ScheduleFields = { monitor_runtime: '2026-11-26 09:00', timezone: 'Europe/Paris', repeat_job_period_number: 2, repeat_job_period_type: 'weeks', repeat_week_days: 'M,Th', repeat_monthly_frequency: '', repeat_day_of_the_week: '', extra_sleep: 30 };
    const out: string[] = [];
    let t = Date.UTC(2026, 10, 25);
    for (let i = 0; i < 4; i++) {
      t = nextRunAfter(s, t) as number;
      out.push(new Date(t).toISOString());
    }
    // Thu 26 Nov, (week of 29 Nov skipped), Mon 7 Dec, Thu 10 Dec, Mon 21 Dec; 09:00 CET = 08:00Z, +30 s.
    expect(out).toEqual(['2026-11-26T08:00:30.000Z', '2026-12-07T08:00:30.000Z', '2026-12-10T08:00:30.000Z', '2026-12-21T08:00:30.000Z']);
    expect(wallMs(t, 'Europe/Paris') - t).toBe(3_600_000);
  });

  it('months: the last Friday of every 3rd month', () => {
    const s: ScheduleFields = { monitor_runtime: '2026-01-10 18:00', timezone: 'America/New_York', repeat_job_period_number: 3, repeat_job_period_type: 'months', repeat_week_days: '', repeat_monthly_frequency: 'last', repeat_day_of_the_week: 'F', extra_sleep: 0 };
    const out: string[] = [];
    let t = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 3; i++) out.push(wallText((t = nextRunAfter(s, t) as number), 'America/New_York'));
    expect(out).toEqual(['2026-01-30 18:00', '2026-04-24 18:00', '2026-07-31 18:00']);
  });
});
