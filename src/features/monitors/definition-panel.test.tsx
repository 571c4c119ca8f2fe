import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { computerZoneDifference, timezoneMismatchNotice, todayIn, type MonitorBody } from '@/api/contracts/monitors';
import { DefinitionPanel } from './definition-panel';

afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

const body = (timezone: string): MonitorBody => ({
  name: 'M', description: '', monitor_group: null, new_monitor_group: '', monitor_runtime: `${todayIn('UTC')} 23:59`, timezone, repeat_job_period_number: 1,
  repeat_job_period_type: 'days', repeat_week_days: '', repeat_monthly_frequency: '', repeat_day_of_the_week: '', extra_sleep: 0, detection_timeout_seconds: 30, simulation_id: null, steps: [],
});

describe('timezone mismatch notice', () => {
  it('MON-162 shows the minute difference between the computer and the timezone the times are in; none when they agree', () => {
    // The computer is on UTC+1 (Central European winter time).
    vi.spyOn(Date.prototype, 'getTimezoneOffset').mockReturnValue(-60);
    const winter = new Date('2026-11-27T12:00:00Z');
    expect(computerZoneDifference('Asia/Kolkata', winter)).toBe(-270);
    expect(computerZoneDifference('America/New_York', winter)).toBe(360);
    expect(timezoneMismatchNotice('Europe/Paris', winter)).toBeNull();
    expect(timezoneMismatchNotice('Asia/Kolkata', winter)).toBe("Your computer's time zone is 270 minutes behind Asia/Kolkata; times here are in Asia/Kolkata.");

    vi.useFakeTimers({ now: winter, toFake: ['Date'] });
    try {
      render(<DefinitionPanel body={body('America/New_York')} groups={[]} errors={{}} onChange={() => undefined} />);
      expect(screen.getByRole('note').textContent).toBe("Your computer's time zone is 360 minutes ahead of America/New_York; times here are in America/New_York.");
      document.body.innerHTML = '';
      render(<DefinitionPanel body={body('Europe/Berlin')} groups={[]} errors={{}} onChange={() => undefined} />);
      expect(screen.queryByRole('note')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});
