import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/index';
import { openTestDatabase, type TestDatabase } from './template';
import { prng, seedReportWorld } from './report-fixtures';
import { results, timeSeries } from '../../server/reports/service';
import { reportScope } from '../../server/reports/scope';
import { filterConditions, parseListQuery, Params } from '../../server/jobs/list-query';
import { setJobRuleCompiler } from '../../server/jobs/rule-filter';
import { compileJobRules } from '../../server/filters/compile';
import type { GroupKey, ResultRow } from '@/api/contracts/reports';

/**
 * Report filters of every kind (issue 18): every answer equals an aggregation written here in plain SQL
 * over the raw job actions of the jobs the jobs list's own filter conditions keep, by each key, over
 * ranges cut inside days and hours, and as time series. Filters made only of job status conditions read
 * the status rollups of the finished statuses (022_reports_status_rollups.sql) and the unfinished
 * statuses' jobs raw; filters on job class fields read the class rollups (020); filters made only of
 * VID conditions (the Action VID, job action VID rules) or only of event count conditions (the events
 * filter, job action events rules) read the facet rollups of the VID or event classes they keep (023);
 * the others (job ids, other job action fields, status with other fields, VIDs with events) read the
 * jobs they keep raw. Checked again after jobs change status (finish, run again), job actions gain
 * events and VIDs, come, move and go, steps and jobs are deleted; finally the status and facet rollups
 * equal a rebuild.
 */

let tdb: TestDatabase;
let db: Db;

const T0 = Date.parse('2026-03-01T00:00:00Z');
const SPAN = 60 * 86_400_000;
const JOB_STATUSES = ['completed', 'completed', 'completed', 'errored', 'cancelled', 'running', 'pending'] as const;
const ACTION_STATUSES = ['ran', 'ran', 'ran', 'not run', 'incompatible', 'errored', 'pending'] as const;
const TYPES = ['dns', 'host_cli', 'web_request', 'port_scan'];

beforeAll(async () => {
  setJobRuleCompiler(compileJobRules);
  tdb = await openTestDatabase();
  db = tdb.db;
  await seedReportWorld(db, {
    nodes: [
      [1, 'n1', '', 1],
      [2, 'n2', '', 2],
      [3, 'n3', '', null],
    ],
    actions: [
      [1, 'A1', 'Resolve', 'dns'],
      [2, 'A2', 'Stop EDR', 'host_cli'],
      [3, 'A3', 'Fetch', 'web_request'],
      [4, 'A4', 'Scan', 'port_scan'],
    ],
    actionTags: [
      [1, 903],
      [2, 904],
    ],
    simulations: [
      [1, 'S1', 'Sweep', 'sequence'],
      [2, 'S2', 'Eval', 'eval'],
    ],
  });
  const rnd = prng(21);
  const jobs: string[] = [];
  const steps: string[] = [];
  const actions: string[] = [];
  for (let i = 0; i < 160; i++) {
    const id = 100 + i;
    const at = rnd() < 0.2 ? T0 + Math.floor(rnd() * (SPAN / 3_600_000)) * 3_600_000 : T0 + Math.floor(rnd() * SPAN);
    const status = JOB_STATUSES[Math.floor(rnd() * JOB_STATUSES.length)]!;
    const name = ['Daily hygiene', 'Alpha sweep', 'Run 42'][i % 3]!;
    const sim = rnd() < 0.5 ? String(1 + Math.floor(rnd() * 2)) : 'null';
    jobs.push(`(${id}, '${name}', '${status}', ${sim}, '${new Date(at).toISOString()}', '${new Date(at).toISOString()}')`);
    steps.push(`(${id}, ${id}, 0, ${1 + Math.floor(rnd() * 3)}, ${rnd() < 0.3 ? 'null' : String(1 + Math.floor(rnd() * 3))})`);
    for (let k = 0, n = 1 + Math.floor(rnd() * 3); k < n; k++) {
      const action = 1 + Math.floor(rnd() * 4);
      const st = ACTION_STATUSES[Math.floor(rnd() * ACTION_STATUSES.length)]!;
      const events = rnd() < 0.4 ? 1 + Math.floor(rnd() * 3) : 0;
      const suspect = rnd() < 0.2 ? 1 : 0;
      const blocked = rnd() < 0.3 ? 'null' : rnd() < 0.5 ? 'true' : 'false';
      actions.push(`(${id}, ${id}, ${action}, 'A${action}', 'x', '${TYPES[action - 1]}', '${st}', ${rnd() < 0.2}, ${blocked}, ${events}, ${suspect})`);
    }
  }
  await db.exec(`
    insert into jobs (id, name, status, simulation_id, created_at, started_at) values ${jobs.join(', ')};
    insert into job_steps (id, job_id, group_order, source_node_id, destination_node_id) values ${steps.join(', ')};
    insert into job_actions (job_step_id, job_id, action_id, sim_action_vid, name, action_type, status, alerted, blocked, events, suspect_events) values ${actions.join(', ')};
  `);
});

