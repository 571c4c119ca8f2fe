/**
 * A monitor's schedule in words ("every 2 weeks on M, Th at 09:00 Europe/Paris") and the definition
 * panel's field objects (MON-033: label, param_name, value, options, required, errors, hidden, locked),
 * shared by the director's answers and the editor.
 */
import {
  EXPECTATION_LABELS,
  MONTHLY_FREQUENCIES,
  MONTHLY_FREQUENCY_LABELS,
  PERIOD_TYPES,
  PERIOD_TYPE_LABELS,
  type FieldObject,
  type MonthlyFrequency,
  type PeriodType,
} from './monitors';
import { WEEKDAYS, WEEKDAY_NAMES, parseWeekdays, type Weekday } from './weekdays';

export interface ScheduleFields {
  monitor_runtime: string;
  timezone: string;
  repeat_job_period_number: number;
  repeat_job_period_type: PeriodType;
  repeat_week_days: string;
  repeat_monthly_frequency: string;
  repeat_day_of_the_week: string;
  extra_sleep: number;
}

const unit = (n: number, word: string) => (n === 1 ? word : `${n} ${word}s`);

export function scheduleInWords(s: ScheduleFields): string {
  const time = s.monitor_runtime.slice(11, 16);
  const n = s.repeat_job_period_number;
  const sleep = s.extra_sleep > 0 ? ` (+${s.extra_sleep} s)` : '';
  const tz = s.timezone;
  switch (s.repeat_job_period_type) {
    case 'minutes':
      return `every ${unit(n, 'minute')} from ${s.monitor_runtime} ${tz}${sleep}`;
    case 'hours':
      return `every ${unit(n, 'hour')} from ${s.monitor_runtime} ${tz}${sleep}`;
    case 'days':
      return `every ${unit(n, 'day')} at ${time} ${tz}${sleep}`;
    case 'weeks': {
      const days = parseWeekdays(s.repeat_week_days);
      return `every ${unit(n, 'week')} on ${days.join(', ')} at ${time} ${tz}${sleep}`;
    }
    case 'months': {
      const freq = MONTHLY_FREQUENCY_LABELS[s.repeat_monthly_frequency as MonthlyFrequency] ?? s.repeat_monthly_frequency;
      const day = WEEKDAY_NAMES[s.repeat_day_of_the_week as Weekday] ?? s.repeat_day_of_the_week;
      return `every ${unit(n, 'month')} on the ${freq.toLowerCase()} ${day} at ${time} ${tz}${sleep}`;
    }
  }
}

export interface DefinitionValues extends ScheduleFields {
  name: string;
  description: string;
  monitor_group: number | null;
  new_monitor_group: string;
}

const field = (label: string, param_name: string, value: FieldObject['value'], more: Partial<FieldObject> = {}): FieldObject => ({
  label,
  param_name,
  value,
  options: [],
  required: false,
  errors: [],
  hidden: false,
  locked: false,
  ...more,
});

/**
 * The definition panel's fields (MON-009, MON-033): weeks show the weekday picker, months the frequency
 * and day-of-week selects; the others are hidden. errors come from a validation's per-field map.
 */
export function definitionFields(v: DefinitionValues, groups: { id: number; name: string }[], errors: Record<string, string[]> = {}): FieldObject[] {
  const e = (k: string) => errors[k] ?? [];
  const type = v.repeat_job_period_type;
  return [
    field('Name', 'name', v.name, { required: true, errors: e('name') }),
    field('Description', 'description', v.description, { errors: e('description') }),
    field('Monitor Group', 'monitor_group', v.monitor_group, { options: groups.map((g) => ({ name: g.name, value: String(g.id) })), errors: e('monitor_group') }),
    field('New Monitor Group', 'new_monitor_group', v.new_monitor_group, { hidden: true, errors: e('new_monitor_group') }),
    field('First Run', 'monitor_runtime', v.monitor_runtime, { required: true, errors: e('monitor_runtime') }),
    field('Timezone', 'timezone', v.timezone, { required: true, errors: e('timezone') }),
    field('Repeat Every', 'repeat_job_period_number', v.repeat_job_period_number, { required: true, errors: e('repeat_job_period_number') }),
    field('Repeat Period', 'repeat_job_period_type', type, {
      required: true,
      options: PERIOD_TYPES.map((p) => ({ name: PERIOD_TYPE_LABELS[p], value: p })),
      errors: e('repeat_job_period_type'),
    }),
    field('Repeat On', 'repeat_week_days', v.repeat_week_days, {
      options: WEEKDAYS.map((d) => ({ name: d, value: d })),
      hidden: type !== 'weeks',
      required: type === 'weeks',
      errors: e('repeat_week_days'),
    }),
    field('Frequency', 'repeat_monthly_frequency', v.repeat_monthly_frequency, {
      options: MONTHLY_FREQUENCIES.map((f) => ({ name: MONTHLY_FREQUENCY_LABELS[f], value: f })),
      hidden: type !== 'months',
      required: type === 'months',
      errors: e('repeat_monthly_frequency'),
    }),
    field('Day of the Week', 'repeat_day_of_the_week', v.repeat_day_of_the_week, {
      options: WEEKDAYS.map((d) => ({ name: WEEKDAY_NAMES[d], value: d })),
      hidden: type !== 'months',
      required: type === 'months',
      errors: e('repeat_day_of_the_week'),
    }),
    field('Extra Sleep', 'extra_sleep', v.extra_sleep, { errors: e('extra_sleep') }),
  ];
}

export const EXPECTATION_OPTIONS = (['yes', 'no', 'does_not_matter'] as const).map((v) => ({ name: EXPECTATION_LABELS[v], value: v }));
