/**
 * What an actor really does for each action type: the target side serves, the source side acts and
 * judges what happened. 'blocked' is derived from observed facts (refused, reset, timed out, altered
 * content); every step is bounded in time and bytes and only talks to the peer address of the work.
 *
 * Size: the target and source sides of the built-in action types are two switches over one action
 * type list sharing private detail readers and the server set; own-module performers live apart.
 */
import dgram from 'node:dgram';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { WorkPayload } from '../src/api/contracts/engine';
import {
  MAX_READ_BYTES,
  READ_TIMEOUT_MS,
  bindUdp,
  connectResult,
  decodeData,
  errorKind,
  listenTcp,
  parsePorts,
  preview,
  probeTcp,
  sleep,
  type ConnectResult,
} from './net-util';
import { PERFORMERS } from './types/index';
import { dnsSource } from './types/dns';
import { Incompatible, type Outcome, type PerformOptions, type TargetHandle } from './types/contract';

const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);
const num = (v: unknown, fallback: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : Number(v) || fallback);
const arr = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? (v.filter((x) => x && typeof x === 'object') as Record<string, unknown>[]) : []);

function closeServer(s: net.Server): Promise<void> {
  return new Promise((resolve) => {
    s.close(() => resolve());
    // Connections still open end now.
    (s as net.Server & { closeAllConnections?: () => void }).closeAllConnections?.();
  });
}

