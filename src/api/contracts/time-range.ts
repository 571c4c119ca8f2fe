import * as yup from 'yup';
import { WEEKDAYS, WEEKDAYS_MESSAGE, isWeekdayList, parseWeekdays } from './weekdays';

/**
 * The time range config of reports and monitors (monitors-actors-reporting.md section 3 "Time range
 * config", section 4 "Time widgets", section 9): relative (the last N units) or absolute (start..end).
 */
export const TIME_UNITS = ['minute', 'hour', 'day', 'week', 'month', 'year'] as const;
export type TimeUnit = (typeof TIME_UNITS)[number];
export const TIME_UNIT_LABELS: Record<TimeUnit, string> = { minute: 'Minutes', hour: 'Hours', day: 'Days', week: 'Weeks', month: 'Months', year: 'Years' };

/** Time range updates are debounced this long (0 when debouncing is disabled). */
export const TIME_RANGE_DEBOUNCE_MS = 2000;
/** The range length offered after choosing an absolute start. */
export const ABSOLUTE_RANGE_DAYS = 29;

export interface TimeRangeConfig {
  rangeType: 'rel' | 'abs';
  relBackCount: number;
  relUnit: TimeUnit;
  /** ISO instants of an absolute range. */
  start: string | null;
  end: string | null;
  /**
   * MON-051: an absolute range picked with times of day (true, the default when absent), or by whole
   * days (false): then `start` is the first day's local midnight and `end` the last day's last millisecond.
   */
  absDateAndTime?: boolean;
  /**
   * MON-051: the days of the week the range keeps, by the user's local day (a comma list of Su, M, T, W,
   * Th, F, S, as a monitor's); empty or absent, every day.
   */
  repeat_week_days?: string;
}

export const DEFAULT_TIME_RANGE: TimeRangeConfig = { rangeType: 'rel', relBackCount: 30, relUnit: 'day', start: null, end: null };

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})$/;

export const timeRangeSchema: yup.ObjectSchema<TimeRangeConfig> = yup.object({
  rangeType: yup.mixed<'rel' | 'abs'>().oneOf(['rel', 'abs'], 'rangeType must be rel or abs').required('rangeType is required'),
  relBackCount: yup.number().typeError('relBackCount must be a number').integer('relBackCount must be a whole number').min(0, 'relBackCount must not be negative').max(100_000).required(),
  relUnit: yup.mixed<TimeUnit>().oneOf([...TIME_UNITS], `relUnit must be one of ${TIME_UNITS.join(', ')}`).required(),
  start: yup.string().nullable().defined().default(null).matches(ISO_INSTANT, { message: 'start must be an ISO 8601 time', excludeEmptyString: true }),
  end: yup
    .string()
    .nullable()
    .defined()
    .default(null)
    .matches(ISO_INSTANT, { message: 'end must be an ISO 8601 time', excludeEmptyString: true })
    .test('order', 'The range starts after it ends', function (end) {
      const { start } = this.parent as TimeRangeConfig;
      return !start || !end || Date.parse(start) <= Date.parse(end);
    }),
  absDateAndTime: yup.boolean().typeError('absDateAndTime must be true or false').optional(),
  repeat_week_days: yup.string().optional().test('days', WEEKDAYS_MESSAGE, (v) => isWeekdayList(v ?? '')),
});

/** Subtracts n units from a time (calendar months and years). */
export function minusUnits(at: Date, n: number, unit: TimeUnit): Date {
  const d = new Date(at.getTime());
  switch (unit) {
    case 'minute':
      return new Date(d.getTime() - n * 60_000);
    case 'hour':
      return new Date(d.getTime() - n * 3_600_000);
    case 'day':
      return new Date(d.getTime() - n * 86_400_000);
    case 'week':
      return new Date(d.getTime() - n * 7 * 86_400_000);
    case 'month':
      d.setUTCMonth(d.getUTCMonth() - n);
      return d;
    case 'year':
      d.setUTCFullYear(d.getUTCFullYear() - n);
      return d;
  }
}

/** The instants a range config stands for at `now` (an absolute range without an end ends now). */
export function resolveTimeRange(cfg: TimeRangeConfig, now: Date = new Date()): { start: Date; end: Date } {
  if (cfg.rangeType === 'abs') {
    const end = cfg.end ? new Date(cfg.end) : now;
    const start = cfg.start ? new Date(cfg.start) : minusUnits(end, ABSOLUTE_RANGE_DAYS, 'day');
    return { start, end };
  }
  return { start: minusUnits(now, Math.max(0, cfg.relBackCount), cfg.relUnit), end: now };
}

