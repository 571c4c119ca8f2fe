/**
 * Truthful state (issue 21, item 1): on a fresh demo install no actor without a fresh heartbeat is
 * reported online by any answer (Actors pane, network map, Run modal), and no job sits in a non-final
 * status without an engine (or the monitor scheduler) working on it. The clock is moved with fake
 * Date only (timers stay real), so nothing waits 30 s.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ACTOR_API, type RunActor } from '@/api/contracts/engine';
import type { ActorTables } from '@/api/contracts/actors';
import type { NetworkMap } from '@/api/contracts/topology';
import { FINISHED_JOB_STATUSES } from '@/api/contracts/library';
import { startTestServer, type Session, type TestServer } from './helpers';
import { seedDemo, DEMO_JOB_REASON } from '../../server/seed/demo';
import { seedDemoMonitors } from '../../server/seed/demo-monitors';
import { createBulkToken } from '../../server/engine/secrets';
import { endJobsWithoutEngine, RESTART_REASON } from '../../server/engine/orphans';
import { engineFor } from '../../server/engine/engine';
import { runNow } from '../../server/monitors/runs';

let s: TestServer;
let viewer: Session;
let actor = { id: 0, token: '' };
const OFFLINE_AFTER_MS = 20_000;

beforeAll(async () => {
  s = await startTestServer();
  await seedDemo(s.db);
  await seedDemoMonitors(s.db);
  viewer = await s.signIn('viewer');
  // One real actor: registered and sending a heartbeat now.
  const { token: bulk } = await createBulkToken(s.db, { name: 'truth', hours: 1 });
  const reg = await s.call('POST', `${ACTOR_API}/register`, {
    csrf: false,
    body: { bulk_token: bulk, name: 'real-actor', version: '1', os: 'Linux', addresses: ['127.0.0.9'], capabilities: ['sleep'] },
  });
  expect(reg.statusCode, reg.body).toBe(200);
  const r = reg.json<{ node_id: number; token: string }>();
  actor = { id: r.node_id, token: r.token };
  const beat = await s.call('POST', `${ACTOR_API}/heartbeat`, { csrf: false, body: { session: 'truth-1' }, headers: { authorization: `Bearer ${actor.token}` } });
  expect(beat.statusCode, beat.body).toBe(200);
});

afterEach(() => {
  vi.useRealTimers();
});

afterAll(async () => {
  await s?.close();
});

/** The names each answer reports online. */
async function onlineEverywhere(): Promise<Record<'actors' | 'map' | 'run', string[]>> {
  const get = async <T>(url: string) => {
    const res = await s.call('GET', url, { as: viewer });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<T>();
  };
  const online = (rows: { name: string; status: string }[]) => rows.filter((r) => r.status === 'online').map((r) => r.name).sort();
  return {
    actors: online((await get<ActorTables>('/actors/tables.json')).nodes.data),
    map: online((await get<NetworkMap>('/topology/network.json')).nodes),
    run: online((await get<{ data: RunActor[] }>('/run/actors.json')).data),
  };
}

/** Names of the actors whose last heartbeat is younger than the offline delay, by the (possibly fake) clock. */
async function freshlyHeard(): Promise<string[]> {
  const rows = await s.db.query<{ name: string }>(`select name from nodes where last_heartbeat_at >= $1::timestamptz order by name`, [new Date(Date.now() - OFFLINE_AFTER_MS)]);
  return rows.map((r) => r.name);
}

