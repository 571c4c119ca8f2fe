/** The panes of the Action form: Add Action, Edit Action {vid}, Clone Action. */
import { useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import type { LoadedAction } from '@/api/contracts/action-form';
import { commands } from '@/commands/registry';
import type { PaneProps } from '@/panes/types';
import { ActionFormView } from './action-form-view';
import { definitionQuery, loadedActionQuery, tagsQuery } from './api';
import { type FormPaneKind } from './pane-context';
import { draftKey } from './drafts';
import { loadedValues, newValues, type FormMode } from './form-model';

function Loading({ what }: { what: string }) {
  return (
    <div className="p-6 text-muted" role="status">
      Loading {what}…
    </div>
  );
}

function Failed({ error }: { error: Error }) {
  return (
    <div className="p-6" role="alert">
      <h2 className="text-lg font-semibold">The Action form could not be opened</h2>
      <p className="mt-2 text-sm">{error.message}</p>
    </div>
  );
}

function useUserId(): number {
  return commands.context().user?.id ?? 0;
}

export function NewActionPane({ params }: PaneProps) {
  const def = useQuery(definitionQuery());
  const tags = useQuery(tagsQuery());
  const userId = useUserId();
  if (def.error) return <Failed error={def.error} />;
  if (tags.error) return <Failed error={tags.error} />;
  if (!def.data || !tags.data) return <Loading what="the Action form" />;
  const prefill = { action_type: params.action_type, domain: params.domain, dns_name: params.dns_name, dns_desc: params.dns_desc };
  return (
    <ActionFormView
      key={JSON.stringify(prefill)}
      mode="new"
      paneKind="action-new"
      paneParams={params}
      def={def.data}
      tags={tags.data}
      loaded={null}
      initial={newValues(def.data, prefill)}
      initialFiles={[]}
      draftKey={draftKey(userId, 'new')}
    />
  );
}

function LoadedPane({ params, mode, kind }: PaneProps & { mode: Exclude<FormMode, 'new'>; kind: FormPaneKind }) {
  const id = params.id ?? '';
  const def = useQuery(definitionQuery());
  const tags = useQuery(tagsQuery());
  const action = useQuery(loadedActionQuery(id));
  const userId = useUserId();
  // The form keeps the version it opened with: a refetch elsewhere must not replace what the user edits.
  const first = useRef<LoadedAction | null>(null);
  if (!first.current && action.data) first.current = action.data;
  const error = def.error ?? tags.error ?? (first.current ? null : action.error);
  if (error) return <Failed error={error} />;
  if (!def.data || !tags.data || !first.current) return <Loading what={`Action ${id}`} />;
  const loaded: LoadedAction = first.current;
  return (
    <ActionFormView
      key={loaded.id}
      mode={mode}
      paneKind={kind}
      paneParams={params}
      def={def.data}
      tags={tags.data}
      loaded={loaded}
      initial={loadedValues(loaded.values, mode)}
      initialFiles={loaded.files}
      draftKey={draftKey(userId, `${mode}:${loaded.id}`)}
    />
  );
}

export function EditActionPane(props: PaneProps) {
  return <LoadedPane {...props} mode="edit" kind="action-edit" />;
}

export function CloneActionPane(props: PaneProps) {
  return <LoadedPane {...props} mode="clone" kind="action-clone" />;
}
