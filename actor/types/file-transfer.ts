/**
 * file_transfer: the file-library file crosses between the two actors over http, https or ftp on
 * the target port (target_port, else 80/443/21; another port when the actor may not open it). GET:
 * the target serves the file and the source downloads it (ftp RETR); POST/PUT: the source uploads it
 * and the target receives it (ftp STOR). The receiver hashes what arrived; with compare_transfer a
 * different sha256 is blocked (altered). Refused, reset and timed-out transfers are blocked. gzip
 * content encoding is applied on the wire; scp, tunnels and other encodings end incompatible with the reason.
 */
import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';
import type { WorkPayload, WorkFile } from '../../src/api/contracts/engine';
import { MAX_WORK_FILE_BYTES } from '../../src/api/contracts/engine';
import net from 'node:net';
import { errorKind, listenTcp } from '../net-util';
import { Incompatible, type Outcome, type PerformOptions, type TargetHandle } from '../perform';
import { ftpSession, ftpTransfer, sha256Digest } from './ftp';
import { servePort } from './serve-port';

const TRANSFER_TIMEOUT_MS = 30_000;
const MAX_WIRE_BYTES = MAX_WORK_FILE_BYTES + 64 * 1024;
const DEFAULT_PORTS: Record<string, number> = { http: 80, https: 443, ftp: 21 };

const str = (v: unknown) => (typeof v === 'string' ? v : '');

interface Plan {
  layer: 'http' | 'https' | 'ftp';
  port: number;
  method: 'GET' | 'POST' | 'PUT';
  gzip: boolean;
  file: WorkFile;
  path: string;
  /** No target_port: the app layer's default port (served elsewhere when the host already uses it). */
  defaultPort: boolean;
}

/** What the details ask for, or Incompatible with the reason. */
function plan(w: WorkPayload, opts: PerformOptions): Plan {
  const d = w.details;
  const layer = str(d.app_layer) || 'http';
  if (layer !== 'http' && layer !== 'https' && layer !== 'ftp') throw new Incompatible(`file_transfer over ${layer} is not supported by this actor (http, https and ftp are).`);
  if (layer === 'https' && !opts.tls) throw new Incompatible('This actor has no TLS certificate for https transfers (openssl was not found).');
  const tunnel = str(d.tunnel_protocol) || 'none';
  if (tunnel !== 'none') throw new Incompatible(`file_transfer through a ${tunnel} tunnel is not supported by this actor.`);
  const encodings = str(d.content_encoding).split(',').map((s) => s.trim()).filter(Boolean);
  const other = encodings.find((e) => e !== 'gzip');
  if (other) throw new Incompatible(`The ${other} content encoding is not supported by this actor (gzip is).`);
  const file = w.files?.[0];
  if (!file) throw new Incompatible('file_transfer needs a file from the file library.');
  const method = str(d.method).toUpperCase();
  const chosen = typeof d.target_port === 'number' && d.target_port > 0;
  const port = chosen ? (d.target_port as number) : (DEFAULT_PORTS[layer] ?? 80);
  return {
    layer,
    port,
    method: method === 'POST' || method === 'PUT' ? method : 'GET',
    gzip: encodings.includes('gzip'),
    defaultPort: !chosen,
    file,
    path: layer === 'ftp' ? file.name.replace(/[^\w.-]/g, '_') : `/${encodeURIComponent(file.name)}`,
  };
}

const wire = (p: Plan, data: Buffer) => (p.gzip ? zlib.gzipSync(data) : data);
const unwire = (p: Plan, data: Buffer) => (p.gzip ? zlib.gunzipSync(data, { maxOutputLength: MAX_WIRE_BYTES }) : data);

function readBody(stream: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_WIRE_BYTES) return void stream.destroy(new Error('the transfer is larger than allowed'));
      chunks.push(c);
    });
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
    stream.on('aborted', () => reject(Object.assign(new Error('reset'), { code: 'ECONNRESET' })));
  });
}

export async function fileTransferTarget(w: WorkPayload, opts: PerformOptions): Promise<TargetHandle> {
  const p = plan(w, opts);
  if (!opts.fetchFile) throw new Incompatible('This actor cannot download files from its director.');
  const served = p.method === 'GET' ? wire(p, await opts.fetchFile(p.file.id)) : null;
  const received: { from: string; method: string; bytes: number; sha256?: string }[] = [];
  const tamper = (data: Buffer) => (opts.tamper ? opts.tamper('file_transfer', data) : data);
  const digest = (arrived: Buffer) => downloaded(p, arrived);
  if (p.layer === 'ftp') {
    const file = { name: p.path, served, maxBytes: MAX_WIRE_BYTES, tamper, digest, onReceived: (r: { from: string; bytes: number; sha256?: string }) => received.push({ ...r, method: p.method }) };
    const sockets = new Set<net.Socket>();
    const ftp = net.createServer((c) => {
      sockets.add(c);
      c.on('close', () => sockets.delete(c));
      c.on('error', () => {});
      ftpSession(c, w.local_address, file);
    });
    const close = async () => {
      for (const c of sockets) c.destroy();
      await new Promise<void>((r) => ftp.close(() => r()));
    };
    return servePort(p.port, (port) => listenTcp(ftp, w.local_address, port), () => received, close, p.defaultPort);
  }
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    void readBody(req)
      .then((body) => {
        const from = req.socket.remoteAddress ?? '';
        if (req.url !== p.path || req.method !== p.method) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
          return;
        }
        if (served) {
          received.push({ from, method: req.method, bytes: 0 });
          const out = tamper(served);
          res.writeHead(200, { 'content-type': 'application/octet-stream', ...(p.gzip ? { 'content-encoding': 'gzip' } : {}) }).end(out);
          return;
        }
        const d = digest(tamper(body));
        received.push({ from, method: req.method ?? '', ...d });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(d));
      })
      .catch(() => res.destroy());
  };
  const server = p.layer === 'https' && opts.tls ? https.createServer({ key: opts.tls.key, cert: opts.tls.cert }, handler) : http.createServer(handler);
  server.on('tlsClientError', () => {});
  server.requestTimeout = TRANSFER_TIMEOUT_MS;
  return servePort(
    p.port,
    (port) => listenTcp(server, w.local_address, port),
    () => received,
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    p.defaultPort,
  );
}

