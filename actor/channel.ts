/**
 * The actor's side of the actor channel (ACTOR_CHANNEL in src/api/contracts/engine.ts): its calls to the
 * director as WebSocket messages over one connection, opened at the first call and again after it
 * closes. A director (or a proxy) that refuses the upgrade with anything but 401 makes the channel
 * unsupported: the agent calls over HTTP from then on.
 */
import net from 'node:net';
import WebSocket from 'ws';
import { ACTOR_API, ACTOR_CHANNEL, type ChannelAnswer, type ChannelCall } from '../src/api/contracts/engine';

/** A call's answer: the HTTP status it would have, and its body. */
export interface ChannelReply {
  status: number;
  body: unknown;
}

/** The channel could not carry the call (no connection, or it closed first): retried like an HTTP failure. */
export class ChannelDown extends Error {}

/** No channel could be opened (the connection failed or closed before the upgrade): the call may go over HTTP. */
export class ChannelUnreachable extends ChannelDown {}

/** The director refused the upgrade with this status (401: the credential; anything else: no channel there). */
export class ChannelRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The `error` of a director's answer (JSON `{ error }`), or its text when it has none. */
export function errorOfAnswer(text: string): string {
  try {
    return (JSON.parse(text) as { error?: string }).error ?? text;
  } catch {
    return text;
  }
}

/** A call left unanswered this long fails, and the connection is dropped (the director is not answering on it). */
const CALL_TIMEOUT_MS = 30_000;

export interface ChannelOptions {
  director: string;
  /** A Unix socket to the director (the lab's bridge), as for HTTP calls. */
  socketPath?: string | undefined;
  maxAnswerBytes: number;
}

export class DirectorChannel {
  private ws: WebSocket | null = null;
  private opening: Promise<WebSocket> | null = null;
  private seq = 0;
  private readonly pending = new Map<number, { resolve: (r: ChannelReply) => void; reject: (e: Error) => void; at: number }>();
  private sweeper: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly opts: ChannelOptions) {}

  /** Sends one call; resolves with its answer, rejects with ChannelDown or ChannelRefused. */
  async call(path: string, body: unknown, authorization: string): Promise<ChannelReply> {
    const ws = this.ws?.readyState === WebSocket.OPEN ? this.ws : await this.open(authorization);
    const id = ++this.seq;
    return new Promise<ChannelReply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, at: Date.now() });
      ws.send(JSON.stringify({ id, call: path, body } satisfies ChannelCall), (e) => {
        if (!e) return;
        this.pending.delete(id);
        reject(new ChannelDown(`the channel to the director closed: ${e.message}`));
      });
    });
  }

  /** Closes the connection; calls in flight fail. */
  close(): void {
    this.closed = true;
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
    this.ws?.terminate();
    this.failAll('the actor is stopping');
  }

  private open(authorization: string): Promise<WebSocket> {
    if (this.closed) return Promise.reject(new ChannelDown('the actor is stopping'));
    this.opening ??= new Promise<WebSocket>((resolve, reject) => {
      const url = new URL(`${this.opts.director}${ACTOR_API}${ACTOR_CHANNEL}`);
      url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
      const socketPath = this.opts.socketPath;
      const ws = new WebSocket(url, {
        headers: { authorization },
        perMessageDeflate: false,
        maxPayload: this.opts.maxAnswerBytes,
        handshakeTimeout: CALL_TIMEOUT_MS,
        ...(socketPath ? { createConnection: () => net.connect(socketPath) } : {}),
      });
      // Refused (no 101): the answer's status and error are read first; the connection is dropped after.
      ws.on('unexpected-response', (_req, res) => {
        const status = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        const refuse = () => {
          const message = errorOfAnswer(Buffer.concat(chunks).toString('utf8'));
          reject(new ChannelRefused(status, `the director refused the channel (${status}): ${message}`.slice(0, 500)));
          ws.terminate();
        };
        res.on('data', (c: Buffer) => chunks.length < 16 && chunks.push(c));
        res.once('end', refuse);
        res.once('error', refuse);
      });
      ws.once('open', () => {
        if (this.closed) {
          ws.terminate();
          return reject(new ChannelDown('the actor is stopping'));
        }
        this.ws = ws;
        this.sweeper ??= setInterval(() => this.sweep(), 5_000).unref();
        resolve(ws);
      });
      ws.on('message', (data: Buffer) => this.receive(data));
      ws.on('error', (e) => reject(new ChannelUnreachable(`the channel to the director could not be opened: ${e.message}`)));
      ws.on('close', () => {
        if (this.ws === ws) this.ws = null;
        this.failAll('the channel to the director closed');
      });
    }).finally(() => {
      this.opening = null;
    });
    return this.opening;
  }

  private receive(data: Buffer) {
    let answer: ChannelAnswer;
    try {
      answer = JSON.parse(data.toString('utf8')) as ChannelAnswer;
    } catch {
      return;
    }
    const p = this.pending.get(answer.id);
    if (!p) return;
    this.pending.delete(answer.id);
    p.resolve({ status: answer.status, body: answer.body });
  }

  /** Calls unanswered for CALL_TIMEOUT_MS fail, and the connection they wait on is dropped. */
  private sweep() {
    const now = Date.now();
    let late = false;
    for (const [id, p] of this.pending) {
      if (now - p.at < CALL_TIMEOUT_MS) continue;
      this.pending.delete(id);
      p.reject(new ChannelDown('the director did not answer in time'));
      late = true;
    }
    if (late) this.ws?.terminate();
  }

  private failAll(why: string) {
    const calls = [...this.pending.values()];
    this.pending.clear();
    for (const p of calls) p.reject(new ChannelDown(why));
  }
}
