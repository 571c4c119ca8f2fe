import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { POLLING_STOPPED } from '../../api/contracts/jobs';
import { clearToasts, toastStore } from '../../ui/toasts';
import { POLLING_OVERRIDE_KEY, pollingOverride, usePolling } from './polling';

beforeEach(() => {
  vi.useFakeTimers();
  clearToasts();
  localStorage.removeItem(POLLING_OVERRIDE_KEY);
});
afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = '';
});

const advance = async (ms: number) => {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
};

describe('polling of the jobs panes', () => {
  it('JOB-055 JOB-056 JOB-101 re-polls at the interval and stops after the limit with the toast', async () => {
    localStorage.setItem(POLLING_OVERRIDE_KEY, JSON.stringify({ limit: 3 }));
    const poll = vi.fn();
    const { result } = renderHook(() => usePolling(30_000, poll));
    await advance(29_000);
    expect(poll).not.toHaveBeenCalled();
    await advance(1_500);
    expect(poll).toHaveBeenCalledTimes(1);
    await advance(60_000);
    expect(poll).toHaveBeenCalledTimes(3);
    expect(result.current.stopped).toBe(true);
    expect(toastStore.toasts.map((t) => t.message)).toEqual([POLLING_STOPPED]);
    await advance(120_000);
    expect(poll).toHaveBeenCalledTimes(3);
  });

  it('uses the re-poll limit of 10 by default, and a restart counts again', async () => {
    const poll = vi.fn();
    const { result } = renderHook(() => usePolling(1_000, poll));
    await advance(10_500);
    expect(poll).toHaveBeenCalledTimes(10);
    expect(result.current.stopped).toBe(true);
    act(() => result.current.restart());
    await advance(3_100);
    expect(poll).toHaveBeenCalledTimes(13);
    expect(result.current.stopped).toBe(false);
  });

  it('pauses while a modal dialog is open and while the tab is hidden', async () => {
    const poll = vi.fn();
    renderHook(() => usePolling(1_000, poll));
    const dialog = document.createElement('div');
    dialog.setAttribute('role', 'dialog');
    document.body.appendChild(dialog);
    await advance(5_000);
    expect(poll).not.toHaveBeenCalled();
    dialog.remove();
    await advance(1_100);
    expect(poll).toHaveBeenCalledTimes(1);
    const hidden = vi.spyOn(document, 'hidden', 'get').mockReturnValue(true);
    await advance(5_000);
    expect(poll).toHaveBeenCalledTimes(1);
    hidden.mockRestore();
    await advance(1_100);
    expect(poll).toHaveBeenCalledTimes(2);
  });

  it('reads a valid override only', () => {
    localStorage.setItem(POLLING_OVERRIDE_KEY, '{"intervalMs": 10, "limit": 0}');
    expect(pollingOverride()).toEqual({});
    localStorage.setItem(POLLING_OVERRIDE_KEY, 'nope');
    expect(pollingOverride()).toEqual({});
    localStorage.setItem(POLLING_OVERRIDE_KEY, '{"intervalMs": 500, "limit": 2.5}');
    expect(pollingOverride()).toEqual({ intervalMs: 500, limit: 2 });
  });
});
