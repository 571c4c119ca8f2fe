/** A handle of whenIdle, for cancelIdle. */
export type IdleHandle = number | ReturnType<typeof setTimeout>;

/**
 * Runs `fn` when the browser is idle (at the latest after `timeoutMs`), or after 200 ms where there is
 * no requestIdleCallback (Safari, jsdom): for work that must not hold up the first frames.
 */
export const whenIdle = (fn: () => void, timeoutMs = 5000): IdleHandle => (typeof requestIdleCallback === 'function' ? requestIdleCallback(fn, { timeout: timeoutMs }) : setTimeout(fn, 200));

/** Cancels what whenIdle scheduled. */
export const cancelIdle = (handle: IdleHandle): void => (typeof cancelIdleCallback === 'function' ? cancelIdleCallback(handle as number) : clearTimeout(handle));
