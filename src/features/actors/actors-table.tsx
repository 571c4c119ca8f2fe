import type { ActorRow } from '@/api/contracts/actors';
import { StatusCell } from './status';
import { TableHead } from '@/ui/table-head';
import { formatTimestamp } from '@/ui/datetime';

const ACTOR_COLUMNS = ['ID', 'Name', 'Type', 'OS', 'Version', 'Zone', 'Status', 'Tags', 'Last heartbeat'].map((label) => ({ label }));

/** The registered actors (MON-042 fields the director has). */
export function ActorsTable({ rows }: { rows: readonly ActorRow[] }) {
  if (!rows.length) return <p className="py-3 text-muted">No actors have registered yet.</p>;
  return (
    <table aria-label="Actors" className="w-full text-left text-sm">
      <TableHead columns={ACTOR_COLUMNS} />
      <tbody>
        {rows.map((a) => (
          <tr key={a.id} className="border-b border-line/50">
            <td className="py-1 pr-2 font-mono text-2xs">{a.id}</td>
            <td className="py-1 pr-2">
              <a href={a.links.edit} className="hover:underline">
                {a.friendly_name || a.name}
              </a>
              {a.friendly_name && a.friendly_name !== a.name && <span className="ml-1 text-2xs text-muted">{a.name}</span>}
            </td>
            <td className="py-1 pr-2">{a.node_type}</td>
            <td className="py-1 pr-2" title={a.os}>
              {a.os_base}
            </td>
            <td className="py-1 pr-2 tabular-nums">{a.node_version}</td>
            <td className="py-1 pr-2">{a.zone_name ?? ''}</td>
            <td className="py-1 pr-2">
              <StatusCell status={a.active_pending ? 'pending' : a.status} details={a.status_details} />
            </td>
            <td className="py-1 pr-2 text-2xs text-muted">{a.user_tags.join(', ')}</td>
            <td className="py-1 text-muted">{formatTimestamp(a.last_heartbeat_at, { fallback: 'never' })}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
