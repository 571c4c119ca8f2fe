import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../server/engine/engine';
import { TEST_ENGINE_OPTIONS, insertAction, runJob, startEngineWorld, waitForJob, type EngineWorld } from './engine-helpers';
import type { PollAnswer, RegisterAnswer } from '@/api/contracts/engine';
import { loopback } from './loopback';

let w: EngineWorld;
/**
 * The engines of two directors on the same database (the world's director only answers the actors),
 * each on its own connection pool on PostgreSQL (TEST_DATABASE_URL), as two director processes are.
 */
let one: Engine;
let two: Engine;

beforeAll(async () => {
  w = await startEngineWorld({}, { schedule: false });
  // The actors' director does not hear the other two's news, even on PGlite: its polls look again each second.
  w.engine.sharesDatabase = true;
  one = new Engine(await w.server.connectAgain(), TEST_ENGINE_OPTIONS);
  two = new Engine(await w.server.connectAgain(), TEST_ENGINE_OPTIONS);
});
afterAll(async () => {
  await one?.stop();
  await two?.stop();
  await w?.close();
});

const run = (actionId: number) => runJob(w, 'actions', actionId);

/** The most open work items any one actor holds right now. */
async function mostOpenPerNode(): Promise<number> {
  const [row] = await w.server.db.query<{ n: number | null }>(
    `select max(n)::int as n from (select count(*) as n from engine_work where status in ('held', 'queued', 'claimed', 'ready') group by node_id) c`,
  );
  return row?.n ?? 0;
}

describe('two directors on one database', () => {
  it('hand one actor the work of one job at a time: six jobs started at once all run, never overlapping on an actor', async () => {
    const ids = await Promise.all(Array.from({ length: 6 }, (_, i) => insertAction(w.server.db, 'port_scan', { ports_list: `${47300 + i}`, sleep_timer: 0, randomize_scan: false })));
    const jobs = await Promise.all(ids.map(run));
    // Both directors schedule at the same moment: each may see the actors idle, only one hands them work.
    await Promise.all([one.tick(), two.tick()]);
    expect(await mostOpenPerNode()).toBe(1);
    one.start();
    two.start();
    let most = 0;
    let done = false;
    const watching = (async () => {
      while (!done) {
        most = Math.max(most, await mostOpenPerNode());
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const results = await Promise.all(jobs.map((id) => waitForJob(w.server.db, id, ['completed', 'errored', 'cancelled'], 60_000)));
    done = true;
    await watching;
    expect(results.map((r) => [r.job.status, r.actions[0]?.status, r.actions[0]?.blocked])).toEqual(jobs.map(() => ['completed', 'ran', false]));
    expect(most).toBe(1);
    // Afterwards too: no actor held two pieces of work at overlapping times.
    const overlaps = await w.server.db.query(
      `select a.id, b.id from engine_work a join engine_work b on a.node_id = b.node_id and a.id < b.id
        where a.job_id = any($1::int[]) and b.job_id = any($1::int[])
          and a.claimed_at < b.finished_at and b.claimed_at < a.finished_at`,
      [jobs],
    );
    expect(overlaps).toEqual([]);
  });

  it('an actor polling is handed one piece of work at a time, the next only once the first is finished', async () => {
    const [done] = await w.server.db.query<{ job_id: number; ids: number[] }>(
      `select min(job_id) as job_id, array_agg(id order by id) as ids from job_actions where status = 'ran' group by job_id order by job_id limit 1`,
    );
    const [other] = await w.server.db.query<{ id: number; job_id: number }>(`select id, job_id from job_actions where status = 'ran' and job_id <> $1 order by id limit 1`, [done?.job_id]);
    const reg = await w.server.call('POST', '/api/actor/register', {
      csrf: false,
      body: { bulk_token: w.bulkToken, name: 'solo', version: '1.0.0', os: 'Linux', addresses: [loopback(4)], capabilities: ['sleep'] },
    });
    expect(reg.statusCode, reg.body).toBe(200);
    const solo = reg.json<RegisterAnswer>();
    // Two queued items for one actor, as two directors might have left them.
    const payload = (jobId: number, jaId: number) => JSON.stringify({ node_id: solo.node_id, job_id: jobId, job_action_id: jaId, role: 'source', action_type: 'sleep', name: 's', details: {}, timeout_ms: 5000, local_address: loopback(4), expires_at: new Date(Date.now() + 60_000).toISOString() });
    const work = await w.server.db.query<{ id: number }>(
      `insert into engine_work (job_action_id, job_id, node_id, role, status, payload) values ($1, $2, $3, 'source', 'queued', $4), ($5, $6, $3, 'source', 'queued', $7) returning id`,
      [done?.ids[0], done?.job_id, solo.node_id, payload(done?.job_id ?? 0, done?.ids[0] ?? 0), other?.id, other?.job_id, payload(other?.job_id ?? 0, other?.id ?? 0)],
    );
    const headers = { authorization: `Bearer ${solo.token}` };
    const poll = async (holding: number[]) => {
      const res = await w.server.call('POST', '/api/actor/poll', { csrf: false, headers, body: { session: 'solo-1', holding, wait_ms: 0 } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<PollAnswer>().work.map((x) => x.id);
    };
    expect(await poll([])).toEqual([work[0]?.id]);
    expect(await poll([work[0]?.id ?? 0])).toEqual([]);
    const result = await w.server.call('POST', `/api/actor/work/${work[0]?.id}/result`, { csrf: false, headers, body: { session: 'solo-1', outcome: 'ran', blocked: false, message: null, evidence: {} } });
    expect(result.statusCode, result.body).toBe(200);
    expect(await poll([])).toEqual([work[1]?.id]);
  });
});
