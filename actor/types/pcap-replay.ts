/**
 * pcap actions: a byte-for-byte replay of the kept conversations of a capture (details.replay, put
 * in the signed work by the director). The target serves the server side of each conversation on
 * its server port (on its own address), the source plays the client side from its own address, one
 * conversation after the other in the capture's order. Each side checks that what it receives is
 * what was captured; the target resets a connection whose client bytes differ, the source names the
 * first conversation and segment that went wrong (refused, reset, timed out, altered content).
 */
import dgram from 'node:dgram';
import net from 'node:net';
import type { WorkPayload } from '../../src/api/contracts/engine';
import { REPLAY_LIMITS, type ReplayConversation, type ReplayScript } from '../../src/api/contracts/replay';
import { READ_TIMEOUT_MS, bindUdp, connectResult, errorKind, listenTcp, preview } from '../net-util';
import type { Evidence, Outcome, PerformOptions, TargetHandle } from '../perform';

interface Conversation {
  n: number;
  protocol: 'tcp' | 'udp';
  serverPort: number;
  segments: { from: 'client' | 'server'; data: Buffer }[];
}

/** The script of the work, checked (it is signed by the director, but stays bounded here too). */
export function readScript(w: WorkPayload): Conversation[] {
  const raw = w.details.replay as Partial<ReplayScript> | undefined;
  if (!raw || !Array.isArray(raw.conversations)) throw new Error('The work carries no replay script (details.replay).');
  let bytes = 0;
  let segments = 0;
  const convs = raw.conversations.slice(0, REPLAY_LIMITS.maxConversations).map((c: ReplayConversation, i) => {
    const port = Number(c.server_port);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`Conversation ${i + 1} has no valid server port.`);
    if (c.protocol !== 'tcp' && c.protocol !== 'udp') throw new Error(`Conversation ${i + 1} is neither TCP nor UDP.`);
    const segs = (Array.isArray(c.segments) ? c.segments : []).map((s) => ({ from: s.from === 'server' ? ('server' as const) : ('client' as const), data: Buffer.from(String(s.data ?? ''), 'base64') }));
    segments += segs.length;
    bytes += segs.reduce((n, s) => n + s.data.length, 0);
    return { n: i + 1, protocol: c.protocol, serverPort: port, segments: segs };
  });
  if (bytes > REPLAY_LIMITS.maxBytes || segments > REPLAY_LIMITS.maxSegments) throw new Error('The replay script is larger than an actor plays.');
  return convs;
}

const sideName = (from: 'client' | 'server') => (from === 'client' ? 'client to server' : 'server to client');

/** Bytes received on a TCP connection, read by exact lengths with a timeout. */
class StreamInbox {
  private buf = Buffer.alloc(0);
  private wake: (() => void) | null = null;
  /** Why no more bytes will come: 'end' (the peer finished), 'reset', 'closed', ... */
  stop: string | null = null;

  constructor(sock: net.Socket, limit: number) {
    const notify = () => this.wake?.();
    sock.on('data', (c: Buffer) => {
      if (this.buf.length + c.length > limit) {
        this.stop = 'overflow';
        sock.destroy();
      } else this.buf = Buffer.concat([this.buf, c]);
      notify();
    });
    sock.on('end', () => {
      this.stop ??= 'end';
      notify();
    });
    sock.on('error', (e: NodeJS.ErrnoException) => {
      this.stop = this.stop === 'end' ? this.stop : errorKind(e);
      notify();
    });
    sock.on('close', () => {
      this.stop ??= 'closed';
      notify();
    });
  }

  get pending(): number {
    return this.buf.length;
  }

  /** Waits until `done()`, the peer stops, the read timeout or the abort. */
  private async until(done: () => boolean, signal?: AbortSignal): Promise<void> {
    const deadline = Date.now() + READ_TIMEOUT_MS;
    while (!done() && !this.stop && Date.now() < deadline && !signal?.aborted) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, deadline - Date.now());
        this.wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
      this.wake = null;
    }
  }

  /** Up to n bytes: all n, or what came before the peer stopped, the timeout or the abort. */
  async take(n: number, signal?: AbortSignal): Promise<Buffer> {
    await this.until(() => this.buf.length >= n, signal);
    const got = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(got.length);
    return got;
  }

  /** Waits until the peer ends its side: 'end', a failure ('reset', 'closed'...), or 'timeout'. */
  async ended(signal?: AbortSignal): Promise<string> {
    await this.until(() => false, signal);
    return this.stop ?? 'timeout';
  }
}

/** Datagrams received on one UDP socket, read one at a time with a timeout. */
class DatagramInbox {
  private queue: Buffer[] = [];
  private wake: (() => void) | null = null;
  constructor(sock: dgram.Socket) {
    sock.on('message', (m) => {
      if (this.queue.length < 64) this.queue.push(m);
      this.wake?.();
    });
  }
  async next(signal?: AbortSignal): Promise<Buffer | null> {
    if (!this.queue.length && !signal?.aborted) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, READ_TIMEOUT_MS);
        this.wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
      this.wake = null;
    }
    return this.queue.shift() ?? null;
  }
}

