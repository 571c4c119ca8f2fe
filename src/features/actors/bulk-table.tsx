import { Fragment } from 'react';
import { useSnapshot } from 'valtio';
import type { BulkTokenRow } from '@/api/contracts/actors';
import { CommandButton, CommandMenu, runFrom } from '@/commands/command-menu';
import { commands } from '@/commands/registry';
import { PendingList } from './pending-list';
import { StatusCell } from './status';
import { actorsStore, modalOpen } from './store';
import { TableHead, type Column } from '@/ui/table-head';
import { formatTimestamp } from '@/ui/datetime';

const TOKEN_COLUMNS: Column[] = [
  { label: 'Expand', visible: false, className: 'w-6' },
  { label: 'ID' },
  { label: 'Name' },
  { label: 'Status' },
  { label: 'Pending', right: true },
  { label: 'Registered', right: true },
  { label: 'Created' },
  { label: 'Expires' },
  { label: 'Actions', visible: false },
];

const when = (iso: string) => formatTimestamp(iso);

function TokenRow({ row }: { row: BulkTokenRow }) {
  const snap = useSnapshot(actorsStore);
  const expanded = snap.expandedId === row.id;
  const selected = snap.selectedId === row.id;
  const label = row.name || `Token ${row.id}`;
  return (
    <Fragment>
      <tr
        aria-selected={selected}
        onClick={() => (actorsStore.selectedId = row.id)}
        onFocus={() => (actorsStore.selectedId = row.id)}
        className={`border-b border-line/50 ${selected ? 'bg-accent/10' : ''}`}
      >
        <td className="py-1 pr-1">
          <button
            type="button"
            aria-expanded={expanded}
            aria-label={`${expanded ? 'Hide' : 'Show'} pending actors of ${label}`}
            disabled={!expanded && row.active_pending === 0}
            title={row.active_pending === 0 && !expanded ? 'No pending actors' : undefined}
            onClick={() => runFrom(commands, 'actors.togglePending', { id: row.id, active_pending: row.active_pending }, 'button')}
            className="rounded px-1 text-muted hover:text-ink disabled:opacity-30"
          >
            {expanded ? '▾' : '▸'}
          </button>
        </td>
        <td className="py-1 pr-2 font-mono text-2xs">{row.id}</td>
        <td className="py-1 pr-2">{label}</td>
        <td className="py-1 pr-2">
          <StatusCell status={row.status} details={row.status_details} />
        </td>
        <td className="py-1 pr-2 text-right tabular-nums">{row.active_pending}</td>
        <td className="py-1 pr-2 text-right tabular-nums">{row.registered}</td>
        <td className="py-1 pr-2 text-muted">{when(row.created_at)}</td>
        <td className="py-1 pr-2 text-muted">{when(row.expires_at)}</td>
        <td className="py-1 text-right whitespace-nowrap">
          <CommandButton
            command="actors.showInstaller"
            args={{ id: row.id }}
            blockedReason={row.status === 'Expired' ? 'The token has expired' : row.actions.includes('installer') ? null : 'No installer for this token'}
            aria-label={`Installer for ${label}`}
          >
            Installer
          </CommandButton>
          <CommandMenu menu="row/bulk-token" args={row} label={`Actions for ${label}`} className="ml-1" />
        </td>
      </tr>
      {expanded && (
        <tr className="border-b border-line/50 bg-raised/40">
          <td colSpan={9}>
            <PendingList tokenId={row.id} tokenName={row.name} paused={modalOpen(snap)} />
          </td>
        </tr>
      )}
    </Fragment>
  );
}

/** MON-016: a title bar, an empty-state message, rows with an Installer button and an ellipsis menu. */
export function BulkTokensTable({ rows }: { rows: readonly BulkTokenRow[] }) {
  if (!rows.length) return <p className="py-3 text-muted">No bulk tokens yet. Create one to register actors.</p>;
  return (
    <table aria-label="Bulk tokens" className="w-full text-left text-sm">
      <TableHead columns={TOKEN_COLUMNS} />
      <tbody>
        {rows.map((r) => (
          <TokenRow key={r.id} row={r} />
        ))}
      </tbody>
    </table>
  );
}
