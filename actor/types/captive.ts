/**
 * The captive types, performed on one actor without leaving it:
 * - captive_dns: a DNS responder on the actor's own address answers the configured query with the
 *   configured response; the actor queries it and checks the answer (blocked: timed out, refused,
 *   no data, altered).
 * - captive_ioc_url: each URL is fetched only when its host is the actor's own address (an IP, or a
 *   name /etc/hosts maps to it; no DNS query is sent), from a server the actor runs there for the
 *   URL's path; any other URL makes the action incompatible with the reason. Never the internet.
 */
import dgram from 'node:dgram';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { WorkPayload } from '../../src/api/contracts/engine';
import { errorKind, listenTcp } from '../net-util';
import { Incompatible, type Outcome, type PerformOptions } from './contract';
import { askAndJudge } from './dns';
import { encodeRdata, serveDns } from './dns-wire';

const str = (v: unknown, fallback = '') => (typeof v === 'string' && v ? v : fallback);

export async function captiveDnsSource(w: WorkPayload, signal: AbortSignal, opts: PerformOptions): Promise<Outcome> {
  const query = str(w.details.query).toLowerCase().replace(/\.$/, '');
  const type = str(w.details.query_type, 'A').toUpperCase();
  let expected: Buffer;
  try {
    expected = encodeRdata(type, str(w.details.response));
  } catch (e) {
    return { outcome: 'errored', blocked: null, message: `The response is not a ${type} record: ${(e as Error).message}`, evidence: {} };
  }
  const sock = dgram.createSocket('udp4');
  serveDns(sock, (name, t) => (name === query && t === type ? expected : null), () => {}, opts.tamper ? (d) => opts.tamper!('captive_dns', d) : undefined);
  try {
    await new Promise<void>((resolve, reject) => {
      sock.once('error', reject);
      sock.bind({ port: 0, address: w.local_address, exclusive: true }, () => resolve());
    });
    return await askAndJudge(w.local_address, sock.address().port, query, type, expected, signal);
  } finally {
    sock.close();
  }
}

/** Names /etc/hosts maps to an address (no DNS query is sent). */
function hostsEntries(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  try {
    for (const line of fs.readFileSync('/etc/hosts', 'utf8').split('\n')) {
      const [addr, ...names] = line.replace(/#.*/, '').trim().split(/\s+/);
      if (!addr || !names.length) continue;
      for (const n of names) out.set(n.toLowerCase(), [...(out.get(n.toLowerCase()) ?? []), addr]);
    }
  } catch {
    /* no hosts file */
  }
  return out;
}

export async function captiveIocUrlSource(w: WorkPayload, signal: AbortSignal, opts: PerformOptions): Promise<Outcome> {
  const raw = Array.isArray(w.details.urls) ? w.details.urls.filter((u): u is string => typeof u === 'string') : [];
  if (!raw.length) return { outcome: 'errored', blocked: null, message: 'The action lists no URL.', evidence: {} };
  const own = w.local_address;
  const hosts = hostsEntries();
  const urls = raw.slice(0, 20).map((text) => {
    let u: URL;
    try {
      u = new URL(text.trim());
    } catch {
      throw new Incompatible(`${text} is not a URL.`);
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Incompatible(`${text} is not an http or https URL.`);
    const host = u.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    const addresses = net.isIP(host) ? [host] : (hosts.get(host) ?? []);
    if (!addresses.includes(own)) {
      throw new Incompatible(`${text} does not resolve to this actor's address (${own}); captive URLs are fetched only from the actor itself, never from the internet.`);
    }
    if (u.protocol === 'https:' && !opts.tls) throw new Incompatible('This actor has no TLS certificate for https URLs (openssl was not found).');
    return u;
  });
  const limit = Math.min(Math.max(w.timeout_ms, 1000), 30_000);
  const results: { url: string; served_port: number; status: number; bytes: number; result: string }[] = [];
  for (const u of urls) {
    if (signal.aborted) throw new Error('aborted');
    const r = await fetchCaptive(u, own, limit, signal, opts);
    results.push({ url: u.href, ...r });
    if (r.result !== 'fetched') return { outcome: 'ran', blocked: true, message: `${u.href}: ${r.result}`, evidence: { urls: results } };
  }
  return { outcome: 'ran', blocked: false, message: null, evidence: { urls: results } };
}

const IOC_BODY = 'vigil captive IOC content\n';

/** Serves the URL's path on the actor's address and fetches it. */
async function fetchCaptive(u: URL, address: string, timeoutMs: number, signal: AbortSignal, opts: PerformOptions) {
  const tls = u.protocol === 'https:';
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const body = Buffer.from(IOC_BODY);
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(opts.tamper ? opts.tamper('captive_ioc_url', body) : body);
    req.resume();
  };
  const server = tls && opts.tls ? https.createServer({ key: opts.tls.key, cert: opts.tls.cert }, handler) : http.createServer(handler);
  server.on('tlsClientError', () => {});
  const wanted = Number(u.port) || (tls ? 443 : 80);
  try {
    const bound = await listenTcp(server, address, wanted);
    const got = await new Promise<{ status: number; body: Buffer } | { failure: string }>((resolve) => {
      const lib = tls ? https : http;
      const req = lib.request({ host: address, port: bound.port, path: `${u.pathname}${u.search}`, method: 'GET', timeout: timeoutMs, signal, rejectUnauthorized: false, agent: false });
      req.on('timeout', () => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
      req.on('error', (e: NodeJS.ErrnoException) => resolve({ failure: errorKind(e) }));
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > 64 * 1024) return void res.destroy();
          chunks.push(c);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        res.on('error', () => resolve({ failure: 'reset' }));
      });
      req.end();
    });
    if ('failure' in got) return { served_port: bound.port, status: 0, bytes: 0, result: `connection ${got.failure}` };
    const intact = got.status === 200 && got.body.toString() === IOC_BODY;
    return { served_port: bound.port, status: got.status, bytes: got.body.length, result: intact ? 'fetched' : got.status !== 200 ? `answered ${got.status}` : 'the content differs (altered content)' };
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
}
