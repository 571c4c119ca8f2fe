import { useCallback, useRef, useState } from 'react';

/** The message a user sees for a failed call: the error's own message (the director's, for an ApiError). */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export interface SubmitState {
  /** True while an action started by `run` has not finished. */
  busy: boolean;
  /** The message of the last failed action; cleared when the next one starts. */
  error: string | null;
  setError(message: string | null): void;
  /**
   * Runs the action: busy meanwhile, the last error cleared first, a failure's message kept in `error`
   * (and passed to `onError` with the error) instead of thrown. Answers whether the action succeeded. What the user
   * typed stays as it was, so they can correct it and submit again.
   */
  run(action: () => Promise<unknown>): Promise<boolean>;
}

/**
 * The busy/error/try-catch of a form or button that calls the director, written once: forms show
 * `error` in their alert and disable their submit button while `busy`.
 */
export function useSubmit(options: { message?: (err: unknown) => string; onError?: (message: string, err: unknown) => void } = {}): SubmitState {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The latest options, so `run` keeps its identity while the callbacks are inline functions.
  const opts = useRef(options);
  opts.current = options;
  // Only the latest run reports: an earlier one still finishing (e.g. an upload replaced by a new
  // file) neither clears `busy` nor shows its error.
  const latest = useRef(0);
  const run = useCallback(async (action: () => Promise<unknown>) => {
    const mine = ++latest.current;
    setBusy(true);
    setError(null);
    try {
      await action();
      return true;
    } catch (err) {
      if (mine !== latest.current) return false;
      const message = (opts.current.message ?? errorMessage)(err);
      setError(message);
      opts.current.onError?.(message, err);
      return false;
    } finally {
      if (mine === latest.current) setBusy(false);
    }
  }, []);
  return { busy, error, setError, run };
}
