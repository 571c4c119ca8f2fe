import { useSnapshot } from 'valtio';
import { ApiError } from '@/api/http';
import { commands } from '@/commands/registry';
import type { PaneProps } from '@/panes/types';
import { Button } from '@/ui/button';
import { CommandButton } from '@/commands/command-menu';
import { currentActionPane } from '@/commands/entity-picks';
import { usePaneContext } from '@/panes/use-pane-context';
import { Modal } from '@/ui/modal';
import { PreviewContent, usePreview } from './preview-content';
import { libraryStore } from './store';

const run = (id: string, args: Record<string, unknown>) => commands.execute(id, args, 'button').catch(() => undefined);

function PreviewBody({ id }: { id: number }) {
  const q = usePreview(id);
  if (q.isPending) return <p className="p-2 text-muted" role="status">Loading Details</p>;
  if (q.error) return <p role="alert" className="rounded border border-red-500/60 bg-red-500/10 p-2">{q.error instanceof ApiError ? q.error.message : String(q.error)}</p>;
  return <PreviewContent p={q.data} />;
}

function PreviewButtons({ id, inPane }: { id: number; inPane: boolean }) {
  const q = usePreview(id);
  const canEdit = commands.context().permissions.has('create_action_permission');
  const p = q.data;
  return (
    <>
      <CommandButton command="run.action" args={{ id }} variant="primary">
        Run
      </CommandButton>
      {p && canEdit && !p.vendor && <Button onClick={() => void run('actions.edit', { id })}>Edit</Button>}
      {p && canEdit && <Button onClick={() => void run('actions.clone', { id })}>Clone</Button>}
      {!inPane && <Button onClick={() => void run('actions.previewPane', { id })}>Open in Pane</Button>}
    </>
  );
}

/** The Action Preview modal (actions.md section 2): 'Action Details', Close, panel height viewport minus 300 px. */
export function PreviewModalHost() {
  const { previewId } = useSnapshot(libraryStore);
  const close = () => (libraryStore.previewId = null);
  return (
    <Modal
      open={previewId !== null}
      title="Action Details"
      onClose={close}
      size="lg"
      footer={
        previewId !== null && (
          <>
            <PreviewButtons id={previewId} inPane={false} />
            <span className="flex-1" />
            <Button variant="primary" onClick={close}>
              Close
            </Button>
          </>
        )
      }
    >
      {previewId !== null && (
        <div className="overflow-auto pr-1" style={{ height: 'calc(100vh - 300px)' }} data-testid="action-preview">
          <PreviewBody id={previewId} />
        </div>
      )}
    </Modal>
  );
}

/** The same preview as a pane (/manage_sims/actions/{id}/preview), to keep it open beside the library. */
export function PreviewPane({ params }: PaneProps) {
  const id = Number(params.id);
  const q = usePreview(id);
  usePaneContext(currentActionPane, { current: () => (q.data ? { value: id, label: q.data.sim_name, detail: q.data.vid } : null) });
  if (!Number.isInteger(id) || id <= 0) return <p className="p-4" role="alert">Not a valid Action id: {params.id}</p>;
  return (
    <div className="flex h-full flex-col">
      <div className="flex items-center gap-2 border-b border-line px-4 py-2">
        <h2 className="mr-auto text-base font-semibold">Action Details</h2>
        <PreviewButtons id={id} inPane />
      </div>
      <div className="min-h-0 flex-1 overflow-auto px-4 py-3" data-testid="action-preview">
        <PreviewBody id={id} />
      </div>
    </div>
  );
}
