/**
 * Saving a cloud Action: an acknowledgement enables 'Add to Approval Queue'; users with approve
 * permission also get 'Approve Now'. A restricted_malicious file makes the Action ineligible; a
 * pending_approval file disables Approve Now.
 */
import { useEffect, useRef, useState } from 'react';
import { MSG } from '@/api/contracts/action-form';
import { Button } from '@/ui/button';
import { Modal } from '@/ui/modal';
import { type FileRestriction } from '@/api/contracts/vocabulary';

export interface CloudSaveState {
  queueEnabled: boolean;
  approveEnabled: boolean;
  ineligible: boolean;
  pending: boolean;
}

/** The enable rules of the two buttons. */
export function cloudSaveState(restrictions: readonly FileRestriction[], acknowledged: boolean, saving: boolean): CloudSaveState {
  const ineligible = restrictions.includes('restricted_malicious');
  const pending = restrictions.includes('pending_approval');
  return {
    ineligible,
    pending,
    queueEnabled: acknowledged && !ineligible && !saving,
    approveEnabled: acknowledged && !ineligible && !pending && !saving,
  };
}

interface Props {
  open: boolean;
  restrictions: FileRestriction[];
  canApprove: boolean;
  saving: boolean;
  onClose(): void;
  onSave(approveNow: boolean): void;
}

export function CloudSaveModal({ open, restrictions, canApprove, saving, onClose, onSave }: Props) {
  const [ack, setAck] = useState(false);
  const last = useRef(0);
  useEffect(() => {
    if (open) setAck(false);
  }, [open]);
  const s = cloudSaveState(restrictions, ack, saving);
  // Debounce double clicks (300 ms).
  const click = (approveNow: boolean) => {
    const now = Date.now();
    if (now - last.current < 300) return;
    last.current = now;
    onSave(approveNow);
  };
  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Save Cloud Action"
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" disabled={!s.queueEnabled} onClick={() => click(false)}>
            Add to Approval Queue
          </Button>
          {canApprove && (
            <Button variant="primary" disabled={!s.approveEnabled} onClick={() => click(true)}>
              Approve Now
            </Button>
          )}
        </>
      }
    >
      <div className="flex flex-col gap-3 text-sm">
        <p>A cloud Action runs its scripts with the cloud credentials of the actor. It can run only once it is approved.</p>
        {s.ineligible && (
          <p role="alert" className="rounded border border-red-500/60 bg-red-500/10 px-3 py-2">
            {MSG.cloudIneligible}
          </p>
        )}
        {s.pending && (
          <p role="status" className="rounded border border-amber-500/60 bg-amber-500/10 px-3 py-2">
            {MSG.cloudPending}
          </p>
        )}
        <label className="flex items-start gap-2">
          <input type="checkbox" className="mt-0.5 accent-[rgb(var(--accent))]" checked={ack} onChange={(e) => setAck(e.target.checked)} autoFocus />
          <span>I have reviewed the scripts and files of this Action and understand that they will run against the cloud account of the actor they are assigned to.</span>
        </label>
      </div>
    </Modal>
  );
}
