import { describe, expect, it, vi } from 'vitest';
import { act, render, screen, fireEvent } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { DEFAULT_TIME_RANGE, describeTimeRange, resolveTimeRange, timeRangeFromQuery, timeRangeSchema, timeRangeToQuery, weekdayQuery, type TimeRangeConfig } from '@/api/contracts/time-range';
import { TimeRangePicker } from './time-range-picker';
import { DayOfWeekPicker } from './day-of-week-picker';
import { PercentBlockedBar, RESULT_BADGES, ResultBadge, resultBadge } from './result-badge';

describe('time range picker', () => {
  it('MON-032 MON-095 MON-175 the relative or absolute time range picker emits a relative change once, 2000 ms after the last edit; units minute to year', () => {
    vi.useFakeTimers();
    const onChange = vi.fn();
    render(<TimeRangePicker value={DEFAULT_TIME_RANGE} onChange={onChange} />);
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Minutes', 'Hours', 'Days', 'Weeks', 'Months', 'Years']);
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Count' }), { target: { value: '7' } });
    act(() => void vi.advanceTimersByTime(1500));
    fireEvent.change(screen.getByRole('combobox', { name: 'Unit' }), { target: { value: 'hour' } });
    act(() => void vi.advanceTimersByTime(1999));
    expect(onChange).not.toHaveBeenCalled();
    act(() => void vi.advanceTimersByTime(1));
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenCalledWith({ ...DEFAULT_TIME_RANGE, relBackCount: 7, relUnit: 'hour' });
    vi.useRealTimers();
  });

  it('MON-116 a negative count is not emitted; debounce 0 emits at once; the input has minimum 1', () => {
    const onChange = vi.fn();
    render(<TimeRangePicker value={DEFAULT_TIME_RANGE} onChange={onChange} debounceMs={0} />);
    const count = screen.getByRole('spinbutton', { name: 'Count' });
    expect(count.getAttribute('min')).toBe('1');
    fireEvent.change(count, { target: { value: '-2' } });
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByText('Enter a whole number of 0 or more.')).toBeTruthy();
    fireEvent.change(count, { target: { value: '3' } });
    expect(onChange).toHaveBeenLastCalledWith({ ...DEFAULT_TIME_RANGE, relBackCount: 3 });
  });

  it('MON-175 absolute: a start proposes an end 29 days later, in 1-minute steps', () => {
    const onChange = vi.fn();
    render(<TimeRangePicker value={{ ...DEFAULT_TIME_RANGE, rangeType: 'abs' }} onChange={onChange} debounceMs={0} />);
    const start = screen.getByLabelText('Start');
    expect(start.getAttribute('step')).toBe('60');
    fireEvent.change(start, { target: { value: '2026-01-01T10:00' } });
    const last = onChange.mock.lastCall![0] as TimeRangeConfig;
    expect(Date.parse(last.end!) - Date.parse(last.start!)).toBe(29 * 86_400_000);
  });

  it('MON-051 absDateAndTime: unticking Times of day picks whole local days (midnight to the last millisecond); the label shows dates', () => {
    const onChange = vi.fn();
    const value: TimeRangeConfig = { ...DEFAULT_TIME_RANGE, rangeType: 'abs', start: new Date(2026, 0, 5, 10, 30).toISOString(), end: new Date(2026, 0, 9, 8, 0).toISOString() };
    render(<TimeRangePicker value={value} onChange={onChange} debounceMs={0} />);
    const times = screen.getByRole('checkbox', { name: 'Times of day' }) as HTMLInputElement;
    expect(times.checked).toBe(true);
    expect(screen.getByLabelText('Start').getAttribute('type')).toBe('datetime-local');
    fireEvent.click(times);
    const days = onChange.mock.lastCall![0] as TimeRangeConfig;
    expect(days).toEqual({ ...value, absDateAndTime: false, start: new Date(2026, 0, 5).toISOString(), end: new Date(2026, 0, 9, 23, 59, 59, 999).toISOString() });
    expect(screen.getByLabelText('Start').getAttribute('type')).toBe('date');
    expect((screen.getByLabelText('End') as HTMLInputElement).value).toBe('2026-01-09');
    fireEvent.change(screen.getByLabelText('End'), { target: { value: '2026-01-20' } });
    expect((onChange.mock.lastCall![0] as TimeRangeConfig).end).toBe(new Date(2026, 0, 20, 23, 59, 59, 999).toISOString());
    expect(describeTimeRange(days)).toBe('2026-01-05 to 2026-01-09');
    expect(timeRangeSchema.validateSync(days)).toEqual(days);
    expect(() => timeRangeSchema.validateSync({ ...days, absDateAndTime: 'sometimes' })).toThrow('absDateAndTime must be true or false');
    // Times again: the whole days are kept as instants, now editable to the minute.
    fireEvent.click(times);
    expect(onChange.mock.lastCall![0]).toMatchObject({ absDateAndTime: true, start: days.start });
    expect(screen.getByLabelText('Start').getAttribute('type')).toBe('datetime-local');
  });

  it('MON-051 by whole days, a start with no end proposes the day 29 days later, to its end', () => {
    const onChange = vi.fn();
    render(<TimeRangePicker value={{ ...DEFAULT_TIME_RANGE, rangeType: 'abs', absDateAndTime: false }} onChange={onChange} debounceMs={0} />);
    fireEvent.change(screen.getByLabelText('Start'), { target: { value: '2026-03-01' } });
    expect(onChange.mock.lastCall![0]).toMatchObject({ start: new Date(2026, 2, 1).toISOString(), end: new Date(2026, 2, 30, 23, 59, 59, 999).toISOString() });
  });

  it('MON-051 resolves relative months and years by the calendar', () => {
    const now = new Date('2026-03-31T12:00:00Z');
    expect(resolveTimeRange({ ...DEFAULT_TIME_RANGE, relBackCount: 1, relUnit: 'year' }, now).start.toISOString()).toBe('2025-03-31T12:00:00.000Z');
    expect(resolveTimeRange({ ...DEFAULT_TIME_RANGE, relBackCount: 2, relUnit: 'week' }, now).start.toISOString()).toBe('2026-03-17T12:00:00.000Z');
  });
});