describe('issue 21.1 actor status derives from the heartbeat, the same in every answer', () => {
  it('on a fresh demo install only the actor that sent a heartbeat is online; the 17 demo actors are offline', async () => {
    const fresh = await freshlyHeard();
    expect(fresh).toEqual(['real-actor']);
    expect(await onlineEverywhere()).toEqual({ actors: fresh, map: fresh, run: fresh });
    const tables = await s.call('GET', '/actors/tables.json', { as: viewer });
    const demo = tables.json<ActorTables>().nodes.data.filter((n) => n.name !== 'real-actor');
    expect(demo.length).toBeGreaterThanOrEqual(17);
    expect(demo.every((n) => n.status !== 'online')).toBe(true);
  });

  it('30 s without a heartbeat, the actor is offline in the Actors pane, the map and the Run modal, with the reason', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 30_000 });
    expect(await freshlyHeard()).toEqual([]);
    expect(await onlineEverywhere()).toEqual({ actors: [], map: [], run: [] });
    const tables = await s.call('GET', '/actors/tables.json', { as: viewer });
    const real = tables.json<ActorTables>().nodes.data.find((n) => n.id === actor.id);
    expect(real?.status).toBe('offline');
    expect(real?.status_details).toMatch(/^No heartbeat since /);
  });
});

describe('issue 21.1 no job stays in a non-final status without engine work', () => {
  const unowned = () =>
    s.db.query<{ id: number; status: string }>(
      `select j.id, j.status from jobs j
        where j.status <> all($1::text[])
          and not exists (select 1 from engine_jobs e where e.job_id = j.id and e.active)
          and not (j.status = 'sleeping' and exists (select 1 from monitors m where m.next_job_id = j.id))`,
      [FINISHED_JOB_STATUSES],
    );

  it('the demo seed stores only finished history (and the monitors\' next runs, owned by the scheduler)', async () => {
    expect(await unowned()).toEqual([]);
    const open = await s.db.query<{ status: string }>(`select status from jobs where status <> all($1::text[])`, [FINISHED_JOB_STATUSES]);
    expect(open.every((j) => j.status === 'sleeping')).toBe(true);
    const ended = await s.db.query<{ n: number }>(`select count(*)::int as n from jobs where status = 'errored' and status_reason = $1`, [DEMO_JOB_REASON]);
    expect(ended[0]?.n).toBeGreaterThan(0);
    const unfinished = await s.db.query<{ n: number }>(`select count(*)::int as n from job_actions where status in ('pending', 'running', 'waiting', 'reverting')`);
    expect(unfinished[0]?.n).toBe(0);
  });

  it('at start the director ends a job no engine holds errored with the reason, and leaves the engine\'s jobs alone', async () => {
    const insertJob = async (name: string) => {
      const [job] = await s.db.query<{ id: number }>(`insert into jobs (name, status, progress, started_at) values ($1, 'running', 40, now()) returning id`, [name]);
      const [st] = await s.db.query<{ id: number }>(`insert into job_steps (job_id, group_order, name) values ($1, 1, 'Step') returning id`, [job?.id]);
      await s.db.query(
        `insert into job_actions (job_step_id, job_id, position, sim_action_vid, name, action_type, status, started_at)
         values ($1, $2, 0, 'A1', 'begun', 'sleep', 'running', now()), ($1, $2, 1, 'A2', 'not begun', 'sleep', 'pending', null)`,
        [st?.id, job?.id],
      );
      return job?.id ?? 0;
    };
    const orphan = await insertJob('left running');
    const owned = await insertJob('held by an engine');
    await s.db.query(`insert into engine_jobs (job_id, kind) values ($1, 'action')`, [owned]);

    expect(await endJobsWithoutEngine(s.db)).toBe(1);
    const [job] = await s.db.query<{ status: string; status_reason: string; finished_at: string | null }>(`select status, status_reason, finished_at from jobs where id = $1`, [orphan]);
    expect(job).toMatchObject({ status: 'errored', status_reason: RESTART_REASON });
    expect(job?.finished_at).not.toBeNull();
    const actions = await s.db.query<{ name: string; status: string }>(`select name, status from job_actions where job_id = $1 order by position`, [orphan]);
    expect(actions).toEqual([{ name: 'begun', status: 'errored' }, { name: 'not begun', status: 'not run' }]);
    const [kept] = await s.db.query<{ status: string }>(`select status from jobs where id = $1`, [owned]);
    expect(kept?.status).toBe('running');
    expect((await unowned()).map((j) => j.id)).toEqual([]);
  });
});

