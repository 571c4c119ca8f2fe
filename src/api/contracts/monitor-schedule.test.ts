import { describe, expect, it } from 'vitest';
import { definitionFields, scheduleInWords, type ScheduleFields } from './monitor-schedule';

const base: ScheduleFields = {
  monitor_runtime: '2026-11-26 09:00',
  timezone: 'Europe/Paris',
  repeat_job_period_number: 2,
  repeat_job_period_type: 'weeks',
  repeat_week_days: 'Th,M',
  repeat_monthly_frequency: '',
  repeat_day_of_the_week: '',
  extra_sleep: 0,
};

describe('schedule in words', () => {
  it('MON-178 weeks name the days in picker order', () => {
    expect(scheduleInWords(base)).toBe('every 2 weeks on M, Th at 09:00 Europe/Paris');
  });
  it('minutes, hours, days, months and extra sleep', () => {
    expect(scheduleInWords({ ...base, repeat_job_period_type: 'minutes', repeat_job_period_number: 5 })).toBe('every 5 minutes from 2026-11-26 09:00 Europe/Paris');
    expect(scheduleInWords({ ...base, repeat_job_period_type: 'hours', repeat_job_period_number: 1 })).toBe('every hour from 2026-11-26 09:00 Europe/Paris');
    expect(scheduleInWords({ ...base, repeat_job_period_type: 'days', repeat_job_period_number: 1, extra_sleep: 30 })).toBe('every day at 09:00 Europe/Paris (+30 s)');
    expect(scheduleInWords({ ...base, repeat_job_period_type: 'months', repeat_job_period_number: 3, repeat_monthly_frequency: 'last', repeat_day_of_the_week: 'F' })).toBe(
      'every 3 months on the last Friday at 09:00 Europe/Paris',
    );
  });
});

describe('definition field objects', () => {
  const values = { ...base, name: 'M', description: '', monitor_group: null, new_monitor_group: '' };
  it('MON-009 MON-033 weeks show the weekday picker, months the frequency and day selects', () => {
    const hidden = (type: ScheduleFields['repeat_job_period_type']) =>
      Object.fromEntries(definitionFields({ ...values, repeat_job_period_type: type }, []).map((f) => [f.param_name, f.hidden]));
    expect(hidden('weeks')).toMatchObject({ repeat_week_days: false, repeat_monthly_frequency: true, repeat_day_of_the_week: true });
    expect(hidden('months')).toMatchObject({ repeat_week_days: true, repeat_monthly_frequency: false, repeat_day_of_the_week: false });
    expect(hidden('days')).toMatchObject({ repeat_week_days: true, repeat_monthly_frequency: true });
  });
  it('every field object carries label, param_name, value, options, required, errors, hidden, locked', () => {
    const fields = definitionFields(values, [{ id: 3, name: 'Perimeter' }], { name: ['Name is required'] });
    for (const f of fields) expect(Object.keys(f).sort()).toEqual(['errors', 'hidden', 'label', 'locked', 'options', 'param_name', 'required', 'value']);
    expect(fields.find((f) => f.param_name === 'name')?.errors).toEqual(['Name is required']);
    expect(fields.find((f) => f.param_name === 'monitor_group')?.options).toEqual([{ name: 'Perimeter', value: '3' }]);
  });
});