/** The local calendar day of a time, as YYYY-MM-DD (a date input's value). */
export const localDay = (d: Date): string => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** A short label: 'Last 30 days', or the two dates. */
export function describeTimeRange(cfg: TimeRangeConfig): string {
  const days = keptWeekdays(cfg);
  const on = days ? ` on ${days.split(',').join(', ')}` : '';
  if (cfg.rangeType === 'rel') {
    const unit = cfg.relBackCount === 1 ? cfg.relUnit : `${cfg.relUnit}s`;
    return `Last ${cfg.relBackCount} ${unit}${on}`;
  }
  // Whole days are the user's own days (local midnight to midnight); times are shown as before.
  const shown = (s: string | null) => (!s ? 'now' : cfg.absDateAndTime === false ? localDay(new Date(s)) : s.slice(0, 16).replace('T', ' '));
  return `${shown(cfg.start)} to ${shown(cfg.end)}${on}`;
}

/** The days a range keeps as a list in week order, or '' when it keeps every day (none or all seven chosen). */
export function keptWeekdays(cfg: Pick<TimeRangeConfig, 'repeat_week_days'>): string {
  const days = parseWeekdays(cfg.repeat_week_days ?? '');
  return days.length && days.length < WEEKDAYS.length ? days.join(',') : '';
}

/**
 * The weekday part of a report call's query (docs/api.md "Reports"): week_days and the time zone whose
 * local days they are; nothing when the range keeps every day.
 */
export function weekdayQuery(cfg: TimeRangeConfig, tz: () => string): { week_days?: string; tz?: string } {
  const week_days = keptWeekdays(cfg);
  return week_days ? { week_days, tz: tz() } : {};
}

/**
 * A range as URL query values (ours; docs/api.md "Report ranges in the URL"): an absolute range as
 * start and end (ISO) with days=1 when picked by whole days, a relative one as last=COUNT-UNIT
 * (e.g. 7-day), and the days of the week it keeps as wd (e.g. M,T,W); the default range (the last 30
 * days, every day) writes nothing.
 */
export function timeRangeToQuery(cfg: TimeRangeConfig): { start: string; end: string; days: string; last: string; wd: string } {
  const wd = keptWeekdays(cfg);
  if (cfg.rangeType === 'abs') return { start: cfg.start ?? '', end: cfg.end ?? '', days: cfg.absDateAndTime === false ? '1' : '', last: '', wd };
  const isDefault = cfg.relBackCount === DEFAULT_TIME_RANGE.relBackCount && cfg.relUnit === DEFAULT_TIME_RANGE.relUnit;
  return { start: '', end: '', days: '', last: isDefault ? '' : `${cfg.relBackCount}-${cfg.relUnit}`, wd };
}

/** The range of URL query values (timeRangeToQuery); values that do not parse give the default range. */
export function timeRangeFromQuery(q: { start?: string; end?: string; days?: string; last?: string; wd?: string }): TimeRangeConfig {
  const iso = (v: string | undefined) => (v && ISO_INSTANT.test(v) && !Number.isNaN(Date.parse(v)) ? v : null);
  // Days that do not parse are left out (every day), as a range that does not parse gives the default.
  const wd = isWeekdayList(q.wd ?? '') ? keptWeekdays({ repeat_week_days: q.wd ?? '' }) : '';
  const days = wd ? { repeat_week_days: wd } : {};
  const start = iso(q.start);
  if (start) {
    const abs: TimeRangeConfig = { ...DEFAULT_TIME_RANGE, rangeType: 'abs', start, end: iso(q.end), ...(q.days === '1' ? { absDateAndTime: false } : {}), ...days };
    // The schema's own checks (an end before the start) decide, as for a saved range.
    return timeRangeSchema.isValidSync(abs) ? abs : { ...DEFAULT_TIME_RANGE, ...days };
  }
  const m = /^(\d{1,5})-([a-z]+)$/.exec(q.last ?? '');
  const unit = TIME_UNITS.find((u) => u === m?.[2]);
  if (m && unit && Number(m[1]) >= 1) return { ...DEFAULT_TIME_RANGE, relBackCount: Number(m[1]), relUnit: unit, ...days };
  return { ...DEFAULT_TIME_RANGE, ...days };
}
