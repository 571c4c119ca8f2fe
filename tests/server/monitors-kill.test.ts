/**
 * The monitor scheduler in a real director process: a monitor scheduled every minute, the director
 * killed with SIGKILL between runs and started again on the same DATA_DIR after (what amounts to) ten
 * minutes of downtime, runs exactly once to catch up, not once per missed slot.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../server/db/migrate';
import { ensureAdmin } from '../../server/seed/users';
import { freePort } from '../../e2e/director';
import { insertAction } from './engine-helpers';
import { ADMIN, HttpSession, dropProcessDb, openProcessDb, startDirectorProcess, stopProcess, until, type Proc } from './processes';
import type { MonitorDetail, MonitorRunsAnswer } from '@/api/contracts/monitors';

const ENV = { ENGINE_TICK_MS: '100', MONITOR_TICK_MS: '200', DETECTION_WINDOW_MS: '300' };

let dataDir = '';
let port = 0;
let director: Proc | null = null;
let http: HttpSession;
const ids = { action: 0, node: 0 };

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-monitor-kill-'));
  const db = await openProcessDb(dataDir);
  await migrate(db);
  await ensureAdmin(db, ADMIN.email, ADMIN.password);
  ids.action = await insertAction(db, 'sleep', { sleep_ms: 100 }, 'Short sleep');
  // An actor that never connects: each run's action ends errored at once, with the reason.
  const [node] = await db.query<{ id: number }>(`insert into nodes (name, node_type) values ('kill-test actor', 'endpoint') returning id`);
  ids.node = node?.id ?? 0;
  await db.close();
  port = await freePort();
  director = await startDirectorProcess(dataDir, port, ENV);
  http = new HttpSession(`http://127.0.0.1:${port}`);
  await http.signIn();
}, 180_000);

afterAll(async () => {
  await stopProcess(director);
  if (dataDir) await dropProcessDb(dataDir);
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

const runsOf = async (id: number) => (await http.call<MonitorRunsAnswer>('GET', `/monitors/${id}/runs.json?per_page=100`)).body.data;

describe('a monitor in a director process killed with SIGKILL', () => {
  it('runs once to catch up after the restart, not once per missed slot', async () => {
    // First slot tomorrow: no scheduled run falls due while the first run is judged (on a loaded machine
    // that can take over a minute); the overdue slots are made below by moving next_run_at.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const created = await http.call<MonitorDetail>('POST', '/monitors.json', {
      name: 'Every minute',
      monitor_runtime: `${tomorrow} 00:00`,
      timezone: 'UTC',
      repeat_job_period_number: 1,
      repeat_job_period_type: 'minutes',
      detection_timeout_seconds: 0,
      steps: [{ name: 'Sleep', run_between: 'node', attack_node: ids.node, actions: [{ action_id: ids.action, expected_blocked: 'no', expected_detected: 'does_not_matter' }] }],
    });
    expect(created.status).toBe(201);
    const m = created.body;
    expect(m.next_job_id).not.toBeNull();
    // A first run (run now), finished and judged: the history the catch-up run follows.
    const now = await http.call<{ job_id: number }>('POST', `/monitors/${m.id}/run_now.json`, {});
    expect(now.status).toBe(201);
    await until('the first run is judged', async () => ((await runsOf(m.id)).find((r) => r.job_id === now.body.job_id)?.evaluated ? true : undefined));

    const killed = director;
    killed?.child.kill('SIGKILL');
    await killed?.exited();
    expect(killed?.child.signalCode).toBe('SIGKILL');

    // Ten minutes pass while the director is down: its next run is ten slots overdue.
    const db = await openProcessDb(dataDir);
    const [before] = await db.query<{ n: number }>('select count(*)::int as n from monitor_runs where monitor_id = $1', [m.id]);
    expect(before?.n).toBe(1);
    await db.query(`update monitors set next_run_at = now() - interval '10 minutes' where id = $1`, [m.id]);
    await db.close();
    const restartedAt = Date.now();
    director = await startDirectorProcess(dataDir, port, ENV);
    await http.signIn();

    const catchUp = await until('the catch-up run is judged', async () => {
      const run = (await runsOf(m.id)).find((r) => r.trigger === 'catch_up');
      return run?.evaluated ? run : undefined;
    });
    expect(catchUp.status).toMatch(/^(completed|errored)$/);
    const runs = await runsOf(m.id);
    // Exactly one catch-up; any other new run is a later slot of the schedule, after the restart.
    expect(runs.filter((r) => r.trigger === 'catch_up')).toHaveLength(1);
    for (const r of runs.filter((x) => x.job_id > now.body.job_id && x.trigger !== 'catch_up')) {
      expect(r.trigger).toBe('schedule');
      expect(new Date(r.scheduled_for).getTime()).toBeGreaterThan(restartedAt - 60_000);
    }
    const detail = (await http.call<MonitorDetail>('GET', `/monitors/${m.id}.json`)).body;
    expect(new Date(detail.next_run_at ?? 0).getTime()).toBeGreaterThan(Date.now() - 1000);
    await http.call('POST', `/monitors/${m.id}/pause.json`, {});
  }, 180_000);
});
