/**
 * The monitor scheduler on the real engine and actors: due runs become jobs ran by 'Scheduled Process',
 * a director back after downtime catches up once, two directors on one database start a run once,
 * pause stops runs, and a finished run is judged per step, with drift when a step's outcome changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MonitorScheduler } from '../../server/monitors/scheduler';
import { startDueRuns } from '../../server/monitors/runs';
import { judgeFinishedRuns } from '../../server/monitors/outcome';
import { insertAction, startEngineWorld, waitForJob, type EngineWorld } from './engine-helpers';
import type { DriftItem, MonitorDetail, MonitorListAnswer, MonitorRunsAnswer, MonitorStatsAnswer } from '@/api/contracts/monitors';

let w: EngineWorld;
let scanId = 0;

beforeAll(async () => {
  // The director's own monitor scheduler ticks once at start, then not again: the tests tick by hand.
  process.env.MONITOR_TICK_MS = '3600000';
  w = await startEngineWorld();
  scanId = await insertAction(w.server.db, 'port_scan', { ports_list: '47201', sleep_timer: 0, randomize_scan: false }, 'Scan 47201');
});
afterAll(async () => {
  delete process.env.MONITOR_TICK_MS;
  await w?.close();
});

async function createMonitor(name: string, over: Record<string, unknown> = {}): Promise<MonitorDetail> {
  const today = new Date().toISOString().slice(0, 10);
  const res = await w.server.call('POST', '/monitors.json', {
    as: w.operator,
    body: {
      name,
      monitor_runtime: `${today} 00:00`,
      timezone: 'UTC',
      repeat_job_period_number: 1,
      repeat_job_period_type: 'minutes',
      // No detection window unless a test sets one: the runs end as soon as their actions do.
      detection_timeout_seconds: 0,
      steps: [{ name: 'Scan', run_between: 'node', attack_node: w.src.nodeId, target_node: w.dst.nodeId, actions: [{ action_id: scanId, expected_blocked: 'no', expected_detected: 'does_not_matter' }] }],
      ...over,
    },
  });
  if (res.statusCode !== 201) throw new Error(`create answered ${res.statusCode}: ${res.body}`);
  return res.json<MonitorDetail>();
}

/** Moves the monitor's next run into the past, as if the director had been down for `minutes`. */
const dueSince = (id: number, minutes: number) => w.server.db.query(`update monitors set next_run_at = now() - ($2::text || ' minutes')::interval where id = $1`, [id, String(minutes)]);
const runsOf = (id: number) => w.server.db.query<{ job_id: number; trigger: string }>('select job_id, trigger from monitor_runs where monitor_id = $1 order by job_id', [id]);

