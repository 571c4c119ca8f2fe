import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/index';
import { DEMO_JOB_REASON, seedDemo } from '../../server/seed/demo';
import { seedDemoMonitors } from '../../server/seed/demo-monitors';
import { openTestDatabase, type TestDatabase } from './template';
import { ACTION_TYPES, DIMENSION_TYPES, FILE_RESTRICTIONS } from '@/api/fakes/index';

// One database for the whole file, at the server tests' starting point (every migration, one user per
// role: tests/server/template.ts): a copy of the run's PGlite template, or a database of its own copied
// from the template database when TEST_DATABASE_URL is set. The seed attributes its jobs to the admin,
// approver and operator users, never to the viewer.
let test: TestDatabase | undefined;
let db: Db;
let summary = '';
let seedMs = 0;

const column = async <T>(sql: string, params: unknown[] = []) => (await db.query<{ v: T }>(sql, params)).map((r) => r.v);
const count = async (sql: string, params: unknown[] = []) => (await column<number>(`select count(*)::int as v from (${sql}) q`, params))[0] ?? 0;

beforeAll(async () => {
  test = await openTestDatabase();
  db = test.db;
  expect(await column<string>('select role as v from users order by role')).toEqual(['admin', 'approver', 'operator', 'viewer']);
  const t = performance.now();
  summary = await seedDemo(db);
  seedMs = performance.now() - t;
  console.log(`seedDemo on ${db.kind}: ${Math.round(seedMs)} ms: ${summary}`);
});

afterAll(async () => {
  await test?.dispose();
});