afterAll(async () => {
  await tdb?.dispose();
});

// ---------------------------------------------------------------------------------------------
// The reference: the jobs list's own conditions over jobs, and the counts in plain SQL over job actions.

const RAW_KEY: Partial<Record<GroupKey, string>> = {
  action_type: 'a.action_type',
  action: 'a.action_id::text',
  actor: 's.source_node_id::text',
  destination_actor: 's.destination_node_id::text',
  simulation: `coalesce(j.simulation_id::text, 'none')`,
};
const KEYS = Object.keys(RAW_KEY) as GroupKey[];

const COUNTS = `count(*) filter (where a.status = 'ran')::int as total,
  count(*) filter (where a.status = 'ran' and a.blocked)::int as prevented,
  count(*) filter (where a.status = 'ran' and (a.events > 0 or a.alerted))::int as detected,
  count(*) filter (where a.status = 'ran' and a.alerted)::int as alerted,
  count(*) filter (where a.status = 'ran' and not coalesce(a.blocked, false) and a.events = 0 and not a.alerted)::int as missed,
  count(*) filter (where a.status in ('not run', 'incompatible'))::int as "notRun",
  count(*) filter (where a.status = 'errored')::int as errored`;

type Counts = { total: number; prevented: number; detected: number; alerted: number; missed: number; notRun: number; errored: number };
const counts = (r: Counts): Counts => ({ total: r.total, prevented: r.prevented, detected: r.detected, alerted: r.alerted, missed: r.missed, notRun: r.notRun, errored: r.errored });
const iso = (t: number) => new Date(t).toISOString();

/** `key` per row of the raw job actions of the filter's jobs started in [start, end], grouped and counted. */
async function rawRows(f: Record<string, string>, start: number, end: number, key: string): Promise<(Counts & { key: string | null })[]> {
  const p = new Params();
  const conds = await filterConditions(db, parseListQuery(f).filter, p);
  if (!conds) return [];
  const where = [`j.job_time >= ${p.add(iso(start))}::timestamptz`, `j.job_time <= ${p.add(iso(end))}::timestamptz`, ...conds].join(' and ');
  return db.query(
    `select ${key} as key, ${COUNTS} from job_actions a join jobs j on j.id = a.job_id join job_steps s on s.id = a.job_step_id where ${where} group by 1`,
    p.values,
  );
}

async function expectSameAsRaw(label: string, f: Record<string, string>, start: number, end: number): Promise<void> {
  for (const by of KEYS) {
    const a = await results(db, { ...f, start: iso(start), end: iso(end), group_by: by, limit: 500 });
    const e = (await rawRows(f, start, end, RAW_KEY[by]!)).filter((r) => r.key !== null);
    const byKey = (x: { key: string | null }, y: { key: string | null }) => String(x.key).localeCompare(String(y.key));
    expect(a.rows.map((r: ResultRow) => ({ key: r.key, ...counts(r) })).sort(byKey), `${label} by ${by} ${iso(start)}..${iso(end)}`).toEqual(
      e.map((r) => ({ key: r.key, ...counts(r) })).sort(byKey),
    );
    const [all] = await rawRows(f, start, end, `''`);
    expect(counts(a.totals), `${label} totals ${iso(start)}..${iso(end)}`).toEqual(all ? counts(all) : counts({ total: 0, prevented: 0, detected: 0, alerted: 0, missed: 0, notRun: 0, errored: 0 }));
  }
}

async function expectSeriesSameAsRaw(label: string, f: Record<string, string>, start: number, end: number, points: number): Promise<void> {
  const a = await timeSeries(db, { ...f, start: iso(start), end: iso(end), points });
  const step = a.step_ms;
  const bucket = `least(floor(extract(epoch from (j.job_time - '${iso(start)}'::timestamptz)) * 1000 / ${step}), ${points - 1})::int::text`;
  const rows = await rawRows(f, start, end, bucket);
  const zero = { total: 0, prevented: 0, detected: 0, alerted: 0, missed: 0, notRun: 0, errored: 0 };
  const e = Array.from({ length: points }, (_, i) => counts(rows.find((r) => r.key === String(i)) ?? zero));
  expect(a.points.map(counts), `${label} series ${points}`).toEqual(e);
}

