/**
 * dns with the destination actor as the DNS server: the target answers on UDP port 53 (or the port it
 * may open instead) for the action's domain with one record of the asked type (A: its own address),
 * the source queries it and checks the answer. Without a destination the source asks its configured
 * resolver (perform.ts). Blocked: timed out, an error rcode, no record, or an altered record.
 */
import dgram from 'node:dgram';
import type { WorkPayload } from '../../src/api/contracts/engine';
import { bindUdp } from '../net-util';
import { dnsSource, type Outcome, type PerformOptions, type TargetHandle } from '../perform';
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

export async function dnsTarget(w: WorkPayload, opts: PerformOptions): Promise<TargetHandle> {
  const domain = str(w.details.domain).toLowerCase().replace(/\.$/, '');
  const sock = dgram.createSocket('udp4');
  const queries: { from: string; name: string; type: string }[] = [];
  serveDns(
    sock,
    (name, type) => (name === domain ? destinationRecord(type, w.local_address, domain) : null),
    (q) => queries.length < 50 && queries.push(q),
    opts.tamper ? (data) => opts.tamper!('dns', data) : undefined,
  );
  return servePort(
    DNS_PORT,
    (port) => bindUdp(sock, w.local_address, port),
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

/** Asks `server:port` for the action's record and judges the answer against `expected`. */
export async function askAndJudge(server: string, port: number, domain: string, type: string, expected: Buffer, signal: AbortSignal): Promise<Outcome> {
  const started = Date.now();
  const answer = await queryDns(server, port, domain, type, QUERY_TIMEOUT_MS, signal);
  if (signal.aborted) throw new Error('aborted');
  const base = { server, port, domain, query_type: type, ms: Date.now() - started };
  if (!answer) return { outcome: 'ran', blocked: true, message: `DNS query to ${server}:${port} timed out`, evidence: base };
  const evidence = { ...base, rcode: RCODES[answer.rcode] ?? String(answer.rcode), answers: answer.answers.map((a) => `${a.type} ${a.text}`) };
  if (answer.rcode !== 0) return { outcome: 'ran', blocked: true, message: `DNS query ${RCODES[answer.rcode] ?? answer.rcode}`, evidence };
  const same = answer.answers.find((a) => a.type === type);
  if (!same) return { outcome: 'ran', blocked: true, message: 'DNS query no data', evidence };
  if (!same.data.equals(expected)) return { outcome: 'ran', blocked: true, message: `DNS answer differs from the expected one (altered content): ${same.text}`, evidence };
  return { outcome: 'ran', blocked: false, message: null, evidence };
}

export async function dnsPeerSource(w: WorkPayload, signal: AbortSignal): Promise<Outcome> {
  const peer = w.peer_address;
  if (!peer) return dnsSource(w, signal);
  const domain = str(w.details.domain).toLowerCase().replace(/\.$/, '');
  const type = str(w.details.query_type, 'A').toUpperCase();
  if (!/^[a-z0-9.-]{1,253}$/.test(domain)) return { outcome: 'errored', blocked: null, message: `Invalid domain "${domain}"`, evidence: {} };
  const port = w.port_map?.[String(DNS_PORT)] ?? DNS_PORT;
  return askAndJudge(peer, port, domain, type, destinationRecord(type, peer, domain), signal);
}