class ServerSet {
  servers: net.Server[] = [];
  sockets = new Set<net.Socket>();
  udp: dgram.Socket[] = [];
  track(s: net.Server): net.Server {
    s.on('connection', (c: net.Socket) => {
      this.sockets.add(c);
      c.on('close', () => this.sockets.delete(c));
      c.on('error', () => {});
    });
    this.servers.push(s);
    return s;
  }
  async close(): Promise<void> {
    for (const c of this.sockets) c.destroy();
    await Promise.all(this.servers.map(closeServer));
    for (const u of this.udp.splice(0)) {
      try {
        u.close();
      } catch {
        /* already closed */
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Target side

export async function startTarget(w: WorkPayload, opts: PerformOptions): Promise<TargetHandle> {
  const own = PERFORMERS[w.action_type]?.target;
  if (own) return own(w, opts);
  const addr = w.local_address;
  const set = new ServerSet();
  const port_map: Record<string, number> = {};
  const port_failures: Record<string, string> = {};
  const notes: string[] = [];
  const received: { port: number; from: string; bytes: number; preview?: string }[] = [];
  const tamper = (data: Buffer) => (opts.tamper ? opts.tamper(w.action_type, data) : data);
  const openTcp = async (port: number, onConn: ((c: net.Socket) => void) | net.Server) => {
    try {
      const b = await listenTcp(set.track(onConn instanceof net.Server ? onConn : net.createServer(onConn)), addr, port);
      port_map[String(port)] = b.port;
      if (b.note) notes.push(b.note);
    } catch (e) {
      port_failures[String(port)] = (e as Error).message;
    }
  };
  const d = w.details;
  try {
    switch (w.action_type) {
      case 'port_scan': {
        for (const p of parsePorts(str(d.ports_list))) {
          if (!p.expectOpen) continue;
          await openTcp(p.port, (c) => {
            received.push({ port: p.port, from: c.remoteAddress ?? '', bytes: 0 });
            c.end();
          });
        }
        break;
      }
      case 'socket': {
        const steps = arr(d.steps).map((s) => ({ req: decodeData(s.data_type, s.request), res: decodeData(s.data_type, s.response) }));
        const port = num(d.server_port, 0);
        if (str(d.comm_type, 'tcp') === 'udp') {
          const sock = dgram.createSocket('udp4');
          set.udp.push(sock);
          const next = new Map<string, number>();
          sock.on('message', (msg, rinfo) => {
            const key = `${rinfo.address}:${rinfo.port}`;
            const i = next.get(key) ?? 0;
            const step = steps[i];
            received.push({ port, from: rinfo.address, bytes: msg.length, preview: preview(msg, 80) });
            if (!step) return;
            next.set(key, i + 1);
            sock.send(tamper(step.res), rinfo.port, rinfo.address);
          });
          try {
            const b = await bindUdp(sock, addr, port);
            port_map[String(port)] = b.port;
            if (b.note) notes.push(b.note);
          } catch (e) {
            port_failures[String(port)] = (e as Error).message;
          }
        } else {
          await openTcp(port, (c) => {
            let buf = Buffer.alloc(0);
            let i = 0;
            c.on('data', (chunk: Buffer) => {
              if (buf.length + chunk.length > MAX_READ_BYTES) return void c.destroy();
              buf = Buffer.concat([buf, chunk]);
              received.push({ port, from: c.remoteAddress ?? '', bytes: chunk.length, preview: preview(chunk, 80) });
              while (i < steps.length && buf.length >= (steps[i]?.req.length ?? 0)) {
                const step = steps[i];
                if (!step) break;
                buf = buf.subarray(step.req.length);
                c.write(tamper(step.res));
                i++;
              }
              if (i >= steps.length) c.end();
            });
          });
        }
        break;
      }
      case 'website':
      case 'web_request': {
        const isSite = w.action_type === 'website';
        const useTls = isSite && d.use_https === true;
        if (useTls && !opts.tls) throw new Incompatible('This actor has no TLS certificate for https websites (openssl was not found).');
        const routes = new Map<string, { code: number; headers: Record<string, string>; body: string }>();
        if (isSite) {
          for (const s of arr(d.steps)) {
            const [method = 'GET', path = '/'] = str(s.request).split(' ');
            routes.set(`${method.toUpperCase()} ${path}`, { code: num(s.resp_code, 200), headers: parseHeaders(str(s.resp_headers)), body: str(s.response) });
          }
        }
        const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
          let size = 0;
          req.on('data', (c: Buffer) => {
            size += c.length;
            if (size > MAX_READ_BYTES) req.destroy();
          });
          req.on('end', () => {
            received.push({ port: req.socket.localPort ?? 0, from: req.socket.remoteAddress ?? '', bytes: size, preview: `${req.method} ${req.url}` });
            const route = isSite ? routes.get(`${req.method} ${req.url}`) : { code: 200, headers: { 'content-type': 'text/html' }, body: '<html><body>OK</body></html>' };
            if (!route) {
              res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
              return;
            }
            const headers = { ...route.headers };
            // A Location header is returned as written; everything else is our own.
            res.writeHead(route.code, headers);
            res.end(tamper(Buffer.from(route.body)));
          });
        };
        const server = useTls && opts.tls ? https.createServer({ key: opts.tls.key, cert: opts.tls.cert }, handler) : http.createServer(handler);
        const port = isSite ? num(d.server_port, useTls ? 443 : 80) : webRequestPort(d);
        server.on('tlsClientError', () => {});
        await openTcp(port, server);
        break;
      }
      default:
        throw new Incompatible(`The target side of ${w.action_type} is not supported by this actor.`);
    }
  } catch (e) {
    await set.close();
    throw e;
  }
  return {
    port_map,
    port_failures,
    evidence: () => ({ served: port_map, failures: port_failures, notes, received: received.slice(0, 50) }),
    close: () => set.close(),
  };
}

function webRequestPort(d: Record<string, unknown>): number {
  const host = str(d.host);
  const m = /:(\d+)$/.exec(host);
  return m ? Number(m[1]) : 80;
}

function parseHeaders(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i <= 0) continue;
    const key = line.slice(0, i).trim();
    if (!/^[A-Za-z0-9-]+$/.test(key)) continue;
    out[key] = line.slice(i + 1).trim();
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Source side

export async function runSource(w: WorkPayload, signal: AbortSignal, opts: PerformOptions): Promise<Outcome> {
  const own = PERFORMERS[w.action_type];
  if (own) return own.source(w, signal, opts);
  const d = w.details;
  const peer = w.peer_address;
  const needPeer = (): string => {
    if (!peer) throw new Incompatible(`${w.action_type} needs a destination actor.`);
    return peer;
  };
  const mapped = (port: number) => w.port_map?.[String(port)] ?? port;
  switch (w.action_type) {
    case 'sleep': {
      const ms = Math.min(num(d.sleep_ms, 0) || num(d.duration_ms, 0) || 1000, 60_000);
      await sleep(ms, signal);
      return { outcome: 'ran', blocked: null, message: null, evidence: { slept_ms: ms } };
    }
    case 'port_scan': {
      const host = needPeer();
      let ports = parsePorts(str(d.ports_list));
      if (d.randomize_scan === true) ports = [...ports].sort(() => Math.random() - 0.5);
      const gap = Math.min(num(d.sleep_timer, 0), 5000);
      const results: { port: number; expected: 'open' | 'closed'; connected_port: number; result: ConnectResult }[] = [];
      for (const p of ports) {
        if (signal.aborted) throw new Error('aborted');
        const target = p.expectOpen ? mapped(p.port) : p.port;
        results.push({ port: p.port, expected: p.expectOpen ? 'open' : 'closed', connected_port: target, result: await probeTcp(host, target, signal) });
        if (gap) await sleep(gap, signal);
      }
      const blocked = results.filter((r) => r.result !== 'open');
      const open = results.filter((r) => r.result === 'open').map((r) => r.port);
      return {
        outcome: 'ran',
        blocked: blocked.length > 0,
        message: blocked.length ? `Blocked: ${blocked.map((r) => `${r.port} (${r.result})`).join(', ')}` : null,
        evidence: { peer: host, open_ports: open, ports: results, target_failures: w.port_failures ?? {} },
      };
    }
    case 'socket':
      return socketSource(w, needPeer(), signal, mapped);
    case 'website':
    case 'web_request':
      return httpSource(w, needPeer(), signal, mapped, opts);
    case 'dns':
      return dnsSource(w, signal);
    default:
      throw new Incompatible(`This actor cannot perform ${w.action_type} actions.`);
  }
}

async function socketSource(w: WorkPayload, host: string, signal: AbortSignal, mapped: (p: number) => number): Promise<Outcome> {
  const d = w.details;
  const port = mapped(num(d.server_port, 0));
  const steps = arr(d.steps).map((s) => ({ req: decodeData(s.data_type, s.request), res: decodeData(s.data_type, s.response) }));
  const log: { step: number; sent: number; received: string; expected: string; result: string }[] = [];
  const udp = str(d.comm_type, 'tcp') === 'udp';
  const done = (blocked: boolean, message: string | null): Outcome => ({
    outcome: 'ran',
    blocked,
    message,
    evidence: { peer: host, port, comm_type: udp ? 'udp' : 'tcp', steps: log },
  });
  if (udp) {
    const sock = dgram.createSocket('udp4');
    try {
      for (const [i, s] of steps.entries()) {
        const reply = await new Promise<Buffer | null>((resolve) => {
          const t = setTimeout(() => resolve(null), READ_TIMEOUT_MS);
          const onAbort = () => resolve(null);
          signal.addEventListener('abort', onAbort, { once: true });
          sock.once('message', (m) => {
            clearTimeout(t);
            resolve(m);
          });
          sock.send(s.req, port, host, (err) => {
            if (err) resolve(null);
          });
        });
        if (signal.aborted) throw new Error('aborted');
        log.push({ step: i + 1, sent: s.req.length, received: reply ? preview(reply, 80) : '', expected: preview(s.res, 80), result: reply ? 'answered' : 'timeout' });
        if (!reply) return done(true, `Step ${i + 1}: no response (timed out)`);
        if (!reply.equals(s.res)) return done(true, `Step ${i + 1}: the response differs from the expected one (altered content)`);
      }
      return done(false, null);
    } finally {
      sock.close();
    }
  }
  const conn = net.connect({ host, port });
  conn.on('error', () => {});
  let buf = Buffer.alloc(0);
  let failure: string | null = null;
  let waiter: (() => void) | null = null;
  conn.on('data', (c: Buffer) => {
    if (buf.length + c.length > 64 * 1024) conn.destroy();
    else buf = Buffer.concat([buf, c]);
    waiter?.();
  });
  conn.on('error', (e: NodeJS.ErrnoException) => {
    failure = errorKind(e);
    waiter?.();
  });
  conn.on('close', () => {
    failure ??= 'closed';
    waiter?.();
  });
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        waiter = null;
        resolve();
      }, ms);
      waiter = () => {
        clearTimeout(t);
        waiter = null;
        resolve();
      };
    });
  try {
    const connected = await connectResult(conn);
    if (connected !== 'open') {
      log.push({ step: 1, sent: 0, received: '', expected: '', result: connected });
      return done(true, `Connection to ${host}:${port} ${connected}`);
    }
    for (const [i, s] of steps.entries()) {
      conn.write(s.req);
      const deadline = Date.now() + READ_TIMEOUT_MS;
      while (buf.length < s.res.length && !failure && Date.now() < deadline && !signal.aborted) await wait(deadline - Date.now());
      if (signal.aborted) throw new Error('aborted');
      const got = buf.subarray(0, s.res.length);
      buf = buf.subarray(got.length);
      const ok = got.equals(s.res);
      log.push({ step: i + 1, sent: s.req.length, received: preview(got, 80), expected: preview(s.res, 80), result: ok ? 'match' : got.length < s.res.length ? (failure ?? 'timeout') : 'differs' });
      if (!ok) {
        if (got.length < s.res.length) return done(true, `Step ${i + 1}: ${failure === 'reset' ? 'connection reset' : failure === 'closed' ? 'connection closed' : 'no complete response (timed out)'}`);
        return done(true, `Step ${i + 1}: the response differs from the expected one (altered content)`);
      }
    }
    return done(false, null);
  } finally {
    conn.destroy();
  }
}

