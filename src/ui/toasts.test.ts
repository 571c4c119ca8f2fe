import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearToasts, DEFAULT_FLASH_NOTICE_S, DEFAULT_TOAST_MS, flash, flashNoticeTimeMs, noticeFlash, setFlashNoticeTime, toastStore } from './toasts';

afterEach(() => {
  clearToasts();
  vi.useRealTimers();
});

describe('toasts', () => {
  it('JOB-113 alert, info and notice flashes show as error, info and success toasts and dismiss themselves after 5 s', () => {
    vi.useFakeTimers();
    flash('alert', 'It failed');
    flash('info', 'For your information');
    flash('notice', 'It worked');
    expect(DEFAULT_TOAST_MS).toBe(5000);
    expect(toastStore.toasts.map((t) => [t.kind, t.message])).toEqual([
      ['error', 'It failed'],
      ['info', 'For your information'],
      ['success', 'It worked'],
    ]);
    vi.advanceTimersByTime(4_999);
    expect(toastStore.toasts).toHaveLength(3);
    vi.advanceTimersByTime(1);
    expect(toastStore.toasts).toHaveLength(0);
  });
});

describe('flash notice time', () => {
  afterEach(() => setFlashNoticeTime(null));

  it("MON-171 a notice flash of the monitors, actors and reporting screens stays the environment's flash_notice_time (default 2.5 s); alerts keep JOB-113's 5 s", () => {
    vi.useFakeTimers();
    expect(DEFAULT_FLASH_NOTICE_S).toBe(2.5);
    noticeFlash('Paused Nightly.');
    flash('alert', 'It failed');
    expect(toastStore.toasts.map((t) => [t.kind, t.durationMs])).toEqual([
      ['success', 2500],
      ['error', 5000],
    ]);
    vi.advanceTimersByTime(2_499);
    expect(toastStore.toasts).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(toastStore.toasts.map((t) => t.message)).toEqual(['It failed']);

    // The user's preference (seconds) from /environment.json; nonsense falls back to 2.5 s.
    setFlashNoticeTime(4);
    noticeFlash('Saved.');
    expect(toastStore.toasts.at(-1)!.durationMs).toBe(4000);
    setFlashNoticeTime(-1);
    expect(flashNoticeTimeMs()).toBe(2500);
  });
});
