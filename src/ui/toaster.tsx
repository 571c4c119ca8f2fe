import { useSnapshot } from 'valtio';
import { dismissToast, toastStore, type ToastKind } from './toasts';

const STYLE: Record<ToastKind, string> = {
  error: 'border-red-500/70 bg-red-950/90 text-red-50',
  info: 'border-sky-500/70 bg-sky-950/90 text-sky-50',
  success: 'border-emerald-500/70 bg-emerald-950/90 text-emerald-50',
};

/**
 * The toasts. A toast's action is a command: `runCommand` runs it (through the registry's execute) and
 * `hotkeyOf` gives its hotkey hint, both from the app, so this shared piece knows no registry.
 */
export function Toaster({ runCommand, hotkeyOf }: { runCommand?: (commandId: string) => void; hotkeyOf?: (commandId: string) => string | null } = {}) {
  const { toasts } = useSnapshot(toastStore);
  return (
    <div className="pointer-events-none fixed top-3 right-3 z-[1100] flex w-96 max-w-[90vw] flex-col gap-2" aria-live="polite">
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
          </div>
          {t.action && runCommand && (
            <button
              type="button"
              className="shrink-0 rounded border border-current px-2 py-0.5 text-xs font-semibold"
              title={hotkeyOf?.(t.action.commandId) ? `${t.action.label} (${hotkeyOf(t.action.commandId)})` : undefined}
              onClick={() => runCommand(t.action!.commandId)}
            >
              {t.action.label}
            </button>
          )}
          <button type="button" aria-label="Dismiss notification" className="rounded px-1 opacity-70 hover:opacity-100" onClick={() => dismissToast(t.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
