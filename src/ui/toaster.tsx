import { useSnapshot } from 'valtio';
import { dismissToast, toastStore, type ToastKind } from './toasts';

const STYLE: Record<ToastKind, string> = {
  error: 'border-red-500/70 bg-red-950/90 text-red-50',
  info: 'border-sky-500/70 bg-sky-950/90 text-sky-50',
  success: 'border-emerald-500/70 bg-emerald-950/90 text-emerald-50',
};

export function Toaster() {
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
          <button type="button" aria-label="Dismiss notification" className="rounded px-1 opacity-70 hover:opacity-100" onClick={() => dismissToast(t.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
