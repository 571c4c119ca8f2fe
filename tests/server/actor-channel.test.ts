/**
 * The actor channel (server/actors/channel.ts, actor/channel.ts): an actor's calls as WebSocket
 * messages answered as HTTP would answer them, refused without a credential, and HTTP whenever a
 * proxy in between refuses or drops the upgrade.
 */
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ACTOR_API, ACTOR_CHANNEL, MAX_POLL_BYTES, type ChannelAnswer } from '../../src/api/contracts/engine';
import { insertAction, insertSimulation, runJob, startEngineWorld, waitForJob, type EngineWorld } from './engine-helpers';
import type { TestServer } from './helpers';

const socketAction = (port: number) => ({ comm_type: 'tcp', server_port: port, steps: [{ data_type: 'ascii', request: 'hello', response: 'world' }] });

/** Counts the director's HTTP requests to a path prefix and its upgrade requests, from now on. */
function countRequests(w: EngineWorld) {
  const counts = { polls: 0, upgrades: 0 };
  const onRequest = (req: http.IncomingMessage) => {
    if (req.url?.startsWith(`${ACTOR_API}/poll`)) counts.polls++;
  };
  const onUpgrade = () => counts.upgrades++;
  w.server.app.server.on('request', onRequest);
  w.server.app.server.on('upgrade', onUpgrade);
  return counts;
}

async function runSocketAction(w: EngineWorld, port: number) {
  const id = await insertAction(w.server.db, 'socket', socketAction(port));
  const jobId = await runJob(w, 'sequences', await insertSimulation(w.server.db, 'sequence', [[id]]));
  return waitForJob(w.server.db, jobId);
}

