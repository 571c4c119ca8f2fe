/**
 * The DNS server of a dns action (dns_server_id; null is 'Default', the actor's own resolver) and
 * where its query may go. The action runs on both actors (the target answers as the DNS server) when
 * the server is the 'Destination Actor' entry (address DESTINATION_DNS_ADDRESS) or an address the
 * destination actor reported. A server at an address of the source actor is asked by the source
 * alone. Any other server is outside the two actors: the action ends incompatible rather than query
 * it. A server's address may carry a port ("10.0.0.5:5353"); 53 otherwise. The work carries the
 * chosen server as details.dns_server { address, port, name }.
 */
import net from 'node:net';
import type { Db } from '../db/index';
import { DESTINATION_DNS_ADDRESS } from '../../src/api/contracts/engine';

export const DNS_PORT = 53;

/** What the engine knows of an actor. */
export interface ActorAddresses {
  sim_address: string;
  capabilities: { addresses?: string[] };
}

interface NamedServer {
  name: string;
  host: string;
  port: number;
}

/** "host", "host:port" or "[v6]:port". */
export function splitServerAddress(address: string): { host: string; port: number } {
  const m = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(address) ?? (net.isIPv6(address) ? null : /^([^:]+):(\d{1,5})$/.exec(address));
  const port = m?.[2] ? Number(m[2]) : DNS_PORT;
  return { host: m?.[1] ?? address, port: port >= 1 && port <= 65535 ? port : DNS_PORT };
}

/** The action's DNS server: null for Default, 'destination' for the Destination Actor entry. */
async function namedServer(db: Db, actionId: number | null): Promise<NamedServer | 'destination' | null> {
  if (actionId === null) return null;
  const [row] = await db.query<{ name: string | null; address: string | null }>(
    `select s.name, s.address from actions a left join dns_servers s on s.id = (a.details->>'dns_server_id')::int where a.id = $1 and a.action_type = 'dns'`,
    [actionId],
  );
  if (!row?.address) return null;
  if (row.address === DESTINATION_DNS_ADDRESS) return 'destination';
  return { name: row.name ?? row.address, ...splitServerAddress(row.address) };
}

const addressesOf = (n: ActorAddresses) => [n.sim_address, ...(n.capabilities.addresses ?? [])];

/** Whether the action's DNS server is the destination actor (so the action runs on both actors). */
export async function dnsUsesDestination(db: Db, actionId: number | null, destinationId: number | null): Promise<boolean> {
  if (destinationId === null) return false;
  const server = await namedServer(db, actionId);
  if (server === null) return false;
  if (server === 'destination') return true;
  const [dst] = await db.query<ActorAddresses>('select sim_address, capabilities from nodes where id = $1', [destinationId]);
  return !!dst && addressesOf(dst).includes(server.host);
}

/**
 * The details a dns action's work adds (dns_server), or the reason it cannot run: its server is
 * outside the two actors. `dst` is the destination when the action runs on both actors.
 */
export async function dnsServerWork(db: Db, actionId: number | null, src: ActorAddresses, dst: ActorAddresses | null): Promise<Record<string, unknown> | string> {
  const server = await namedServer(db, actionId);
  if (server === null) return {};
  if (server === 'destination') return dst ? { dns_server: { address: dst.sim_address, port: DNS_PORT, name: 'Destination Actor' } } : 'The DNS server is the destination actor, and this step has none.';
  const dns_server = { address: server.host, port: server.port, name: server.name };
  if ((dst && addressesOf(dst).includes(server.host)) || addressesOf(src).includes(server.host)) return { dns_server };
  return `The DNS server ${server.name} (${server.host}) is not an address of the source or destination actor, and actors query no address outside the two.`;
}
