import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearToasts, DEFAULT_TOAST_MS, flash, toastStore } from './toasts';

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