const limitOf = (c: Conversation, from: 'client' | 'server') => c.segments.filter((s) => s.from === from).reduce((n, s) => n + s.data.length, 0) + 64 * 1024;

// ---------------------------------------------------------------------------------------------
// Target side: the server of every conversation

export async function startPcapTarget(w: WorkPayload, opts: PerformOptions): Promise<TargetHandle> {
  const convs = readScript(w);
  const tamper = (data: Buffer) => (opts.tamper ? opts.tamper(w.action_type, data) : data);
  const port_map: Record<string, number> = {};
  const port_failures: Record<string, string> = {};
  const notes: string[] = [];
  const served: { conversation: number; from: string; result: string }[] = [];
  const servers: net.Server[] = [];
  const sockets = new Set<net.Socket>();
  const udp: dgram.Socket[] = [];
  // Connections (TCP) and client endpoints (UDP) take the conversations of their port in order.
  const queues = new Map<string, Conversation[]>();
  for (const c of convs) {
    const key = `${c.protocol}:${c.serverPort}`;
    queues.set(key, [...(queues.get(key) ?? []), c]);
  }
  const close = async () => {
    for (const s of sockets) s.destroy();
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    for (const u of udp.splice(0)) u.close();
  };
  const bound = (port: number, b: { port: number; note?: string }) => {
    port_map[String(port)] = b.port;
    if (b.note) notes.push(b.note);
  };
  try {
    for (const [key, queue] of queues) {
      const port = queue[0]!.serverPort;
      if (key.startsWith('tcp')) {
        const server = net.createServer({ allowHalfOpen: true }, (sock) => {
          sockets.add(sock);
          sock.on('close', () => sockets.delete(sock));
          const c = queue.shift();
          if (!c) return void sock.destroy();
          const from = sock.remoteAddress ?? '';
          void serveTcp(sock, c, tamper).then((result) => served.push({ conversation: c.n, from, result }));
        });
        servers.push(server);
        try {
          bound(port, await listenTcp(server, w.local_address, port));
        } catch (e) {
          port_failures[String(port)] = (e as Error).message;
        }
      } else {
        const sock = dgram.createSocket('udp4');
        udp.push(sock);
        serveUdp(sock, queue, tamper, (n, from, result) => served.push({ conversation: n, from, result }));
        try {
          bound(port, await bindUdp(sock, w.local_address, port));
        } catch (e) {
          port_failures[String(port)] = (e as Error).message;
        }
      }
    }
  } catch (e) {
    await close();
    throw e;
  }
  return { port_map, port_failures, evidence: (): Evidence => ({ served: port_map, failures: port_failures, notes, conversations: served.slice(0, 100) }), close };
}

async function serveTcp(sock: net.Socket, c: Conversation, tamper: (d: Buffer) => Buffer): Promise<string> {
  sock.on('error', () => {});
  const inbox = new StreamInbox(sock, limitOf(c, 'client'));
  for (const [i, s] of c.segments.entries()) {
    if (s.from === 'server') {
      sock.write(tamper(s.data));
      continue;
    }
    const got = await inbox.take(s.data.length);
    if (!got.equals(s.data)) {
      // What the client sent is not the capture's: the conversation stops here, visibly.
      sock.resetAndDestroy();
      return `segment ${i + 1} (${sideName(s.from)}) ${got.length < s.data.length ? (inbox.stop ?? 'timed out') : 'differs'}`;
    }
  }
  sock.end();
  return 'match';
}

function serveUdp(sock: dgram.Socket, queue: Conversation[], tamper: (d: Buffer) => Buffer, done: (n: number, from: string, result: string) => void): void {
  const clients = new Map<string, { c: Conversation; i: number } | null>();
  sock.on('message', (msg, rinfo) => {
    const key = `${rinfo.address}:${rinfo.port}`;
    if (!clients.has(key)) {
      const c = queue.shift();
      clients.set(key, c ? { c, i: 0 } : null);
    }
    const st = clients.get(key);
    if (!st) return;
    const seg = st.c.segments[st.i];
    if (!seg || seg.from !== 'client' || !msg.equals(seg.data)) {
      clients.set(key, null);
      return done(st.c.n, rinfo.address, `segment ${st.i + 1} differs`);
    }
    st.i++;
    while (st.c.segments[st.i]?.from === 'server') sock.send(tamper(st.c.segments[st.i++]!.data), rinfo.port, rinfo.address);
    if (st.i >= st.c.segments.length) done(st.c.n, rinfo.address, 'match');
  });
}

// ---------------------------------------------------------------------------------------------
// Source side: the client of every conversation, then the verdict

interface ConvLog {
  conversation: number;
  protocol: string;
  server_port: number;
  connected_port: number;
  segments: number;
  result: string;
  failed_segment?: { index: number; direction: string; expected_bytes: number; received_bytes: number; expected: string; received: string };
}

