import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Session, type TestServer } from './helpers';
import {
  BOTH_DO_NOT_MATTER_MESSAGE,
  EXPECTED_EVENTS_HINT,
  EXTRA_SLEEP_MESSAGE,
  FIRST_RUN_PAST_MESSAGE,
  INTERACTIVE_ZONE_MESSAGE,
  REPEAT_NUMBER_MESSAGE,
  SPOOFED_FROM_MESSAGE,
  todayIn,
  type ExpectedEventsAnswer,
  type MonitorDetail,
  type MonitorListAnswer,
  type MonitorRunsAnswer,
} from '@/api/contracts/monitors';
import { RUN_AS_UNSUPPORTED_MESSAGE, SESSION_DISABLED_MESSAGE, SESSION_FORCED_MESSAGE, SESSION_HOST_CLI_MESSAGE } from '@/api/contracts/run-as-selection';

let s: TestServer;
let operator: Session;
let viewer: Session;
const ids = { scan: 0, email: 0, dns: 0, hostCli: 0, protectedDns: 0, src: 0, dst: 0, winSrc: 0, sandboxed: 0, sandbox: 0, zoneA: 0, emptyZone: 0, mailbox: 0, hostedApi: 0, sim: 0, profile: 0 };

async function one<T>(sql: string, params: unknown[] = []): Promise<T> {
  const [row] = await s.db.query<T>(sql, params);
  if (!row) throw new Error(`no row: ${sql}`);
  return row;
}

beforeAll(async () => {
  s = await startTestServer();
  operator = await s.signIn('operator');
  viewer = await s.signIn('viewer');
  const action = (vid: string, type: string) => one<{ id: number }>(`insert into actions (vid, name, action_type, approved) values ($1, $2, $3, true) returning id`, [vid, `${type} check`, type]);
  ids.scan = (await action('A100-001', 'port_scan')).id;
  ids.email = (await action('A100-002', 'email')).id;
  ids.dns = (await action('A100-003', 'dns')).id;
  ids.zoneA = (await one<{ id: number }>(`insert into zones (name) values ('Zone A') returning id`)).id;
  ids.emptyZone = (await one<{ id: number }>(`insert into zones (name) values ('Empty zone') returning id`)).id;
  const node = (name: string) => one<{ id: number }>(`insert into nodes (name, node_type, status, security_zone_id) values ($1, 'endpoint', 'online', $2) returning id`, [name, ids.zoneA]);
  ids.src = (await node('src-actor')).id;
  ids.dst = (await node('dst-actor')).id;
  ids.hostCli = (await action('A100-004', 'host_cli')).id;
  ids.protectedDns = (await one<{ id: number }>(`insert into actions (vid, name, action_type, approved, require_protected) values ('A100-005', 'protected dns check', 'dns', true, true) returning id`)).id;
  const win = (name: string, type: string, sandbox: number | null) =>
    one<{ id: number }>(`insert into nodes (name, node_type, os_base, node_version, status, sandbox_node_id) values ($1, $2, 'windows', '4.12.1', 'online', $3) returning id`, [name, type, sandbox]);
  ids.winSrc = (await win('win-src', 'endpoint', null)).id;
  ids.sandbox = (await win('win-sandbox', 'protected', null)).id;
  ids.sandboxed = (await win('win-protected', 'protected', ids.sandbox)).id;
  ids.profile = (await one<{ id: number }>(`insert into action_user_profiles (friendly_name, username) values ('Ops', 'ops') returning id`)).id;
  ids.mailbox = (await one<{ id: number }>(`insert into email_profiles (name, kind) values ('IMAP box', 'imap') returning id`)).id;
  ids.hostedApi = (await one<{ id: number }>(`insert into email_profiles (name, kind) values ('Graph sender', 'graph_api') returning id`)).id;
  ids.sim = (await one<{ id: number }>(`insert into simulations (vid, name, simulation_type) values ('S100-001', 'Perimeter sequence', 'sequence') returning id`)).id;
  const step = await one<{ id: number }>(`insert into simulation_steps (simulation_id, position, name) values ($1, 1, 'Recon') returning id`, [ids.sim]);
  await s.db.query(`insert into simulation_step_actions (step_id, action_id, position) values ($1, $2, 1), ($1, $3, 2)`, [step.id, ids.scan, ids.dns]);
});
afterAll(async () => {
  await s?.close();
});

