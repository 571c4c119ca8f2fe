import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { STATUS_TABS, type OperationalStatus } from '@/api/contracts/operational-status';
import type { PaneProps } from '@/panes/types';
import { Table } from '@/ui/table';
import { useOperationalStatus } from './api';
import { formatTimeOfDay, formatTimestamp } from '@/ui/datetime';

const fmt = (iso: string | null) => formatTimestamp(iso, { fallback: 'Never' });

const STATE_TEXT: Record<string, string> = {
  CONNECTED: 'Connected',
  DISCONNECTED: 'Disconnected: the director cannot execute actions until the connection is restored.',
  RECONNECTING: 'Reconnecting: a retry will be attempted in one hour.',
};

function tabBody(tab: number, s: OperationalStatus): ReactNode {
  switch (STATUS_TABS[tab]) {
    case 'Background Processes':
      return (
        <Table
          label="Background processes"
          empty="No background processes."
          head={['ID', 'Kind', 'Status', 'User', 'Result', 'Started', 'Updated']}
          rows={s.processes.map((p) => [p.id, p.kind, p.status, p.user_email ?? 'Scheduled Process', p.result, fmt(p.created_at), fmt(p.updated_at)])}
        />
      );
    case 'Actors':
      return (
        <Table
          label="Actors by last contact"
          empty="No actors have registered."
          head={['Actor', 'Type', 'Status', 'Version', 'Last contact', 'Open work']}
          rows={s.actors.map((a) => [
            <a key="a" href={`/topology/nodes/${a.id}/edit`} className="hover:text-accent hover:underline">
              {a.name}
            </a>,
            a.node_type,
            a.retired_at ? 'retired' : a.status,
            a.node_version || '—',
            fmt(a.last_heartbeat_at),
            a.open_work,
          ])}
        />
      );
    case 'Integrations':
      return (
        <Table
          label="Integration health"
          empty="No integrations. Create one with the palette: Create integration…"
          head={['Integration', 'Kind', 'Enabled', 'Reads', 'Events (24 h)', 'Last event']}
          rows={s.integrations.map((i) => [i.name, i.type, i.enabled ? 'Yes' : 'No', i.source_path ?? 'Webhook', i.events_last_day, fmt(i.last_event_at)])}
        />
      );
    case 'Content Service':
      return (
        <dl className="grid grid-cols-[12rem_1fr] gap-x-3 gap-y-1 text-sm" aria-label="Content service connection">
          <dt className="text-muted">State</dt>
          <dd>{STATE_TEXT[s.content_service.content_service_state] ?? s.content_service.content_service_state}</dd>
          <dt className="text-muted">Last success</dt>
          <dd>{fmt(s.content_service.content_service_last_success)}</dd>
          <dt className="text-muted">Recorded</dt>
          <dd>{fmt(s.content_service.updated_at)}</dd>
        </dl>
      );
    case 'Scheduler':
      return (
        <dl className="grid grid-cols-[12rem_1fr] gap-x-3 gap-y-1 text-sm" aria-label="Scheduler">
          <dt className="text-muted">Active jobs</dt>
          <dd>{s.scheduler.active_jobs}</dd>
          <dt className="text-muted">Open actor work</dt>
          <dd>{s.scheduler.open_work}</dd>
          <dt className="text-muted">Scheduled monitors</dt>
          <dd>{s.scheduler.monitors_scheduled}</dd>
          <dt className="text-muted">Paused monitors</dt>
          <dd>{s.scheduler.monitors_paused}</dd>
          <dt className="text-muted">Overdue monitors</dt>
          <dd>{s.scheduler.monitors_overdue}</dd>
          <dt className="text-muted">Next monitor</dt>
          <dd>{s.scheduler.next_monitor ? `${s.scheduler.next_monitor.name} at ${fmt(s.scheduler.next_monitor.next_run_at)}` : 'None scheduled'}</dd>
        </dl>
      );
    default:
      return null;
  }
}

/** /operational_status?tabIndex=N: one tab per part of the director (tabIndex=3 the content service, MON-006); refreshed every 5 s. */
export function OperationalStatusPane({ params, setParams }: PaneProps) {
  const { data, isLoading, error, dataUpdatedAt } = useOperationalStatus();
  const n = Number(params.tabIndex);
  const tab = Number.isInteger(n) && n >= 0 && n < STATUS_TABS.length ? n : 0;
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const choose = (i: number) => {
    setParams({ ...params, tabIndex: String(i) });
    tabs.current[i]?.focus();
  };
  const onKey = (e: KeyboardEvent) => {
    const last = STATUS_TABS.length - 1;
    const to = { ArrowRight: tab === last ? 0 : tab + 1, ArrowLeft: tab === 0 ? last : tab - 1, Home: 0, End: last }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    choose(to);
  };

  return (
    <div className="flex flex-col gap-3 p-4">
      <div className="flex items-baseline justify-between">
        <h2 className="text-base font-semibold">Operational Status</h2>
        {dataUpdatedAt > 0 && <span className="text-2xs text-muted">Checked {formatTimeOfDay(dataUpdatedAt)}</span>}
      </div>
      <div role="tablist" aria-label="Operational status" className="flex gap-1 border-b border-line" onKeyDown={onKey}>
        {STATUS_TABS.map((t, i) => (
          <button
            key={t}
            ref={(el) => void (tabs.current[i] = el)}
            role="tab"
            type="button"
            id={`status-tab-${i}`}
            aria-selected={i === tab}
            aria-controls="status-tabpanel"
            tabIndex={i === tab ? 0 : -1}
            onClick={() => choose(i)}
            className={`-mb-px border-b-2 px-3 py-1.5 text-sm ${i === tab ? 'border-accent text-ink' : 'border-transparent text-muted hover:text-ink'}`}
          >
            {t}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="status-tabpanel" aria-labelledby={`status-tab-${tab}`}>
        {isLoading && <p className="text-muted">Loading the operational status…</p>}
        {error && !data && <p role="alert">Could not load the operational status: {error.message}</p>}
        {data && tabBody(tab, data)}
      </div>
    </div>
  );
}