const job = (field: string, operator: string, value: string | string[]) => ({ match_object: 'job', match_field: field, operator, value });
const jobAction = (field: string, operator: string, value: string | string[]) => ({ match_object: 'job_action', match_field: field, operator, value });
/** A rule tree: groups OR-ed, the conditions of a group AND-ed. */
const rules = (...groups: object[][]) => ({ filter: 'adhoc', structuredFilter: JSON.stringify({ rules: [{ operator: 'or', conditions: groups.map((conditions) => ({ operator: 'and', conditions })) }] }) });
const events = (kind: string, extra: { rules?: object[] } = {}) => ({ filter: 'adhoc', structuredFilter: JSON.stringify({ events: kind, ...extra }) });

/** Filters made only of job status conditions: the status rollups (finished statuses) and the unfinished statuses' jobs raw. */
const STATUS_FILTERS: Record<string, Record<string, string>> = {
  'rule job status in errored': rules([job('status', 'in', 'errored')]),
  'rule job status not in completed (errored, cancelled and the unfinished)': rules([job('status', 'not_in', 'completed')]),
  'rule job status in running (unfinished only)': rules([job('status', 'in', 'running')]),
  'rule job status in cancelled, or pending, or completed': rules([job('status', 'in', 'cancelled')], [job('status', 'in', 'pending')], [job('status', 'in', 'completed')]),
  'text "errored" (a status only)': { filterVal: 'errored' },
  'text "ing" (statuses sleeping to reverting only)': { filterVal: 'ing' },
};

/** Filters on job class fields: the class rollups. */
const CLASS_FILTERS: Record<string, Record<string, string>> = {
  'rule job name contains hygiene': rules([job('name', 'contains', 'hygiene')]),
  'simulation S2 and text "alpha"': { vid: 'S2', filterVal: 'alpha' },
};

/** Filters only on the job actions' VIDs (family 1) or only on their event counts (family 2): the facet rollups. */
const FACET_FILTERS: Record<string, [1 | 2, Record<string, string>]> = {
  'Action VID A2': [1, { vid: 'A2' }],
  'Action VID A9 (no job action has it)': [1, { vid: 'A9' }],
  'rule job action VID in a3, A1 (any case)': [1, rules([jobAction('vid', 'in', ['a3', 'A1'])])],
  'rule job action VID not in A1, or VID in a4': [1, rules([jobAction('vid', 'not_in', ['A1'])], [jobAction('vid', 'in', ['a4'])])],
  'Action VID A2 and rule job action VID not in A2 (another job action)': [1, { vid: 'A2', ...rules([jobAction('vid', 'not_in', ['A2'])]) }],
  'events present': [2, events('present')],
  'events suspicious': [2, events('suspicious')],
  'events none': [2, events('none')],
  'rule job action events in 3': [2, rules([jobAction('events', 'in', '3')])],
  'rule job action events in 1-2 and not in 2 (one job action), or events in 0': [2, rules([jobAction('events', 'in', '1-2'), jobAction('events', 'not_in', '2')], [jobAction('events', 'in', '0')])],
  'events present and rule job action events not in 1-2': [2, events('present', { rules: [{ operator: 'or', conditions: [{ operator: 'and', conditions: [jobAction('events', 'not_in', '1-2')] }] }] })],
};

/** Filters that depend on job ids or job actions: the jobs outside the classes kept whole are read raw. */
const JOB_FILTERS: Record<string, Record<string, string>> = {
  'rule job status not in completed, name contains hygiene': rules([job('status', 'not_in', 'completed'), job('name', 'contains', 'hygiene')]),
  'text "run" (statuses running and not run, the name Run 42)': { filterVal: 'run' },
  'text "117" (a job id)': { filterVal: '117' },
  'text "42" (a job id none has, and the name Run 42)': { filterVal: '42' },
  'rule job id in 100-130, 155': rules([job('id', 'in', '100-130,155')]),
  'rule job id not in 100-200': rules([job('id', 'not_in', '100-200')]),
  'rule job action status in errored': rules([jobAction('status', 'in', 'errored')]),
  'rule job action type in dns, events 1-2 (one job action)': rules([jobAction('action_type', 'in', 'dns'), jobAction('events', 'in', '1-2')]),
  'rule job status completed or a job action VID A3': rules([job('status', 'in', 'completed')], [jobAction('vid', 'in', ['A3'])]),
  'rule job action VID in A1 or events in 3': rules([jobAction('vid', 'in', ['A1'])], [jobAction('events', 'in', '3')]),
  'Action VID A2 and events present': { vid: 'A2', ...events('present') },
  'events none, rule status not errored': events('none', { rules: [{ operator: 'or', conditions: [{ operator: 'and', conditions: [job('status', 'not_in', 'errored')] }] }] }),
  'events present and rule job id in 100-140': events('present', { rules: [{ operator: 'or', conditions: [{ operator: 'and', conditions: [job('id', 'in', '100-140')] }] }] }),
};