/** Opens a channel with `authorization`: the socket, or the HTTP status and body that refused it. */
function openChannel(url: string, authorization: string): Promise<{ ws: WebSocket } | { status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace('http:', 'ws:')}${ACTOR_API}${ACTOR_CHANNEL}`, { headers: { authorization } });
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.once('open', () => resolve({ ws }));
    ws.once('error', reject);
  });
}

/** Sends raw text over a channel and waits for the answer with `id`. */
function exchange(ws: WebSocket, text: string | Buffer, id: number | null): Promise<ChannelAnswer> {
  return new Promise((resolve) => {
    const onMessage = (data: Buffer) => {
      const answer = JSON.parse(data.toString()) as ChannelAnswer;
      if (answer.id !== id) return;
      ws.off('message', onMessage);
      resolve(answer);
    };
    ws.on('message', onMessage);
    ws.send(text);
  });
}

describe('the actor channel', () => {
  let w: EngineWorld;
  beforeAll(async () => {
    w = await startEngineWorld();
  });
  afterAll(async () => {
    await w?.close();
  });

  it("an actor's polls and reports go over its channel: a two-actor action completes with no poll over HTTP", async () => {
    const counts = countRequests(w);
    const { job, actions } = await runSocketAction(w, 47_610);
    expect(job.status).toBe('completed');
    expect(actions.map((a) => a.status)).toEqual(['ran']);
    expect(counts.polls).toBe(0);
  });

  it('refuses an unknown credential with 401 before the upgrade, and answers 404 for another WebSocket path', async () => {
    const refused = await openChannel(w.url, 'Bearer vat_not-a-credential');
    expect(refused).toMatchObject({ status: 401 });
    expect(JSON.parse((refused as { body: string }).body).error).toMatch(/./);
    const other = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(`${w.url.replace('http:', 'ws:')}/api/other`);
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.once('error', reject);
    });
    expect(other).toBe(404);
  });

  it('answers each call as HTTP would: its status and error for a malformed body, an unknown call, hostile input and an oversize body', async () => {
    const token = (w.src as unknown as { cred: { token: string } }).cred.token;
    const opened = await openChannel(w.url, `Bearer ${token}`);
    if (!('ws' in opened)) throw new Error(`the channel was refused: ${opened.status} ${opened.body}`);
    const { ws } = opened;
    try {
      const http400 = await fetch(`${w.url}${ACTOR_API}/poll`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ session: 'x', wait_ms: 'soon' }) });
      const malformed = await exchange(ws, JSON.stringify({ id: 7, call: '/poll', body: { session: 'x', wait_ms: 'soon' } }), 7);
      expect(malformed.status).toBe(http400.status);
      expect(malformed.body).toEqual(await http400.json());

      const heartbeat = await exchange(ws, JSON.stringify({ id: 8, call: '/heartbeat', body: { session: 'channel-test' } }), 8);
      expect(heartbeat).toEqual({ id: 8, status: 200, body: { ok: true } });

      const unknown = await exchange(ws, JSON.stringify({ id: 9, call: '/nothing', body: {} }), 9);
      expect(unknown).toEqual({ id: 9, status: 404, body: { error: `No route for POST ${ACTOR_API}/nothing` } });

      const nul = await exchange(ws, JSON.stringify({ id: 10, call: '/heartbeat', body: { session: 'a\u0000b' } }), 10);
      expect(nul).toEqual({ id: 10, status: 400, body: { error: 'The request body contains a NUL character, which is not allowed.' } });

      const poisoned = await exchange(ws, '{"id": 11, "call": "/heartbeat", "body": {"__proto__": {"x": 1}}}', null);
      expect(poisoned).toEqual({ id: null, status: 400, body: { error: 'The message is not valid JSON.' } });

      const badId = await exchange(ws, JSON.stringify({ id: 12, call: '/work/99999999999/result', body: { session: 'x', outcome: 'ran' } }), 12);
      expect(badId.status).toBe(404);

      const big = await exchange(ws, JSON.stringify({ id: 13, call: '/poll', body: { session: 'x', pad: 'y'.repeat(MAX_POLL_BYTES + 2048) } }), 13);
      expect(big).toEqual({ id: 13, status: 413, body: { error: 'Request body is too large' } });

      // The channel still carries calls after the refusals.
      const again = await exchange(ws, JSON.stringify({ id: 14, call: '/heartbeat', body: { session: 'channel-test' } }), 14);
      expect(again.status).toBe(200);
    } finally {
      ws.close();
    }
  });
});

/** A proxy in front of the director that passes HTTP requests and refuses ('refuse') or drops ('drop') upgrades. */
async function startProxy(director: () => TestServer, mode: 'refuse' | 'drop') {
  const proxy = http.createServer((req, res) => {
    const port = (director().app.server.address() as AddressInfo).port;
    const up = http.request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  proxy.on('upgrade', (_req, socket) => {
    if (mode === 'refuse') socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, close: () => new Promise<void>((r) => proxy.close(() => r())) };
}

describe.each(['refuse', 'drop'] as const)('actors behind a proxy that %ss WebSocket upgrades', (mode) => {
  let w: EngineWorld | undefined;
  let proxy: Awaited<ReturnType<typeof startProxy>> | undefined;
  afterEach(async () => {
    await w?.close();
    await proxy?.close();
  });

  it('call over HTTP, and a two-actor action completes', async () => {
    let server: TestServer | undefined;
    proxy = await startProxy(() => server!, mode);
    w = await startEngineWorld({ director: proxy.url }, { beforeActors: async (s) => (server = s) });
    const counts = countRequests(w);
    const { job, actions } = await runSocketAction(w, mode === 'refuse' ? 47_611 : 47_612);
    expect(job.status).toBe('completed');
    expect(actions.map((a) => a.status)).toEqual(['ran']);
    expect(counts.polls).toBeGreaterThan(0);
    expect(counts.upgrades).toBe(0);
  });
});

describe("actors reaching the director through a Unix socket (the lab's bridge, server/lab/bridge.ts)", () => {
  let w: EngineWorld | undefined;
  let bridge: net.Server | undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-channel-'));
  afterAll(async () => {
    await w?.close();
    await new Promise((r) => bridge?.close(r));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('open their channel through it: a two-actor action completes with no poll over HTTP', async () => {
    let server: TestServer | undefined;
    const socketPath = path.join(dir, 'director.sock');
    bridge = net.createServer((client) => {
      const upstream = net.connect({ host: '127.0.0.1', port: (server!.app.server.address() as AddressInfo).port });
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((r) => bridge!.listen(socketPath, r));
    w = await startEngineWorld({ directorSocket: socketPath }, { beforeActors: async (s) => (server = s) });
    const counts = countRequests(w);
    const { job, actions } = await runSocketAction(w, 47_613);
    expect(job.status).toBe('completed');
    expect(actions.map((a) => a.status)).toEqual(['ran']);
    // Its HTTP calls would reach the director through the socket too, and be counted.
    expect(counts.polls).toBe(0);
  });
});
