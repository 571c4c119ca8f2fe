import net from 'node:net';
import dgram from 'node:dgram';

/** Hard bounds of every network action. */
export const CONNECT_TIMEOUT_MS = 1500;
export const READ_TIMEOUT_MS = 3000;
export const MAX_READ_BYTES = 64 * 1024;
export const MAX_PORTS = 256;

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('aborted'));
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export interface PortSpec {
  port: number;
  /** '#' ports are expected unreachable: the target does not listen on them. */
  expectOpen: boolean;
}

/** Parses a ports_list such as '22,80,5985-5986,#1433' (at most MAX_PORTS ports). */
export function parsePorts(list: string): PortSpec[] {
  const out: PortSpec[] = [];
  const seen = new Set<number>();
  for (const raw of list.split(/[,\s]+/)) {
    const token = raw.trim();
    if (!token) continue;
    const closed = token.startsWith('#');
    const body = closed ? token.slice(1) : token;
    const m = /^(\d+)(?:-(\d+))?$/.exec(body);
    if (!m) throw new Error(`Invalid port "${token}" in the ports list`);
    const from = Number(m[1]);
    const to = m[2] ? Number(m[2]) : from;
    if (from < 1 || to > 65535 || to < from) throw new Error(`Invalid port range "${token}"`);
    for (let p = from; p <= to; p++) {
      if (seen.has(p)) continue;
      seen.add(p);
      out.push({ port: p, expectOpen: !closed });
      if (out.length > MAX_PORTS) throw new Error(`The ports list names more than ${MAX_PORTS} ports`);
    }
  }
  return out;
}

export interface Bound<T> {
  server: T;
  port: number;
  /** Set when the requested port could not be used and another was taken instead. */
  note?: string;
}

/**
 * Listens on address:port; a port the process may not open (EACCES: below 1024 without privileges)
 * is served on a free port instead and reported, any other failure is thrown.
 */
export async function listenTcp(server: net.Server, address: string, port: number): Promise<Bound<net.Server>> {
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port, host: address, exclusive: true }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const bound = server.address();
    return { server, port: port || (typeof bound === 'object' && bound ? bound.port : 0) };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EACCES') throw e;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port: 0, host: address, exclusive: true }, () => resolve());
    });
    const addr = server.address();
    const actual = typeof addr === 'object' && addr ? addr.port : 0;
    return { server, port: actual, note: `port ${port} needs privileges; served on ${actual}` };
  }
}

export async function bindUdp(sock: dgram.Socket, address: string, port: number): Promise<Bound<dgram.Socket>> {
  const bind = (p: number) =>
    new Promise<void>((resolve, reject) => {
      sock.once('error', reject);
      sock.bind({ port: p, address, exclusive: true }, () => {
        sock.off('error', reject);
        resolve();
      });
    });
  try {
    await bind(port);
    return { server: sock, port: port || sock.address().port };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EACCES') throw e;
    await bind(0);
    const actual = sock.address().port;
    return { server: sock, port: actual, note: `port ${port} needs privileges; served on ${actual}` };
  }
}

export type ConnectResult = 'open' | 'refused' | 'reset' | 'timeout' | 'unreachable';

/** One TCP connect with a timeout; the connection is closed at once. */
export function probeTcp(host: string, port: number, signal?: AbortSignal, timeoutMs = CONNECT_TIMEOUT_MS): Promise<ConnectResult> {
  return new Promise((resolve) => {
    const sock = net.connect({ host, port });
    let done = false;
    const finish = (r: ConnectResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      sock.destroy();
      resolve(r);
    };
    const onAbort = () => finish('timeout');
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    sock.once('connect', () => finish('open'));
    sock.once('error', (e: NodeJS.ErrnoException) => finish(errorKind(e)));
  });
}

export function errorKind(e: NodeJS.ErrnoException): ConnectResult {
  if (e.code === 'ECONNREFUSED') return 'refused';
  if (e.code === 'ECONNRESET' || e.code === 'EPIPE') return 'reset';
  if (e.code === 'ETIMEDOUT') return 'timeout';
  return 'unreachable';
}

export function decodeData(dataType: unknown, text: unknown): Buffer {
  const s = typeof text === 'string' ? text : '';
  if (dataType === 'hex') return Buffer.from(s.replace(/\s+/g, ''), 'hex');
  if (dataType === 'base64') return Buffer.from(s, 'base64');
  return Buffer.from(s, 'utf8');
}

/** A short printable preview of bytes for evidence. */
export function preview(buf: Buffer, max = 200): string {
  const slice = buf.subarray(0, max);
  const printable = /^[\x09\x0a\x0d\x20-\x7e]*$/.test(slice.toString('latin1'));
  return (printable ? slice.toString('latin1') : `hex:${slice.toString('hex')}`) + (buf.length > max ? '…' : '');
}

/** Waits for a connecting socket: 'open', or why it did not connect (the socket is left as it is). */
export function connectResult(sock: net.Socket, timeoutMs = CONNECT_TIMEOUT_MS): Promise<ConnectResult> {
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve('timeout'), timeoutMs);
    sock.once('connect', () => {
      clearTimeout(t);
      resolve('open');
    });
    sock.once('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(t);
      resolve(errorKind(e));
    });
  });
}
