import { proxy, useSnapshot } from 'valtio';
import { Button } from './button';
import { Modal } from './modal';

interface Pending {
  message: string;
  title: string;
  confirmLabel: string;
  resolve: (ok: boolean) => void;
}

const store = proxy<{ pending: Pending | null }>({ pending: null });

/** Asks the user; resolves true on OK. One question at a time (a new one cancels the old). */
export function confirmDialog(message: string, opts: { title?: string; confirmLabel?: string } = {}): Promise<boolean> {
  store.pending?.resolve(false);
  return new Promise((resolve) => {
    store.pending = { message, title: opts.title ?? 'Please confirm', confirmLabel: opts.confirmLabel ?? 'OK', resolve };
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
          <Button onClick={() => settle(false)}>Cancel</Button>
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
