/**
 * One scheduling pass over an evaluation starts every step whose actors are free with a fixed number of
 * statements (server/engine/engine.ts: the actors read, locked and checked free together, the work
 * written in one statement), in step order, and a step that cannot start leaves the job's status as
 * the steps before it set it. Nodes stand in for actors here (no actor process polls): the test
 * drives the engine's passes itself.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../server/db/index';
import { engineFor, type Engine } from '../../server/engine/engine';
import { createJob } from '../../server/engine/jobs';
import { startTestServer, type TestServer } from './helpers';
import { insertAction, insertSimulation, TEST_ENGINE_OPTIONS } from './engine-helpers';

let server: TestServer;
let engine: Engine;

beforeAll(async () => {
  server = await startTestServer();
  // Not started: no timer, the passes are the test's (tick()).
  engine = engineFor(server.db, TEST_ENGINE_OPTIONS);
});
afterAll(async () => {
  await engine?.stop();
  await server?.close();
});

let seq = 0;
/** A node online now, as a registered actor is, able to perform `types`. */
async function node(types = ['socket', 'port_scan']): Promise<number> {
  seq++;
  const address = `127.0.9.${seq}`;
  const [row] = await server.db.query<{ id: number }>(
    `insert into nodes (name, node_type, os_base, os, node_version, msi_service_version, deps_installed, status, mgmt_address, sim_address, last_heartbeat_at, token_hash, capabilities, username)
     values ($1, 'endpoint', 'linux', 'Linux', '1', '1', false, 'online', $2, $2, now(), $3, $4, 'test') returning id`,
    [`batch-${seq}`, address, `hash-${seq}-${Date.now()}`, JSON.stringify({ types, addresses: [address] })],
  );
  return row!.id;
}

/** Counts the statements of the transactions run while `fn` runs (the engine schedules each job in one). */
async function statementsIn(db: Db, fn: () => Promise<void>): Promise<string[]> {
  const sqls: string[] = [];
  const original = db.transaction.bind(db);
  const spy = vi.spyOn(db, 'transaction').mockImplementation(<T,>(inner: (tx: Db) => Promise<T>) =>
    original((tx) =>
      inner({
        ...tx,
        query: <R,>(sql: string, params?: unknown[]) => {
          sqls.push(sql.replace(/\s+/g, ' ').trim());
          return tx.query<R>(sql, params);
        },
      }),
    ),
  );
  try {
    await fn();
  } finally {
    spy.mockRestore();
  }
  return sqls;
}

const work = (jobId: number) =>
  server.db.query<{ id: number; job_action_id: number; node_id: number; role: string; status: string }>(
    'select id, job_action_id, node_id, role, status from engine_work where job_id = $1 order by id',
    [jobId],
  );
const actions = (jobId: number) =>
  server.db.query<{ id: number; status: string; blocked_msg: string | null }>(
    'select ja.id, ja.status, ja.blocked_msg from job_actions ja join job_steps s on s.id = ja.job_step_id where ja.job_id = $1 order by s.group_order',
    [jobId],
  );
const jobStatus = async (jobId: number) => (await server.db.query<{ status: string }>('select status from jobs where id = $1', [jobId]))[0]?.status;

