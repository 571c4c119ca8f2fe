import { afterEach, describe, expect, it } from 'vitest';
import { formatDay, formatTimeOfDay, formatTimestamp, setDisplayTimeZone } from './datetime';

afterEach(() => setDisplayTimeZone(null));

describe('one timestamp format', () => {
  it('shows ISO-like 24-hour timestamps in the user time zone, with a fallback for none', () => {
    setDisplayTimeZone('UTC');
    expect(formatTimestamp('2026-11-26T17:42:05Z')).toBe('2026-11-26 17:42');
    expect(formatTimestamp('2026-11-26T17:42:05Z', { seconds: true })).toBe('2026-11-26 17:42:05');
    expect(formatDay('2026-11-26T17:42:05Z')).toBe('2026-11-26');
    expect(formatTimeOfDay(Date.UTC(2026, 10, 26, 7, 3, 9))).toBe('07:03:09');
    setDisplayTimeZone('Asia/Kolkata');
    expect(formatTimestamp('2026-11-26T17:42:05Z')).toBe('2026-11-26 23:12');
    setDisplayTimeZone('America/New_York');
    expect(formatTimestamp(new Date('2026-11-27T02:00:00Z'))).toBe('2026-11-26 21:00');
    expect(formatTimestamp(null)).toBe('—');
    expect(formatTimestamp(undefined, { fallback: 'never' })).toBe('never');
    expect(formatTimestamp('not a date', { fallback: '--' })).toBe('--');
  });

  it('an unknown zone falls back to the browser zone instead of failing', () => {
    setDisplayTimeZone('Not/A_Zone');
    const d = new Date(2026, 0, 2, 3, 4, 5);
    expect(formatTimestamp(d, { seconds: true })).toBe('2026-01-02 03:04:05');
  });
});
