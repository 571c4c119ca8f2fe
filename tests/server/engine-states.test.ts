/** Job states the engine produces (preparing, running while collecting events) and the detection window. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActorAgent } from '../../actor/agent';
import type { JobListAnswer } from '@/api/contracts/jobs';
import { ACTOR_API, type PollAnswer, type RegisterAnswer } from '@/api/contracts/engine';
import { insertAction, insertSimulation, startEngineWorld, stoppedActor, waitForAction, waitForJob, type EngineWorld } from './engine-helpers';
import { DST_ADDRESS, SRC_ADDRESS, loopback } from './loopback';

const WINDOW_MS = 4000;
let w: EngineWorld;
const extra: ActorAgent[] = [];

beforeAll(async () => {
  w = await startEngineWorld({}, { engine: { detectionWindowMs: WINDOW_MS, offlineAfterMs: 15_000 } });
});
afterAll(async () => {
  for (const a of extra) await a.stop();
  await w?.close();
});

async function run(actionId: number, src = w.src.nodeId): Promise<number> {
  const res = await w.server.call('POST', `/run/actions/${actionId}.json`, { as: w.operator, body: { attack_node_id_1: src, target_node_id_1: w.dst.nodeId } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ job_id: number }>().job_id;
}

/** The job's row in the Jobs list (the list the Jobs pane shows). */
async function listed(jobId: number): Promise<string | undefined> {
  const res = await w.server.call('GET', '/jobs/list_page_data.json?size=50', { as: w.operator });
  expect(res.statusCode, res.body).toBe(200);
  const a = res.json<JobListAnswer>();
  return (a.filtered_jobs ?? a.jobs ?? []).find((j) => j.id === jobId)?.job_status;
}

async function jobRow(jobId: number) {
  const [job] = await w.server.db.query<{ status: string; status_reason: string | null; finished_at: string | null }>(
    'select status, status_reason, finished_at::text from jobs where id = $1',
    [jobId],
  );
  return job;
}

describe('job states', () => {
  it('JOB-047 a job is Preparing in the jobs list until its source actor fetches the work, then Running, then Completed', async () => {
    // The actor process stops polling (still online: its heartbeat is not overdue yet).
    const idle = await stoppedActor(w, 'idle', loopback(4));
    const jobId = await run(await insertAction(w.server.db, 'sleep', { sleep_ms: 50 }), idle.nodeId);
    for (let i = 0; i < 200 && (await jobRow(jobId))?.status !== 'preparing'; i++) await new Promise((r) => setTimeout(r, 25));
    expect(await listed(jobId)).toBe('preparing');
    const [work] = await w.server.db.query<{ status: string }>('select status from engine_work where job_id = $1', [jobId]);
    expect(work?.status).toBe('queued');

    // The actor comes back (same credential) and fetches the work: the job runs and completes.
    extra.push(await idle.restart());
    await waitForJob(w.server.db, jobId, ['running', 'completed']);
    const { job, actions } = await waitForJob(w.server.db, jobId);
    expect(job.status).toBe('completed');
    expect(actions[0]?.status).toBe('ran');
    expect(await listed(jobId)).toBe('completed');
  });
});

