import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '@/api/http';
import { resetSessionTimeout, verifySession } from '@/api/session-api';
import { Button } from '@/ui/button';
import { Modal } from '@/ui/modal';

export const SESSION_POLL_MS = 60_000;
export const SESSION_WARNING_SECONDS = 120;
export const SESSION_FAILURE_LIMIT = 5;
/** Document events that suspend and restore the poll (spec: polling can be suspended by document events). */
export const SUSPEND_EVENT = 'vigil:session-poll-suspend';
export const RESUME_EVENT = 'vigil:session-poll-resume';

export interface SessionTimeoutProps {
  pollMs?: number;
  reload?: () => void;
}

// Module-level so the default is one stable function: an inline default would be a new `reload` on every
// render, changing `check` and re-running the poll effect (an extra session check on every render).
const reloadPage = () => window.location.reload();

/**
 * Checks the session once a minute; at 120 s or less left shows the Session Timeout modal (no close
 * button). A 401, or 5 failures in a row, reloads the page at its current path.
 */
export function SessionTimeout({ pollMs = SESSION_POLL_MS, reload = reloadPage }: SessionTimeoutProps) {
  const [warning, setWarning] = useState(false);
  const [extending, setExtending] = useState(false);
  const failures = useRef(0);
  const suspended = useRef(false);

  const check = useCallback(async () => {
    if (suspended.current) return;
    try {
      const { time_left } = await verifySession();
      failures.current = 0;
      setWarning(time_left <= SESSION_WARNING_SECONDS);
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) return reload();
      failures.current += 1;
      if (failures.current >= SESSION_FAILURE_LIMIT) reload();
    }
  }, [reload]);

  useEffect(() => {
    void check();
    const timer = setInterval(() => void check(), pollMs);
    const suspend = () => (suspended.current = true);
    const resume = () => {
      suspended.current = false;
      void check();
    };
    document.addEventListener(SUSPEND_EVENT, suspend);
    document.addEventListener(RESUME_EVENT, resume);
    return () => {
      clearInterval(timer);
      document.removeEventListener(SUSPEND_EVENT, suspend);
      document.removeEventListener(RESUME_EVENT, resume);
    };
  }, [check, pollMs]);

  const extend = async () => {
    setExtending(true);
    try {
      await resetSessionTimeout();
      setWarning(false);
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) reload();
    } finally {
      setExtending(false);
    }
  };

  return (
    <Modal open={warning} title="Session Timeout" size="sm">
      <p>Your session is about to expire.</p>
      <div className="mt-4 flex justify-end">
        <Button variant="primary" autoFocus disabled={extending} onClick={extend}>
          Extend Session
        </Button>
      </div>
    </Modal>
  );
}
