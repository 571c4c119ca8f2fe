/** The form's header (title, version, Show All Steps, Cancel/Reset/Save) and the notices under it (read-only, vendor content, a kept draft). */
import { formatDistanceToNow } from 'date-fns';
import type { LoadedAction } from '@/api/contracts/action-form';
import { Button } from '@/ui/button';
import type { Draft } from '../drafts';
import type { FormMode } from '../form-model';
import { CommandButton } from '@/commands/command-menu';
import type { FormPaneKind } from '../pane-context';
import type { FormView } from './use-steps';

export function FormHeader({ title, mode, loaded, view, canCreate, canSave, saving, kind }: { title: string; mode: FormMode; loaded: LoadedAction | null; view: FormView; canCreate: boolean; canSave: boolean; saving: boolean; kind: FormPaneKind }) {
  return (
    <header className="flex flex-wrap items-center gap-2 border-b border-line pb-3">
      <h2 className="text-lg font-semibold">{title}</h2>
      {mode === 'edit' && loaded && (
        <span className="rounded bg-raised px-1.5 py-0.5 text-2xs text-muted">
          version {loaded.version}
          {loaded.approved ? ' · approved' : ' · not approved'}
        </span>
      )}
      {mode === 'clone' && loaded && <span className="rounded bg-raised px-1.5 py-0.5 text-2xs text-muted">copy of {loaded.vid}</span>}
      <div className="flex-1" />
      <CommandButton command={`${kind}.toggleSteps`} variant="ghost" pressed={view === 'all'}>
        {view === 'wizard' ? 'Show All Steps' : 'Show As Wizard'}
      </CommandButton>
      {canCreate && (
        <div role="group" aria-label="Form actions" className="flex gap-2">
          <CommandButton command={`${kind}.cancel`} />
          <CommandButton command={`${kind}.reset`} disabled={!canSave} />
          <CommandButton command={`${kind}.save`} variant="primary" disabled={!canSave}>
            {saving ? 'Saving…' : 'Save'}
          </CommandButton>
        </div>
      )}
    </header>
  );
}

export function FormNotices({ canCreate, mode, loaded, draft, onRestore, onDiscard }: { canCreate: boolean; mode: FormMode; loaded: LoadedAction | null; draft: Draft | null; onRestore(): void; onDiscard(): void }) {
  return (
    <>
      {!canCreate && (
        <p role="status" className="rounded border border-line bg-raised px-3 py-2 text-sm">
          You can view this Action; changing Actions needs the create Action permission.
        </p>
      )}
      {mode === 'edit' && loaded?.vendor && (
        <p role="status" className="rounded border border-line bg-raised px-3 py-2 text-sm">
          {loaded.vid} is vendor content: only vendor content authors can save changes to it. Clone it to make your own version.
        </p>
      )}
      {draft && (
        <div role="status" className="flex flex-wrap items-center gap-2 rounded border border-accent/60 bg-accent/10 px-3 py-2 text-sm" data-testid="draft-offer">
          <span className="flex-1">Unsaved changes to this Action from {formatDistanceToNow(draft.savedAt, { addSuffix: true })} were kept.</span>
          <Button variant="primary" onClick={onRestore}>
            Restore Draft
          </Button>
          <Button onClick={onDiscard}>Discard Draft</Button>
        </div>
      )}
    </>
  );
}
