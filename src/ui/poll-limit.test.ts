import { describe, expect, it } from 'vitest';
import { repollLimitReached } from './poll-limit';

describe('polling limit helper', () => {
  it('MON-185 compares whole elapsed minutes with the re-poll time limit', () => {
    const since = Date.parse('2026-11-27T10:00:00Z');
    const at = (iso: string) => repollLimitReached(since, Date.parse(iso), 60);
    expect(at('2026-11-27T10:00:00Z')).toBe(false);
    expect(at('2026-11-27T10:59:59Z')).toBe(false);
    expect(at('2026-11-27T11:00:00Z')).toBe(true);
    expect(at('2026-11-27T13:30:00Z')).toBe(true);
    expect(repollLimitReached(since, since + 5 * 60_000, 5)).toBe(true);
  });
});
