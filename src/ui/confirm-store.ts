import { proxy } from 'valtio';

interface Pending {
  message: string;
  title: string;
  confirmLabel: string;
  resolve: (ok: boolean) => void;
}

/** The one open question, if any: asked by `confirmDialog`, shown by `ConfirmHost` (src/ui/confirm.tsx, loaded on first use). */
export const confirmStore = proxy<{ pending: Pending | null }>({ pending: null });

/** Asks the user; resolves true on OK. One question at a time (a new one cancels the old). */
export function confirmDialog(message: string, opts: { title?: string; confirmLabel?: string } = {}): Promise<boolean> {
  confirmStore.pending?.resolve(false);
  return new Promise((resolve) => {
    confirmStore.pending = { message, title: opts.title ?? 'Please confirm', confirmLabel: opts.confirmLabel ?? 'OK', resolve };
  });
}

export function settleConfirm(ok: boolean) {
  const p = confirmStore.pending;
  confirmStore.pending = null;
  p?.resolve(ok);
}
