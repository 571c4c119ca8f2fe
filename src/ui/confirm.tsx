import { useSnapshot } from 'valtio';
import { Button } from './button';
import { confirmStore, settleConfirm as settle } from './confirm-store';
import { Modal } from './modal';

export { confirmDialog, type ConfirmWording } from './confirm-store';

export function ConfirmHost() {
  const { pending } = useSnapshot(confirmStore);
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