describe('the days of the week of a time range (MON-051 repeat_week_days)', () => {
  it('MON-051 the Days button opens the day picker, which emits the chosen days in week order; Every day clears them, with the key left out', async () => {
    const onChange = vi.fn();
    render(<TimeRangePicker value={DEFAULT_TIME_RANGE} onChange={onChange} debounceMs={0} />);
    fireEvent.click(screen.getByRole('button', { name: 'Days: Every day' }));
    const days = await screen.findByRole('group', { name: 'Days of the week' });
    expect([...days.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Su', 'M', 'T', 'W', 'Th', 'F', 'S']);
    fireEvent.click(screen.getByRole('button', { name: 'Friday' }));
    fireEvent.click(screen.getByRole('button', { name: 'Monday' }));
    expect(onChange).toHaveBeenLastCalledWith({ ...DEFAULT_TIME_RANGE, repeat_week_days: 'M,F' });
    expect(screen.getByRole('button', { name: 'Days: M, F' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Monday' }));
    expect(onChange).toHaveBeenLastCalledWith({ ...DEFAULT_TIME_RANGE, repeat_week_days: 'F' });
    fireEvent.click(screen.getByRole('button', { name: 'Every day' }));
    expect(onChange).toHaveBeenLastCalledWith(DEFAULT_TIME_RANGE);
    expect(onChange.mock.lastCall![0]).not.toHaveProperty('repeat_week_days');
    expect((screen.getByRole('button', { name: 'Every day' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('MON-051 the days show in the label, go to the URL as wd and to report calls as week_days with the time zone', () => {
    const working: TimeRangeConfig = { ...DEFAULT_TIME_RANGE, relBackCount: 7, repeat_week_days: 'F,M,T,W,Th' };
    expect(describeTimeRange(working)).toBe('Last 7 days on M, T, W, Th, F');
    expect(timeRangeToQuery(working)).toEqual({ start: '', end: '', days: '', last: '7-day', wd: 'M,T,W,Th,F' });
    expect(timeRangeFromQuery({ last: '7-day', wd: 'M,T,W,Th,F' })).toEqual({ ...working, repeat_week_days: 'M,T,W,Th,F' });
    expect(weekdayQuery(working, () => 'Europe/Paris')).toEqual({ week_days: 'M,T,W,Th,F', tz: 'Europe/Paris' });
    // All seven days are every day: nothing to say, write or ask.
    const all: TimeRangeConfig = { ...DEFAULT_TIME_RANGE, repeat_week_days: 'Su,M,T,W,Th,F,S' };
    expect(describeTimeRange(all)).toBe('Last 30 days');
    expect(timeRangeToQuery(all).wd).toBe('');
    expect(weekdayQuery(all, () => 'UTC')).toEqual({});
    // Days that do not parse from an address are every day; a saved range with them is refused.
    expect(timeRangeFromQuery({ wd: 'M,Funday' })).toEqual(DEFAULT_TIME_RANGE);
    expect(timeRangeFromQuery({ wd: 'S' })).toEqual({ ...DEFAULT_TIME_RANGE, repeat_week_days: 'S' });
    expect(() => timeRangeSchema.validateSync({ ...DEFAULT_TIME_RANGE, repeat_week_days: 'M,Funday' })).toThrow('Weekdays must be among Su, M, T, W, Th, F, S');
  });
});

describe('day-of-week picker', () => {
  it('MON-032 MON-178 the day-of-week picker shows Su M T W Th F S and toggles days into a comma list', async () => {
    function Host() {
      const [v, setV] = useState('M');
      return (
        <>
          <DayOfWeekPicker value={v} onChange={setV} />
          <output>{v}</output>
        </>
      );
    }
    render(<Host />);
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Su', 'M', 'T', 'W', 'Th', 'F', 'S']);
    expect(screen.getByRole('button', { name: 'Monday' }).getAttribute('aria-pressed')).toBe('true');
    await userEvent.click(screen.getByRole('button', { name: 'Friday' }));
    await userEvent.click(screen.getByRole('button', { name: 'Sunday' }));
    expect(screen.getByRole('status').textContent).toBe('Su,M,F');
    await userEvent.click(screen.getByRole('button', { name: 'Monday' }));
    expect(screen.getByRole('status').textContent).toBe('Su,F');
  });
});

describe('result badges', () => {
  it('MON-058 every job action result has a badge', () => {
    const base = { alerted: false, blocked: null, events: 0 };
    expect(resultBadge({ ...base, status: 'ran', alerted: true })).toBe('Alerted');
    expect(resultBadge({ ...base, status: 'ran' })).toBe('Not Successful');
    expect(resultBadge({ ...base, status: 'ran', events: 2 })).toBe('Event Matching');
    expect(resultBadge({ ...base, status: 'waiting' })).toBe('Event Matching');
    expect(resultBadge({ ...base, status: 'errored' })).toBe('Errored');
    expect(resultBadge({ ...base, status: 'not run' })).toBe('Not Run');
    expect(resultBadge({ ...base, status: 'ran', action_type: 'sleep' })).toBe('Sleep');
    expect(resultBadge({ ...base, status: 'running' })).toBe('Running');
    expect(resultBadge({ ...base, status: 'ran', blocked: true })).toBe('Blocked');
    expect(resultBadge({ ...base, status: 'completed', blocked: false })).toBe('Not Blocked');
    expect(resultBadge({ ...base, status: 'incompatible' })).toBe('Incompatible');
    render(
      <>
        {RESULT_BADGES.map((b) => (
          <ResultBadge key={b} text={b} />
        ))}
        <PercentBlockedBar percent={62.5} />
      </>,
    );
    for (const b of RESULT_BADGES) expect(screen.getByText(b)).toBeTruthy();
    expect(screen.getByRole('img', { name: '62.5% blocked' })).toBeTruthy();
  });
});
