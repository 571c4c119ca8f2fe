import { useQuery } from '@tanstack/react-query';
import { PENDING_REFRESH_MS } from '@/api/contracts/actors';
import { CommandButton } from '@/commands/command-menu';
import { getPending, pendingQueryKey } from './api';
import { StatusCell } from './status';
import { TableHead } from '@/ui/table-head';
import { formatTimestamp } from '@/ui/datetime';

const PENDING_COLUMNS = [{ label: 'Actor' }, { label: 'Status' }, { label: 'Registered' }, { label: 'Clear', visible: false }];

/** The pending actors of an expanded bulk row, refreshed every 2000 ms while shown (MON-069). */
export function PendingList({ tokenId, tokenName, paused }: { tokenId: number; tokenName: string; paused: boolean }) {
  const q = useQuery({ queryKey: pendingQueryKey(tokenId), queryFn: () => getPending(tokenId, true), refetchInterval: paused ? false : PENDING_REFRESH_MS });
  const label = `Pending actors of ${tokenName || `token ${tokenId}`}`;
  if (q.isPending) return <p className="px-2 py-1 text-muted">Loading pending actors…</p>;
  if (q.isError && !q.data) return <p role="alert" className="px-2 py-1 text-red-300">{q.error.message}</p>;
  const rows = q.data ?? [];
  if (!rows.length) return <p className="px-2 py-1 text-muted">No pending actors.</p>;
  return (
    <table aria-label={label} className="my-1 ml-6 w-[calc(100%-1.5rem)] text-left text-xs">
      <TableHead dense columns={PENDING_COLUMNS} />
      <tbody>
        {rows.map((p) => (
          <tr key={p.id} className="border-t border-line/40">
            <td className="py-0.5 pr-2">{p.name}</td>
            <td className="py-0.5 pr-2">
              <StatusCell status={p.status} details={p.status_details} />
            </td>
            <td className="py-0.5 pr-2 text-muted">{formatTimestamp(p.registered_at)}</td>
            <td className="py-0.5 text-right">
              <CommandButton command="actors.clearPending" args={{ id: p.id }} variant="ghost" aria-label={`Clear pending actor ${p.name}`}>
                Clear
              </CommandButton>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
