import { useSnapshot } from 'valtio';
import { commands } from '@/commands/registry';
import { Button } from '@/ui/button';
import { Modal } from '@/ui/modal';
import { ErrorNote, SimulationView, useSimulation } from './simulation-view';
import { simStore } from './store';

function PreviewBody({ id }: { id: number }) {
  const q = useSimulation({ id });
  if (q.isPending) return <p className="p-2 text-muted" role="status">Loading Details</p>;
  if (q.error) return <ErrorNote error={q.error} />;
  return <SimulationView p={q.data} newTab showName={false} />;
}

/**
 * The Simulation preview modal (MON-018): large, titled with the simulation, 'Loading Details' while
 * loading; an Action clicked in it opens /manage_sims/action/{vid} in a new tab (MON-001).
 */
export function SimulationPreviewHost() {
  const { preview } = useSnapshot(simStore);
  const close = () => (simStore.preview = null);
  const canRun = commands.context().permissions.has('jobs.run');
  return (
    <Modal
      open={preview !== null}
      title={preview ? `${preview.name} (${preview.vid})` : ''}
      onClose={close}
      size="lg"
      footer={
        preview && (
          <>
            {canRun && <Button onClick={() => void commands.execute('simulations.run', { id: preview.id }, 'button').catch(() => undefined)}>Run</Button>}
            <Button onClick={() => void commands.execute('simulations.viewRuns', { id: preview.id }, 'button').catch(() => undefined)}>View Runs</Button>
            <span className="flex-1" />
            <Button variant="primary" onClick={close}>
              Close
            </Button>
          </>
        )
      }
    >
      {preview && (
        <div className="overflow-auto pr-1" style={{ height: 'calc(100vh - 300px)' }} data-testid="simulation-preview">
          <PreviewBody id={preview.id} />
        </div>
      )}
    </Modal>
  );
}
