/**
 * Integrations (/integrations): the security tools the director takes events from, in the generic
 * table (MON-019), with the integrations menu (JOB-029) and its creation modal, the integration
 * service's status polled every 20 s (MON-072), and its errors told as the spec says (JOB-072, JOB-107);
 * below, the threat-intel sources (threat-intel.tsx) and the actors on which dependencies can be installed (JOB-061, JOB-097; dependencies-table.tsx).
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { useSnapshot } from 'valtio';
import { FILE_KINDS, wrapErrorText, type IntegrationsAnswer } from '@/api/contracts/integrations';
import { CommandButton } from '@/commands/command-menu';
import { DataTable, type DataColumn, type DataTab } from '@/ui/data-table';
import { StatusDetailsIcon, StatusPoller } from '@/ui/status-poller';
import { flash } from '@/ui/toasts';
import { AddIntegrationMenu } from './add-menu';
import { getIntegrationsMenu, getThreatIntel, integrationsMenuQuery, threatIntelQueryKey } from './api';
import { IntegrationCreateModal } from './create-modal';
import { DependenciesTable } from './dependencies-table';
import { SERVICE_ERROR_TITLE, SERVICE_ERROR_TOAST_MS, menuBlockedReason, menuItems, serviceErrorMessage } from './menu-state';
import { integrationsStore } from './store';
import { ThreatIntelSection } from './threat-intel';

type Row = IntegrationsAnswer['data'][number];
const when = (iso: string | null | undefined) => (iso ? iso.slice(0, 16).replace('T', ' ') : '—');

const COLUMNS: DataColumn<Row>[] = [
  {
    key: 'name',
    label: 'Name',
    text: (r) => r.name,
    render: (r) => (
      <span className="flex items-center gap-2">
        {r.logo_path && <img src={r.logo_path} alt="" className="h-4 w-[70px] shrink-0" />}
        <span className="truncate">{r.name}</span>
      </span>
    ),
  },
  { key: 'kind', label: 'Kind', text: (r) => r.brand_name, render: (r) => r.brand_name },
  { key: 'source', label: 'Source', text: (r) => r.source_path ?? 'webhook', render: (r) => <span className="font-mono text-xs">{r.source_path ?? `POST /integrations/${r.id}/events`}</span> },
  { key: 'events', label: 'Events (24 h)', render: (r) => r.events_last_day ?? 0 },
  { key: 'last', label: 'Last event', render: (r) => when(r.last_event_at) },
  { key: 'enabled', label: 'Enabled', text: (r) => (r.enabled ? 'enabled' : 'disabled'), render: (r) => (r.enabled ? 'Yes' : 'No') },
];

const TABS: DataTab<Row>[] = [
  { id: 'all', label: 'All' },
  { id: 'webhook', label: 'Webhooks', filter: (r) => !FILE_KINDS.includes(r.type) },
  { id: 'files', label: 'File tails', filter: (r) => FILE_KINDS.includes(r.type) },
];

/** The service line: its state, or its error wrapped at 30 characters with the details icon (MON-152). */
function serviceLine(a: IntegrationsAnswer) {
  const s = a.service;
  if (!s) return null;
  if (s.status !== 'error') return `Integration service: ${s.status === 'running' ? 'running' : 'not running'}`;
  const message = serviceErrorMessage(s.message);
  return (
    <span className="inline-flex items-start gap-1 text-red-400">
      <span>
        Integration service: error —{' '}
        {wrapErrorText(message).map((line, i) => (
          <span key={i} className="block">
            {line}
          </span>
        ))}
      </span>
      <StatusDetailsIcon details={`## ${SERVICE_ERROR_TITLE}\n${message}`} />
    </span>
  );
}

export function IntegrationsPane() {
  const query = useQuery(integrationsMenuQuery);
  const threatIntel = useQuery({ queryKey: threatIntelQueryKey, queryFn: getThreatIntel });
  const snap = useSnapshot(integrationsStore);
  const answer = query.data;
  const blocked = answer ? menuBlockedReason(answer) : null;
  const items = useMemo(() => (answer ? menuItems(answer) : []), [answer]);
  const toldError = useRef<string | null>(null);

  useEffect(() => {
    if (!answer) return;
    integrationsStore.known = answer.data.map((r) => ({ id: r.id, name: r.name }));
    integrationsStore.blocked = blocked;
    if (integrationsStore.selectedId !== null && !answer.data.some((r) => r.id === integrationsStore.selectedId)) integrationsStore.selectedId = null;
    // JOB-107: a service error is told once per message, for 10 s.
    const err = answer.service?.status === 'error' ? serviceErrorMessage(answer.service.message) : null;
    if (err && err !== toldError.current) flash('alert', err, { title: SERVICE_ERROR_TITLE, durationMs: SERVICE_ERROR_TOAST_MS });
    toldError.current = err;
  }, [answer, blocked]);

  return (
    <div className="flex h-full min-h-0 flex-col gap-3 overflow-auto p-4">
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-base font-semibold">Integrations</h2>
        <div role="toolbar" aria-label="Integrations" className="flex items-center gap-1.5">
          <AddIntegrationMenu items={items} threatIntel={threatIntel.data?.available} blocked={blocked} />
          <CommandButton command="integrations.delete" args={{}} variant="danger" disabled={snap.selectedId === null} />
        </div>
      </div>
      {blocked && (
        <p role="note" className="text-xs text-muted">
          Adding integrations is unavailable: {blocked}
        </p>
      )}
      {query.error && !answer ? (
        <p role="alert">{query.error.message}</p>
      ) : (
        <DataTable<Row>
          id="integrations-table"
          label="Integrations"
          columns={COLUMNS}
          rows={answer?.data}
          rowKey={(r) => r.id}
          tabs={TABS}
          refetch={query.refetch}
          loading={<p className="text-muted">Loading integrations…</p>}
          empty="No integrations yet. Add one from the Add Integration menu: a JSON webhook, or a Suricata EVE or nftables/ulogd JSON file the director tails."
          selectedKey={snap.selectedId}
          onSelect={(r) => (integrationsStore.selectedId = r.id)}
          status={<StatusPoller label="Integration service" poll={async () => serviceLine(await getIntegrationsMenu())} flashOnFailure />}
        />
      )}
      <ThreatIntelSection />
      <DependenciesTable />
      <IntegrationCreateModal />
    </div>
  );
}
