import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearToasts, toastStore } from './toasts';
import { deferWithUndo, hasPendingUndo, undoLatest, UNDO_COMMAND, UNDO_MS } from './undo';

afterEach(() => {
  vi.useRealTimers();
  clearToasts();
});

describe('deferWithUndo: an operation held back 10 s with an Undo', () => {
  it('runs the operation only when the 10 s are over; until then a toast offers Undo', async () => {
    vi.useFakeTimers();
    const commit = vi.fn(async () => undefined);
    const ran = deferWithUndo('A000-1000 will be approved to run anywhere.', commit, { undone: 'undone' });
    // The toast counts down to the moment the operation runs.
    expect(toastStore.toasts.map((t) => [t.message, t.action, t.endsAt])).toEqual([['A000-1000 will be approved to run anywhere.', { commandId: UNDO_COMMAND, label: 'Undo' }, Date.now() + UNDO_MS]]);
    expect(hasPendingUndo()).toBe(true);
    await vi.advanceTimersByTimeAsync(UNDO_MS - 1);
    expect(commit).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(commit).toHaveBeenCalledTimes(1);
    expect(await ran).toBe(true);
    expect(hasPendingUndo()).toBe(false);
    expect(toastStore.toasts).toEqual([]);
  });

  it('Undo stops the latest operation for good and says what it left; the earlier one still runs', async () => {
    vi.useFakeTimers();
    const first = vi.fn(async () => undefined);
    const second = vi.fn(async () => undefined);
    const ranFirst = deferWithUndo('first', first, { undone: 'first undone' });
    const ranSecond = deferWithUndo('second', second, { undone: 'Approving A000-1001 was undone: it stays pending.' });
    expect(undoLatest()).toBe('Approving A000-1001 was undone: it stays pending.');
    expect(await ranSecond).toBe(false);
    expect(toastStore.toasts.map((t) => t.message)).toEqual(['first', 'Approving A000-1001 was undone: it stays pending.']);
    await vi.advanceTimersByTimeAsync(UNDO_MS * 2);
    expect(second).not.toHaveBeenCalled();
    expect(first).toHaveBeenCalledTimes(1);
    expect(await ranFirst).toBe(true);
    expect(undoLatest()).toBeNull();
  });

  it('an operation that fails when it runs shows its error', async () => {
    vi.useFakeTimers();
    const ran = deferWithUndo('soon', () => Promise.reject(new Error('The Action changed: review it again.')), { undone: 'undone' });
    await vi.advanceTimersByTimeAsync(UNDO_MS);
    expect(await ran).toBe(true);
    expect(toastStore.toasts.map((t) => [t.kind, t.message])).toEqual([['error', 'The Action changed: review it again.']]);
  });
});