const tomorrow = () => {
  const d = new Date(`${todayIn('Europe/Paris')}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
};

function body(over: Record<string, unknown> = {}, action: Record<string, unknown> = {}, group: Record<string, unknown> = {}) {
  return {
    name: 'Perimeter monitor',
    description: 'Port scan across the firewall',
    monitor_group: null,
    new_monitor_group: 'Perimeter',
    monitor_runtime: `${tomorrow()} 09:00`,
    timezone: 'Europe/Paris',
    repeat_job_period_number: 2,
    repeat_job_period_type: 'weeks',
    repeat_week_days: 'M,Th',
    extra_sleep: 0,
    steps: [
      {
        name: 'Across the firewall',
        run_between: 'node',
        attack_node: ids.src,
        target_node: ids.dst,
        actions: [{ action_id: ids.scan, expected_blocked: 'yes', expected_detected: 'does_not_matter', scanned_ports: '22,80-90', ...action }],
        ...group,
      },
    ],
    ...over,
  };
}

const create = (b: unknown, as: Session = operator) => s.call('POST', '/monitors.json', { as, body: b });

describe('monitor calls', () => {
  let id = 0;

  it('MON-033 POST /monitors.json creates a monitor with its group, schedule in words, and a sleeping next run', async () => {
    const res = await create(body());
    expect(res.statusCode, res.body).toBe(201);
    const m = res.json<MonitorDetail>();
    id = m.id;
    expect(m.monitor_group_name).toBe('Perimeter');
    expect(m.schedule).toBe('every 2 weeks on M, Th at 09:00 Europe/Paris');
    expect(m.steps[0]?.actions[0]).toMatchObject({ action_id: ids.scan, expected_blocked: 'yes', scanned_ports: '22,80-90', name: 'port_scan check' });
    expect(m.next_run_at).not.toBeNull();
    const [job] = await s.db.query<{ status: string; ran_by: string; name: string }>('select status, ran_by, name from jobs where id = $1', [m.next_job_id]);
    expect(job).toEqual({ status: 'sleeping', ran_by: 'Scheduled Process', name: 'Perimeter monitor' });
    // MON-033: field objects; weeks show the weekday picker, not the months selects.
    const f = (p: string) => m.fields.find((x) => x.param_name === p);
    expect(f('repeat_week_days')).toMatchObject({ hidden: false, value: 'M,Th', options: ['Su', 'M', 'T', 'W', 'Th', 'F', 'S'].map((d) => ({ name: d, value: d })) });
    expect(f('repeat_monthly_frequency')?.hidden).toBe(true);
  });

  it('GET /monitors.json lists, searches and sorts; GET /monitors/:id reads one; GET /monitor_groups.json', async () => {
    await create(body({ name: 'Another monitor', new_monitor_group: '', repeat_job_period_type: 'days', repeat_week_days: '' }));
    const list = (await s.call('GET', '/monitors.json?sort=name&dir=desc', { as: viewer })).json<MonitorListAnswer>();
    expect(list.data.map((m) => m.name)).toEqual(['Perimeter monitor', 'Another monitor']);
    expect(list.data[0]).toMatchObject({ last_run_status: 'never', step_count: 1, passed: 0, failed: 0, drift: 0, paused: false, monitor_group: 'Perimeter' });
    const found = (await s.call('GET', '/monitors.json?search=perim', { as: viewer })).json<MonitorListAnswer>();
    expect(found.data.map((m) => m.name)).toEqual(['Perimeter monitor']);
    const one = await s.call('GET', `/monitors/${id}.json`, { as: viewer });
    expect(one.statusCode).toBe(200);
    expect(one.json<MonitorDetail>().name).toBe('Perimeter monitor');
    expect((await s.call('GET', '/monitor_groups.json', { as: viewer })).json()).toEqual({ data: [{ id: expect.any(Number), name: 'Perimeter' }] });
    expect((await s.call('GET', '/monitors.json?sort=bogus', { as: viewer })).statusCode).toBe(400);
    expect((await s.call('GET', '/monitors/999999.json', { as: viewer })).statusCode).toBe(404);
    expect((await s.call('GET', '/monitors/abc.json', { as: viewer })).statusCode).toBe(400);
  });

  it('MON-126 PUT /monitors/:id (our save call) updates in place, keeping the stored first run even once it is past', async () => {
    await s.db.query(`update monitors set monitor_runtime = '2020-01-06 09:00' where id = $1`, [id]);
    const res = await s.call('PUT', `/monitors/${id}.json`, { as: operator, body: body({ name: 'Perimeter monitor v2', monitor_runtime: '2020-01-06 09:00', monitor_group: null, new_monitor_group: 'Perimeter' }) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<MonitorDetail>().name).toBe('Perimeter monitor v2');
    // A new first run in the past is refused.
    const past = await s.call('PUT', `/monitors/${id}.json`, { as: operator, body: body({ monitor_runtime: '2020-01-07 09:00' }) });
    expect(past.statusCode).toBe(400);
    expect(past.json<{ errors: Record<string, string[]> }>().errors.monitor_runtime).toEqual([FIRST_RUN_PAST_MESSAGE]);
  });

  it('pause clears the next run and its sleeping job; resume schedules again', async () => {
    const before = (await s.call('GET', `/monitors/${id}.json`, { as: viewer })).json<MonitorDetail>();
    const paused = (await s.call('POST', `/monitors/${id}/pause.json`, { as: operator })).json<MonitorDetail>();
    expect(paused).toMatchObject({ paused: true, next_run_at: null, next_job_id: null });
    expect(await s.db.query('select 1 from jobs where id = $1', [before.next_job_id])).toEqual([]);
    const resumed = (await s.call('POST', `/monitors/${id}/resume.json`, { as: operator })).json<MonitorDetail>();
    expect(resumed.paused).toBe(false);
    expect(resumed.next_run_at).not.toBeNull();
  });

  it('duplicate makes a paused copy; run now starts a job at once; runs lists it with paging', async () => {
    const dup = await s.call('POST', `/monitors/${id}/duplicate.json`, { as: operator });
    expect(dup.statusCode).toBe(201);
    expect(dup.json<MonitorDetail>()).toMatchObject({ name: 'Copy of Perimeter monitor v2', paused: true });
    expect(dup.json<MonitorDetail>().steps[0]?.actions).toHaveLength(1);
    const run = await s.call('POST', `/monitors/${id}/run_now.json`, { as: operator });
    expect(run.statusCode, run.body).toBe(201);
    const jobId = run.json<{ job_id: number }>().job_id;
    const [job] = await s.db.query<{ status: string; monitor_id: number }>('select status, monitor_id from jobs where id = $1', [jobId]);
    expect(job).toEqual({ status: 'pending', monitor_id: id });
    const steps = await s.db.query<{ source_node_id: number; destination_node_id: number }>('select source_node_id, destination_node_id from job_steps where job_id = $1', [jobId]);
    expect(steps).toEqual([{ source_node_id: ids.src, destination_node_id: ids.dst }]);
    await s.call('POST', `/monitors/${id}/run_now.json`, { as: operator });
    const page1 = (await s.call('GET', `/monitors/${id}/runs.json?per_page=1`, { as: viewer })).json<MonitorRunsAnswer>();
    expect(page1.meta).toEqual({ total_count: 2, total_pages: 2, page: 1, per_page: 1 });
    const page2 = (await s.call('GET', `/monitors/${id}/runs.json?per_page=1&page=2`, { as: viewer })).json<MonitorRunsAnswer>();
    expect(page2.data[0]).toMatchObject({ job_id: jobId, trigger: 'run_now' });
    expect((await s.call('GET', `/monitors/${id}/runs.json?per_page=500`, { as: viewer })).statusCode).toBe(400);
  });

  it('GET /monitors/new.json drafts a body from a simulation or from actions, which saves as is', async () => {
    const fromSim = await s.call('GET', `/monitors/new.json?simulation_id=${ids.sim}&timezone=Europe/Paris`, { as: viewer });
    expect(fromSim.statusCode, fromSim.body).toBe(200);
    const draft = fromSim.json<ReturnType<typeof body>>();
    expect(draft.steps.map((g) => [g.name, g.actions.map((a) => a.action_id)])).toEqual([['Recon', [ids.scan, ids.dns]]]);
    const picks = (await s.call('GET', `/monitors/new.json?action_ids[]=${ids.scan}&action_ids[]=${ids.dns}`, { as: viewer })).json<ReturnType<typeof body>>();
    expect(picks.steps[0]?.actions).toHaveLength(2);
    const withActors = { ...draft, steps: draft.steps.map((g) => ({ ...g, attack_node: ids.src, target_node: ids.dst })) };
    expect((await create(withActors)).statusCode).toBe(201);
    expect((await s.call('GET', '/monitors/new.json', { as: viewer })).statusCode).toBe(400);
    expect((await s.call('GET', '/monitors/new.json?simulation_id=99999', { as: viewer })).statusCode).toBe(404);
  });

  it('DELETE /monitors/:id removes it and its sleeping run, and keeps the jobs of past runs', async () => {
    const m = (await s.call('GET', `/monitors/${id}.json`, { as: viewer })).json<MonitorDetail>();
    const past = await s.db.query<{ id: number }>(`select id from jobs where monitor_id = $1 and status <> 'sleeping'`, [id]);
    expect(past.length).toBe(2);
    const res = await s.call('DELETE', `/monitors/${id}.json`, { as: operator });
    expect(res.json()).toEqual({ id, deleted: true });
    expect(await s.db.query('select 1 from jobs where id = $1', [m.next_job_id])).toEqual([]);
    const kept = await s.db.query<{ id: number }>(`select id from jobs where id = any($1::int[])`, [past.map((p) => p.id)]);
    expect(kept.length).toBe(2);
    expect((await s.call('GET', `/monitors/${id}.json`, { as: viewer })).statusCode).toBe(404);
  });
});

describe('refusals', () => {
  it('401 without a session, 403 for a viewer, 403 without the CSRF token', async () => {
    expect((await s.call('GET', '/monitors.json')).statusCode).toBe(401);
    expect((await s.call('GET', '/monitor/update_data')).statusCode).toBe(401);
    expect((await s.call('POST', '/monitors.json', { body: body() })).statusCode).toBe(403);
    const viewerCreate = await create(body(), viewer);
    expect(viewerCreate.statusCode).toBe(403);
    expect(viewerCreate.json<{ error: string }>().error).toContain('monitors.edit');
    const noCsrf = await s.call('POST', '/monitors.json', { as: operator, body: body(), csrf: false });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json<{ error: string }>().error).toContain('CSRF');
    const m = (await create(body({ name: 'Guarded' }))).json<MonitorDetail>();
    for (const [method, url] of [
      ['PUT', `/monitors/${m.id}.json`],
      ['DELETE', `/monitors/${m.id}.json`],
      ['POST', `/monitors/${m.id}/duplicate.json`],
      ['POST', `/monitors/${m.id}/pause.json`],
      ['POST', `/monitors/${m.id}/resume.json`],
      ['POST', `/monitors/${m.id}/run_now.json`],
    ] as const) {
      expect((await s.call(method, url, { as: viewer, body: body() })).statusCode, `${method} ${url} as viewer`).toBe(403);
      expect((await s.call(method, url, { as: operator, body: body(), csrf: 'wrong' })).statusCode, `${method} ${url} with a wrong token`).toBe(403);
    }
    expect((await s.call('POST', '/monitors/999999/pause.json', { as: operator })).statusCode).toBe(404);
  });

  const refused = async (b: unknown, path: string, message: string) => {
    const res = await create(b);
    expect(res.statusCode, res.body).toBe(400);
    const answer = res.json<{ error: string; errors: Record<string, string[]> }>();
    expect(answer.errors[path], JSON.stringify(answer.errors)).toContain(message);
  };

  it('MON-096 both expectations "Does not matter" are refused with the spec message', async () => {
    await refused(body({}, { expected_blocked: 'does_not_matter', expected_detected: 'does_not_matter' }), 'steps[0].actions[0].expected_detected', BOTH_DO_NOT_MATTER_MESSAGE);
  });

  it('MON-097 expected events need expected detected "Yes"', async () => {
    await refused(body({}, { expected_detected: 'no', expected_events: [{ description: 'ET SCAN' }] }), 'steps[0].actions[0].expected_events', EXPECTED_EVENTS_HINT);
    expect((await create(body({ name: 'Events ok' }, { expected_detected: 'yes', expected_events: [{ integration_id: null, description: 'ET SCAN' }] }))).statusCode).toBe(201);
  });

  it('MON-098 repeat number at least 1, extra sleep 0 to 300', async () => {
    await refused(body({ repeat_job_period_number: 0 }), 'repeat_job_period_number', REPEAT_NUMBER_MESSAGE);
    await refused(body({ extra_sleep: 301 }), 'extra_sleep', EXTRA_SLEEP_MESSAGE);
    await refused(body({ extra_sleep: -1 }), 'extra_sleep', EXTRA_SLEEP_MESSAGE);
    expect((await create(body({ name: 'Sleep 300', extra_sleep: 300 }))).statusCode).toBe(201);
  });

  it('MON-099 the first run cannot be before today; the format is YYYY-MM-DD HH:mm', async () => {
    await refused(body({ monitor_runtime: '2001-01-01 10:00' }), 'monitor_runtime', FIRST_RUN_PAST_MESSAGE);
    const bad = await create(body({ monitor_runtime: '2030-02-30 10:00' }));
    expect(bad.statusCode).toBe(400);
    const today = todayIn('Europe/Paris');
    expect((await create(body({ name: 'Today', monitor_runtime: `${today} 00:00` }))).statusCode).toBe(201);
  });

  it('MON-100 with an interactive desktop session a zone must hold an actor', async () => {
    // A Windows actor in zone A: port_scan's session needs one (MON-106).
    await s.db.query('update nodes set security_zone_id = $2 where id = $1', [ids.winSrc, ids.zoneA]);
    const zoneGroup = { run_between: 'zone', attack_node: null, target_node: null, attack_zone: ids.emptyZone, target_zone: ids.zoneA, interactive_desktop_session: true };
    await refused(body({}, {}, zoneGroup), 'steps[0].attack_zone', INTERACTIVE_ZONE_MESSAGE);
    expect((await create(body({ name: 'Zones' }, {}, { ...zoneGroup, attack_zone: ids.zoneA }))).statusCode).toBe(201);
  });

  it('MON-101 a spoofed From address is refused with a hosted mail API sender, accepted with a mailbox', async () => {
    const email = (profile: number) => body({ name: 'Email' }, { action_id: ids.email, runtime: { runtime_from_address: 'ceo@example.com' } }, { from_email_profile: profile });
    await refused(email(ids.hostedApi), 'steps[0].actions[0].runtime.runtime_from_address', SPOOFED_FROM_MESSAGE);
    expect((await create(email(ids.mailbox))).statusCode).toBe(201);
  });

  it('MON-103 MON-104 run-as needs a valid Windows actor (not for cloud and email, always for host_cli); refused with the message, nothing saved', async () => {
    const runAs = (name: string, group: Record<string, unknown>, action: Record<string, unknown> = {}) => body({ name }, action, { action_user_profile: ids.profile, ...group });
    await refused(runAs('Linux source', {}), 'steps[0].action_user_profile', RUN_AS_UNSUPPORTED_MESSAGE);
    await refused(runAs('Email run-as', { attack_node: ids.winSrc }, { action_id: ids.email }), 'steps[0].action_user_profile', RUN_AS_UNSUPPORTED_MESSAGE);
    await s.db.query(`update nodes set node_version = '4.9.9' where id = $1`, [ids.sandbox]);
    await refused(runAs('Old actor', { attack_node: ids.sandbox }), 'steps[0].action_user_profile', RUN_AS_UNSUPPORTED_MESSAGE);
    await s.db.query(`update nodes set node_version = '4.12.1' where id = $1`, [ids.sandbox]);
    const [{ n } = { n: 0 }] = await s.db.query<{ n: number }>(`select count(*)::int as n from monitors where name in ('Linux source', 'Email run-as', 'Old actor')`);
    expect(n).toBe(0);
    expect((await create(runAs('Windows source', { attack_node: ids.winSrc }))).statusCode).toBe(201);
    expect((await create(runAs('host_cli on Linux', {}, { action_id: ids.hostCli }))).statusCode).toBe(201);
  });

  it('MON-105 MON-106 MON-065 the Interactive Session: not for host_cli, not without a Windows actor, forced for a protected action on valid sandboxed actors', async () => {
    await refused(body({ name: 'Session host_cli' }, { action_id: ids.hostCli }, { interactive_desktop_session: true }), 'steps[0].interactive_desktop_session', SESSION_HOST_CLI_MESSAGE);
    await refused(body({ name: 'Session on Linux' }, {}, { interactive_desktop_session: true }), 'steps[0].interactive_desktop_session', SESSION_DISABLED_MESSAGE);
    expect((await create(body({ name: 'Session on Windows' }, {}, { attack_node: ids.winSrc, interactive_desktop_session: true }))).statusCode).toBe(201);
    const protectedGroup = { attack_node: ids.sandboxed, target_node: ids.dst };
    await refused(body({ name: 'Protected unticked' }, { action_id: ids.protectedDns }, { ...protectedGroup, interactive_desktop_session: false }), 'steps[0].interactive_desktop_session', SESSION_FORCED_MESSAGE);
    const ok = await create(body({ name: 'Protected ticked' }, { action_id: ids.protectedDns }, { ...protectedGroup, action_user_profile: ids.profile, interactive_desktop_session: true }));
    expect(ok.statusCode, ok.body).toBe(201);
    // MON-044: the group's action_user_profile and interactive session objects.
    const detail = (await s.call('GET', `/monitors/${ok.json<MonitorDetail>().id}.json`, { as: viewer })).json<MonitorDetail>();
    expect(detail.steps[0]?.action_user_profile_field).toEqual({ field_name: 'action_user_profile', profiles: [{ id: ids.profile, friendly_name: 'Ops', username: 'ops' }], default: null });
    expect(detail.steps[0]?.interactive_session_field).toEqual({ field_name: 'interactive_desktop_session', required: false, default: false, value: true });
    expect(detail.steps[0]?.actions[0]?.require_protected).toBe(true);
  });

  it('MON-102 port fields, unknown runtime fields, missing actors and bad shapes answer 400, never 500', async () => {
    await refused(body({}, { scanned_ports: '22,abc' }), 'steps[0].actions[0].scanned_ports', 'Scanned ports: Ports must be numbers from 1 to 65535 or ranges (a-b), separated by commas.');
    await refused(body({}, { runtime: { runtime_from_address: 'x' } }), 'steps[0].actions[0].runtime.runtime_from_address', 'runtime_from_address is not a runtime parameter of port_scan actions.');
    await refused(body({}, {}, { target_node: null }), 'steps[0].target_node', 'Choose a destination actor');
    await refused(body({}, { action_id: 999999 }), 'steps[0].actions[0].action_id', 'Action 999999 does not exist.');
    await refused(body({ repeat_job_period_type: 'weeks', repeat_week_days: '' }), 'repeat_week_days', 'Choose at least one weekday');
    await refused(body({ repeat_job_period_type: 'months', repeat_monthly_frequency: 'first' }), 'repeat_day_of_the_week', 'Choose the day of the week');
    await refused(body({ timezone: 'Mars/Olympus' }), 'timezone', 'Timezone must be an IANA timezone such as Europe/Paris');
    await refused(body({ steps: [] }), 'steps', 'A monitor needs at least one group');
    for (const raw of ['[]', '"x"', '{"name": 5}', '{not json']) {
      const res = await s.call('POST', '/monitors.json', { as: operator, body: raw });
      expect(res.statusCode, raw).toBe(400);
    }
    const [{ n } = { n: 0 }] = await s.db.query<{ n: number }>(`select count(*)::int as n from monitors where name = 'Perimeter monitor'`);
    expect(n).toBe(0);
  });

  it('MON-014 MON-041 expected events: the events earlier runs reported, grouped by integration id or endpoint, saved selections marked; 400, 401 and 404 refusals', async () => {
    const suricata = await one<{ id: number }>(`insert into integrations (name, type, host, logo_path) values ('Suricata IDS', 'suricata', 'ids.lab', '/logos/suricata.svg') returning id`);
    const job = await one<{ id: number }>(`insert into jobs (name, status) values ('Earlier scan', 'completed') returning id`);
    const step = await one<{ id: number }>(`insert into job_steps (job_id, group_order) values ($1, 1) returning id`, [job.id]);
    const ja = await one<{ id: number }>(
      `insert into job_actions (job_step_id, job_id, action_id, sim_action_vid, name, action_type, status) values ($1, $2, $3, 'A100-001', 'port_scan check', 'port_scan', 'ran') returning id`,
      [step.id, job.id, ids.scan],
    );
    await s.db.query(
      `insert into job_action_events (job_action_id, integration_id, description, raw_event) values
         ($1, $2, 'ET SCAN Nmap', '{"old":true}'), ($1, $2, 'ET SCAN Nmap', '{"signature":"ET SCAN Nmap"}'), ($1, $2, 'ET POLICY probe', '{}'), ($1, null, 'Process started: nmap', '{"pid":4}')`,
      [ja.id, suricata.id],
    );
    const expected = [
      { integration_id: suricata.id, description: 'ET SCAN Nmap', message: 'must alert' },
      { integration_id: null, description: 'Never reported yet', message: '' },
    ];
    const created = await create(body({ name: 'Events monitor' }, { expected_detected: 'yes', expected_events: expected }));
    expect(created.statusCode).toBe(201);
    const m = created.json<MonitorDetail>();
    const monitorActionId = m.steps[0]?.actions[0]?.id;
    const res = await s.call('GET', `/monitors/expected_events.json?action_id=${ids.scan}&monitor_action_id=${monitorActionId}`, { as: viewer });
    expect(res.statusCode).toBe(200);
    const answer = res.json<ExpectedEventsAnswer>();
    expect(answer.groups.map((g) => [g.key, g.integration?.name ?? null])).toEqual([
      [String(suricata.id), 'Suricata IDS'],
      ['endpoint', null],
    ]);
    expect(answer.groups[0]?.integration).toEqual({ id: suricata.id, host: 'ids.lab', name: 'Suricata IDS', logo_path_for_web: '/logos/suricata.svg' });
    expect(answer.groups[0]?.events).toEqual([
      { description: 'ET POLICY probe', is_selected: false, raw_event: '{}', security_technology_id: 'suricata', integration_id: suricata.id, message: '' },
      // One row per event; its latest raw event.
      { description: 'ET SCAN Nmap', is_selected: true, raw_event: '{"signature":"ET SCAN Nmap"}', security_technology_id: 'suricata', integration_id: suricata.id, message: 'must alert' },
    ]);
    expect(answer.groups[1]?.events.map((e) => [e.description, e.is_selected])).toEqual([
      ['Process started: nmap', false],
      ['Never reported yet', true],
    ]);
    expect(answer.security_technologies).toEqual([{ id: 'suricata', logo_path_for_web: '/logos/suricata.svg' }]);
    // Without a monitor action nothing is selected.
    const fresh = (await s.call('GET', `/monitors/expected_events.json?action_id=${ids.scan}`, { as: viewer })).json<ExpectedEventsAnswer>();
    expect(fresh.groups.flatMap((g) => g.events).filter((e) => e.is_selected)).toEqual([]);
    expect((await s.call('GET', '/monitors/expected_events.json')).statusCode).toBe(401);
    const missing = await s.call('GET', '/monitors/expected_events.json', { as: viewer });
    expect([missing.statusCode, missing.json<{ error: string }>().error]).toEqual([400, 'action_id is required']);
    expect((await s.call('GET', '/monitors/expected_events.json?action_id=abc', { as: viewer })).statusCode).toBe(400);
    expect((await s.call('GET', '/monitors/expected_events.json?action_id=999999', { as: viewer })).statusCode).toBe(404);
    expect((await s.call('GET', `/monitors/expected_events.json?action_id=${ids.dns}&monitor_action_id=${monitorActionId}`, { as: viewer })).statusCode).toBe(404);
  });
});
