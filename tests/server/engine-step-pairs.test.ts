/**
 * Runs aimed step by step: attack_node_id_{n}/target_node_id_{n} reach the job's steps and the
 * engine performs each step between its own pair of real loopback actors (a third actor joins).
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActorAgent } from '../../actor/agent';
import type { JobDetail } from '@/api/contracts/jobs';
import { insertAction, insertSimulation, startEngineWorld, waitForJob, type EngineWorld } from './engine-helpers';
import { DST_ADDRESS, SRC_ADDRESS, loopback } from './loopback';

let w: EngineWorld;
let third: ActorAgent;

beforeAll(async () => {
  w = await startEngineWorld();
  third = new ActorAgent({ director: w.url, bulkToken: w.bulkToken, name: 'third', address: loopback(5), log: () => {}, pollWaitMs: 2000 });
  await third.start();
  // A PGlite open takes minutes under the shared machine's load (see vitest.config.ts).
}, 240_000);
afterAll(async () => {
  await third?.stop();
  await w?.close();
});

/**
 * A port free on every actor address of this file. The fixed ports this file used (47301...) are
 * also used by engine-kill and engine-directors; vitest serializes those within one run, but another
 * checkout's run on this shared machine is not, and a step whose socket server cannot listen errors.
 * That is the likely cause of the one failure seen under load (it passed here at load 20 and quiet).
 */
async function freePort(): Promise<number> {
  const tryListen = (address: string, port: number) =>
    new Promise<number | null>((resolve) => {
      const srv = net.createServer();
      srv.once('error', () => resolve(null));
      srv.listen(port, address, () => {
        const got = (srv.address() as net.AddressInfo).port;
        srv.close(() => resolve(got));
      });
    });
  for (;;) {
    const port = await tryListen(SRC_ADDRESS, 0);
    if (port === null) continue;
    if ((await tryListen(DST_ADDRESS, port)) !== null && (await tryListen(loopback(5), port)) !== null) return port;
  }
}

const socket = (port: number) => ({ comm_type: 'tcp', server_port: port, steps: [{ data_type: 'ascii', request: 'hello', response: 'world' }] });

/** Who each step of the job ran from and against, in step order, as the Jobs pane reads them. */
async function stepActors(jobId: number) {
  return w.server.db.query<{ group_order: number; source: string | null; destination: string | null }>(
    `select s.group_order, src.name as source, dst.name as destination
       from job_steps s left join nodes src on src.id = s.source_node_id left join nodes dst on dst.id = s.destination_node_id
      where s.job_id = $1 order by s.group_order`,
    [jobId],
  );
}

function post(kind: string, id: number, body: Record<string, unknown>, as = w.operator, csrf?: string | false) {
  return w.server.call('POST', `/run/${kind}/${id}.json`, { as, body, ...(csrf === undefined ? {} : { csrf }) });
}

