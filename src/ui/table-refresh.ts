/**
 * The generic tables' refresh (monitors-actors-reporting.md section 4 "Refresh behaviour", MON-068,
 * MON-070, MON-169): every 5000 ms by default, paused while any modal is open (resuming when it
 * closes), and an immediate refetch on a modal success event. A failed refresh is logged to the
 * console only and polling continues (section 8 "Table fetch error").
 */
import { useEffect, useRef } from 'react';

export const TABLE_REFRESH_MS = 5000;

/** The document event a modal dispatches when it succeeded (e.g. an integration was created). */
export const MODAL_SUCCESS_EVENT = 'modal success';

export function notifyModalSuccess(detail?: unknown): void {
  document.dispatchEvent(new CustomEvent(MODAL_SUCCESS_EVENT, { detail }));
}

/** Whether any modal dialog is open (ours and Headless UI's render role="dialog" with aria-modal). */
export const anyModalOpen = () => typeof document !== 'undefined' && document.querySelector('[role="dialog"][aria-modal="true"]') !== null;

const errorOf = (answer: unknown): unknown => (answer && typeof answer === 'object' && 'error' in answer ? (answer as { error: unknown }).error : null);

async function refreshQuietly(refetch: () => Promise<unknown>, label: string) {
  try {
    const failed = errorOf(await refetch());
    if (failed) console.warn(`${label}: refresh failed:`, failed instanceof Error ? failed.message : failed);
  } catch (e) {
    console.warn(`${label}: refresh failed:`, e instanceof Error ? e.message : e);
  }
}

/**
 * Refetches every `intervalMs` while no modal is open, and at once on a modal success event. `refetch`
 * may be react-query's (its answer's `error` is logged) or any promise-returning function. 0 turns it off.
 */
export function useAutoRefresh(refetch: (() => Promise<unknown>) | undefined, label: string, intervalMs = TABLE_REFRESH_MS): void {
  const latest = useRef(refetch);
  latest.current = refetch;
  useEffect(() => {
    if (!latest.current || intervalMs <= 0) return;
    const tick = () => {
      if (!anyModalOpen() && latest.current) void refreshQuietly(latest.current, label);
    };
    const onSuccess = () => latest.current && void refreshQuietly(latest.current, label);
    const timer = setInterval(tick, intervalMs);
    document.addEventListener(MODAL_SUCCESS_EVENT, onSuccess);
    return () => {
      clearInterval(timer);
      document.removeEventListener(MODAL_SUCCESS_EVENT, onSuccess);
    };
  }, [intervalMs, label, !!refetch]);
}
