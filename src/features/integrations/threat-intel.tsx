/**
 * Threat-intel sources in the Integrations pane (JOB-029's threat-intel integrations): the sources in the
 * generic table, and the modal that adds one (its content from /threat_intel_integrations/new.js) or
 * edits one. The API key is write-only: the form says whether one is kept, never what it is.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useSnapshot } from 'valtio';
import { threatIntelKind, type ThreatIntelNewForm, type ThreatIntelSource } from '@/api/contracts/threat-intel';
import { CommandButton } from '@/commands/command-menu';
import { commands } from '@/commands/registry';
import { DataTable, type DataColumn } from '@/ui/data-table';
import { Field } from '@/ui/field';
import { FormActions } from '@/ui/form-actions';
import { FormAlert } from '@/ui/form-alert';
import { Modal } from '@/ui/modal';
import { notifyModalSuccess } from '@/ui/table-refresh';
import { useSubmit } from '@/ui/use-submit';
import { getThreatIntel, getThreatIntelForm, threatIntelQueryKey } from './api';
import { integrationsStore } from './store';

const when = (iso: string) => iso.slice(0, 16).replace('T', ' ');

const COLUMNS: DataColumn<ThreatIntelSource>[] = [
  {
    key: 'name',
    label: 'Name',
    text: (s) => s.name,
    render: (s) => (
      <span className="flex items-center gap-2">
        {s.logo_path && <img src={s.logo_path} alt="" className="h-4 w-[70px] shrink-0" />}
        <span className="truncate">{s.name}</span>
      </span>
    ),
  },
  { key: 'kind', label: 'Kind', text: (s) => s.brand_name, render: (s) => s.brand_name },
  { key: 'url', label: 'URL', text: (s) => s.url, render: (s) => <span className="font-mono text-xs">{s.url}</span> },
  { key: 'key', label: 'API key', render: (s) => (s.has_api_key ? 'Stored (encrypted)' : 'None') },
  { key: 'enabled', label: 'Enabled', text: (s) => (s.enabled ? 'enabled' : 'disabled'), render: (s) => (s.enabled ? 'Yes' : 'No') },
  { key: 'updated', label: 'Updated', render: (s) => <span className="text-xs text-muted">{when(s.updated_at)}</span> },
];

const execute = (id: string, args: object = {}) => void commands.execute(id, args, 'hotkey').catch(() => undefined);

interface FormProps {
  /** The creation form of a kind (new), or null when editing `source`. */
  form: ThreatIntelNewForm | null;
  source: ThreatIntelSource | null;
  onDone(): void;
}

function SourceForm({ form, source, onDone }: FormProps) {
  const kind = threatIntelKind(form?.integration_type ?? source?.kind ?? '');
  const [name, setName] = useState(form?.name ?? source?.name ?? '');
  const [url, setUrl] = useState(source?.url ?? '');
  const [apiKey, setApiKey] = useState('');
  const [clearKey, setClearKey] = useState(false);
  const [enabled, setEnabled] = useState(source?.enabled ?? true);
  const { busy, error, run } = useSubmit();
  const title = form?.title ?? `Edit ${source?.name ?? ''}`;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      if (source) {
        const changes = {
          ...(name !== source.name ? { name } : {}),
          ...(url !== source.url ? { url } : {}),
          ...(apiKey ? { api_key: apiKey } : {}),
          ...(clearKey ? { clear_api_key: true } : {}),
          ...(enabled !== source.enabled ? { enabled } : {}),
        };
        if (Object.keys(changes).length) await commands.execute('threatIntel.edit', { id: source.id, ...changes }, 'form');
      } else if (form) {
        await commands.execute('threatIntel.create', { kind: form.integration_type, name, url, ...(apiKey ? { api_key: apiKey } : {}), enabled }, 'form');
      }
      notifyModalSuccess({ threat_intel: form?.integration_type ?? source?.kind });
      onDone();
    });
  };

  const keyLabel = source?.has_api_key ? 'New API key (empty keeps the stored one)' : kind?.keyRequired ? 'API key' : 'API key (optional)';
  return (
    <form onSubmit={submit} noValidate aria-label={title} className="flex flex-col gap-3">
      <div className="flex items-center gap-2">
        {kind && <img src={kind.logo} alt="" className="h-4 w-[70px]" />}
        <span className="text-sm text-muted">{kind?.label ?? source?.brand_name}</span>
      </div>
      <p className="text-xs text-muted">{form?.description ?? kind?.description}</p>
      <FormAlert error={error} />
      <Field label="Name" name="name" required autoFocus value={name} onChange={(e) => setName(e.target.value)} />
      <Field label="URL" name="url" type="url" required placeholder={form?.url_placeholder ?? kind?.placeholder} value={url} onChange={(e) => setUrl(e.target.value)} />
      <Field
        label={keyLabel}
        name="api_key"
        type="password"
        autoComplete="new-password"
        required={!source && !!kind?.keyRequired}
        value={apiKey}
        disabled={clearKey}
        onChange={(e) => setApiKey(e.target.value)}
      />
      {source?.has_api_key && !kind?.keyRequired && (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={clearKey} onChange={(e) => (setClearKey(e.target.checked), setApiKey(''))} />
          Remove the stored API key
        </label>
      )}
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
        Enabled
      </label>
      <p className="text-2xs text-muted">The API key is stored encrypted and is never shown again.</p>
      <FormActions submitLabel={source ? 'Save Source' : 'Add Source'} onCancel={onDone} busy={busy} />
    </form>
  );
}

