/**
 * An actor started before its director can be reached waits for it (actor/agent.ts, start): it says so
 * in its log and tries again, 1 s later and then twice as long each time, and registers once the
 * director answers. A refusal (a wrong bulk token) still ends the start at once. The lab's actors reach
 * their director through a Unix socket its bridge opens: an actor started first had stopped for good.
 */
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActorAgent } from '../../actor/agent';
import { createBulkToken } from '../../server/engine/secrets';
import { startTestServer, type TestServer } from './helpers';
import { loopback } from './loopback';

let server: TestServer;
let url: string;
let dir: string;
const agents: ActorAgent[] = [];
let bridge: net.Server | undefined;

beforeAll(async () => {
  server = await startTestServer();
  url = await server.app.listen({ port: 0, host: '127.0.0.1' });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-start-retry-'));
});

afterAll(async () => {
  for (const a of agents) await a.stop();
  bridge?.close();
  await server?.app.close();
  await server?.close().catch(() => {});
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('an actor started before its director is reachable', () => {
  it('logs that the director is not reachable, tries again, and registers once the director answers', async () => {
    const { token } = await createBulkToken(server.db, { name: 'start retry' });
    const socketPath = path.join(dir, 'director.sock');
    const logged: string[] = [];
    let firstRefusal!: () => void;
    const refused = new Promise<void>((r) => (firstRefusal = r));
    const agent = new ActorAgent({
      director: url,
      directorSocket: socketPath,
      bulkToken: token,
      name: 'waits-for-director',
      address: loopback(40),
      pollWaitMs: 2000,
      log: (line) => {
        logged.push(line);
        if (line.includes('is not reachable')) firstRefusal();
      },
    });
    agents.push(agent);
    let started = false;
    const start = agent.start().then(() => (started = true));
    await refused;
    expect(started).toBe(false);
    expect(logged[0]).toMatch(new RegExp(`the director ${url} is not reachable \\(.*ENOENT.*\\); trying again in 1 s$`));

    // The socket appears (the lab's bridge starts): the next try gets through.
    bridge = net.createServer((client) => {
      const upstream = net.connect({ host: '127.0.0.1', port: (server.app.server.address() as AddressInfo).port });
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((r) => bridge!.listen(socketPath, r));
    await start;
    expect(logged.some((l) => /registered as actor \d+ on /.test(l))).toBe(true);
    const [node] = await server.db.query<{ name: string }>(`select name from nodes where name = 'waits-for-director'`);
    expect(node?.name).toBe('waits-for-director');
  });

  it('a refused bulk token ends the start at once, without trying again', async () => {
    const logged: string[] = [];
    const agent = new ActorAgent({ director: url, bulkToken: 'not-a-token', name: 'refused', address: loopback(41), log: (line) => logged.push(line) });
    agents.push(agent);
    await expect(agent.start()).rejects.toMatchObject({ status: 401 });
    expect(logged.filter((l) => l.includes('not reachable'))).toEqual([]);
  });

  it('an actor stopped while it waits for its director ends its start without registering', async () => {
    const { token } = await createBulkToken(server.db, { name: 'start retry stop' });
    let waiting!: () => void;
    const isWaiting = new Promise<void>((r) => (waiting = r));
    const agent = new ActorAgent({
      director: url,
      directorSocket: path.join(dir, 'never.sock'),
      bulkToken: token,
      name: 'stopped-while-waiting',
      address: loopback(42),
      log: (line) => line.includes('not reachable') && waiting(),
    });
    await Promise.all([agent.start(), isWaiting.then(() => agent.stop())]);
    expect(await server.db.query(`select 1 from nodes where name = 'stopped-while-waiting'`)).toEqual([]);
  });
});
