import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LIST_POLL_DONE_MS, LIST_POLL_MS, POLLING_STOPPED, PUBLISHED, STEPS_POLL_DONE_MS, STEPS_POLL_MS, type JobListItem, type JobStep } from '@/api/contracts/jobs';
import { clearToasts, toastStore } from '@/ui/toasts';
import { POLLING_OVERRIDE_KEY, listPollMs, pollingOverride, stepsPollMs, usePolling } from './polling';

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

  it('JOB-055 JOB-114 the list polls every 30 s while a job runs or is unpublished, and every 60 s once all are complete and published', async () => {
    type Row = Pick<JobListItem, 'job_status' | 'published_status'>;
    const running: Row[] = [{ job_status: 'completed', published_status: PUBLISHED }, { job_status: 'running', published_status: 0 }];
    const unpublished: Row[] = [{ job_status: 'completed', published_status: PUBLISHED }, { job_status: 'completed', published_status: 0 }];
    const done: Row[] = [{ job_status: 'completed', published_status: PUBLISHED }, { job_status: 'cancelled', published_status: PUBLISHED }];
    expect([listPollMs([]), listPollMs(running), listPollMs(unpublished), listPollMs(done)]).toEqual([LIST_POLL_MS, LIST_POLL_MS, LIST_POLL_MS, LIST_POLL_DONE_MS]);
    expect([LIST_POLL_MS, LIST_POLL_DONE_MS]).toEqual([30_000, 60_000]);

    // The pane's hook: 30 s apart while a job runs; after the jobs are done, the next poll waits 60 s.
    const poll = vi.fn();
    const { rerender } = renderHook(({ jobs }: { jobs: Row[] }) => usePolling(listPollMs(jobs), poll), { initialProps: { jobs: running } });
    await advance(30_100);
    expect(poll).toHaveBeenCalledTimes(1);
    await advance(30_000);
    expect(poll).toHaveBeenCalledTimes(2);
    rerender({ jobs: done });
    await advance(30_000);
    expect(poll).toHaveBeenCalledTimes(2);
    await advance(30_100);
    expect(poll).toHaveBeenCalledTimes(3);
    await advance(59_000);
    expect(poll).toHaveBeenCalledTimes(3);
    await advance(1_100);
    expect(poll).toHaveBeenCalledTimes(4);
    // A job that starts running brings the 30 s interval back.
    rerender({ jobs: running });
    await advance(30_100);
    expect(poll).toHaveBeenCalledTimes(5);
  });

  it('JOB-055 JOB-114 steps poll every 30 s, and every 60 s when the job errored, was cancelled or all its actions are complete', () => {
    // Only the counts matter to the interval.
    const step = (completed_count: number, action_count: number) => ({ completed_count, action_count }) as JobStep;
    expect(stepsPollMs(undefined)).toBe(STEPS_POLL_MS);
    expect(stepsPollMs({ status: 'running', steps: [step(1, 2)] })).toBe(STEPS_POLL_MS);
    expect(stepsPollMs({ status: 'running', steps: [] })).toBe(STEPS_POLL_MS);
    expect(stepsPollMs({ status: 'running', steps: [step(2, 2), step(3, 3)] })).toBe(STEPS_POLL_DONE_MS);
    expect(stepsPollMs({ status: 'errored', steps: [step(0, 2)] })).toBe(STEPS_POLL_DONE_MS);
    expect(stepsPollMs({ status: 'cancelled', steps: [] })).toBe(STEPS_POLL_DONE_MS);
  });
});
