import { proxy, useSnapshot } from 'valtio';
import { Button } from './button';
import { Modal } from './modal';

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

const store = proxy<{ pending: Pending | null }>({ pending: null });

/** Asks the user; resolves true on the confirming button. One question at a time (a new one cancels the old). */
export function confirmDialog(message: string, wording: ConfirmWording): Promise<boolean> {
  store.pending?.resolve(false);
  return new Promise((resolve) => {
    store.pending = { message, ...wording, title: wording.title ?? 'Please confirm', resolve };
  });
}

function settle(ok: boolean) {
  const p = store.pending;
  store.pending = null;
  p?.resolve(ok);
}

export function ConfirmHost() {
  const { pending } = useSnapshot(store);
  return (
    <Modal
      open={!!pending}
      title={pending?.title ?? ''}
      onClose={() => settle(false)}
      size="sm"
      footer={
        <>
          <Button onClick={() => settle(false)}>{pending?.cancelLabel}</Button>
          <Button variant="primary" autoFocus onClick={() => settle(true)}>
            {pending?.confirmLabel}
          </Button>
        </>
      }
    >
      <p>{pending?.message}</p>
    </Modal>
  );
}
