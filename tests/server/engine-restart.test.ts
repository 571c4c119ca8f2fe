import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { startEngine } from '../../server/engine/index';
import { ActorAgent } from '../../actor/agent';
import { insertAction, startEngineWorld, waitForJob, type EngineWorld } from './engine-helpers';
import { loopback } from './loopback';

let w: EngineWorld;
let second: FastifyInstance | null = null;
beforeAll(async () => {
  w = await startEngineWorld();
});
afterAll(async () => {
  const t = (what: string) => process.env.ENGINE_TEST_DEBUG && console.log(`restart close: ${what} at ${Date.now() % 100000}`);
  await second?.close();
  t('second closed');
  await w.src.stop();
  await w.dst.stop();
  t('actors stopped');
  await w.server.app.close();
  t('first app closed again');
  await w?.close();
});

/** Stops the director (its engine and server) and starts another one on the same database and port. */
async function restartDirector(): Promise<void> {
  const port = Number(new URL(w.url).port);
  await w.server.app.close();
  await new Promise((r) => setTimeout(r, 300));
  second = await buildApp({ db: w.server.db, config: w.server.config });
  startEngine(second, { tickMs: 50, offlineAfterMs: 3000, heartbeatMs: 500 });
  await second.listen({ port, host: '127.0.0.1' });
}

describe('a director restart loses no accepted job', () => {
  it('in-flight work resumes: the actor reports to the restarted director; work of a vanished actor ends errored with the reason', async () => {
    const lone = new ActorAgent({ director: w.url, bulkToken: w.bulkToken, name: 'lone', address: loopback(4), log: () => {}, pollWaitMs: 1000 });
    await lone.start();
    const run = async (src: number | null, actionId: number) => {
      const res = await w.server.call('POST', `/run/actions/${actionId}.json`, { ...(second ? { app: second } : {}), as: w.operator, body: { attack_node_id_1: src, target_node_id_1: w.dst.nodeId } });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ job_id: number }>().job_id;
    };
    const resumed = await run(w.src.nodeId, await insertAction(w.server.db, 'sleep', { sleep_ms: 2500 }));
    const lost = await run(lone.nodeId, await insertAction(w.server.db, 'sleep', { sleep_ms: 30_000 }));
    // A job accepted but not yet scheduled (its actor is busy) must survive too.
    const queued = await run(w.src.nodeId, await insertAction(w.server.db, 'port_scan', { ports_list: '47201', sleep_timer: 0, randomize_scan: false }));
    for (let i = 0; i < 100 && (!w.src.holding.length || !lone.holding.length); i++) await new Promise((r) => setTimeout(r, 50));
    expect(w.src.holding.length).toBe(1);

    await restartDirector();
    await lone.stop(); // this actor does not come back

    const a = await waitForJob(w.server.db, resumed);
    expect(a.job.status).toBe('completed');
    expect(a.actions[0]?.status).toBe('ran');
    const b = await waitForJob(w.server.db, lost, ['completed', 'errored'], 15_000);
    expect(b.actions[0]?.status).toBe('errored');
    expect(b.actions[0]?.blocked_msg).toBe('Actor lone went offline (no heartbeat for 3 s).');
    const c = await waitForJob(w.server.db, queued);
    expect(c.actions[0]?.status).toBe('ran');
    expect(c.actions[0]?.blocked).toBe(false);
  });

  it('an actor process that restarts ends its unfinished work errored with the reason', async () => {
    const id = await insertAction(w.server.db, 'sleep', { sleep_ms: 30_000 });
    const res = await w.server.call('POST', `/run/actions/${id}.json`, {
      as: w.operator,
      body: { attack_node_id_1: w.src.nodeId, target_node_id_1: w.dst.nodeId },
      ...(second ? { app: second } : {}),
    });
    const jobId = res.json<{ job_id: number }>().job_id;
    for (let i = 0; i < 100 && !w.src.holding.length; i++) await new Promise((r) => setTimeout(r, 50));
    const token = (w.src as unknown as { cred: { token: string } }).cred.token;
    // A new process of the same actor (same credential, new session) polls.
    const poll = await fetch(`${w.url}/api/actor/poll`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ session: 'new-process', wait_ms: 0 }),
    });
    expect(poll.status).toBe(200);
    const { actions } = await waitForJob(w.server.db, jobId);
    expect(actions[0]?.status).toBe('errored');
    expect(actions[0]?.blocked_msg).toBe('Actor src restarted while performing this action.');
  });
});
