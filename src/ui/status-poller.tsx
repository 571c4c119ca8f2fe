/**
 * The status polling container (monitors-actors-reporting.md MON-072, MON-150, MON-169): checks every
 * 20000 ms by default and shows the returned status; after the failure limit (10 failures in a row by
 * default) it shows the given failure message or 'Currently unable to update status.', and may flash
 * an alert once. A success starts the count again. And the status-details icon (MON-152).
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Modal } from './modal';
import { flash } from './toasts';

export const STATUS_POLL_MS = 20000;
export const STATUS_FAILURE_LIMIT = 10;
export const STATUS_FAILURE_TEXT = 'Currently unable to update status.';

export interface StatusPollerProps {
  label: string;
  /** Answers the status to show; a rejection counts as a failure. */
  poll(): Promise<ReactNode>;
  intervalMs?: number;
  failureLimit?: number;
  failureMessage?: string;
  /** Flash this alert once when the failure limit is reached. */
  flashOnFailure?: boolean;
}

export function StatusPoller({ label, poll, intervalMs = STATUS_POLL_MS, failureLimit = STATUS_FAILURE_LIMIT, failureMessage, flashOnFailure = false }: StatusPollerProps) {
  const [status, setStatus] = useState<ReactNode>(null);
  const [failures, setFailures] = useState(0);
  const latest = useRef(poll);
  latest.current = poll;
  const message = failureMessage ?? STATUS_FAILURE_TEXT;

  useEffect(() => {
    let stopped = false;
    let count = 0;
    const check = async () => {
      try {
        const next = await latest.current();
        if (stopped) return;
        count = 0;
        setFailures(0);
        setStatus(next);
      } catch {
        if (stopped) return;
        count += 1;
        setFailures(count);
        if (count === failureLimit && flashOnFailure) flash('alert', message);
      }
    };
    void check();
    const timer = setInterval(() => void check(), intervalMs);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [intervalMs, failureLimit, flashOnFailure, message]);

  return (
    <span role="status" aria-label={label} className="text-2xs text-muted">
      {failures >= failureLimit ? <span className="text-red-400">{message}</span> : status}
    </span>
  );
}

/** MON-152: a heading at the start of the details ("# Title", or "<h4>Title</h4>") is the alert's title. */
export function splitDetails(details: string): { title: string; body: string } {
  const md = /^\s*#{1,6}\s+(.+)\n?([\s\S]*)$/.exec(details);
  if (md) return { title: md[1]!.trim(), body: md[2]!.trim() };
  const html = /^\s*<h[1-6][^>]*>([\s\S]*?)<\/h[1-6]>([\s\S]*)$/i.exec(details);
  if (html) return { title: html[1]!.replace(/<[^>]*>/g, '').trim(), body: html[2]!.replace(/<[^>]*>/g, '').trim() };
  return { title: 'Status details', body: details.trim() };
}

export const STATUS_DETAILS_TITLE = 'Error connecting, click for details';

/** MON-152: the info icon of a row with status_details; a click opens an alert with the details. */
export function StatusDetailsIcon({ details }: { details: string }) {
  const [open, setOpen] = useState(false);
  const { title, body } = splitDetails(details);
  return (
    <>
      <button type="button" title={STATUS_DETAILS_TITLE} aria-label={STATUS_DETAILS_TITLE} className="rounded-full border border-amber-500/70 px-1.5 text-2xs leading-4 font-bold text-amber-400 hover:bg-amber-500/15" onClick={() => setOpen(true)}>
        i
      </button>
      <Modal open={open} title={title} onClose={() => setOpen(false)} size="sm">
        <p role="alert" className="text-sm whitespace-pre-wrap">
          {body}
        </p>
      </Modal>
    </>
  );
}
