import { useSnapshot } from 'valtio';
import type { BulkTokenRow } from '@/api/contracts/actors';
import { CommandButton, CommandMenu, runFrom } from '@/commands/command-menu';
import { commands } from '@/commands/registry';
import { DataTable, type DataColumn } from '@/ui/data-table';
import { formatTimestamp } from '@/ui/datetime';
import { PendingList } from './pending-list';
import { StatusCell } from './status';
import { actorsStore, modalOpen } from './store';

const when = (iso: string) => formatTimestamp(iso);
const labelOf = (row: BulkTokenRow) => row.name || `Token ${row.id}`;

function ExpandButton({ row }: { row: BulkTokenRow }) {
  const { expandedId } = useSnapshot(actorsStore);
  const expanded = expandedId === row.id;
  return (
    <button
      type="button"
      aria-expanded={expanded}
      aria-label={`${expanded ? 'Hide' : 'Show'} pending actors of ${labelOf(row)}`}
      disabled={!expanded && row.active_pending === 0}
      title={row.active_pending === 0 && !expanded ? 'No pending actors' : undefined}
      onClick={() => runFrom(commands, 'actors.togglePending', { id: row.id, active_pending: row.active_pending }, 'button')}
      className="rounded px-1 text-muted hover:text-ink disabled:opacity-30"
    >
      {expanded ? '▾' : '▸'}
    </button>
  );
}

const COLUMNS: DataColumn<BulkTokenRow>[] = [
  { key: 'expand', label: 'Expand', hideLabel: true, weight: 0.35, render: (r) => <ExpandButton row={r} /> },
  { key: 'id', label: 'ID', weight: 0.5, text: (r) => String(r.id), render: (r) => <span className="font-mono text-2xs">{r.id}</span> },
  { key: 'name', label: 'Name', weight: 1.5, text: labelOf, render: labelOf },
  { key: 'status', label: 'Status', text: (r) => r.status, render: (r) => <StatusCell status={r.status} details={r.status_details} /> },
  { key: 'pending', label: 'Pending', right: true, render: (r) => <span className="tabular-nums">{r.active_pending}</span> },
  { key: 'registered', label: 'Registered', right: true, render: (r) => <span className="tabular-nums">{r.registered}</span> },
  { key: 'created', label: 'Created', render: (r) => <span className="text-muted">{when(r.created_at)}</span> },
  { key: 'expires', label: 'Expires', render: (r) => <span className="text-muted">{when(r.expires_at)}</span> },
  {
    key: 'actions',
    label: 'Actions',
    hideLabel: true,
    right: true,
    weight: 1.4,
    render: (r) => (
      <span className="whitespace-nowrap">
        <CommandButton
          command="actors.showInstaller"
          args={{ id: r.id }}
          blockedReason={r.status === 'Expired' ? 'The token has expired' : r.actions.includes('installer') ? null : 'No installer for this token'}
          aria-label={`Installer for ${labelOf(r)}`}
        >
          Installer
        </CommandButton>
        <CommandMenu menu="row/bulk-token" args={r} label={`Actions for ${labelOf(r)}`} className="ml-1" />
      </span>
    ),
  },
];

/** MON-016: a title bar, an empty-state message, rows with an Installer button and an ellipsis menu; a row expands to its pending actors (MON-071). */
export function BulkTokensTable({ rows }: { rows: readonly BulkTokenRow[] }) {
  const snap = useSnapshot(actorsStore);
  return (
    <DataTable<BulkTokenRow>
      id="bulk-tokens-table"
      label="Bulk tokens"
      columns={COLUMNS}
      rows={rows}
      rowKey={(r) => r.id}
      empty="No bulk tokens yet. Create one to register actors."
      selectedKey={snap.selectedId}
      onSelect={(r) => (actorsStore.selectedId = r.id)}
      expanded={(r) => (snap.expandedId === r.id ? <PendingList tokenId={r.id} tokenName={r.name} paused={modalOpen(snap) || snap.pollingStopped} /> : null)}
    />
  );
}
