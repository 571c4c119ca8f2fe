/**
 * file_transfer through a dns tunnel: the file travels in DNS queries for names under the action's
 * DNS domain, base32 in the labels with a sequence number (upload), or in TXT answers (download), sent
 * over UDP to the destination actor, which answers as the domain's DNS server, reassembles and hashes.
 */
import crypto from 'node:crypto';
import dgram from 'node:dgram';
import { Incompatible } from './contract';
import { encodeRdata, queryDns, serveDns, RCODES } from './dns-wire';

export const MAX_TUNNEL_BYTES = 512 * 1024;
const QUERY_TIMEOUT_MS = 2000;
const TRIES = 3;
const WINDOW = 8;
const DOWN_CHUNK = 150;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

export function base32(data: Buffer): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of data) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

export function unbase32(text: string): Buffer {
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of text) {
    const v = ALPHABET.indexOf(ch);
    if (v < 0) throw new Error(`"${ch}" is not base32`);
    value = ((value << 5) | v) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

export function checkDomain(domain: string): string {
  const d = domain.trim().toLowerCase().replace(/\.$/, '');
  if (!d) throw new Incompatible('A dns tunnel needs a DNS domain.');
  if (!/^(?=.{1,150}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/.test(d)) throw new Incompatible(`"${domain}" is not a DNS domain a dns tunnel can use (at most 150 characters).`);
  return d;
}

/** Bytes one upload query carries: base32 labels of up to 63 characters within the 253-character name. */
export function bytesPerQuery(domain: string): number {
  const budget = 253 - `.999999.ffffffff.u.${domain}`.length;
  let chars = Math.floor((budget * 63) / 64 / 8) * 8;
  while (chars + Math.ceil(chars / 63) > budget) chars -= 8;
  return (chars / 8) * 5;
}

const labels = (b32: string) => b32.match(/.{1,63}/g)?.join('.') ?? '';

interface Session {
  chunks: Map<number, Buffer>;
  bytes: number;
}

export interface TunnelServer {
  sock: dgram.Socket;
  sessions: () => { id: string; chunks: number; bytes: number; result?: string }[];
}

/**
 * The destination's DNS server of the tunnel. `served`: the bytes a download fetches (null for an
 * upload); `receive`: the digest of an upload's reassembled bytes.
 */
export function tunnelServer(domain: string, served: Buffer | null, receive: (data: Buffer) => Promise<string>): TunnelServer {
  const sock = dgram.createSocket('udp4');
  const sessions = new Map<string, Session & { result?: string }>();
  const suffix = `.${domain}`;
  const txt = (s: string) => encodeRdata('TXT', s);
  const pending = new Map<string, Promise<string>>();
  // Finishing is asynchronous (decoding may run a program): the answer comes with a retried query.
  const finish = (id: string, total: number): string | null => {
    const s = sessions.get(id);
    if (!s) return 'missing=all';
    if (s.result) return s.result;
    for (let i = 0; i < total; i++) if (!s.chunks.has(i)) return `missing=${i}`;
    if (!pending.has(id)) {
      const data = Buffer.concat([...Array(total).keys()].map((i) => s.chunks.get(i) ?? Buffer.alloc(0)));
      pending.set(id, receive(data).then((r) => (s.result = r)));
    }
    return null;
  };
  serveDns(
    sock,
    (name, type) => {
      if (type !== 'TXT' || !name.endsWith(suffix)) return null;
      const parts = name.slice(0, -suffix.length).split('.');
      const verb = parts.at(-1);
      const id = parts.at(-2) ?? '';
      const n = Number(parts.at(-3));
      if (!/^[0-9a-f]{8}$/.test(id) || !Number.isInteger(n) || n < 0) return null;
      if (verb === 'u' && !served) {
        let s = sessions.get(id);
        if (!s) {
          if (sessions.size >= 4) return null;
          s = { chunks: new Map(), bytes: 0 };
          sessions.set(id, s);
        }
        const data = unbase32(parts.slice(0, -3).join(''));
        if (!s.chunks.has(n)) {
          if (s.bytes + data.length > MAX_TUNNEL_BYTES) return txt('too-large');
          s.chunks.set(n, data);
          s.bytes += data.length;
        }
        return txt(`ok ${n}`);
      }
      if (verb === 'f' && !served) {
        const r = finish(id, n);
        return r === null ? null : txt(r);
      }
      if (verb === 'd' && served) {
        if (n === 999999) return txt(`bytes=${served.length} chunk=${DOWN_CHUNK}`);
        return txt(served.subarray(n * DOWN_CHUNK, (n + 1) * DOWN_CHUNK).toString('base64'));
      }
      return null;
    },
    () => {},
  );
  return { sock, sessions: () => [...sessions.entries()].map(([id, s]) => ({ id, chunks: s.chunks.size, bytes: s.bytes, ...(s.result ? { result: s.result } : {}) })) };
}

type Ask = (name: string) => Promise<{ text: string } | { failure: string }>;

function asker(server: string, port: number, signal: AbortSignal): { ask: Ask; count: () => number } {
  let queries = 0;
  const ask: Ask = async (name) => {
    let last = 'timed out';
    for (let i = 0; i < TRIES && !signal.aborted; i++) {
      queries++;
      const a = await queryDns(server, port, name, 'TXT', QUERY_TIMEOUT_MS, signal);
      if (!a) continue;
      const txt = a.answers.find((x) => x.type === 'TXT');
      if (a.rcode === 0 && txt) return { text: txt.data.subarray(1, 1 + (txt.data[0] ?? 0)).toString('utf8') };
      last = `answered ${RCODES[a.rcode] ?? a.rcode}`;
      if (a.rcode !== 3) break;
    }
    return { failure: last };
  };
  return { ask, count: () => queries };
}

/** Runs `work` over indexes 0..n-1, WINDOW at a time; the first failure wins. */
async function windowed(n: number, work: (i: number) => Promise<string | null>): Promise<string | null> {
  let next = 0;
  let failure: string | null = null;
  const lane = async () => {
    while (failure === null && next < n) {
      const i = next++;
      const f = await work(i);
      if (f !== null) failure ??= f;
    }
  };
  await Promise.all(Array.from({ length: Math.min(WINDOW, n) }, lane));
  return failure;
}

export type TunnelResult = ({ received: { sha256: string; bytes: number } } | { data: Buffer } | { failure: string }) & { queries: number };

/** The source's upload: every chunk acknowledged, then the digest of what the server reassembled. */
export async function tunnelUpload(server: string, port: number, domain: string, data: Buffer, signal: AbortSignal): Promise<TunnelResult> {
  const id = crypto.randomBytes(4).toString('hex');
  const per = bytesPerQuery(domain);
  const total = Math.ceil(data.length / per);
  const { ask, count } = asker(server, port, signal);
  const failure = await windowed(total, async (i) => {
    const r = await ask(`${labels(base32(data.subarray(i * per, (i + 1) * per)))}.${i}.${id}.u.${domain}`);
    return 'failure' in r ? `chunk ${i} ${r.failure}` : r.text === `ok ${i}` ? null : `chunk ${i} answered "${r.text.slice(0, 60)}"`;
  });
  if (failure) return { failure, queries: count() };
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && !signal.aborted) {
    const r = await ask(`${total}.${id}.f.${domain}`);
    if (!('failure' in r)) {
      const m = /sha256=([0-9a-f]{64}) bytes=(\d+)/.exec(r.text);
      return m ? { received: { sha256: m[1] ?? '', bytes: Number(m[2]) }, queries: count() } : { failure: `the server answered "${r.text.slice(0, 60)}"`, queries: count() };
    }
    // NXDOMAIN while the server is still decoding: ask again.
    if (r.failure !== 'answered NXDOMAIN') return { failure: `the final query ${r.failure}`, queries: count() };
    await new Promise((res) => setTimeout(res, 100));
  }
  return { failure: 'the final query timed out', queries: count() };
}

/** The source's download: the size, then every chunk from TXT answers. */
export async function tunnelDownload(server: string, port: number, domain: string, signal: AbortSignal): Promise<TunnelResult> {
  const id = crypto.randomBytes(4).toString('hex');
  const { ask, count } = asker(server, port, signal);
  const head = await ask(`999999.${id}.d.${domain}`);
  if ('failure' in head) return { failure: `the first query ${head.failure}`, queries: count() };
  const m = /^bytes=(\d+) chunk=(\d+)$/.exec(head.text);
  const size = Number(m?.[1] ?? -1);
  const chunk = Number(m?.[2] ?? 0);
  if (!m || size > MAX_TUNNEL_BYTES || chunk < 1) return { failure: `the server answered "${head.text.slice(0, 60)}"`, queries: count() };
  const parts: Buffer[] = [];
  const failure = await windowed(Math.ceil(size / chunk), async (i) => {
    const r = await ask(`${i}.${id}.d.${domain}`);
    if ('failure' in r) return `chunk ${i} ${r.failure}`;
    parts[i] = Buffer.from(r.text, 'base64');
    return null;
  });
  if (failure) return { failure, queries: count() };
  return { data: Buffer.concat(parts), queries: count() };
}
