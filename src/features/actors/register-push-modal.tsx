import { useQuery } from '@tanstack/react-query';
import { useSnapshot } from 'valtio';
import { Button } from '@/ui/button';
import { Modal } from '@/ui/modal';
import { getRegisterPush, registerPushQueryKey } from './api';
import { CopyBlock } from './copy-button';
import { actorsStore } from './store';

/** MON-002: /nodes/new.js?node_type=bulk&id={id} loaded into a modal: how to register an actor with the token. */
export function RegisterPushModal() {
  const { registerPushFor } = useSnapshot(actorsStore);
  const close = () => (actorsStore.registerPushFor = null);
  const q = useQuery({ queryKey: registerPushQueryKey(registerPushFor ?? 0), queryFn: () => getRegisterPush(registerPushFor ?? 0), enabled: registerPushFor !== null });
  return (
    <Modal open={registerPushFor !== null} title="Register Push" onClose={close} footer={<Button onClick={close}>Close</Button>}>
      {q.isPending && <p className="text-muted">Loading…</p>}
      {q.isError && <p role="alert">{q.error.message}</p>}
      {q.data && (
        <div className="flex flex-col gap-2 text-sm">
          <p>
            Register an actor with bulk token <strong>{q.data.name || q.data.bulk_token_id}</strong> ({q.data.status}) on {q.data.director}:
          </p>
          <CopyBlock text={q.data.command} label="Register command" />
          <ul className="list-disc pl-5 text-xs text-muted">
            {q.data.notes.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
        </div>
      )}
    </Modal>
  );
}
