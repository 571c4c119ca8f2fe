import { describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { useSubmit } from './use-submit';

/** A promise the test settles by hand. */
function deferred() {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('useSubmit', () => {
  it('is busy while the action runs, then not; a success answers true and leaves no error', async () => {
    const { result } = renderHook(() => useSubmit());
    const d = deferred();
    let done!: Promise<boolean>;
    act(() => void (done = result.current.run(() => d.promise)));
    expect(result.current.busy).toBe(true);
    await act(async () => d.resolve());
    expect(await done).toBe(true);
    expect(result.current.busy).toBe(false);
    expect(result.current.error).toBeNull();
  });

  it('keeps a failure’s message instead of throwing, hands it to onError, and clears it when the next run starts', async () => {
    const onError = vi.fn();
    const { result } = renderHook(() => useSubmit({ onError }));
    const failure = new Error('Name has already been taken');
    let ok: boolean | undefined;
    await act(async () => void (ok = await result.current.run(() => Promise.reject(failure))));
    expect(ok).toBe(false);
    expect(result.current.error).toBe('Name has already been taken');
    expect(result.current.busy).toBe(false);
    expect(onError).toHaveBeenCalledWith('Name has already been taken', failure);

    const d = deferred();
    act(() => void result.current.run(() => d.promise));
    expect(result.current.error).toBeNull();
    await act(async () => d.resolve());
  });

  it('words a failure with `message` when given', async () => {
    const { result } = renderHook(() => useSubmit({ message: (e) => `Export failed: ${String(e)}` }));
    await act(async () => void (await result.current.run(() => Promise.reject('timeout'))));
    expect(result.current.error).toBe('Export failed: timeout');
  });

  it('lets only the latest run report: an earlier run that ends later neither clears busy nor shows its error', async () => {
    const onError = vi.fn();
    const { result } = renderHook(() => useSubmit({ onError }));
    const first = deferred();
    const second = deferred();
    act(() => void result.current.run(() => first.promise));
    act(() => void result.current.run(() => second.promise));
    await act(async () => first.reject(new Error('stale')));
    expect(result.current.busy).toBe(true);
    expect(result.current.error).toBeNull();
    expect(onError).not.toHaveBeenCalled();
    await act(async () => second.resolve());
    expect(result.current.busy).toBe(false);
  });
});