export async function pcapSource(w: WorkPayload, host: string, signal: AbortSignal, mapped: (p: number) => number): Promise<Outcome> {
  const convs = readScript(w);
  const log: ConvLog[] = [];
  let sent = 0;
  let received = 0;
  const evidence = (): Evidence => ({ peer: host, upload_id: (w.details.replay as ReplayScript).upload_id, conversations: log, bytes_sent: sent, bytes_received: received, target_failures: w.port_failures ?? {} });
  for (const c of convs) {
    if (signal.aborted) throw new Error('aborted');
    const entry: ConvLog = { conversation: c.n, protocol: c.protocol, server_port: c.serverPort, connected_port: mapped(c.serverPort), segments: c.segments.length, result: 'match' };
    log.push(entry);
    const play = c.protocol === 'tcp' ? playTcp : playUdp;
    const failure = await play(c, w.local_address, host, entry, signal, (n, dir) => (dir === 'out' ? (sent += n) : (received += n)));
    if (signal.aborted) throw new Error('aborted');
    if (failure) return { outcome: 'ran', blocked: true, message: `Conversation ${c.n} (${c.protocol.toUpperCase()} port ${c.serverPort}): ${failure}`, evidence: evidence() };
  }
  return { outcome: 'ran', blocked: false, message: null, evidence: evidence() };
}

type Count = (n: number, dir: 'in' | 'out') => void;

/** Records the first segment that did not come as captured, and says why. */
function mismatch(entry: ConvLog, i: number, s: { from: 'client' | 'server'; data: Buffer }, got: Buffer, why: string): string {
  entry.result = why;
  entry.failed_segment = { index: i + 1, direction: sideName(s.from), expected_bytes: s.data.length, received_bytes: got.length, expected: preview(s.data, 80), received: preview(got, 80) };
  return `segment ${i + 1} (${sideName(s.from)}) ${why}`;
}

async function playTcp(c: Conversation, local: string, host: string, entry: ConvLog, signal: AbortSignal, count: Count): Promise<string | null> {
  const sock = net.connect({ host, port: entry.connected_port, localAddress: local, allowHalfOpen: true });
  const inbox = new StreamInbox(sock, limitOf(c, 'server'));
  try {
    const connected = await connectResult(sock);
    if (connected !== 'open') {
      entry.result = connected;
      return `the connection was ${connected === 'timeout' ? 'timed out' : connected}`;
    }
    for (const [i, s] of c.segments.entries()) {
      if (s.from === 'client') {
        if (inbox.stop && inbox.stop !== 'end') return mismatch(entry, i, s, Buffer.alloc(0), `not sent: connection ${inbox.stop}`);
        sock.write(s.data);
        count(s.data.length, 'out');
        continue;
      }
      const got = await inbox.take(s.data.length, signal);
      count(got.length, 'in');
      if (signal.aborted) return null;
      if (got.length < s.data.length) return mismatch(entry, i, s, got, inbox.stop && inbox.stop !== 'end' ? `connection ${inbox.stop}` : inbox.stop === 'end' ? 'connection closed early' : 'timed out');
      if (!got.equals(s.data)) return mismatch(entry, i, s, got, 'differs from the capture (altered content)');
    }
    sock.end();
    // The target ends its side once it has checked every client byte; a reset says it did not match.
    const end = await inbox.ended(signal);
    if (inbox.pending > 0) return mismatch(entry, c.segments.length, { from: 'server', data: Buffer.alloc(0) }, Buffer.alloc(inbox.pending), 'extra bytes after the capture (altered content)');
    if (end !== 'end' && !signal.aborted) {
      entry.result = end;
      return `the connection ${end === 'timeout' ? 'was not ended (timed out)' : `was ${end}`} after the last segment`;
    }
    return null;
  } finally {
    sock.destroy();
  }
}

async function playUdp(c: Conversation, local: string, host: string, entry: ConvLog, signal: AbortSignal, count: Count): Promise<string | null> {
  const sock = dgram.createSocket('udp4');
  sock.on('error', () => {});
  const inbox = new DatagramInbox(sock);
  try {
    await new Promise<void>((resolve, reject) => {
      sock.once('error', reject);
      sock.bind({ address: local, port: 0 }, () => resolve());
    });
    for (const [i, s] of c.segments.entries()) {
      if (s.from === 'client') {
        await new Promise<void>((resolve) => sock.send(s.data, entry.connected_port, host, () => resolve()));
        count(s.data.length, 'out');
        continue;
      }
      const got = await inbox.next(signal);
      if (signal.aborted) return null;
      if (!got) return mismatch(entry, i, s, Buffer.alloc(0), 'no datagram (timed out)');
      count(got.length, 'in');
      if (!got.equals(s.data)) return mismatch(entry, i, s, got, 'differs from the capture (altered content)');
    }
    return null;
  } finally {
    sock.close();
  }
}