async function httpSource(w: WorkPayload, host: string, signal: AbortSignal, mapped: (p: number) => number, opts: PerformOptions): Promise<Outcome> {
  const d = w.details;
  const isSite = w.action_type === 'website';
  const tls = isSite && d.use_https === true;
  if (tls && !opts.tls) throw new Incompatible('This actor has no TLS support for https websites (openssl was not found).');
  const port = mapped(isSite ? num(d.server_port, tls ? 443 : 80) : webRequestPort(d));
  type Req = { method: string; path: string; headers: Record<string, string>; body: string; expectCode?: number; expectBody?: string };
  const reqs: Req[] = [];
  if (isSite) {
    for (const s of arr(d.steps)) {
      const [method = 'GET', path = '/'] = str(s.request).split(' ');
      reqs.push({ method: method.toUpperCase(), path, headers: parseHeaders(str(s.req_headers)), body: str(s.request_body), expectCode: num(s.resp_code, 200), expectBody: str(s.response) });
    }
  } else {
    const request = (d.request && typeof d.request === 'object' ? d.request : {}) as Record<string, unknown>;
    const params = arr(request.parameters).map((p) => [str(p.key), str(p.value)] as [string, string]);
    const q = params.length ? `?${params.map(([k, v]) => (d.encode_url === true ? `${encodeURIComponent(k)}=${encodeURIComponent(v)}` : `${k}=${v}`)).join('&')}` : '';
    const headers: Record<string, string> = {};
    for (const h of arr(request.headers)) if (/^[A-Za-z0-9-]+$/.test(str(h.key))) headers[str(h.key)] = str(h.value).replace(/[\r\n]/g, ' ');
    const parts = str(d.body).split(':v:');
    reqs.push({ method: str(d.http_method, 'GET').toUpperCase(), path: (str(d.path, '/') || '/') + q, headers, body: parts.length === 3 ? (parts[2] ?? '') : str(d.body) });
  }
  const log: Record<string, unknown>[] = [];
  const evidence = () => ({ peer: host, port, tls, requests: log });
  for (const [i, r] of reqs.entries()) {
    const res = await httpOnce(host, port, tls, r, signal);
    if (signal.aborted) throw new Error('aborted');
    log.push({ step: i + 1, method: r.method, path: r.path, status: res.status, error: res.error, body: res.body.slice(0, 200), bytes: res.bytes });
    if (isSite) {
      if (res.error) return { outcome: 'ran', blocked: true, message: `Step ${i + 1}: ${res.error}`, evidence: evidence() };
      if (res.status !== r.expectCode) return { outcome: 'ran', blocked: true, message: `Step ${i + 1}: answered ${res.status}, expected ${r.expectCode}`, evidence: evidence() };
      if (res.body !== r.expectBody) return { outcome: 'ran', blocked: true, message: `Step ${i + 1}: the response differs from the expected one (altered content)`, evidence: evidence() };
    } else {
      if (res.error) return { outcome: 'ran', blocked: true, message: res.error, evidence: evidence() };
      for (const c of arr(d.conditions)) {
        const codeOk = !c.code || num(c.code, 0) === res.status;
        let reOk = true;
        if (str(c.response_regex)) {
          try {
            reOk = new RegExp(str(c.response_regex)).test(res.body);
          } catch {
            reOk = false;
          }
        }
        if (codeOk && reOk) {
          const verdict = str(c.pass_fail_error);
          if (verdict === 'error') return { outcome: 'errored', blocked: null, message: `Condition matched: answered ${res.status} (error)`, evidence: evidence() };
          return { outcome: 'ran', blocked: verdict === 'pass', message: `Condition matched: answered ${res.status} (${verdict})`, evidence: evidence() };
        }
      }
      return { outcome: 'ran', blocked: res.status === 403 || res.status >= 500, message: `No condition matched; answered ${res.status}`, evidence: evidence() };
    }
  }
  return { outcome: 'ran', blocked: false, message: null, evidence: evidence() };
}

function httpOnce(
  host: string,
  port: number,
  tls: boolean,
  r: { method: string; path: string; headers: Record<string, string>; body: string },
  signal: AbortSignal,
): Promise<{ status: number; body: string; bytes: number; error?: string }> {
  return new Promise((resolve) => {
    const lib = tls ? https : http;
    const headers = { ...r.headers };
    if (r.body && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-length')) headers['Content-Length'] = String(Buffer.byteLength(r.body));
    const req = lib.request({ host, port, method: r.method, path: r.path.startsWith('/') ? r.path : `/${r.path}`, headers, timeout: READ_TIMEOUT_MS, signal, rejectUnauthorized: false, agent: false });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ status: 0, body: '', bytes: 0, error: `connection ${errorKind(e)}` }));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        bytes += c.length;
        if (bytes > MAX_READ_BYTES) return void res.destroy();
        chunks.push(c);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), bytes }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), bytes, error: 'connection reset' }));
    });
    req.end(r.body || undefined);
  });
}
