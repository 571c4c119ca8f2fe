/** How waiting commands honour a script's Stop: the run's AbortSignal reaches them through the context. */

export const STOPPED_MESSAGE = 'Stopped before this step finished.';

/** Thrown by a command whose wait was interrupted by the run's signal. */
export class StoppedError extends Error {
  constructor() {
    super(STOPPED_MESSAGE);
    this.name = 'StoppedError';
  }
}

export function throwIfStopped(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new StoppedError();
}

/** Waits `ms`, or rejects with StoppedError as soon as the signal aborts. */
export function sleepUnlessStopped(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new StoppedError());
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new StoppedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