/** The modal: a kind's creation form (from /threat_intel_integrations/new.js) or a source's edit form. */
function ThreatIntelModal({ sources }: { sources: readonly ThreatIntelSource[] | undefined }) {
  const { threatIntelForm } = useSnapshot(integrationsStore);
  const adding = threatIntelForm !== null && typeof threatIntelForm === 'object' ? threatIntelForm.kind : null;
  const editing = typeof threatIntelForm === 'number' ? (sources?.find((s) => s.id === threatIntelForm) ?? null) : null;
  const form = useQuery({ queryKey: [...threatIntelQueryKey, 'new', adding], queryFn: () => getThreatIntelForm(adding!), enabled: !!adding, staleTime: Infinity, gcTime: 0, refetchOnWindowFocus: false });
  const close = () => (integrationsStore.threatIntelForm = null);
  const title = adding ? (form.data?.title ?? 'Add Threat-Intel Source') : `Edit ${editing?.name ?? 'Threat-Intel Source'}`;
  let body;
  if (adding) body = form.error ? <p role="alert">{form.error.message}</p> : form.data ? <SourceForm key={adding} form={form.data} source={null} onDone={close} /> : <p className="text-muted">Loading the form…</p>;
  else if (editing) body = <SourceForm key={editing.id} form={null} source={editing} onDone={close} />;
  else body = <p className="text-muted">Loading the source…</p>;
  return (
    <Modal open={threatIntelForm !== null} title={title} onClose={close}>
      {body}
    </Modal>
  );
}

/** The Integrations pane's threat-intel section: the sources, their commands and the modal. */
export function ThreatIntelSection() {
  const query = useQuery({ queryKey: threatIntelQueryKey, queryFn: getThreatIntel });
  const snap = useSnapshot(integrationsStore);
  const rows = query.data?.data;

  useEffect(() => {
    if (!rows) return;
    integrationsStore.knownThreatIntel = rows.map((s) => ({ id: s.id, name: s.name, brand_name: s.brand_name }));
    if (integrationsStore.selectedThreatIntelId !== null && !rows.some((s) => s.id === integrationsStore.selectedThreatIntelId)) integrationsStore.selectedThreatIntelId = null;
  }, [rows]);

  return (
    <section aria-label="Threat-intel sources" className="flex flex-col gap-2">
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-sm font-semibold">Threat-intel sources</h3>
        <div role="toolbar" aria-label="Threat-intel sources" className="flex items-center gap-1.5">
          <CommandButton command="threatIntel.edit" args={{}} disabled={snap.selectedThreatIntelId === null} />
          <CommandButton command="threatIntel.delete" args={{}} variant="danger" disabled={snap.selectedThreatIntelId === null} />
        </div>
      </div>
      {query.error && !rows ? (
        <p role="alert">Could not load the threat-intel sources: {query.error.message}</p>
      ) : (
        <DataTable<ThreatIntelSource>
          id="threat-intel-table"
          label="Threat-intel sources"
          columns={COLUMNS}
          rows={rows}
          rowKey={(s) => s.id}
          refetch={query.refetch}
          loading={<p className="text-muted">Loading threat-intel sources…</p>}
          empty="No threat-intel sources yet. Add one from the Add Integration menu: MISP, OpenCTI, STIX/TAXII 2.1 or AlienVault OTX."
          selectedKey={snap.selectedThreatIntelId}
          onSelect={(s) => (integrationsStore.selectedThreatIntelId = s.id)}
          onOpen={(s) => {
            integrationsStore.selectedThreatIntelId = s.id;
            execute('threatIntel.edit');
          }}
          onRowKeyDown={(e, s) => {
            if (e.key !== 'Delete') return;
            e.preventDefault();
            integrationsStore.selectedThreatIntelId = s.id;
            execute('threatIntel.delete');
          }}
        />
      )}
      <ThreatIntelModal sources={rows} />
    </section>
  );
}
