import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { dismissToast, toastStore, type ToastKind } from './toasts';

const STYLE: Record<ToastKind, string> = {
  error: 'border-red-500/70 bg-red-950/90 text-red-50',
  info: 'border-sky-500/70 bg-sky-950/90 text-sky-50',
  success: 'border-emerald-500/70 bg-emerald-950/90 text-emerald-50',
};

/** "in 7 s", counting down to `endsAt`, over a bar that empties in step (the bar spans the whole delay). */
function Countdown({ endsAt }: { endsAt: number }) {
  const [now, setNow] = useState(() => Date.now());
  const [total] = useState(() => Math.max(1, endsAt - Date.now()));
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [endsAt]);
  const left = Math.max(0, endsAt - now);
  return (
    <div className="mt-1">
      <div className="text-xs tabular-nums opacity-80">in {Math.ceil(left / 1000)} s</div>
      <div className="mt-1 h-0.5 overflow-hidden rounded bg-current/20" aria-hidden>
        <div className="h-full bg-current/70 transition-[width] duration-200 ease-linear" style={{ width: `${(left / total) * 100}%` }} />
      </div>
    </div>
  );
}

/**
 * The toasts, below the top bar (which stays readable: the user menu, the palette button). A toast's action is a command: `runCommand` runs it (through the registry's execute) and
 * `hotkeyOf` gives its hotkey hint, both from the app, so this shared piece knows no registry.
 */
export function Toaster({ runCommand, hotkeyOf }: { runCommand?: (commandId: string) => void; hotkeyOf?: (commandId: string) => string | null } = {}) {
  const { toasts } = useSnapshot(toastStore);
  return (
    <div className="pointer-events-none fixed top-11 right-3 z-[1100] flex w-96 max-w-[90vw] flex-col gap-2" aria-live="polite">
      {toasts.map((t) => (
        <div
          key={t.id}
          role={t.kind === 'error' ? 'alert' : 'status'}
          data-kind={t.kind}
          className={`pointer-events-auto flex items-start gap-2 rounded border px-3 py-2 shadow-lg ${STYLE[t.kind]}`}
        >
          <div className="min-w-0 flex-1">
            {t.title && <div className="font-semibold">{t.title}</div>}
            <div className="break-words">{t.message}</div>
            {t.detail && <div className="mt-0.5 text-2xs opacity-75">{t.detail}</div>}
            {t.endsAt !== undefined && <Countdown endsAt={t.endsAt} />}
          </div>
          {t.action && runCommand && (
            <ToastActionButton label={t.action.label} hotkey={hotkeyOf?.(t.action.commandId) ?? null} onClick={() => runCommand(t.action!.commandId)} />
          )}
          <button type="button" aria-label="Dismiss notification" className="rounded px-1 opacity-70 hover:opacity-100" onClick={() => dismissToast(t.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}

/** The action's button, with its hotkey (from the registry) shown beside the label: the keyboard's way is on screen. */
function ToastActionButton({ label, hotkey, onClick }: { label: string; hotkey: string | null; onClick: () => void }) {
  return (
    <button
      type="button"
      className="flex shrink-0 items-center gap-1.5 rounded border border-current px-2 py-0.5 text-xs font-semibold"
      title={hotkey ? `${label} (${hotkey})` : undefined}
      onClick={onClick}
    >
      {label}
      {hotkey && (
        <kbd aria-hidden className="rounded bg-current/15 px-1 font-mono text-2xs font-normal">
          {hotkey}
        </kbd>
      )}
    </button>
  );
}
