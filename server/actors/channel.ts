/**
 * The actor channel (ACTOR_CHANNEL in src/api/contracts/engine.ts): a WebSocket per actor process that
 * carries its calls as messages instead of HTTP requests, answered by the same handlers the HTTP routes
 * call (server/routes/actors.ts). The credential is checked at the upgrade (401 before it) and again by
 * every call, as over HTTP; the calls' bodies get the HTTP path's checks: the JSON parser refusing
 * prototype poisoning, the route's body limit, the input guards. Nothing here touches the database.
 */
import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import { ACTOR_API, ACTOR_CHANNEL, type ChannelAnswer } from '../../src/api/contracts/engine';
import { HttpError, badRequest } from '../http-errors';
import { refuseHostileCall } from '../input-guards';
import { actorByCredential } from './service';
import type { Engine } from '../engine/engine';

/** One actor call as both transports deliver it. */
export interface ActorCall {
  authorization: string | undefined;
  params: unknown;
  body: unknown;
}

/** An actor API call: its path under ACTOR_API (`:name` parameters), its body limit and its handler. */
export interface ActorRoute {
  path: string;
  bodyLimit: number;
  handle: (call: ActorCall) => Promise<unknown>;
}

/** What an envelope adds to a call's body (its id and path), beyond the route's body limit. */
const ENVELOPE_BYTES = 1024;

interface CompiledRoute {
  route: ActorRoute;
  pattern: RegExp;
  names: string[];
}

function compile(route: ActorRoute): CompiledRoute {
  const names: string[] = [];
  const source = route.path
    .split('/')
    .map((part) => (part.startsWith(':') ? (names.push(part.slice(1)), '([^/]+)') : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return { route, pattern: new RegExp(`^${source}$`), names };
}

/** The route a channel call names, with its parameters; null when none does. */
function match(routes: CompiledRoute[], call: string): { route: ActorRoute; params: Record<string, string> } | null {
  for (const r of routes) {
    const m = r.pattern.exec(call);
    if (m) return { route: r.route, params: Object.fromEntries(r.names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)])) };
  }
  return null;
}

/** Answers the upgrade with an HTTP error and closes the connection. */
function refuseUpgrade(socket: Duplex, status: number, reason: string, message: string) {
  const body = JSON.stringify({ error: message });
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

export function serveActorChannel(app: FastifyInstance, engine: Engine, routes: readonly ActorRoute[]): void {
  const compiled = routes.map(compile);
  const largest = Math.max(...routes.map((r) => r.bodyLimit));
  // A message over a route's limit is answered 413 (as over HTTP); one over twice the largest closes the channel.
  const wss = new WebSocketServer({ noServer: true, maxPayload: 2 * largest, perMessageDeflate: false });
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const open = new Set<WebSocket>();

  const parse = (text: string): unknown => {
    let value: unknown;
    let error: Error | null = null;
    parseJson(undefined as never, text, (e: Error | null, v: unknown) => {
      error = e;
      value = v;
    });
    if (error) throw badRequest('The message is not valid JSON.');
    return value;
  };

  /** The answer to a failed call, as the director's error handler (server/app.ts) would send it over HTTP. */
  const failure = (e: unknown, call: string): Omit<ChannelAnswer, 'id'> => {
    if (e instanceof HttpError) return { status: e.statusCode, body: { error: e.message, ...e.body } };
    const err = e as Error & { statusCode?: number };
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) return { status: err.statusCode, body: { error: err.message } };
    const requestId = crypto.randomUUID();
    app.log.error({ err, reqId: requestId, channel: call.slice(0, 200) }, 'actor channel call failed');
    return { status: 500, body: { error: `An internal error occurred. It has been logged with request id ${requestId}.`, request_id: requestId } };
  };

  const answer = async (ws: WebSocket, data: Buffer, authorization: string | undefined) => {
    let id: number | null = null;
    let call = '';
    let reply: Omit<ChannelAnswer, 'id'>;
    try {
      const message = parse(data.toString('utf8'));
      if (!message || typeof message !== 'object' || Array.isArray(message)) throw badRequest('A channel message is an object with id, call and body.');
      const m = message as Record<string, unknown>;
      if (typeof m.id !== 'number' || !Number.isSafeInteger(m.id) || m.id < 0) throw badRequest('A channel message needs an id: a whole number of 0 or more.');
      id = m.id;
      if (typeof m.call !== 'string' || m.call.length > 200) throw badRequest('A channel message needs a call: the path of an actor call, such as /poll.');
      call = m.call;
      if (call.includes('%00') || call.includes('\0')) throw badRequest('The request path contains a NUL character, which is not allowed.');
      const found = match(compiled, call);
      if (!found) throw new HttpError(404, `No route for POST ${ACTOR_API}${call.split('?')[0]}`);
      if (data.length > found.route.bodyLimit + ENVELOPE_BYTES) throw new HttpError(413, 'Request body is too large');
      refuseHostileCall(found.params, m.body);
      const body = await engine.track(() => found.route.handle({ authorization, params: found.params, body: m.body }));
      reply = { status: 200, body };
    } catch (e) {
      reply = failure(e, call);
    }
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ id, ...reply }));
  };

  app.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if ((req.url ?? '').split('?')[0] !== `${ACTOR_API}${ACTOR_CHANNEL}`) return refuseUpgrade(socket, 404, 'Not Found', `No WebSocket at ${(req.url ?? '').split('?')[0]}`);
    if (engine.stopped) return refuseUpgrade(socket, 503, 'Service Unavailable', 'The director is stopping.');
    const authorization = req.headers.authorization;
    socket.on('error', () => {});
    actorByCredential(app.db, authorization).then(
      () =>
        wss.handleUpgrade(req, socket, head, (ws) => {
          open.add(ws);
          ws.on('close', () => open.delete(ws));
          ws.on('error', () => ws.terminate());
          ws.on('message', (data: Buffer) => void answer(ws, data, authorization));
        }),
      (e: unknown) => {
        const status = e instanceof HttpError ? e.statusCode : 500;
        if (status >= 500) app.log.error({ err: e }, 'actor channel upgrade failed');
        refuseUpgrade(socket, status, status === 401 ? 'Unauthorized' : 'Error', e instanceof HttpError ? e.message : 'An internal error occurred.');
      },
    );
  });

  // After the engine stopped (actors' routes' preClose): the channels close with the director.
  app.addHook('preClose', async () => {
    for (const ws of open) ws.terminate();
    wss.close();
  });
}
