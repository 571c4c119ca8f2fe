import { proxy } from 'valtio';

/** A question's wording: both buttons name what they do ("Cancel Job" / "Keep Job"), never OK / Cancel. */
export interface ConfirmWording {
  confirmLabel: string;
  cancelLabel: string;
  title?: string;
}

interface Pending extends ConfirmWording {
  message: string;
  title: string;
  resolve: (ok: boolean) => void;
}

/** The one open question, if any: asked by `confirmDialog`, shown by `ConfirmHost` (src/ui/confirm.tsx, loaded on first use). */
export const confirmStore = proxy<{ pending: Pending | null }>({ pending: null });

/** Asks the user; resolves true on the confirming button. One question at a time (a new one cancels the old). */
export function confirmDialog(message: string, wording: ConfirmWording): Promise<boolean> {
  confirmStore.pending?.resolve(false);
  return new Promise((resolve) => {
    confirmStore.pending = { message, ...wording, title: wording.title ?? 'Please confirm', resolve };
  });
}

export function settleConfirm(ok: boolean) {
  const p = confirmStore.pending;
  confirmStore.pending = null;
  p?.resolve(ok);
}