describe('demo seed', () => {
  it('returns a summary with the counts it inserted', async () => {
    const actions = await count('select 1 from actions');
    const jobs = await count('select 1 from jobs');
    expect(summary).toContain(`${actions} actions`);
    expect(summary).toContain(`${jobs} jobs`);
    expect(actions).toBeGreaterThanOrEqual(60);
    expect(jobs).toBeGreaterThanOrEqual(300);
  });

  it('stores actions of every one of the 14 action types', async () => {
    const types = await column<string>('select distinct action_type as v from actions order by 1');
    expect(types).toEqual([...ACTION_TYPES].sort());
  });

  it('stores finished jobs only, and action results in every final run status (no engine runs the demo jobs)', async () => {
    expect(await column<string>('select distinct status as v from jobs order by 1')).toEqual(['cancelled', 'completed', 'errored']);
    const runStatuses = await column<string>('select distinct status as v from job_actions order by 1');
    expect(runStatuses).toEqual(['cancelled', 'completed', 'errored', 'incompatible', 'not run', 'ran']);
    // The jobs generated in progress ended errored with the reason, their unfinished actions errored or not run.
    expect(await count(`select 1 from jobs where status = 'errored' and status_reason = $1`, [DEMO_JOB_REASON])).toBeGreaterThan(0);
  });

  it('stores every result variant of a ran action: alerted, blocked, not blocked, events and no events', async () => {
    const ran = "status = 'ran'";
    expect(await count(`select 1 from job_actions where ${ran} and alerted`)).toBeGreaterThan(0);
    expect(await count(`select 1 from job_actions where ${ran} and not alerted and blocked`)).toBeGreaterThan(0);
    expect(await count(`select 1 from job_actions where ${ran} and not alerted and blocked = false`)).toBeGreaterThan(0);
    expect(await count(`select 1 from job_actions where ${ran} and not alerted and blocked is null and events > 0`)).toBeGreaterThan(0);
    expect(await count(`select 1 from job_actions where ${ran} and not alerted and blocked is null and events = 0`)).toBeGreaterThan(0);
    // Event rows back the counts.
    const mismatched = await count(
      `select 1 from job_actions ja left join job_action_events e on e.job_action_id = ja.id
       group by ja.id, ja.events, ja.suspect_events having count(e.id) <> ja.events + ja.suspect_events`,
    );
    expect(mismatched).toBe(0);
  });

  it('stores scheduled jobs without a user next to jobs run by a user', async () => {
    expect(await count('select 1 from jobs where user_id is null')).toBeGreaterThan(0);
    expect(await count('select 1 from jobs j join users u on u.id = j.user_id')).toBeGreaterThan(0);
    expect(await count(`select 1 from jobs j join users u on u.id = j.user_id where u.role = 'viewer'`)).toBe(0);
  });

  it('builds the six dimension trees and gives every action one node per dimension', async () => {
    expect(await column<string>('select type as v from dimensions where parent_id is null order by 1')).toEqual([...DIMENSION_TYPES].sort());
    const actions = await count('select 1 from actions');
    expect(await count('select 1 from action_dimensions')).toBe(actions * 6);
    expect(await count('select 1 from dimensions d join dimensions p on p.id = d.parent_id where p.type <> d.type')).toBe(0);
  });

  it('stores MITRE ATT&CK tactics and techniques linked to their tactics and to actions', async () => {
    const tactics = await column<string>(`select code as v from tags where class_name = 'mitre_attack' and code like 'TA%' order by 1`);
    expect(tactics).toContain('TA0001');
    expect(tactics).toHaveLength(14);
    expect(await column<string>(`select name as v from tags where code = 'T1059.001'`)).toEqual(['Command and Scripting Interpreter: PowerShell']);
    const untied = await count(`select 1 from tags t where t.class_name = 'mitre_attack' and t.code like 'T1%' and not exists (select 1 from tag_tactics x where x.tag_id = t.id)`);
    expect(untied).toBe(0);
    expect(await count(`select 1 from action_tags a join tags t on t.id = a.tag_id where t.class_name = 'mitre_attack'`)).toBeGreaterThan(50);
  });

  it('stores library files in all three restrictions, attached to actions', async () => {
    expect(await column<string>('select distinct file_restrictions as v from file_library order by 1')).toEqual([...FILE_RESTRICTIONS].sort());
    expect(await count('select 1 from action_files')).toBeGreaterThan(10);
    const transfers = await count(
      `select 1 from actions a join action_files f on f.action_id = a.id and f.file_id = (a.details->>'file_transfer_library_id')::int where a.action_type = 'file_transfer'`,
    );
    expect(transfers).toBe(await count(`select 1 from actions where action_type = 'file_transfer'`));
  });

  it('keeps type-specific details under the spec field names', async () => {
    const dns = await db.query<{ details: Record<string, unknown> }>(`select details from actions where action_type = 'dns' order by id limit 1`);
    expect(Object.keys(dns[0]?.details ?? {}).sort()).toEqual(['dns_server_id', 'domain', 'query_type']);
    const host = await db.query<{ details: Record<string, unknown> }>(`select details from actions where action_type = 'host_cli' order by id limit 1`);
    expect(host[0]?.details).toMatchObject({ shell: expect.any(String), raw_text: expect.any(String), delivery_wait_time: expect.any(Number) });
  });

  it('stores sequences and evaluations with ordered steps of actions', async () => {
    expect(await column<string>('select distinct simulation_type as v from simulations order by 1')).toEqual(['eval', 'sequence']);
    expect(await count('select 1 from simulations s where not exists (select 1 from simulation_steps t where t.simulation_id = s.id)')).toBe(0);
    expect(await count('select 1 from simulation_step_actions')).toBeGreaterThan(50);
  });

  it('stores a network of zones, actors, devices and links', async () => {
    expect(await count('select 1 from zones')).toBeGreaterThanOrEqual(5);
    // No actor process runs for the demo actors: none is online, none has a heartbeat it never sent.
    expect(await column<string>('select distinct status as v from nodes order by 1')).toEqual(['offline', 'pending']);
    expect(await count(`select 1 from nodes where last_heartbeat_at > now() - interval '1 day'`)).toBe(0);
    expect(await count('select 1 from nodes where security_zone_id is null')).toBe(0);
    expect(await count('select 1 from devices')).toBeGreaterThanOrEqual(5);
    expect(await count('select 1 from topology_links a join topology_links b on b.id = a.compliment_id and b.compliment_id = a.id')).toBe(await count('select 1 from topology_links'));
  });

  it('stores detection alerts with open-ruleset rows and Snort-style signatures', async () => {
    expect(await count(`select 1 from detection_alerts where source = 'ET Open'`)).toBeGreaterThan(0);
    const sigs = await column<string>('select text as v from signatures');
    expect(sigs.length).toBeGreaterThan(20);
    for (const s of sigs) expect(s).toMatch(/^alert \w+ .+ \(msg:".+"; .*sid:\d+; rev:\d+;\)$/);
  });

  it('seeds monitors over the demo actors with judged history: passes, failures and one drift', async () => {
    expect(await seedDemoMonitors(db)).toBe(2);
    const monitors = await db.query<{ name: string; repeat_job_period_type: string; runs: number; drift: number; failed: number; next_run_at: string | null }>(
      `select m.name, m.repeat_job_period_type, next_run_at::text, (select count(*)::int from monitor_runs r where r.monitor_id = m.id) as runs,
              (select coalesce(sum(drift), 0)::int from monitor_runs r where r.monitor_id = m.id) as drift,
              (select coalesce(sum(failed), 0)::int from monitor_runs r where r.monitor_id = m.id) as failed
         from monitors m order by m.id`,
    );
    expect(monitors.map((m) => [m.name, m.repeat_job_period_type, m.runs, m.drift, m.failed])).toEqual([
      ['DMZ perimeter checks', 'minutes', 5, 1, 1],
      ['Weekly lateral movement', 'weeks', 3, 0, 3],
    ]);
    expect(monitors.every((m) => m.next_run_at !== null)).toBe(true);
    expect(await count(`select 1 from jobs where monitor_id is not null and status = 'sleeping'`)).toBe(2);
  });

  it('moves every sequence past the seeded ids, so new rows get fresh ids', async () => {
    const [row] = await db.query<{ id: number }>(`insert into zones (name) values ('New zone') returning id`);
    expect(row?.id).toBe((await count('select 1 from zones')));
    const [job] = await db.query<{ id: number }>(`insert into jobs (name, status) values ('New job', 'pending') returning id`);
    expect(job?.id).toBe(await count('select 1 from jobs'));
  });

  it('does nothing when run again', async () => {
    const before = await count('select 1 from actions');
    expect(await seedDemo(db)).toBe('demo content already present');
    expect(await count('select 1 from actions')).toBe(before);
  });
});
