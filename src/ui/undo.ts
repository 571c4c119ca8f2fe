import { dismissToast, flash, showToast } from './toasts';

/**
 * Operations held back for a while with an Undo (approving by hotkey, issue 21: "offers undo for
 * 10 s"): nothing reaches the director until the delay is over, so Undo really leaves it undone. A
 * toast says what will happen and offers Undo (the `undoCommand`, so the button and its hotkey run
 * the same command) and counts down the seconds left; when the delay ends the operation runs, and its
 * own notices or errors follow.
 * Leaving the page before then drops the operation (as if undone): it was never sent.
 */

export const UNDO_MS = 10_000;

interface Pending {
  id: number;
  toastId: number;
  timer: ReturnType<typeof setTimeout>;
  undone: string;
  resolve: (ran: boolean) => void;
}

const pending: Pending[] = [];
let nextId = 1;

/** The command that undoes the latest pending operation (registered by the workbench). */
export const UNDO_COMMAND = 'workbench.undo';

/**
 * Runs `commit` after `delayMs` unless undone first; `message` says what will happen (the toast adds
 * when: "in 10 s", counting down), `undone` what
 * Undo leaves. Answers when the operation ran (true) or was undone (false); an error of `commit` is
 * shown as an alert and answers true (it ran and failed).
 */
export function deferWithUndo(message: string, commit: () => Promise<unknown>, opts: { undone: string; delayMs?: number }): Promise<boolean> {
  const delayMs = opts.delayMs ?? UNDO_MS;
  return new Promise((resolve) => {
    const id = nextId++;
    const toastId = showToast('info', message, { durationMs: 0, action: { commandId: UNDO_COMMAND, label: 'Undo' }, endsAt: Date.now() + delayMs });
    const timer = setTimeout(() => {
      drop(id);
      commit().then(
        () => resolve(true),
        (e: unknown) => {
          flash('alert', e instanceof Error ? e.message : String(e));
          resolve(true);
        },
      );
    }, delayMs);
    pending.push({ id, toastId, timer, undone: opts.undone, resolve });
  });
}

function drop(id: number): Pending | undefined {
  const i = pending.findIndex((p) => p.id === id);
  if (i < 0) return undefined;
  const [p] = pending.splice(i, 1);
  clearTimeout(p!.timer);
  dismissToast(p!.toastId);
  return p;
}

/** Whether an operation waits that Undo can still stop. */
export const hasPendingUndo = (): boolean => pending.length > 0;

/** Undoes the latest pending operation: it never runs. Answers what it left (the `undone` text), or null. */
export function undoLatest(): string | null {
  const last = pending[pending.length - 1];
  if (!last) return null;
  drop(last.id);
  last.resolve(false);
  flash('info', last.undone);
  return last.undone;
}