describe('issue 21.1 the monitors and the engine read the status from the heartbeat, not the stored one', () => {
  let zone = 0;
  let stale = { id: 0, name: '' };
  let sleepAction = 0;

  beforeAll(async () => {
    const [z] = await s.db.query<{ id: number }>(`insert into zones (name) values ('truth zone') returning id`);
    zone = z?.id ?? 0;
    // A demo actor (lower id than the real one) stored 'online' from before a restart, last heard 5 minutes ago.
    const [n] = await s.db.query<{ id: number; name: string }>(
      `update nodes set status = 'online', status_details = null, token_hash = 'stale-token', last_heartbeat_at = now() - interval '5 minutes',
              security_zone_id = $1, capabilities = '{"types": ["sleep"]}'::jsonb
        where id = (select min(id) from nodes where id <> $2) returning id, name`,
      [zone, actor.id],
    );
    stale = { id: n?.id ?? 0, name: n?.name ?? '' };
    expect(stale.id).toBeLessThan(actor.id);
    await s.db.query(`update nodes set security_zone_id = $1 where id = $2`, [zone, actor.id]);
    const [a] = await s.db.query<{ id: number }>(`insert into actions (vid, name, action_type, approved) values ('A021-001', 'Truthful sleep', 'sleep', true) returning id`);
    sleepAction = a?.id ?? 0;
  });

  const monitor = async (name: string, group: Record<string, unknown>) => {
    const operator = await s.signIn('operator');
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const res = await s.call('POST', '/monitors.json', {
      as: operator,
      body: {
        name,
        description: '',
        monitor_group: null,
        new_monitor_group: 'Truthful',
        monitor_runtime: `${tomorrow} 09:00`,
        timezone: 'UTC',
        repeat_job_period_number: 1,
        repeat_job_period_type: 'days',
        extra_sleep: 0,
        steps: [{ name: 'Sleep', ...group, actions: [{ action_id: sleepAction, expected_blocked: 'no', expected_detected: 'does_not_matter' }] }],
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: number }>().id;
  };
  const sourceOf = async (jobId: number) => (await s.db.query<{ source_node_id: number }>(`select source_node_id from job_steps where job_id = $1`, [jobId]))[0]?.source_node_id;

  it('a zone run picks the actor with a fresh heartbeat over a stored-online stale one; 30 s on, neither counts as online', async () => {
    const id = await monitor('Truthful zone', { run_between: 'zone', attack_node: null, target_node: null, attack_zone: zone, target_zone: null });
    const first = await runNow(s.db, id, null);
    expect(await sourceOf(first)).toBe(actor.id);
    // 30 s later (fake Date), no heartbeat is fresh: the choice falls back to the lowest id among connected actors.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 30_000 });
    const later = await runNow(s.db, id, null);
    expect(await sourceOf(later)).toBe(stale.id);
    vi.useRealTimers();
    await s.db.query(`delete from engine_jobs where job_id = any($1::int[])`, [[first, later]]);
    await s.db.query(`update jobs set status = 'cancelled', finished_at = now() where id = any($1::int[])`, [[first, later]]);
  });

  it('a just-started engine (before its offline sweep) refuses work for the stale actor: the action errors "Actor ... is offline."', async () => {
    const id = await monitor('Truthful node', { run_between: 'node', attack_node: stale.id, target_node: null });
    const job = await runNow(s.db, id, null);
    const engine = engineFor(s.db);
    engine.start();
    try {
      await vi.waitFor(
        async () => {
          const [a] = await s.db.query<{ status: string; blocked_msg: string | null }>(`select status, blocked_msg from job_actions where job_id = $1`, [job]);
          expect(a).toEqual({ status: 'errored', blocked_msg: `Actor ${stale.name} is offline.` });
        },
        { timeout: 10_000, interval: 50 },
      );
    } finally {
      await engine.stop();
    }
    const work = await s.db.query(`select 1 from engine_work where job_id = $1`, [job]);
    expect(work).toEqual([]);
    // The engine's sweep had not run (it waits the offline delay after a start): the stored status still says online.
    const [n] = await s.db.query<{ status: string }>(`select status from nodes where id = $1`, [stale.id]);
    expect(n?.status).toBe('online');
  });
});