describe('runs with per-step actors', () => {
  it('JOB-027 JOB-060 a three-step sequence runs each step between its own pair (step 3 falls back to the step 1 pair)', async () => {
    const a1 = await insertAction(w.server.db, 'socket', socket(await freePort()), 'step one socket');
    const a2 = await insertAction(w.server.db, 'socket', socket(await freePort()), 'step two socket');
    const a3 = await insertAction(w.server.db, 'socket', socket(await freePort()), 'step three socket');
    const sim = await insertSimulation(w.server.db, 'sequence', [[a1], [a2], [a3]]);
    const thirdId = third.nodeId ?? 0;
    const res = await post('sequences', sim, {
      attack_node_id_1: w.src.nodeId,
      target_node_id_1: w.dst.nodeId,
      attack_node_id_2: thirdId,
      target_node_id_2: w.src.nodeId,
    });
    expect(res.statusCode, res.body).toBe(201);
    const jobId = res.json<{ job_id: number }>().job_id;
    expect(await stepActors(jobId)).toEqual([
      { group_order: 1, source: 'src', destination: 'dst' },
      { group_order: 2, source: 'third', destination: 'src' },
      { group_order: 3, source: 'src', destination: 'dst' },
    ]);

    const { job, actions } = await waitForJob(w.server.db, jobId);
    expect(job.status, job.status_reason ?? '').toBe('completed');
    expect(actions.map((a) => a.status)).toEqual(['ran', 'ran', 'ran']);
    // The work of step 2 went to the third actor (source) and to src (target), nowhere else.
    const work = await w.server.db.query<{ name: string; role: string; group_order: number }>(
      `select n.name, w.role, s.group_order from engine_work w join nodes n on n.id = w.node_id
         join job_actions ja on ja.id = w.job_action_id join job_steps s on s.id = ja.job_step_id
        where w.job_id = $1 order by s.group_order, w.role`,
      [jobId],
    );
    expect(work.map((r) => `${r.group_order} ${r.role} ${r.name}`)).toEqual(['1 source src', '1 target dst', '2 source third', '2 target src', '3 source src', '3 target dst']);

    // The job the Job pane reads names each step's actors.
    const detail = await w.server.call('GET', `/jobs/${jobId}`, { as: w.operator });
    expect(detail.statusCode, detail.body).toBe(200);
    const steps = detail.json<JobDetail>().steps.map((s) => `${s.group_order}: ${s.source?.name ?? '-'} -> ${s.destination?.name ?? '-'}`);
    expect(steps).toEqual(['1: src -> dst', '2: third -> src', '3: src -> dst']);
  });

  it('JOB-060 single-actor steps need only the attacker; two-actor steps need a target', async () => {
    const sleep = await insertAction(w.server.db, 'sleep', { sleep_ms: 20 }, 'a pause');
    const sock = await insertAction(w.server.db, 'socket', socket(await freePort()), 'a socket');
    const sim = await insertSimulation(w.server.db, 'eval', [[sleep], [sock]]);

    const noTarget = await post('evaluations', sim, { attack_node_id_1: w.src.nodeId, attack_node_id_2: w.dst.nodeId });
    expect(noTarget.statusCode).toBe(400);
    expect(noTarget.json<{ error: string }>().error).toBe('Step 2: Destination Actor must be chosen');

    const ok = await post('evaluations', sim, { attack_node_id_1: w.src.nodeId, attack_node_id_2: w.dst.nodeId, target_node_id_2: third.nodeId });
    expect(ok.statusCode, ok.body).toBe(201);
    const jobId = ok.json<{ job_id: number }>().job_id;
    expect(await stepActors(jobId)).toEqual([
      { group_order: 1, source: 'src', destination: null },
      { group_order: 2, source: 'dst', destination: 'third' },
    ]);
    const { job } = await waitForJob(w.server.db, jobId);
    expect(job.status).toBe('completed');
  });

  it('JOB-027 bad per-step input is refused with a clear 4xx and creates no job', async () => {
    const sock = await insertAction(w.server.db, 'socket', socket(await freePort()), 'bad input socket');
    const sim = await insertSimulation(w.server.db, 'sequence', [[sock], [sock]]);
    const jobsBefore = (await w.server.db.query<{ n: number }>('select count(*)::int as n from jobs'))[0]?.n;
    const cases: [Record<string, unknown>, number, string][] = [
      [{ attack_node_id_1: w.src.nodeId, target_node_id_1: w.dst.nodeId, attack_node_id_2: 'x' }, 400, 'Step 2: Source Actor must be an actor id'],
      [{ attack_node_id_1: w.src.nodeId, target_node_id_1: w.dst.nodeId, attack_node_id_2: -3 }, 400, 'Step 2: Source Actor must be an actor id'],
      [{ attack_node_id_1: w.src.nodeId, target_node_id_1: w.dst.nodeId, attack_node_id_2: 2 ** 40 }, 400, 'Step 2: Source Actor must be an actor id'],
      [{ attack_node_id_1: w.src.nodeId, target_node_id_1: w.dst.nodeId, attack_node_id_201: w.src.nodeId }, 400, 'Unknown field: use attack_node_id_{n} and target_node_id_{n} with n from 1 to 200, and force_unlock.'],
      [{ attack_node_id_1: w.src.nodeId, target_node_id_1: w.dst.nodeId, target_node_id_2: w.src.nodeId }, 400, 'Step 2: Source Actor must be chosen'],
      [{ attack_node_id_1: w.src.nodeId, target_node_id_1: w.dst.nodeId, attack_node_id_2: 999999, target_node_id_2: w.dst.nodeId }, 404, 'Step 2: Source Actor 999999 does not exist.'],
      [{ attack_node_id_1: w.src.nodeId, target_node_id_1: w.dst.nodeId, attack_node_id_2: w.dst.nodeId, target_node_id_2: w.dst.nodeId }, 400, 'Step 2: Source Actor and Destination Actor must be different actors.'],
      [{ attack_node_id_1: w.src.nodeId, target_node_id_1: w.dst.nodeId, attack_node_id_3: w.dst.nodeId, target_node_id_3: w.src.nodeId }, 400, 'Step 3 does not exist: ' ],
    ];
    for (const [body, status, message] of cases) {
      const res = await post('sequences', sim, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json<{ error: string }>().error, JSON.stringify(body)).toContain(message);
    }
    expect((await w.server.db.query<{ n: number }>('select count(*)::int as n from jobs'))[0]?.n).toBe(jobsBefore);
  });

  it('JOB-027 a never-connected actor in a later step is refused', async () => {
    const sock = await insertAction(w.server.db, 'socket', socket(await freePort()), 'unconnected socket');
    const sim = await insertSimulation(w.server.db, 'sequence', [[sock], [sock]]);
    const [ghost] = await w.server.db.query<{ id: number }>(`insert into nodes (name, node_type) values ('ghost', 'endpoint') returning id`);
    const res = await post('sequences', sim, { attack_node_id_1: w.src.nodeId, target_node_id_1: w.dst.nodeId, attack_node_id_2: w.src.nodeId, target_node_id_2: ghost?.id });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: string }>().error).toBe('Step 2: Destination Actor ghost has never connected to this director, so it cannot run actions.');
  });

  it('JOB-027 per-step runs need the jobs.run permission and a CSRF token', async () => {
    const sock = await insertAction(w.server.db, 'socket', socket(await freePort()), 'guarded socket');
    const sim = await insertSimulation(w.server.db, 'sequence', [[sock], [sock]]);
    const body = { attack_node_id_1: w.src.nodeId, target_node_id_1: w.dst.nodeId, attack_node_id_2: w.dst.nodeId, target_node_id_2: w.src.nodeId };
    const count = async () => (await w.server.db.query<{ n: number }>('select count(*)::int as n from jobs'))[0]?.n;
    const before = await count();
    const viewer = await w.server.signIn('viewer');
    expect((await post('sequences', sim, body, viewer)).statusCode).toBe(403);
    expect((await post('sequences', sim, body, w.operator, false)).statusCode).toBe(403);
    // Signed out: refused (the CSRF check answers first, without a session).
    expect([401, 403]).toContain((await w.server.call('POST', `/run/sequences/${sim}.json`, { body })).statusCode);
    expect(await count()).toBe(before);
    expect((await post('sequences', sim, body)).statusCode).toBe(201);
  });
});