const RANGES: [number, number][] = [
  [T0 - 86_400_000, T0 + SPAN + 86_400_000],
  [T0 + 3 * 86_400_000 + 1_234_567, T0 + 40 * 86_400_000 + 99],
  [Date.parse('2026-03-14T10:02:30Z'), Date.parse('2026-03-16T07:00:00Z')],
];

async function checkAll(label: string): Promise<void> {
  for (const [name, f] of Object.entries(STATUS_FILTERS)) {
    const s = await reportScope(db, { ...f, group_by: 'action' });
    expect(s.statuses, `${label} ${name}: the status rollups answer`).not.toBeNull();
    for (const [a, b] of RANGES) await expectSameAsRaw(`${label} ${name}`, f, a, b);
    await expectSeriesSameAsRaw(`${label} ${name}`, f, T0 - 3_600_000, T0 + SPAN, 61);
  }
  for (const [name, f] of Object.entries(CLASS_FILTERS)) {
    const s = await reportScope(db, { ...f, group_by: 'action' });
    expect(s.classes, `${label} ${name}: the class rollups answer`).not.toBeNull();
    for (const [a, b] of RANGES) await expectSameAsRaw(`${label} ${name}`, f, a, b);
    await expectSeriesSameAsRaw(`${label} ${name}`, f, T0 - 3_600_000, T0 + SPAN, 61);
  }
  for (const [name, [family, f]] of Object.entries(FACET_FILTERS)) {
    const s = await reportScope(db, { ...f, group_by: 'action' });
    expect(s.facet?.f, `${label} ${name}: the facet rollups answer`).toBe(family);
    for (const [a, b] of RANGES) await expectSameAsRaw(`${label} ${name}`, f, a, b);
    await expectSeriesSameAsRaw(`${label} ${name}`, f, T0 - 3_600_000, T0 + SPAN, 61);
  }
  for (const [name, f] of Object.entries(JOB_FILTERS)) {
    const s = await reportScope(db, { ...f, group_by: 'action' });
    expect(s.classes === null && s.statuses === null && s.facet === null, `${label} ${name}: the jobs it keeps are read raw`).toBe(true);
    for (const [a, b] of RANGES) await expectSameAsRaw(`${label} ${name}`, f, a, b);
    await expectSeriesSameAsRaw(`${label} ${name}`, f, T0 - 3_600_000, T0 + SPAN, 61);
  }
}