function transfer(p: Plan, host: string, port: number, body: Buffer | null, userAgent: string, signal: AbortSignal): Promise<{ status: number; body: Buffer } | { failure: string }> {
  return new Promise((resolve) => {
    const lib = p.layer === 'https' ? https : http;
    const headers: Record<string, string> = { 'content-type': 'application/octet-stream' };
    if (userAgent) headers['user-agent'] = userAgent.replace(/[\r\n]/g, ' ');
    if (body) headers['content-length'] = String(body.length);
    if (body && p.gzip) headers['content-encoding'] = 'gzip';
    const req = lib.request({ host, port, method: p.method, path: p.path, headers, timeout: TRANSFER_TIMEOUT_MS, signal, rejectUnauthorized: false, agent: false });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ failure: errorKind(e) === 'timeout' ? 'timed out' : errorKind(e) }));
    req.on('response', (res) => {
      readBody(res)
        .then((data) => resolve({ status: res.statusCode ?? 0, body: data }))
        .catch((e: NodeJS.ErrnoException) => resolve({ failure: e.code ? errorKind(e) : e.message }));
    });
    req.end(body ?? undefined);
  });
}

type Received = { received: { sha256: string; bytes: number } } | { failure: string };

const downloaded = (p: Plan, body: Buffer) => {
  try {
    return sha256Digest(unwire(p, body));
  } catch {
    return sha256Digest(body);
  }
};

async function viaHttp(p: Plan, host: string, port: number, sent: Buffer | null, userAgent: string, signal: AbortSignal): Promise<Received> {
  const r = await transfer(p, host, port, sent ? wire(p, sent) : null, userAgent, signal);
  if ('failure' in r) return { failure: `The transfer to ${host}:${port} was ${r.failure === 'open' ? 'interrupted' : r.failure}` };
  if (r.status !== 200) return { failure: `The transfer was answered ${r.status}` };
  if (!sent) return { received: downloaded(p, r.body) };
  try {
    return { received: JSON.parse(r.body.toString('utf8')) as { sha256: string; bytes: number } };
  } catch {
    return { failure: 'The receiver did not confirm the transfer (altered answer)' };
  }
}

async function viaFtp(p: Plan, host: string, port: number, sent: Buffer | null, signal: AbortSignal): Promise<Received> {
  const r = await ftpTransfer(host, port, p.path, sent ? wire(p, sent) : null, MAX_WIRE_BYTES, signal);
  if ('failure' in r) return { failure: `The ftp transfer to ${host}:${port} was ${r.failure}` };
  return 'data' in r ? { received: downloaded(p, r.data) } : r;
}

export async function fileTransferSource(w: WorkPayload, signal: AbortSignal, opts: PerformOptions): Promise<Outcome> {
  const host = w.peer_address;
  if (!host) throw new Incompatible('file_transfer needs a destination actor.');
  const p = plan(w, opts);
  const port = w.port_map?.[String(p.port)] ?? p.port;
  const compare = w.details.compare_transfer !== false;
  const upload = p.method !== 'GET';
  if (upload && !opts.fetchFile) throw new Incompatible('This actor cannot download files from its director.');
  const sent = upload && opts.fetchFile ? await opts.fetchFile(p.file.id) : null;
  const started = Date.now();
  const r = p.layer === 'ftp' ? await viaFtp(p, host, port, sent, signal) : await viaHttp(p, host, port, sent, str(w.details.user_agent), signal);
  if (signal.aborted) throw new Error('aborted');
  const base = { peer: host, port, app_layer: p.layer, method: p.method, gzip: p.gzip, file: p.file.name, expected_sha256: p.file.sha256, ms: Date.now() - started };
  if ('failure' in r) return { outcome: 'ran', blocked: true, message: r.failure, evidence: base };
  const received = r.received;
  const evidence = { ...base, received_sha256: received.sha256, received_bytes: received.bytes, compared: compare };
  if (compare && received.sha256 !== p.file.sha256.toLowerCase()) {
    return { outcome: 'ran', blocked: true, message: `The file arrived altered (sha256 ${received.sha256.slice(0, 16)}…, expected ${p.file.sha256.slice(0, 16)}…)`, evidence };
  }
  return { outcome: 'ran', blocked: false, message: null, evidence };
}