describe('an evaluation pass', () => {
  it('starts the steps of every free pair with one write of their work, in step order; a step whose actors are busy waits', async () => {
    const n = await Promise.all(Array.from({ length: 8 }, () => node()));
    const socket = await insertAction(server.db, 'socket', { comm_type: 'tcp', server_port: 48999, steps: [{ data_type: 'ascii', request: 'a', response: 'b' }] }, 'batch socket');
    // Steps 1-4 between four different pairs; step 5 between the pair of step 1 (busy after it).
    const sim = await insertSimulation(server.db, 'eval', [[socket], [socket], [socket], [socket], [socket]]);
    const pairs = [0, 2, 4, 6, 0].map((i) => ({ source: n[i]!, target: n[i + 1]! }));
    const { job_id: jobId } = await createJob(server.db, { kind: 'evaluation', id: sim, pairs, userId: null });

    const sqls = await statementsIn(server.db, () => engine.tick());
    const inserts = sqls.filter((s) => s.startsWith('with work as (insert into engine_work'));
    expect(inserts).toHaveLength(1);
    // The nodes of the pass read once, not once per actor.
    expect(sqls.filter((s) => s.includes('as up_before_start'))).toHaveLength(1);
    // Checked free once for all (PostgreSQL also locks them, in one statement), not once per step.
    expect(sqls.filter((s) => s.startsWith('select distinct node_id from engine_work'))).toHaveLength(1);
    expect(sqls.filter((s) => s.startsWith('select 1 from engine_work where node_id = any'))).toHaveLength(0);
    // On PostgreSQL their rows are locked for the pass in one statement (none per step).
    expect(sqls.filter((s) => s.startsWith('select id from nodes where id = any($1::int[]) order by id for no key update skip locked'))).toHaveLength(server.db.kind === 'postgres' ? 1 : 0);

    const ja = await actions(jobId);
    expect(ja.map((a) => a.status)).toEqual(['running', 'running', 'running', 'running', 'pending']);
    const rows = await work(jobId);
    // Each started step: its target's work queued, then its source's held, in step order.
    expect(rows.map((r) => [r.job_action_id, r.role, r.status, r.node_id])).toEqual(
      ja.slice(0, 4).flatMap((a, i) => [
        [a.id, 'target', 'queued', pairs[i]!.target],
        [a.id, 'source', 'held', pairs[i]!.source],
      ]),
    );
    expect(await jobStatus(jobId)).toBe('preparing');

    // Nothing changed: a second pass starts nothing (step 5's actors hold step 1's work).
    await engine.tick();
    expect(await work(jobId)).toHaveLength(8);
    expect((await actions(jobId))[4]?.status).toBe('pending');
    await server.db.query(`update engine_work set status = 'aborted' where job_id = $1`, [jobId]);
    await server.db.query(`update jobs set status = 'cancelled' where id = $1`, [jobId]);
    await engine.tick();
  });

  it("reads one step per free pair of actors; when that step ends in the pass, the pair's next step is read and tried in the same pass", async () => {
    const [a, b, c, d] = await Promise.all([node(), node(), node(), node()]);
    // This pair cannot perform socket actions: its steps end incompatible.
    const [e, f] = [await node(['sleep']), await node(['sleep'])];
    const socket = await insertAction(server.db, 'socket', { comm_type: 'tcp', server_port: 48997, steps: [{ data_type: 'ascii', request: 'a', response: 'b' }] }, 'batch socket 3');
    const sim = await insertSimulation(server.db, 'eval', [[socket], [socket], [socket], [socket], [socket], [socket]]);
    const [p0, p1, p2] = [{ source: a, target: b }, { source: c, target: d }, { source: e, target: f }];
    const { job_id: jobId } = await createJob(server.db, { kind: 'evaluation', id: sim, pairs: [p0, p1, p2, p0, p2, p1], userId: null });
    // The job actions each read of the pass returned (their steps' positions, 1-6).
    const read: number[][] = [];
    const original = server.db.transaction.bind(server.db);
    const spy = vi.spyOn(server.db, 'transaction').mockImplementation(<T,>(inner: (tx: Db) => Promise<T>) =>
      original((tx) =>
        inner({
          ...tx,
          query: async <R,>(sql: string, params?: unknown[], opts?: { name?: string }) => {
            const rows = await tx.query<R>(sql, params, opts);
            if (sql.includes('with firsts as')) read.push((rows as { group_order: number }[]).map((r) => r.group_order));
            return rows;
          },
        }),
      ),
    );
    try {
      await engine.tick();
    } finally {
      spy.mockRestore();
    }
    // Steps 1, 2 and 3, the first of each pair (steps 4-6 wait behind them); step 3 ended, so step 5, its
    // pair's next, was read and tried too, then nothing more (steps 4 and 6: their actors were taken).
    // The reads after the first also return steps 1 and 2, running by then (written before step 3 ended).
    expect(read).toEqual([
      [1, 2, 3],
      [1, 2, 5],
      [1, 2],
    ]);
    expect((await actions(jobId)).map((x) => x.status)).toEqual(['running', 'running', 'incompatible', 'pending', 'incompatible', 'pending']);
    await server.db.query(`update engine_work set status = 'aborted' where job_id = $1`, [jobId]);
    await server.db.query(`update jobs set status = 'cancelled' where id = $1`, [jobId]);
    await engine.tick();
  });

  it('a step that cannot start after one that did ends with its reason, and the job stays preparing as the started step left it', async () => {
    const [a, b] = [await node(), await node()];
    // This pair cannot perform socket actions: its step ends incompatible in the same pass.
    const [c, d] = [await node(['sleep']), await node(['sleep'])];
    const socket = await insertAction(server.db, 'socket', { comm_type: 'tcp', server_port: 48998, steps: [{ data_type: 'ascii', request: 'a', response: 'b' }] }, 'batch socket 2');
    const sim = await insertSimulation(server.db, 'eval', [[socket], [socket]]);
    const { job_id: jobId } = await createJob(server.db, { kind: 'evaluation', id: sim, pairs: [{ source: a, target: b }, { source: c, target: d }], userId: null });

    await engine.tick();
    const ja = await actions(jobId);
    expect(ja.map((x) => x.status)).toEqual(['running', 'incompatible']);
    expect(ja[1]?.blocked_msg).toMatch(/cannot perform socket actions/);
    expect((await work(jobId)).map((r) => r.role)).toEqual(['target', 'source']);
    expect(await jobStatus(jobId)).toBe('preparing');
    await server.db.query(`update engine_work set status = 'aborted' where job_id = $1`, [jobId]);
    await server.db.query(`update jobs set status = 'cancelled' where id = $1`, [jobId]);
    await engine.tick();
  });
});
