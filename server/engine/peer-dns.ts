/**
 * A dns action whose DNS server is the destination actor runs on both actors (the target answers as
 * the DNS server). It is so when its dns_server_id names the 'Destination Actor' entry (address
 * DESTINATION_DNS_ADDRESS) or a DNS server whose address is the destination actor's address.
 */
import type { Db } from '../db/index';
import { DESTINATION_DNS_ADDRESS } from '../../src/api/contracts/engine';

export async function dnsUsesDestination(db: Db, actionId: number | null, destinationId: number | null): Promise<boolean> {
  if (actionId === null || destinationId === null) return false;
  const [row] = await db.query<{ address: string | null; sim_address: string | null }>(
    `select s.address, n.sim_address
       from actions a left join dns_servers s on s.id = (a.details->>'dns_server_id')::int left join nodes n on n.id = $2
      where a.id = $1 and a.action_type = 'dns'`,
    [actionId, destinationId],
  );
  return !!row?.address && (row.address === DESTINATION_DNS_ADDRESS || row.address === row.sim_address);
}