/** An actor speaking the actor API by hand, to hold a target's work as long as the test wants. */
async function handActor(name: string, address: string) {
  const send = (path: string, body: unknown, token?: string) =>
    fetch(`${w.url}${ACTOR_API}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  const post = async <T>(path: string, body: unknown, token?: string): Promise<T> => {
    const res = await send(path, body, token);
    expect(res.status, path).toBe(200);
    return (await res.json()) as T;
  };
  const reg = await post<RegisterAnswer>('/register', { bulk_token: w.bulkToken, name, version: 'hand', os: 'test', addresses: [address], capabilities: ['socket'] });
  const session = `${name}-session`;
  return {
    nodeId: reg.node_id,
    poll: (holding: number[], wait_ms = 0) => post<PollAnswer>('/poll', { session, holding, wait_ms }, reg.token),
    /** A poll carrying readiness and evidence (the body's other fields). */
    pollWith: (body: { holding: number[]; ready?: unknown[]; evidence?: unknown[]; wait_ms?: number }) => post<PollAnswer>('/poll', { session, wait_ms: 0, ...body }, reg.token),
    /** A poll with another credential (the answer's status and body). */
    pollAs: async (token: string, body: { holding: number[]; ready?: unknown[] }) => {
      const res = await send('/poll', { session, wait_ms: 0, ...body }, token);
      return { status: res.status, body: (await res.json()) as { error?: string } };
    },
    ready: (id: number) => post(`/work/${id}/ready`, { session, port_map: {}, port_failures: {} }, reg.token),
    /** A ready call with a login (a file_transfer target's sshd user): the answer's status and body. */
    readyAs: async (id: number, login: string) => {
      const res = await send(`/work/${id}/ready`, { session, port_map: {}, port_failures: {}, login }, reg.token);
      return { status: res.status, body: (await res.json()) as { error?: string } };
    },
  };
}

/**
 * A socket action's job from the world's source to a hand actor (target), whose poll has claimed the
 * target's work; with `steps` above 1, a sequence of that many such steps.
 */
async function socketJobOnHandTarget(name: string, port: number, steps = 1) {
  const target = await handActor(name, loopback(4));
  const action = await insertAction(w.server.db, 'socket', { comm_type: 'tcp', server_port: port, steps: [{ data_type: 'ascii', request: 'a', response: 'b' }] });
  const run = steps === 1 ? `/run/actions/${action}.json` : `/run/sequences/${await insertSimulation(w.server.db, 'sequence', Array.from({ length: steps }, () => [action]))}.json`;
  const res = await w.server.call('POST', run, { as: w.operator, body: { attack_node_id_1: w.src.nodeId, target_node_id_1: target.nodeId } });
  expect(res.statusCode, res.body).toBe(201);
  const jobId = res.json<{ job_id: number }>().job_id;
  let work: PollAnswer['work'] = [];
  for (let i = 0; i < 20 && !work.length; i++) work = (await target.poll([], 1000)).work;
  const id = work[0]?.id ?? 0;
  expect(id).toBeGreaterThan(0);
  return { target, jobId, id };
}

describe('reverting', () => {
  it('JOB-047 after the last action the job is Reverting until the target actor has closed its servers, then it completes', async () => {
    const { target, jobId, id } = await socketJobOnHandTarget('hand', 47420);
    // A login that is not a user name is refused with the reason, and the work stays claimed.
    const bad = await target.readyAs(id, 'root; rm -rf /');
    expect([bad.status, bad.body.error]).toEqual([400, 'login must be a user name']);
    // The target says it serves (it opens nothing: the source finds the port refused), and keeps holding the work.
    await target.ready(id);
    const ran = await waitForAction(w.server.db, jobId, ['ran']);
    expect(ran.blocked).toBe(true);
    await waitForJob(w.server.db, jobId, ['reverting']);
    expect(await listed(jobId)).toBe('reverting');
    expect((await jobRow(jobId))?.status_reason).toBe('The actors are cleaning up after the last action.');
    // The actor is told to stop the work; once it no longer holds it, the cleanup is done.
    expect((await target.poll([id])).abort).toEqual([id]);
    await target.poll([]);
    const { job } = await waitForJob(w.server.db, jobId);
    expect(job.status).toBe('completed');
    const [row] = await w.server.db.query<{ status: string }>('select status from engine_work where id = $1', [id]);
    expect(row?.status).toBe('aborted');
  });
});

describe('an actor cleaning up', () => {
  it('takes no new work until its cleanup ends: the next step is dispatched once the evidence is stored, and the poll that carried it is handed the work', async () => {
    const { target, jobId, id: first } = await socketJobOnHandTarget('cleanup', 47422, 2);
    // It serves (opening nothing: the source finds the port refused); the source's result ends the first step.
    await target.ready(first);
    await waitForAction(w.server.db, jobId, ['ran']);
    const workOf = () => w.server.db.query<{ id: number; role: string; status: string; created: Date }>('select id, role, status, created_at as created from engine_work where job_id = $1 order by id', [jobId]);
    for (let i = 0; i < 200 && (await workOf()).find((x) => x.id === first)?.status !== 'reverting'; i++) await new Promise((r) => setTimeout(r, 25));
    expect((await workOf()).find((x) => x.id === first)?.status).toBe('reverting');
    // Passes over the job find its target cleaning up: the second step waits, no work is written for it.
    await w.engine.tick();
    await w.engine.tick();
    expect((await workOf()).map((x) => x.role)).toEqual(['target', 'source']);
    const steps = await w.server.db.query<{ status: string }>('select ja.status from job_actions ja join job_steps s on s.id = ja.job_step_id where ja.job_id = $1 order by s.group_order', [jobId]);
    expect(steps.map((x) => x.status)).toEqual(['ran', 'pending']);
    // Told to stop, it closes its servers; the poll carrying their evidence ends the cleanup, and waits:
    // the job's next pass, started by the evidence, hands that poll the second step's work.
    expect((await target.poll([first])).abort).toEqual([first]);
    const before = Date.now();
    const next = await target.pollWith({ holding: [], evidence: [{ work_id: first, evidence: {} }], wait_ms: 10_000 });
    expect(next.work).toHaveLength(1);
    expect(Date.now() - before).toBeLessThan(5_000);
    const after = await workOf();
    const second = after.find((x) => x.id === next.work[0]?.id);
    expect(second?.role).toBe('target');
    expect(second?.status).toBe('claimed');
    expect(after.find((x) => x.id === first)?.status).toBe('aborted');
    // It was created after the cleanup ended: its time from scheduled to running holds none of it.
    const [ended] = await w.server.db.query<{ at: Date }>(`select max(created_at) as at from engine_work where job_id = $1 and role = 'source'`, [jobId]);
    expect(second && ended && second.created.getTime() >= ended.at.getTime()).toBe(true);
    await target.ready(next.work[0]?.id ?? 0);
    await waitForJob(w.server.db, jobId, ['reverting', 'completed']);
    await target.pollWith({ holding: [], evidence: [{ work_id: next.work[0]?.id ?? 0, evidence: {} }] });
    expect((await waitForJob(w.server.db, jobId)).job.status).toBe('completed');
  });
});

describe('reports carried by polls', () => {
  it('a poll carrying readiness from an actor whose credential the director no longer remembers stores it (the credential read beside the write); a wrong credential stores nothing', async () => {
    const { target, jobId, id } = await socketJobOnHandTarget('hand-forgot', 47423);
    // A wrong credential: 401, and the readiness is not stored.
    const wrong = await target.pollAs('not-a-credential', { holding: [id], ready: [{ work_id: id, port_map: {}, port_failures: {} }] });
    expect(wrong.status).toBe(401);
    const [held] = await w.server.db.query<{ status: string }>('select status from engine_work where id = $1', [id]);
    expect(held?.status).toBe('claimed');
    // Forgotten (as a second after its last call on PostgreSQL): the poll's readiness is stored all the same.
    w.engine.liveness.forget();
    const serving = await target.pollWith({ holding: [id], ready: [{ work_id: id, port_map: {}, port_failures: {} }] });
    expect(serving.refused).toBeUndefined();
    const ran = await waitForAction(w.server.db, jobId, ['ran']);
    expect(ran.blocked).toBe(true);
    expect((await target.pollWith({ holding: [id] })).abort).toEqual([id]);
    await target.pollWith({ holding: [], evidence: [{ work_id: id, evidence: {} }] });
    expect((await waitForJob(w.server.db, jobId)).job.status).toBe('completed');
  });

  it('a target carries its readiness and its evidence in its polls: the source is released, the evidence kept, the cleanup done; a refused item says why', async () => {
    const { target, jobId, id } = await socketJobOnHandTarget('hand-poll', 47421);
    // Its next poll says it serves (it opens nothing: the source finds the port refused).
    const serving = await target.pollWith({ holding: [id], ready: [{ work_id: id, port_map: {}, port_failures: {} }] });
    expect(serving.refused).toBeUndefined();
    const ran = await waitForAction(w.server.db, jobId, ['ran']);
    expect(ran.blocked).toBe(true);
    await waitForJob(w.server.db, jobId, ['reverting']);
    expect((await target.pollWith({ holding: [id] })).abort).toEqual([id]);
    // Its servers closed: the next poll carries what they saw and no longer holds the work.
    const closed = await target.pollWith({ holding: [], evidence: [{ work_id: id, evidence: { seen_by: 'poll' } }] });
    expect(closed.refused).toBeUndefined();
    const { job } = await waitForJob(w.server.db, jobId);
    expect(job.status).toBe('completed');
    const [row] = await w.server.db.query<{ status: string; seen: string | null }>(
      `select w.status, ja.evidence->'target'->>'seen_by' as seen from engine_work w join job_actions ja on ja.id = w.job_action_id where w.id = $1`,
      [id],
    );
    expect(row).toEqual({ status: 'aborted', seen: 'poll' });
    // Sent again, the readiness is refused with the reason; the poll answers all the same.
    const again = await target.pollWith({ holding: [], ready: [{ work_id: id, port_map: {}, port_failures: {} }] });
    expect(again).toEqual({ work: [], abort: [], refused: [{ work_id: id, error: `Work ${id} is not a target waiting to be ready.` }] });
  });
});

describe('detection window', () => {
  it('JOB-047 after its action the job keeps Running while it collects events; an event posted then sets detected before the job completes', async () => {
    const admin = await w.server.signIn('admin');
    const [integration] = await w.server.db.query<{ id: number }>(`insert into integrations (name, type) values ('Window IDS', 'ids') returning id`);
    const tokenRes = await w.server.call('POST', `/integrations/${integration?.id}/events_token.json`, { as: admin });
    expect(tokenRes.statusCode, tokenRes.body).toBe(200);
    const token = tokenRes.json<{ token: string }>().token;

    const jobId = await run(await insertAction(w.server.db, 'port_scan', { ports_list: '47401', sleep_timer: 0, randomize_scan: false }));
    const ran = await waitForAction(w.server.db, jobId, ['ran']);
    // Reverting while the target closes its servers, then running while events are collected.
    let during = await jobRow(jobId);
    for (let i = 0; i < 100 && !during?.status_reason?.startsWith('Collecting'); i++) {
      await new Promise((r) => setTimeout(r, 20));
      during = await jobRow(jobId);
    }
    expect(during?.status).toBe('running');
    expect(during?.status_reason).toMatch(/^Collecting security events until \d\d:\d\d:\d\d UTC \(detection window\)\.$/);
    expect(await listed(jobId)).toBe('running');

    const event = {
      timestamp: new Date().toISOString(),
      event_type: 'alert',
      src_ip: SRC_ADDRESS,
      src_port: 52000,
      dest_ip: DST_ADDRESS,
      dest_port: 47401,
      proto: 'TCP',
      alert: { signature: 'ET SCAN late alert', severity: 3 },
    };
    const res = await w.server.call('POST', `/integrations/${integration?.id}/events`, { body: [event], csrf: false, headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ stored: 1, matched: 1 });
    // Detected while the job has not completed yet.
    expect((await jobRow(jobId))?.status).toBe('running');
    const [row] = await w.server.db.query<{ events: number; alerted: boolean; finished_at: string }>('select events, alerted, finished_at::text from job_actions where id = $1', [ran.id]);
    expect([row?.events, row?.alerted]).toEqual([1, true]);

    const { job, actions } = await waitForJob(w.server.db, jobId);
    expect(job.status).toBe('completed');
    expect(job.status_reason).toBeNull();
    expect([actions[0]?.events, actions[0]?.alerted, actions[0]?.detected_msg]).toEqual([1, true, 'ET SCAN late alert']);
    // It completed only once the window after the action had passed.
    expect(Date.parse(job.finished_at ?? '') - Date.parse(row?.finished_at ?? '')).toBeGreaterThanOrEqual(WINDOW_MS - 50);
  });
});
