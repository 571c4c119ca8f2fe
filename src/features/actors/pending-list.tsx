import { useQuery } from '@tanstack/react-query';
import { PENDING_REFRESH_MS, type PendingNode } from '@/api/contracts/actors';
import { CommandButton } from '@/commands/command-menu';
import { DataTable, type DataColumn } from '@/ui/data-table';
import { formatTimestamp } from '@/ui/datetime';
import { getPending, pendingQueryKey } from './api';
import { StatusCell } from './status';

const COLUMNS: DataColumn<PendingNode>[] = [
  { key: 'name', label: 'Actor', text: (p) => p.name, render: (p) => p.name },
  { key: 'status', label: 'Status', text: (p) => p.status, render: (p) => <StatusCell status={p.status} details={p.status_details} /> },
  { key: 'registered', label: 'Registered', render: (p) => <span className="text-muted">{formatTimestamp(p.registered_at)}</span> },
  {
    key: 'clear',
    label: 'Clear',
    hideLabel: true,
    right: true,
    render: (p) => (
      <CommandButton command="actors.clearPending" args={{ id: p.id }} variant="ghost" aria-label={`Clear pending actor ${p.name}`}>
        Clear
      </CommandButton>
    ),
  },
];

/** The pending actors of an expanded bulk row, refreshed every 2000 ms while shown (MON-069). */
export function PendingList({ tokenId, tokenName, paused }: { tokenId: number; tokenName: string; paused: boolean }) {
  const q = useQuery({ queryKey: pendingQueryKey(tokenId), queryFn: () => getPending(tokenId, true), refetchInterval: paused ? false : PENDING_REFRESH_MS });
  if (q.isError && !q.data) return <p role="alert" className="px-2 py-1 text-red-300">{q.error.message}</p>;
  return (
    <div className="my-1 ml-6 text-xs">
      <DataTable<PendingNode>
        id="pending-actors-table"
        label={`Pending actors of ${tokenName || `token ${tokenId}`}`}
        columns={COLUMNS}
        rows={q.data}
        rowKey={(p) => p.id}
        loading={<p className="px-2 py-1 text-muted">Loading pending actors…</p>}
        empty="No pending actors."
      />
    </div>
  );
}
