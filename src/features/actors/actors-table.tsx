import type { ActorRow } from '@/api/contracts/actors';
import { DataTable, type DataColumn } from '@/ui/data-table';
import { formatTimestamp } from '@/ui/datetime';
import { StatusCell } from './status';

const COLUMNS: DataColumn<ActorRow>[] = [
  { key: 'id', label: 'ID', weight: 0.5, text: (a) => String(a.id), render: (a) => <span className="font-mono text-2xs">{a.id}</span> },
  {
    key: 'name',
    label: 'Name',
    weight: 1.8,
    text: (a) => `${a.friendly_name} ${a.name}`,
    render: (a) => (
      <>
        <a href={a.links.edit} className="hover:underline">
          {a.friendly_name || a.name}
        </a>
        {a.friendly_name && a.friendly_name !== a.name && <span className="ml-1 text-2xs text-muted">{a.name}</span>}
      </>
    ),
  },
  { key: 'type', label: 'Type', text: (a) => a.node_type, render: (a) => a.node_type },
  { key: 'os', label: 'OS', text: (a) => `${a.os_base} ${a.os}`, render: (a) => <span title={a.os}>{a.os_base}</span> },
  { key: 'version', label: 'Version', text: (a) => a.node_version, render: (a) => <span className="tabular-nums">{a.node_version}</span> },
  { key: 'zone', label: 'Zone', weight: 1.4, text: (a) => a.zone_name ?? '', render: (a) => a.zone_name ?? '' },
  { key: 'status', label: 'Status', text: (a) => (a.active_pending ? 'pending' : a.status), render: (a) => <StatusCell status={a.active_pending ? 'pending' : a.status} details={a.status_details} /> },
  { key: 'tags', label: 'Tags', text: (a) => a.user_tags.join(' '), render: (a) => <span className="text-2xs text-muted">{a.user_tags.join(', ')}</span> },
  { key: 'heartbeat', label: 'Last heartbeat', render: (a) => <span className="text-muted">{formatTimestamp(a.last_heartbeat_at, { fallback: 'never' })}</span> },
];

/**
 * The registered actors (MON-042 fields the director has), in the generic table: every actor in one
 * scrolling viewport, virtualized, so a fleet of any size scrolls; quick find by name, OS, zone, tags.
 * The pane refreshes the rows (MON-069).
 */
export function ActorsTable({ rows }: { rows: readonly ActorRow[] }) {
  return <DataTable<ActorRow> id="actors-table" label="Actors" columns={COLUMNS} rows={rows} rowKey={(a) => a.id} paged={false} empty="No actors have registered yet." />;
}
