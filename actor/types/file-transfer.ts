/**
 * file_transfer: the file-library file crosses between the two actors over http, https, ftp or scp
 * on the target port (target_port, else 80/443/21/25; another port when the actor may not open it),
 * directly or through an ssh or dns tunnel (transfer-plan.ts checks the details). GET: the target
 * serves the file and the source downloads it; POST/PUT: the source uploads it and the target
 * receives it. The content encodings are applied in order before the file crosses; the receiver
 * decodes what arrived and hashes it; with compare_transfer a different sha256 is blocked (altered).
 * Refused, reset and timed-out transfers are blocked.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import type { WorkPayload } from '../../src/api/contracts/engine';
import { errorKind, listenTcp } from '../net-util';
import { Incompatible, type Outcome, type PerformOptions, type TargetHandle } from './contract';
import { tunnelDownload, tunnelUpload, MAX_TUNNEL_BYTES } from './dns-tunnel';
import { decodeAll, encodeAll } from './encodings';
import { directDial, ftpSession, ftpTransfer, sha256Digest, type Dial } from './ftp';
import { servePort } from './serve-port';
import { MAX_WIRE_BYTES, plan, SSH_PORT, DNS_PORT, type Plan } from './transfer-plan';
import { dnsTunnelTarget, mergeHandles, scpSource, scpTarget, sshTunnelFor, sshTunnelTarget } from './transfer-tunnels';
// An FTP control reply through the tunnel waits as long as a connection through it may take.
import { TUNNEL_CONNECT_TIMEOUT_MS } from './ssh-client';

const TRANSFER_TIMEOUT_MS = 30_000;

const str = (v: unknown) => (typeof v === 'string' ? v : '');

export const wire = (p: Plan, data: Buffer) => encodeAll(p.encodings, p.name, data, MAX_WIRE_BYTES);

/** The Content-Disposition of the file as it crosses over http(s) (RFC 6266: an ASCII fallback and the UTF-8 name). */
export const disposition = (name: string) => `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

/** The file name a Content-Disposition header carries (filename* first), or null. */
export function dispositionName(header: string | undefined): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      /* fall back to the plain parameter */
    }
  }
  return /filename\s*=\s*"([^"]*)"/i.exec(header)?.[1] ?? /filename\s*=\s*([^;\s]+)/i.exec(header)?.[1] ?? null;
}

/** The digest of what arrived, decoded again; what cannot be decoded is hashed as it is (and so differs). */
export async function arrivedDigest(p: Plan, body: Buffer): Promise<{ sha256: string; bytes: number; decode_error?: string }> {
  try {
    return sha256Digest(await decodeAll(p.encodings, body, MAX_WIRE_BYTES));
  } catch (e) {
    return { ...sha256Digest(body), decode_error: (e as Error).message.slice(0, 200) };
  }
}

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

/** What the target saw of each transfer: from where, the method, and what the request carried on the wire. */
export type ReceivedLog = { from: string; method: string; bytes: number; sha256?: string; path?: string; referer?: string | null; file_name?: string | null }[];

/** The target's http(s) or ftp server for the plan. */
async function appServer(w: WorkPayload, p: Plan, opts: PerformOptions, served: Buffer | null): Promise<TargetHandle> {
  const received: ReceivedLog = [];
  const tamper = (data: Buffer) => (opts.tamper ? opts.tamper('file_transfer', data) : data);
  const digest = (arrived: Buffer) => arrivedDigest(p, arrived);
  if (p.layer === 'ftp') {
    const file = { name: p.path, served, maxBytes: MAX_WIRE_BYTES, tamper, digest, onReceived: (r: { from: string; bytes: number; sha256?: string }) => received.push({ ...r, method: p.method, path: p.path }) };
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
  const gzipLast = p.encodings.at(-1) === 'gzip';
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    void readBody(req)
      .then(async (body) => {
        const from = req.socket.remoteAddress ?? '';
        if (req.url !== p.path || req.method !== p.method) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
          return;
        }
        const seen = { path: req.url, referer: req.headers.referer ?? null };
        if (served) {
          received.push({ from, method: req.method, bytes: 0, ...seen, file_name: p.name });
          res
            .writeHead(200, { 'content-type': 'application/octet-stream', 'content-disposition': disposition(p.name), ...(gzipLast ? { 'content-encoding': 'gzip' } : {}) })
            .end(tamper(served));
          return;
        }
        const d = await digest(tamper(body));
        received.push({ from, method: req.method ?? '', ...d, ...seen, file_name: dispositionName(req.headers['content-disposition']) });
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

export async function fileTransferTarget(w: WorkPayload, opts: PerformOptions): Promise<TargetHandle> {
  const p = plan(w, opts);
  if (!opts.fetchFile) throw new Incompatible('This actor cannot download files from its director.');
  const served = p.method === 'GET' ? await wire(p, await opts.fetchFile(p.file.id)) : null;
  if (p.tunnel === 'dns' && served && served.length > MAX_TUNNEL_BYTES) throw new Incompatible(`The encoded file (${served.length} bytes) is larger than the dns tunnel carries (${MAX_TUNNEL_BYTES} bytes).`);
  if (p.layer === 'scp') return scpTarget(w, p, opts, served, arrivedDigest);
  if (p.tunnel === 'dns') return dnsTunnelTarget(w, p, opts, served, arrivedDigest);
  const app = await appServer(w, p, opts, served);
  if (p.tunnel !== 'ssh') return app;
  try {
    return mergeHandles(app, await sshTunnelTarget(w, p));
  } catch (e) {
    await app.close();
    throw e;
  }
}

/** An agent whose connections come from `dial` (through the ssh tunnel); https adds TLS over them. */
function tunnelAgent(p: Plan, dial: Dial, port: number): http.Agent {
  const agent = p.layer === 'https' ? new https.Agent({ rejectUnauthorized: false }) : new http.Agent();
  const create = (_o: unknown, cb: (e: Error | null, s?: net.Socket) => void) => {
    dial(port).then((socket) => cb(null, p.layer === 'https' ? tls.connect({ socket, rejectUnauthorized: false }) : socket), (e: Error) => cb(e));
  };
  (agent as unknown as { createConnection: typeof create }).createConnection = create;
  return agent;
}

type Answer = { status: number; body: Buffer; fileName: string | null };

function transfer(p: Plan, host: string, port: number, tunnel: Dial | null, body: Buffer | null, userAgent: string, signal: AbortSignal): Promise<Answer | { failure: string }> {
  return new Promise((resolve) => {
    const lib = p.layer === 'https' ? https : http;
    const headers: Record<string, string> = { 'content-type': 'application/octet-stream' };
    if (userAgent) headers['user-agent'] = userAgent.replace(/[\r\n]/g, ' ');
    if (p.referer) headers.referer = p.referer;
    if (body) headers['content-disposition'] = disposition(p.name);
    if (body) headers['content-length'] = String(body.length);
    if (body && p.encodings.at(-1) === 'gzip') headers['content-encoding'] = 'gzip';
    const agent = tunnel ? tunnelAgent(p, tunnel, port) : false;
    const req = lib.request({ host, port, method: p.method, path: p.path, headers, timeout: TRANSFER_TIMEOUT_MS, signal, rejectUnauthorized: false, agent });
    const done = (r: Answer | { failure: string }) => {
      if (agent) agent.destroy();
      resolve(r);
    };
    req.on('timeout', () => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    req.on('error', (e: NodeJS.ErrnoException) => done({ failure: errorKind(e) === 'timeout' ? 'timed out' : errorKind(e) }));
    req.on('response', (res) => {
      readBody(res)
        .then((data) => done({ status: res.statusCode ?? 0, body: data, fileName: dispositionName(res.headers['content-disposition']) }))
        .catch((e: NodeJS.ErrnoException) => done({ failure: e.code ? errorKind(e) : e.message }));
    });
    req.end(body ?? undefined);
  });
}

type Received = { received: { sha256: string; bytes: number }; servedName?: string | null } | { failure: string };

async function viaHttp(p: Plan, tunnel: Dial | null, where: string, port: number, sent: Buffer | null, userAgent: string, signal: AbortSignal): Promise<Received> {
  const r = await transfer(p, p.destination, port, tunnel, sent ? await wire(p, sent) : null, userAgent, signal);
  if ('failure' in r) return { failure: `The transfer to ${where} was ${r.failure === 'open' ? 'interrupted' : r.failure}` };
  if (r.status !== 200) return { failure: `The transfer was answered ${r.status}` };
  if (!sent) return { received: await arrivedDigest(p, r.body), servedName: r.fileName };
  try {
    return { received: JSON.parse(r.body.toString('utf8')) as { sha256: string; bytes: number } };
  } catch {
    return { failure: 'The receiver did not confirm the transfer (altered answer)' };
  }
}

async function viaFtp(p: Plan, dial: Dial, where: string, port: number, sent: Buffer | null, signal: AbortSignal, replyMs?: number): Promise<Received> {
  const r = await ftpTransfer(dial, port, p.path, sent ? await wire(p, sent) : null, MAX_WIRE_BYTES, signal, replyMs);
  if ('failure' in r) return { failure: `The ftp transfer to ${where} was ${r.failure}` };
  return 'data' in r ? { received: await arrivedDigest(p, r.data) } : r;
}

async function viaDnsTunnel(p: Plan, w: WorkPayload, sent: Buffer | null, signal: AbortSignal): Promise<Received & { queries: number }> {
  const server = p.dns?.server ?? p.destination;
  const port = w.port_map?.[String(DNS_PORT)] ?? DNS_PORT;
  const domain = p.dns?.domain ?? '';
  if (sent) {
    const data = await wire(p, sent);
    if (data.length > MAX_TUNNEL_BYTES) throw new Incompatible(`The encoded file (${data.length} bytes) is larger than the dns tunnel carries (${MAX_TUNNEL_BYTES} bytes).`);
    const r = await tunnelUpload(server, port, domain, data, signal);
    return 'failure' in r ? { failure: `The dns tunnel to ${server}:${port} failed: ${r.failure}`, queries: r.queries } : { ...(r as Received), queries: r.queries };
  }
  const r = await tunnelDownload(server, port, domain, signal);
  if ('failure' in r) return { failure: `The dns tunnel to ${server}:${port} failed: ${r.failure}`, queries: r.queries };
  return { received: await arrivedDigest(p, 'data' in r ? r.data : Buffer.alloc(0)), queries: r.queries };
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
  const extra: Record<string, unknown> = {};
  let r: Received;
  if (p.layer === 'scp') r = await scpSource(w, p, port, sent ? await wire(p, sent) : null, signal, arrivedDigest);
  else if (p.tunnel === 'dns') {
    const d = await viaDnsTunnel(p, w, sent, signal);
    extra.dns_queries = d.queries;
    r = d;
  } else {
    let tunnel: Dial | null = null;
    let where = `${host}:${port}`;
    let close = () => {};
    if (p.tunnel === 'ssh') {
      const sshPort = w.port_map?.[String(SSH_PORT)] ?? SSH_PORT;
      const t = await sshTunnelFor(w, p, sshPort, signal);
      if ('failure' in t) return { outcome: 'ran', blocked: true, message: t.failure, evidence: { peer: host, ssh_port: sshPort, tunnel: 'ssh' } };
      tunnel = (to) => t.connect(host, to);
      where = `${host}:${port} through the ssh tunnel`;
      close = t.close;
      extra.ssh_port = sshPort;
    }
    try {
      r = p.layer === 'ftp' ? await viaFtp(p, tunnel ?? directDial(host), where, port, sent, signal, tunnel ? TUNNEL_CONNECT_TIMEOUT_MS : undefined) : await viaHttp(p, tunnel, where, port, sent, str(w.details.user_agent), signal);
    } finally {
      close();
    }
  }
  if (signal.aborted) throw new Error('aborted');
  const http = p.layer === 'http' || p.layer === 'https';
  const base = {
    peer: host,
    port,
    app_layer: p.layer,
    method: p.method,
    tunnel: p.tunnel,
    content_encoding: p.encodings,
    file: p.file.name,
    file_name: p.name,
    path: p.path,
    ...(http ? { referer: p.referer || null } : {}),
    expected_sha256: p.file.sha256,
    ms: Date.now() - started,
    ...extra,
  };
  if ('failure' in r) return { outcome: 'ran', blocked: true, message: r.failure, evidence: base };
  const received = r.received;
  const evidence = { ...base, received_sha256: received.sha256, received_bytes: received.bytes, compared: compare, ...('servedName' in r ? { served_file_name: r.servedName } : {}) };
  if (compare && received.sha256 !== p.file.sha256.toLowerCase()) {
    return { outcome: 'ran', blocked: true, message: `The file arrived altered (sha256 ${received.sha256.slice(0, 16)}…, expected ${p.file.sha256.slice(0, 16)}…)`, evidence };
  }
  return { outcome: 'ran', blocked: false, message: null, evidence };
}
