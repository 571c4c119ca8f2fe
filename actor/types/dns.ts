/**
 * dns with a named DNS server (details.dns_server, chosen by the director: server/engine/peer-dns.ts).
 * When it is the destination actor, the target answers on the server's address and UDP port (53, or
 * the port it may open instead) for the action's domain with one record of the asked type (A: the
 * server's address), the source queries exactly that server and checks the answer. When it is an
 * address of the source actor itself, the source queries it alone and any record of the type passes.
 * Any other address is refused (incompatible): nothing is sent outside the two actors. Without a
 * named server the source asks its configured resolver (perform.ts). Each query waits at most 2 s.
 * Blocked: timed out, an error rcode, no record, or an altered record.
 */
import dgram from 'node:dgram';
import dns from 'node:dns';
import type { WorkPayload } from '../../src/api/contracts/engine';
import { bindUdp } from '../net-util';
import { Incompatible, type Outcome, type PerformOptions, type TargetHandle } from './contract';
import { RCODES, encodeRdata, queryDns, serveDns } from './dns-wire';
import { servePort } from './serve-port';

export const DNS_PORT = 53;
const QUERY_TIMEOUT_MS = 2000;

const str = (v: unknown, fallback = '') => (typeof v === 'string' && v ? v : fallback);

/** What the destination actor answers for each query type. */
export function destinationRecord(type: string, address: string, domain: string): Buffer {
  const o = address.split('.').map((n) => Number(n).toString(16).padStart(2, '0'));
  const values: Record<string, string> = {
    A: address,
    AAAA: `::ffff:${o[0]}${o[1]}:${o[2]}${o[3]}`,
    TXT: 'vigil-actor',
    MX: `10 mail.${domain}`,
    SRV: `0 0 443 vigil.${domain}`,
  };
  return encodeRdata(type, values[type] ?? `vigil.${domain}`);
}

interface DnsServer {
  address: string;
  port: number;
}

/** The server the director named in the work, if any. */
export function namedServer(w: WorkPayload): DnsServer | null {
  const s = w.details.dns_server as Partial<DnsServer> | undefined;
  if (!s || typeof s.address !== 'string' || !s.address) return null;
  const port = Number(s.port);
  return { address: s.address, port: Number.isInteger(port) && port >= 1 && port <= 65535 ? port : DNS_PORT };
}

export async function dnsTarget(w: WorkPayload, opts: PerformOptions): Promise<TargetHandle> {
  const domain = str(w.details.domain).toLowerCase().replace(/\.$/, '');
  const server = namedServer(w) ?? { address: w.local_address, port: DNS_PORT };
  const sock = dgram.createSocket('udp4');
  const queries: { from: string; name: string; type: string }[] = [];
  serveDns(
    sock,
    (name, type) => (name === domain ? destinationRecord(type, server.address, domain) : null),
    (q) => queries.length < 50 && queries.push(q),
    opts.tamper ? (data) => opts.tamper!('dns', data) : undefined,
  );
  return servePort(
    server.port,
    (port) => bindUdp(sock, server.address, port),
    () => queries,
    async () => {
      try {
        sock.close();
      } catch {
        /* closed */
      }
    },
    true,
  );
}

/** Asks `server:port` (from the address `from`) for the action's record and judges the answer against `expected` (null: any record of the type). */
export async function askAndJudge(server: string, port: number, domain: string, type: string, expected: Buffer | null, signal: AbortSignal, from?: string): Promise<Outcome> {
  const started = Date.now();
  const answer = await queryDns(server, port, domain, type, QUERY_TIMEOUT_MS, signal, from);
  if (signal.aborted) throw new Error('aborted');
  const base = { server, port, domain, query_type: type, ms: Date.now() - started };
  if (!answer) return { outcome: 'ran', blocked: true, message: `DNS query to ${server}:${port} timed out`, evidence: base };
  const evidence = { ...base, rcode: RCODES[answer.rcode] ?? String(answer.rcode), answers: answer.answers.map((a) => `${a.type} ${a.text}`) };
  if (answer.rcode !== 0) return { outcome: 'ran', blocked: true, message: `DNS query ${RCODES[answer.rcode] ?? answer.rcode}`, evidence };
  const same = answer.answers.find((a) => a.type === type);
  if (!same) return { outcome: 'ran', blocked: true, message: 'DNS query no data', evidence };
  if (expected && !same.data.equals(expected)) return { outcome: 'ran', blocked: true, message: `DNS answer differs from the expected one (altered content): ${same.text}`, evidence };
  return { outcome: 'ran', blocked: false, message: null, evidence };
}

export async function dnsPeerSource(w: WorkPayload, signal: AbortSignal): Promise<Outcome> {
  const server = namedServer(w);
  const peer = w.peer_address;
  if (!server && !peer) return dnsSource(w, signal);
  const domain = str(w.details.domain).toLowerCase().replace(/\.$/, '');
  const type = str(w.details.query_type, 'A').toUpperCase();
  if (!/^[a-z0-9.-]{1,253}$/.test(domain)) return { outcome: 'errored', blocked: null, message: `Invalid domain "${domain}"`, evidence: {} };
  const address = server?.address ?? peer!;
  const port = server?.port ?? DNS_PORT;
  if (peer && (address === peer || (w.peer_addresses ?? []).includes(address))) {
    return askAndJudge(address, w.port_map?.[String(port)] ?? port, domain, type, destinationRecord(type, address, domain), signal, w.local_address);
  }
  if (address === w.local_address) return askAndJudge(address, port, domain, type, null, signal, w.local_address);
  throw new Incompatible(`The DNS server ${address} is not an address of this actor or of the destination actor; the actor queries no address outside the two.`);
}

/** dns without a named server: the source asks its configured resolver (perform.ts dispatches here too). */
export async function dnsSource(w: WorkPayload, signal: AbortSignal): Promise<Outcome> {
  const d = w.details;
  const domain = str(d.domain);
  const type = (typeof d.query_type === 'string' ? d.query_type : 'A').toUpperCase();
  if (!/^[A-Za-z0-9.-]{1,253}$/.test(domain)) return { outcome: 'errored', blocked: null, message: `Invalid domain "${domain}"`, evidence: {} };
  const resolver = new dns.promises.Resolver({ timeout: 2000, tries: 1 });
  const onAbort = () => resolver.cancel();
  signal.addEventListener('abort', onAbort, { once: true });
  const servers = resolver.getServers();
  const started = Date.now();
  try {
    const answer = await resolver.resolve(domain, type as 'A');
    return { outcome: 'ran', blocked: false, message: null, evidence: { domain, query_type: type, resolvers: servers, answer, ms: Date.now() - started } };
  } catch (e) {
    if (signal.aborted) throw new Error('aborted');
    const code = (e as NodeJS.ErrnoException).code ?? 'ERROR';
    const label: Record<string, string> = { ENOTFOUND: 'NXDOMAIN', ETIMEOUT: 'timed out', ECONNREFUSED: 'refused', ESERVFAIL: 'SERVFAIL', EREFUSED: 'REFUSED', ENODATA: 'no data' };
    return { outcome: 'ran', blocked: true, message: `DNS query ${label[code] ?? code}`, evidence: { domain, query_type: type, resolvers: servers, error: code, ms: Date.now() - started } };
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
