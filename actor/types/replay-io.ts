/**
 * What both sides of a pcap replay share: the checked script of the work and the inboxes that read
 * a TCP stream by exact lengths and UDP datagrams one by one, each with the read timeout.
 */
import type dgram from 'node:dgram';
import type net from 'node:net';
import type { WorkPayload } from '../../src/api/contracts/engine';
import { REPLAY_LIMITS, type ReplayConversation, type ReplayScript } from '../../src/api/contracts/replay';
import { READ_TIMEOUT_MS, errorKind } from '../net-util';

export interface Conversation {
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

export const sideName = (from: 'client' | 'server') => (from === 'client' ? 'client to server' : 'server to client');

/** Bytes received on a TCP connection, read by exact lengths with a timeout. */
export class StreamInbox {
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
export class DatagramInbox {
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

export const limitOf = (c: Conversation, from: 'client' | 'server') => c.segments.filter((s) => s.from === from).reduce((n, s) => n + s.data.length, 0) + 64 * 1024;
