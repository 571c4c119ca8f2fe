/**
 * The DNS server of a dns action (dns_server_id; null is 'Default', the actor's own resolver) and
 * where its query may go. The action runs on both actors (the target answers as the DNS server) when
 * the server is the 'Destination Actor' entry (address DESTINATION_DNS_ADDRESS) or an address the
 * destination actor reported. A server at an address of the source actor is asked by the source
 * alone. Any other server is outside the two actors: the action ends incompatible rather than query
 * it. A server's address may carry a port ("10.0.0.5:5353"); 53 otherwise. The work carries the
 * chosen server as details.dns_server { address, port, name }.
 *
 * A monitor's action configuration may name a temporary server for its runs
 * (runtime_temporary_dns_server, MON-037): it replaces the Action's server for that run, and the same
 * rules apply to it. It is 'Destination Actor', the name or address of a configured DNS server, or an
 * IP address with an optional port.
 */
import net from 'node:net';
import type { Db } from '../db/index';
import { DESTINATION_DNS_ADDRESS } from '../../src/api/contracts/engine';

/** The name of the Destination Actor entry (dns_servers row with address DESTINATION_DNS_ADDRESS). */
const DESTINATION_DNS_NAME = 'Destination Actor';

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

/** The temporary server a monitor named: 'destination', a configured server, or an address. */
async function temporaryServer(db: Db, value: string): Promise<NamedServer | 'destination'> {
  if (value === DESTINATION_DNS_ADDRESS || value.toLowerCase() === DESTINATION_DNS_NAME.toLowerCase()) return 'destination';
  const [row] = await db.query<{ name: string; address: string }>(`select name, address from dns_servers where lower(name) = lower($1) or address = $1 order by (address = $1) desc, id limit 1`, [value]);
  if (row?.address === DESTINATION_DNS_ADDRESS) return 'destination';
  if (row) return { name: row.name, ...splitServerAddress(row.address) };
  return { name: value, ...splitServerAddress(value) };
}

/** Whether a temporary server value names a server this module can resolve (for the monitor editor's check). */
export async function knownTemporaryServer(db: Db, value: string): Promise<boolean> {
  const server = await temporaryServer(db, value.trim());
  return server === 'destination' || net.isIP(server.host) !== 0;
}

/**
 * The action's DNS server: null for Default, 'destination' for the Destination Actor entry.
 * `temporary`: a monitor's runtime_temporary_dns_server, which replaces the Action's own when set.
 */
async function namedServer(db: Db, actionId: number | null, temporary: string | null = null): Promise<NamedServer | 'destination' | null> {
  if (temporary?.trim()) return temporaryServer(db, temporary.trim());
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
export async function dnsUsesDestination(db: Db, actionId: number | null, destinationId: number | null, temporary: string | null = null): Promise<boolean> {
  if (destinationId === null) return false;
  const server = await namedServer(db, actionId, temporary);
  if (server === null) return false;
  if (server === 'destination') return true;
  const [dst] = await db.query<ActorAddresses>('select sim_address, capabilities from nodes where id = $1', [destinationId]);
  return !!dst && addressesOf(dst).includes(server.host);
}

/**
 * The details a dns action's work adds (dns_server), or the reason it cannot run: its server is
 * outside the two actors. `dst` is the destination when the action runs on both actors.
 */
export async function dnsServerWork(
  db: Db,
  actionId: number | null,
  src: ActorAddresses,
  dst: ActorAddresses | null,
  temporary: string | null = null,
): Promise<Record<string, unknown> | string> {
  const server = await namedServer(db, actionId, temporary);
  if (server === null) return {};
  if (server === 'destination') return dst ? { dns_server: { address: dst.sim_address, port: DNS_PORT, name: 'Destination Actor' } } : 'The DNS server is the destination actor, and this step has none.';
  const dns_server = { address: server.host, port: server.port, name: server.name };
  if ((dst && addressesOf(dst).includes(server.host)) || addressesOf(src).includes(server.host)) return { dns_server };
  return `The DNS server ${server.name} (${server.host}) is not an address of the source or destination actor, and actors query no address outside the two.`;
}