describe('report filters on status, job ids, Action VIDs, job action fields and events', () => {
  it('MON-053 hand-checked: the Action VID filter keeps the jobs with a job action of that VID and counts all their job actions', async () => {
    const a = await results(db, { vid: 'A2', group_by: 'action_type', limit: 500 });
    const [e] = await db.query<{ n: number; jobs: number; other: number }>(
      `select count(*) filter (where a.status = 'ran')::int as n, count(distinct a.job_id)::int as jobs, count(*) filter (where a.status = 'ran' and a.sim_action_vid <> 'A2')::int as other
       from job_actions a where a.job_id in (select job_id from job_actions where sim_action_vid = 'A2')`,
    );
    expect(e!.jobs).toBeGreaterThan(10);
    expect(e!.other).toBeGreaterThan(0);
    expect(a.totals.total).toBe(e!.n);
    const none = await results(db, { vid: 'A9', group_by: 'action_type' });
    expect([none.rows, none.totals.total]).toEqual([[], 0]);
  });

  it('MON-053 hand-checked: the status rule keeps the errored jobs and all their job actions', async () => {
    const f = rules([job('status', 'in', 'errored')]);
    const a = await results(db, { ...f, group_by: 'action_type', limit: 500 });
    const [e] = await db.query<{ n: number; errored: number }>(
      `select count(*) filter (where a.status = 'ran')::int as n, count(*) filter (where a.status = 'errored')::int as errored from job_actions a join jobs j on j.id = a.job_id where j.status = 'errored'`,
    );
    expect(e!.n).toBeGreaterThan(5);
    expect([a.totals.total, a.totals.errored]).toEqual([e!.n, e!.errored]);
    const none = await results(db, { ...rules([job('status', 'in', 'sleeping')]), group_by: 'action_type' });
    expect([none.rows, none.totals.total]).toEqual([[], 0]);
  });

  it('MON-053 every filter kind over ranges cut inside days and hours, and time series, equals the raw job actions', async () => {
    await checkAll('seeded');
  }, 240_000);

  it('MON-053 live: jobs finish, run again, change status; job actions gain events and VIDs, come, move and go; steps and jobs go; the status and facet rollups equal a rebuild', async () => {
    const kept = () => db.query(`select grain, dim, s, bucket, k, t, n, total, prevented, detected, alerted, missed, not_run, errored from report_status_rollups order by 1, 2, 3, 4, 5, 6`);
    const facets = async () => [
      await db.query(`select grain, dim, f, c, bucket, k, t, n, total, prevented, detected, alerted, missed, not_run, errored from report_facet_rollups order by 1, 2, 3, 4, 5, 6, 7`),
      await db.query(`select job_id, vc, ec from report_job_facets order by 1`),
    ];
    expect((await kept()).length).toBeGreaterThan(100);
    expect((await facets())[0]!.length).toBeGreaterThan(100);
    // Jobs run and finish, finished ones run again, one errored job is marked cancelled.
    await db.exec(`update jobs set status = 'running' where status = 'pending' and id % 2 = 0`);
    await db.exec(`update jobs set status = 'completed' where status = 'running' and id % 3 = 0`);
    await db.exec(`update jobs set status = 'running' where status = 'completed' and id % 7 = 0`);
    await db.exec(`update jobs set status = 'cancelled' where id = (select min(id) from jobs where status = 'errored')`);
    // Events arrive on finished and running jobs; a finished job's step changes actor.
    await db.exec(`update job_actions set events = 2, status = 'ran' where id in (select min(id) from job_actions where events = 0 group by job_id order by 1 limit 20)`);
    await db.exec(`update job_actions set suspect_events = 1 where id % 11 = 0`);
    await db.exec(`update job_steps set source_node_id = 3 where job_id = (select min(id) from jobs where status = 'completed')`);
    // A job action added to a job, one moved to another job, one deleted, a job moved in time, a job and a step deleted.
    await db.exec(`insert into job_actions (job_step_id, job_id, action_id, sim_action_vid, name, action_type, status, events) values (103, 103, 2, 'A2', 'x', 'host_cli', 'ran', 4)`);
    await db.exec(`update job_actions set job_id = 105, job_step_id = 105 where id = (select min(id) from job_actions where job_id = 104)`);
    await db.exec(`delete from job_actions where id = (select min(id) from job_actions where job_id = 106)`);
    await db.exec(`update jobs set created_at = created_at - interval '3 days', started_at = started_at - interval '3 days' where id in (select id from jobs where status in ('errored', 'completed') order by id limit 3)`);
    await db.exec(`delete from jobs where id in (108, (select min(id) from jobs where status = 'completed' and id > 110))`);
    await db.exec(`delete from job_steps where job_id = (select min(id) from jobs where status = 'errored' and id > 110)`);
    // Finished jobs' job actions change VID (a VID no job had) and events (new event classes); a finished
    // job gains a step with a job action of another VID, then loses its first step (its VIDs change).
    await db.exec(`update job_actions set sim_action_vid = 'A9', status = 'ran' where id = (select min(a.id) from job_actions a join jobs j on j.id = a.job_id where j.status = 'completed')`);
    await db.exec(`update job_actions set events = 3, suspect_events = 2 where id in (select min(a.id) from job_actions a join jobs j on j.id = a.job_id where j.status in ('completed', 'errored') group by a.job_id order by 1 desc limit 6)`);
    const [{ id: moved } = { id: 0 }] = await db.query<{ id: number }>(`select max(id) as id from jobs where status = 'completed'`);
    await db.exec(`insert into job_steps (id, job_id, group_order, source_node_id, destination_node_id) values (900, ${moved}, 1, 2, 1)`);
    await db.exec(`insert into job_actions (job_step_id, job_id, action_id, sim_action_vid, name, action_type, status, events) values (900, ${moved}, 4, 'A4', 'x', 'port_scan', 'ran', 5)`);
    await db.exec(`delete from job_steps where id = ${moved}`);
    await checkAll('live');
    const a9 = await results(db, { vid: 'A9', group_by: 'action_type' });
    expect(a9.totals.total + a9.totals.notRun + a9.totals.errored).toBeGreaterThan(0);

    const live = await kept();
    await db.exec('select vigil_report_status_rebuild()');
    expect(await kept()).toEqual(live);
    const liveFacets = await facets();
    await db.exec('select vigil_report_facet_rebuild()');
    expect(await facets()).toEqual(liveFacets);
  }, 360_000);
});
