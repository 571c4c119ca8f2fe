import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { computerZoneDifference, timezoneMismatchNotice, todayIn, type MonitorBody } from '@/api/contracts/monitors';
import { setDisplayTimeZone } from '@/ui/datetime';
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
  afterEach(() => setDisplayTimeZone(null));

  it("MON-162 shows the minute difference between the computer and the user's profile time zone, not the monitor's; none when they agree", () => {
    // The computer is on UTC+1 (Central European winter time).
    vi.spyOn(Date.prototype, 'getTimezoneOffset').mockReturnValue(-60);
    const winter = new Date('2026-11-27T12:00:00Z');
    expect(computerZoneDifference('Asia/Kolkata', winter)).toBe(-270);
    expect(computerZoneDifference('America/New_York', winter)).toBe(360);
    expect(timezoneMismatchNotice('Europe/Paris', winter)).toBeNull();
    expect(timezoneMismatchNotice('Asia/Kolkata', winter)).toBe("Your computer's time zone is 270 minutes behind your profile's time zone (Asia/Kolkata); times are shown in Asia/Kolkata.");

    vi.useFakeTimers({ now: winter, toFake: ['Date'] });
    try {
      // The profile says New York; the monitor runs on Berlin time, in step with the computer: the notice is about the profile.
      setDisplayTimeZone('America/New_York');
      render(<DefinitionPanel body={body('Europe/Berlin')} groups={[]} errors={{}} onChange={() => undefined} />);
      expect(screen.getByRole('note').textContent).toBe("Your computer's time zone is 360 minutes ahead of your profile's time zone (America/New_York); times are shown in America/New_York.");
      document.body.innerHTML = '';
      // The profile agrees with the computer: no notice, whatever the monitor's zone.
      setDisplayTimeZone('Europe/Berlin');
      render(<DefinitionPanel body={body('Asia/Kolkata')} groups={[]} errors={{}} onChange={() => undefined} />);
      expect(screen.queryByRole('note')).toBeNull();
      document.body.innerHTML = '';
      // No profile zone yet (the browser's own is shown): nothing to compare.
      setDisplayTimeZone(null);
      render(<DefinitionPanel body={body('America/New_York')} groups={[]} errors={{}} onChange={() => undefined} />);
      expect(screen.queryByRole('note')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});