describe('the monitor scheduler', () => {
  it('a due monitor becomes one job ran by Scheduled Process; after downtime it catches up once, not once per missed slot', async () => {
    const m = await createMonitor('Catch-up monitor');
    const sleeping = m.next_job_id;
    await dueSince(m.id, 10);
    const started = await startDueRuns(w.server.db);
    expect(started).toEqual([sleeping]);
    expect(await startDueRuns(w.server.db)).toEqual([]);
    expect(await runsOf(m.id)).toEqual([{ job_id: sleeping, trigger: 'catch_up' }]);
    const [job] = await w.server.db.query<{ status: string; ran_by: string }>('select status, ran_by from jobs where id = $1', [sleeping]);
    expect(job?.ran_by).toBe('Scheduled Process');
    const after = (await w.server.call('GET', `/monitors/${m.id}.json`, { as: w.operator })).json<MonitorDetail>();
    expect(new Date(after.next_run_at ?? 0).getTime()).toBeGreaterThan(Date.now());
    expect(after.next_job_id).not.toBe(sleeping);
    await w.server.call('POST', `/monitors/${m.id}/pause.json`, { as: w.operator });
    await waitForJob(w.server.db, sleeping ?? 0);
  });

  it('two directors on one database start each due run exactly once', async () => {
    const monitors = await Promise.all(Array.from({ length: 8 }, (_, i) => createMonitor(`Twin ${i}`)));
    for (const m of monitors) await dueSince(m.id, 2);
    // Each director on its own connection pool on PostgreSQL (TEST_DATABASE_URL), as two processes are.
    const a = new MonitorScheduler(await w.server.connectAgain(), { tickMs: 50 });
    const b = new MonitorScheduler(await w.server.connectAgain(), { tickMs: 50 });
    await Promise.all([a.tick(), b.tick(), a.tick(), b.tick()]);
    await Promise.all([a.tick(), b.tick()]);
    for (const m of monitors) {
      expect((await runsOf(m.id)).length, m.name).toBe(1);
      await w.server.call('POST', `/monitors/${m.id}/pause.json`, { as: w.operator });
    }
    const ids = (await Promise.all(monitors.map((m) => runsOf(m.id)))).flat().map((r) => r.job_id);
    const [{ n } = { n: 0 }] = await w.server.db.query<{ n: number }>('select count(*)::int as n from engine_jobs where job_id = any($1::int[])', [ids]);
    expect(n).toBe(8);
    for (const id of ids) await waitForJob(w.server.db, id, ['completed', 'errored', 'cancelled'], 60_000);
  });

  it('a paused monitor does not run', async () => {
    const m = await createMonitor('Paused monitor');
    await w.server.call('POST', `/monitors/${m.id}/pause.json`, { as: w.operator });
    await w.server.db.query(`update monitors set next_run_at = now() - interval '5 minutes' where id = $1`, [m.id]);
    await startDueRuns(w.server.db);
    expect(await runsOf(m.id)).toEqual([]);
  });

  it('runs are judged per step against the expectations; a changed outcome is drift, listed by /monitors/drift.json', async () => {
    const m = await createMonitor('Drift monitor');
    const run = async () => {
      const res = await w.server.call('POST', `/monitors/${m.id}/run_now.json`, { as: w.operator });
      const jobId = res.json<{ job_id: number }>().job_id;
      await waitForJob(w.server.db, jobId);
      await judgeFinishedRuns(w.server.db);
      return jobId;
    };
    // The target listens on 47201: the scan is not blocked, as expected -> pass.
    const first = await run();
    // The environment changes: the scan now goes to a closed port -> blocked -> fail, which is drift.
    await w.server.db.query(`update actions set details = $2 where id = $1`, [scanId, JSON.stringify({ ports_list: '#47202', sleep_timer: 0, randomize_scan: false })]);
    const second = await run();
    const runs = (await w.server.call('GET', `/monitors/${m.id}/runs.json`, { as: w.operator })).json<MonitorRunsAnswer>();
    expect(runs.data.map((r) => [r.job_id, r.status, r.passed, r.failed, r.drift])).toEqual([
      [second, 'completed', 0, 1, 1],
      [first, 'completed', 1, 0, 0],
    ]);
    expect(runs.data[0]?.steps[0]).toMatchObject({ outcome: 'fail', blocked: true, previous_outcome: 'pass', drift: true, reason: 'Blocked, expected not blocked.' });
    // MON-040: the monitor's action names the job action of its latest judged run.
    const detail = (await w.server.call('GET', `/monitors/${m.id}.json`, { as: w.operator })).json<MonitorDetail>();
    expect(detail.steps[0]?.actions[0]).toMatchObject({ last_outcome: 'fail', drift: true, last_job_action_id: runs.data[0]?.steps[0]?.job_action_id });
    const drift = (await w.server.call('GET', '/monitors/drift.json', { as: w.operator })).json<{ data: DriftItem[] }>().data;
    expect(drift.filter((d) => d.monitor_id === m.id)).toEqual([
      expect.objectContaining({ monitor_name: 'Drift monitor', step: 1, action_name: 'Scan 47201', job_id: second, outcome: 'fail', previous_outcome: 'pass' }),
    ]);
    const list = (await w.server.call('GET', '/monitors.json?search=drift', { as: w.operator })).json<MonitorListAnswer>();
    expect(list.data[0]).toMatchObject({ last_run_status: 'completed', passed: 0, failed: 1, drift: 1 });
    // JOB-045: Monitor Stats counts the active monitors and the failing steps of their latest runs.
    const stats = (await w.server.call('GET', '/monitor/update_data', { as: w.operator })).json<MonitorStatsAnswer>();
    expect(stats.stats.alert_count).toBeGreaterThanOrEqual(1);
    expect(stats.map_data.alert_paths.some((p) => p.monitors.includes('Drift monitor'))).toBe(true);
    await w.server.call('POST', `/monitors/${m.id}/pause.json`, { as: w.operator });
  });

  it('the monitor group settings reach the work: run-as user, scan_interfaces, proxy_comm and use_ip_addresses', async () => {
    const [profile] = await w.server.db.query<{ id: number }>(`insert into action_user_profiles (friendly_name, username) values ('Monitor Operator', 'monop') returning id`);
    // Run-as applies to a port_scan only on a Windows actor of 4.10.0 or later (MON-103, MON-104): the
    // loopback source is reported as one for this test.
    await w.server.db.query(`update nodes set os_base = 'windows', node_version = '4.12.1' where id = $1`, [w.src.nodeId]);
    const m = await createMonitor('Settings monitor', {
      steps: [
        {
          name: 'Scan',
          run_between: 'node',
          attack_node: w.src.nodeId,
          target_node: w.dst.nodeId,
          action_user_profile: profile?.id,
          scan_interfaces: ['eth1', 'eth2'],
          proxy_comm: true,
          use_ip_addresses: true,
          actions: [{ action_id: scanId, expected_blocked: 'no', expected_detected: 'does_not_matter' }],
        },
      ],
    });
    const res = await w.server.call('POST', `/monitors/${m.id}/run_now.json`, { as: w.operator });
    const jobId = res.json<{ job_id: number }>().job_id;
    await waitForJob(w.server.db, jobId);
    const work = await w.server.db.query<{ role: string; payload: unknown }>('select role, payload from engine_work where job_id = $1 order by role', [jobId]);
    expect(work.map((x) => x.role)).toEqual(['source', 'target']);
    for (const x of work) {
      const payload = (typeof x.payload === 'string' ? JSON.parse(x.payload) : x.payload) as { details: Record<string, unknown> };
      expect(payload.details).toMatchObject({
        run_as: { username: 'monop', friendly_name: 'Monitor Operator' },
        scan_interfaces: ['eth1', 'eth2'],
        proxy_comm: true,
        use_ip_addresses: true,
        interactive_session: false,
      });
    }
    // A job the monitor did not start gets none of them.
    const plain = await w.server.call('POST', `/run/actions/${scanId}.json`, { as: w.operator, body: { attack_node_id_1: w.src.nodeId, target_node_id_1: w.dst.nodeId } });
    const plainId = plain.json<{ job_id: number }>().job_id;
    await waitForJob(w.server.db, plainId);
    const [own] = await w.server.db.query<{ payload: unknown }>(`select payload from engine_work where job_id = $1 and role = 'source'`, [plainId]);
    const details = ((typeof own?.payload === 'string' ? JSON.parse(own.payload) : own?.payload) as { details: Record<string, unknown> }).details;
    expect(details).not.toHaveProperty('scan_interfaces');
    expect(details).not.toHaveProperty('run_as');
    await w.server.call('POST', `/monitors/${m.id}/pause.json`, { as: w.operator });
    await w.server.db.query(`update nodes set os_base = 'linux' where id = $1`, [w.src.nodeId]);
  });

  it("each monitor's detection timeout (Timeout for Monitor Event Detection) holds its runs open for events that long", async () => {
    const m = await createMonitor('Timeout monitor', { detection_timeout_seconds: 3 });
    const res = await w.server.call('POST', `/monitors/${m.id}/run_now.json`, { as: w.operator });
    const jobId = res.json<{ job_id: number }>().job_id;
    await waitForJob(w.server.db, jobId);
    const [t] = await w.server.db.query<{ held_ms: number }>(
      `select (extract(epoch from j.finished_at - max(ja.finished_at)) * 1000)::int as held_ms from jobs j join job_actions ja on ja.job_id = j.id where j.id = $1 group by j.finished_at`,
      [jobId],
    );
    // 3 s after its last action (not the director's 300 ms default), and not much more.
    expect(t?.held_ms).toBeGreaterThanOrEqual(3000);
    expect(t?.held_ms).toBeLessThan(3000 + 5000);
    await w.server.call('POST', `/monitors/${m.id}/pause.json`, { as: w.operator });
  });
});
