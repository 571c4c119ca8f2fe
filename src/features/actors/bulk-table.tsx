import { Fragment } from 'react';
import { useSnapshot } from 'valtio';
import type { BulkTokenRow } from '@/api/contracts/actors';
import { commands } from '@/commands/registry';
import { ActionMenu } from '@/ui/action-menu';
import { Button } from '@/ui/button';
import { PendingList } from './pending-list';
import { StatusCell } from './status';
import { actorsStore, modalOpen } from './store';
import { TableHead, type Column } from './table-head';

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

const run = (id: string, args: unknown) => void commands.execute(id, args, 'button').catch(() => {});
const when = (iso: string) => new Date(iso).toLocaleString();

/** MON-071: one row expanded at a time, and only a row with pending actors. */
export function toggleExpanded(row: BulkTokenRow): void {
  if (actorsStore.expandedId === row.id) actorsStore.expandedId = null;
  else if (row.active_pending > 0) actorsStore.expandedId = row.id;
}

function TokenRow({ row, canManage }: { row: BulkTokenRow; canManage: boolean }) {
  const snap = useSnapshot(actorsStore);
  const expanded = snap.expandedId === row.id;
  const selected = snap.selectedId === row.id;
  const label = row.name || `Token ${row.id}`;
  const can = (a: BulkTokenRow['actions'][number]) => row.actions.includes(a);
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
            onClick={() => toggleExpanded(row)}
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
          <Button
            disabled={row.status === 'Expired' || !can('installer')}
            title={row.status === 'Expired' ? 'The token has expired' : undefined}
            aria-label={`Installer for ${label}`}
            onClick={() => run('actors.showInstaller', { id: row.id })}
          >
            Installer
          </Button>
          <ActionMenu
            label={`Actions for ${label}`}
            button={<span aria-hidden="true">⋯</span>}
            className="ml-1"
            entries={[
              { label: expanded ? 'Hide Pending' : 'Show Pending', onSelect: () => toggleExpanded(row), disabled: !expanded && row.active_pending === 0, reason: 'No pending actors' },
              { label: 'Register Push', onSelect: () => run('actors.registerPush', { id: row.id }), disabled: !can('register_push'), reason: 'The token has expired' },
              { label: 'Download', onSelect: () => run('actors.downloadTokenCsv', { id: row.id }) },
              { label: 'Clear', onSelect: () => run('actors.clearToken', { id: row.id }), disabled: !canManage, reason: 'Needs the actors.manage permission', separatorBefore: true },
            ]}
          />
        </td>
      </tr>
      {expanded && (
        <tr className="border-b border-line/50 bg-raised/40">
          <td colSpan={9}>
            <PendingList tokenId={row.id} tokenName={row.name} canManage={canManage} paused={modalOpen(snap)} />
          </td>
        </tr>
      )}
    </Fragment>
  );
}

/** MON-016: a title bar, an empty-state message, rows with an Installer button and an ellipsis menu. */
export function BulkTokensTable({ rows, canManage }: { rows: readonly BulkTokenRow[]; canManage: boolean }) {
  if (!rows.length) return <p className="py-3 text-muted">No bulk tokens yet. Create one to register actors.</p>;
  return (
    <table aria-label="Bulk tokens" className="w-full text-left text-sm">
      <TableHead columns={TOKEN_COLUMNS} />
      <tbody>
        {rows.map((r) => (
          <TokenRow key={r.id} row={r} canManage={canManage} />
        ))}
      </tbody>
    </table>
  );
}
