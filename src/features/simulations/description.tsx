import { useSnapshot } from 'valtio';
import { Button } from '@/ui/button';
import { Modal } from '@/ui/modal';
import { ErrorNote, useSimulation } from './simulation-view';
import { simStore } from './store';

function DescriptionBody({ id }: { id: number }) {
  const q = useSimulation({ id });
  if (q.isPending) return <p className="text-muted" role="status">Loading Details</p>;
  if (q.error) return <ErrorNote error={q.error} />;
  return q.data.description ? <p className="whitespace-pre-wrap text-sm">{q.data.description}</p> : <p className="text-muted">No description.</p>;
}

/** The header's Description button (JOB-024): the simulation's description in a modal. */
export function SimulationDescriptionHost() {
  const { description } = useSnapshot(simStore);
  const close = () => (simStore.description = null);
  return (
    <Modal
      open={description !== null}
      title={description ? `Description: ${description.name}` : ''}
      onClose={close}
      footer={<Button variant="primary" onClick={close}>Close</Button>}
    >
      {description && <DescriptionBody id={description.id} />}
    </Modal>
  );
}
