/** Monitor Stats (JOB-045, JOB-093): GET /monitor/update_data computed from the monitors' latest judged runs. */
import { describe, expect, it } from 'vitest';
import type { MonitorStatsAnswer } from '@/api/contracts/monitors';
import { useTestServer } from './helpers';

const s = useTestServer();
const viewer = s.session('viewer');

const stats = async () => {
  const res = await s.call('GET', '/monitor/update_data', { as: viewer });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<MonitorStatsAnswer>();
};

const one = async <T>(sql: string, params: unknown[] = []) => (await s.db.query<T>(sql, params))[0]!;

async function monitor(name: string, paused: boolean, actionIds: number[]): Promise<{ id: number; actions: number[] }> {
  const m = await one<{ id: number }>(
    `insert into monitors (name, monitor_runtime, repeat_job_period_number, repeat_job_period_type, paused) values ($1, 'never', 1, 'days', $2) returning id`,
    [name, paused],
  );
  const step = await one<{ id: number }>('insert into monitor_steps (monitor_id, position) values ($1, 1) returning id', [m.id]);
  const actions: number[] = [];
  for (const [i, a] of actionIds.entries()) {
    const ma = await one<{ id: number }>(
      `insert into monitor_actions (monitor_id, monitor_step_id, position, action_id, expected_blocked, expected_detected) values ($1, $2, $3, $4, 'yes', 'does_not_matter') returning id`,
      [m.id, step.id, i + 1, a],
    );
    actions.push(ma.id);
  }
  return { id: m.id, actions };
}

/** A run of `m` whose steps go between the given actors with the given outcomes; judged unless said otherwise. */
async function run(m: { id: number; actions: number[] }, steps: { src: number; dst: number | null; outcome: 'pass' | 'fail' | 'not_run' }[], judged = true): Promise<void> {
  const job = await one<{ id: number }>(`insert into jobs (name, status) values ('JOB-045 run', 'completed') returning id`);
  const passed = steps.filter((x) => x.outcome === 'pass').length;
  const failed = steps.filter((x) => x.outcome === 'fail').length;
  await s.db.query(`insert into monitor_runs (job_id, monitor_id, scheduled_for, started_at, evaluated_at, passed, failed) values ($1, $2, now(), now(), ${judged ? 'now()' : 'null'}, $3, $4)`, [job.id, m.id, passed, failed]);
  for (const [i, st] of steps.entries()) {
    const js = await one<{ id: number }>('insert into job_steps (job_id, group_order, source_node_id, destination_node_id) values ($1, $2, $3, $4) returning id', [job.id, i + 1, st.src, st.dst]);
    const ja = await one<{ id: number }>(`insert into job_actions (job_step_id, job_id, sim_action_vid, name, action_type, status) values ($1, $2, 'A045-001', 'JOB-045 action', 'port_scan', 'ran') returning id`, [js.id, job.id]);
    await s.db.query('insert into monitor_step_results (job_id, monitor_id, monitor_action_id, job_action_id, outcome) values ($1, $2, $3, $4, $5)', [job.id, m.id, m.actions[i % m.actions.length], ja.id, st.outcome]);
  }
}

describe('GET /monitor/update_data', () => {
  it('JOB-045 map_data{alert_paths, green_paths, zone_stats} and stats{monitor_count, unique_count, alert_count} come from the latest judged run of each active monitor', async () => {
    const before = await stats();
    const [dmz, internal] = (await s.db.query<{ id: number }>(`insert into zones (name) values ('JOB-045 DMZ'), ('JOB-045 Internal') returning id`)).map((z) => z.id) as [number, number];
    const [web, db] = (
      await s.db.query<{ id: number }>(`insert into nodes (name, node_type, status, security_zone_id) values ('job045 web', 'endpoint', 'online', $1), ('job045 db', 'endpoint', 'online', $2) returning id`, [dmz, internal])
    ).map((n) => n.id) as [number, number];
    const [a1, a2, a3] = (
      await s.db.query<{ id: number }>(`insert into actions (vid, name, action_type, approved) values ('A045-001', 'JOB-045 one', 'port_scan', true), ('A045-002', 'JOB-045 two', 'port_scan', true), ('A045-003', 'JOB-045 three', 'port_scan', true) returning id`)
    ).map((a) => a.id) as [number, number, number];

    const checked = await monitor('JOB-045 perimeter', false, [a1, a2, a1]);
    const paused = await monitor('JOB-045 paused', true, [a3]);
    await monitor('JOB-045 never ran', false, [a1]);
    // An older run that failed everything, the latest judged run, and a newer run not judged yet.
    await run(checked, [{ src: web, dst: db, outcome: 'fail' }, { src: db, dst: db, outcome: 'fail' }]);
    await run(checked, [{ src: web, dst: db, outcome: 'fail' }, { src: db, dst: db, outcome: 'pass' }, { src: db, dst: null, outcome: 'not_run' }]);
    await run(checked, [{ src: web, dst: db, outcome: 'pass' }], false);
    // A paused monitor's failures do not count.
    await run(paused, [{ src: web, dst: db, outcome: 'fail' }]);

    const after = await stats();
    expect(after.stats.monitor_count - before.stats.monitor_count).toBe(2);
    expect(after.stats.unique_count - before.stats.unique_count).toBe(2);
    expect(after.stats.alert_count - before.stats.alert_count).toBe(1);
    const ours = (p: { source_zone: string }) => p.source_zone.startsWith('JOB-045');
    expect(after.map_data.alert_paths.filter(ours)).toEqual([{ source_zone_id: dmz, source_zone: 'JOB-045 DMZ', target_zone_id: internal, target_zone: 'JOB-045 Internal', count: 1, monitors: ['JOB-045 perimeter'] }]);
    expect(after.map_data.green_paths.filter(ours)).toEqual([{ source_zone_id: internal, source_zone: 'JOB-045 Internal', target_zone_id: internal, target_zone: 'JOB-045 Internal', count: 1, monitors: ['JOB-045 perimeter'] }]);
    expect(after.map_data.zone_stats.filter((z) => z.name.startsWith('JOB-045'))).toEqual([
      { zone_id: dmz, name: 'JOB-045 DMZ', passed: 0, failed: 1 },
      { zone_id: internal, name: 'JOB-045 Internal', passed: 1, failed: 0 },
    ]);
  });

  it('JOB-093 answers 401 without a session and ignores query parameters it does not know', async () => {
    expect((await s.call('GET', '/monitor/update_data')).statusCode).toBe(401);
    const res = await s.call('GET', '/monitor/update_data?refresh=10', { as: viewer });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json<MonitorStatsAnswer>())).toEqual(['map_data', 'stats']);
  });
});
