import { describe, expect, it } from 'vitest';
import { seedDemo } from '../../server/seed/demo';
import { reopenDemoJobs } from './job-fixtures';
import { useTestServer, type Session, type TestServer } from './helpers';
import {
  CANCELLABLE_STATUSES,
  EXACT_COUNT_LIMIT,
  FINISHED_STATUSES,
  SCHEDULED_PROCESS,
  actionResult,
  type CancelAnswer,
  type JobActionEventsAnswer,
  type JobActionEvidenceAnswer,
  type JobDetail,
  type JobListAnswer,
  type JobListItem,
  type StepActionsAnswer,
  type SummaryReportAnswer,
} from '@/api/contracts/jobs';
import { parseCsv } from '../csv';

const s = useTestServer({
  prepare: async (t) => {
    await seedDemo(t.db);
    await reopenDemoJobs(t.db);
  },
  timeout: 120_000,
});
const [admin, operator, viewer] = [s.session('admin'), s.session('operator'), s.session('viewer')];

const rowsOf = (a: JobListAnswer): JobListItem[] => a.filtered_jobs ?? a.jobs ?? [];
async function list(query: string, as: Session = admin): Promise<JobListAnswer> {
  const res = await s.call('GET', `/jobs/list_page_data.json${query ? `?${query}` : ''}`, { as });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<JobListAnswer>();
}
const ids = (a: JobListAnswer) => rowsOf(a).map((r) => r.id);
const sql = async (q: string, params: unknown[] = []) => s.db.query<{ id: number }>(q, params);
const structured = (f: object) => `filter=adhoc&structuredFilter=${encodeURIComponent(JSON.stringify(f))}`;


describe('GET /jobs/list_page_data.json', () => {
  it('JOB-013 JOB-032 answers page 0 of 10 jobs by job_id descending with the totals, under "jobs" when nothing filters', async () => {
    const a = await list('');
    const [{ n } = { n: 0 }] = await s.db.query<{ n: number }>('select count(*)::int as n from jobs');
    expect(n).toBe(320);
    expect(a.jobs).toHaveLength(10);
    expect(a.filtered_jobs).toBeUndefined();
    expect(ids(a)).toEqual(Array.from({ length: 10 }, (_, i) => 320 - i));
    expect(a).toMatchObject({ total_jobs: 320, total_filtered_jobs: 320, total_filtered_estimated: false, max_jobs: 320, page: 0, size: 10 });
    const row = rowsOf(a)[0]!;
    expect(Object.keys(row)).toEqual(expect.arrayContaining(['id', 'job_id', 'job_name', 'job_status', 'job_user', 'job_time']));
    expect(row.job_id).toBe(row.id);
  });

  it('JOB-013 sorts by every column both ways, ties broken by id, like the database orders them', async () => {
    const cases: [string, string][] = [
      ['job_name', 'lower(name)'],
      ['job_status', 'status'],
      ['job_user', 'ran_by'],
      ['job_time', 'job_time'],
      ['job_id', 'id'],
    ];
    for (const [col, expr] of cases) {
      for (const dir of ['asc', 'desc']) {
        const a = await list(`sortCol=${col}&sortDir=${dir}&size=30&page=2`);
        const ref = await sql(`select id from jobs order by ${expr} ${dir}, id ${dir} limit 30 offset 60`);
        expect(ids(a), `${col} ${dir}`).toEqual(ref.map((r) => r.id));
      }
    }
  });

  it('Ran By is the user name, or "Scheduled Process" for a job without a user', async () => {
    const [scheduled] = await sql('select id from jobs where user_id is null order by id desc limit 1');
    const [owned] = await s.db.query<{ id: number; first_name: string; last_name: string }>(
      'select j.id, u.first_name, u.last_name from jobs j join users u on u.id = j.user_id order by j.id desc limit 1',
    );
    const a = await list(`selected_jobs[]=${scheduled!.id}&filterVal=${scheduled!.id}`);
    expect(rowsOf(a).find((r) => r.id === scheduled!.id)?.job_user).toBe(SCHEDULED_PROCESS);
    const b = await list(`filterVal=${owned!.id}`);
    expect(rowsOf(b).find((r) => r.id === owned!.id)?.job_user).toBe(`${owned!.first_name} ${owned!.last_name}`);
  });

  it('JOB-062 pages with after/before cursors give the same rows as zero-based page numbers, and the last page is right', async () => {
    for (const [col, dir] of [['job_id', 'desc'], ['job_name', 'asc'], ['job_time', 'desc'], ['job_user', 'asc']] as const) {
      const p0 = await list(`sortCol=${col}&sortDir=${dir}&size=20&page=0`);
      const p1 = await list(`sortCol=${col}&sortDir=${dir}&size=20&page=1`);
      const next = await list(`sortCol=${col}&sortDir=${dir}&size=20&page=1&after=${p0.page_end}`);
      expect(ids(next), `${col} next`).toEqual(ids(p1));
      const back = await list(`sortCol=${col}&sortDir=${dir}&size=20&page=0&before=${p1.page_start}`);
      expect(ids(back), `${col} back`).toEqual(ids(p0));
    }
    const last = await list('size=30&page=10');
    expect(ids(last)).toEqual((await sql('select id from jobs order by id desc offset 300')).map((r) => r.id));
    const late = await list('sortCol=job_name&size=30&page=7');
    expect(ids(late)).toEqual((await sql('select id from jobs order by lower(name) desc, id desc limit 30 offset 210')).map((r) => r.id));
    expect(ids(await list('page=99'))).toEqual([]);
  });

  it('JOB-007 the filter text matches names, ids, Ran By and statuses, case-insensitively and literally', async () => {
    const [{ name } = { name: '' }] = await s.db.query<{ name: string }>('select name from jobs order by id limit 1');
    const word = name.split(' ')[0]!.toUpperCase();
    const a = await list(`filterVal=${encodeURIComponent(word)}&size=30`);
    expect(a.jobs).toBeUndefined();
    expect(rowsOf(a).length).toBeGreaterThan(0);
    const expected = await s.db.query<{ n: number }>(
      `select count(*)::int as n from jobs where strpos(lower(name), $1) > 0 or strpos(lower(ran_by), $1) > 0 or strpos(status, $1) > 0`,
      [word.toLowerCase()],
    );
    expect(a.total_filtered_jobs).toBe(expected[0]!.n);
    for (const r of rowsOf(a)) expect(`${r.job_name} ${r.job_user} ${r.job_status}`.toLowerCase()).toContain(word.toLowerCase());

    expect(ids(await list('filterVal=17'))).toContain(17);
    const cancelled = await list('filterVal=cancel&size=30');
    expect(rowsOf(cancelled).every((r) => r.job_status === 'cancelled' || `${r.job_name} ${r.job_user}`.toLowerCase().includes('cancel'))).toBe(true);
    const scheduled = await list('filterVal=scheduled%20process&size=30');
    expect(rowsOf(scheduled).length).toBeGreaterThan(0);
    expect(rowsOf(scheduled).every((r) => r.job_user === SCHEDULED_PROCESS || r.job_name.toLowerCase().includes('scheduled process'))).toBe(true);
    const none = await list(`filterVal=${encodeURIComponent('%_no such job_%')}`);
    expect(none).toMatchObject({ filtered_jobs: [], total_filtered_jobs: 0, total_jobs: 320 });
  });

  it('JOB-009 the date range keeps jobs whose Time Started lies in it', async () => {
    const [{ a, b } = { a: '', b: '' }] = await s.db.query<{ a: string; b: string }>(
      `select (select job_time from jobs order by job_time offset 100 limit 1)::text as a, (select job_time from jobs order by job_time offset 160 limit 1)::text as b`,
    );
    const start = new Date(a).toISOString();
    const end = new Date(b).toISOString();
    const res = await list(`filterRange=${encodeURIComponent(`${start},${end}`)}&size=100`);
    const ref = await sql('select id from jobs where job_time >= $1 and job_time <= $2 order by id desc', [start, end]);
    expect(ids(res)).toEqual(ref.map((r) => r.id));
    expect(res.total_filtered_jobs).toBe(ref.length);
    const open = await list(`filterRange=${encodeURIComponent(`${start},`)}&size=10&sortCol=job_time&sortDir=asc`);
    expect(open.total_filtered_jobs).toBe((await sql('select id from jobs where job_time >= $1', [start])).length);
    // Wide ranges under every sort (the index walk or the range read, whichever the estimates favour).
    for (const [col, expr] of [['job_id', 'id'], ['job_name', 'lower(name)'], ['job_status', 'status']] as const) {
      for (const dir of ['asc', 'desc'] as const) {
        const wide = await list(`filterRange=${encodeURIComponent(`${start},`)}&size=30&page=1&sortCol=${col}&sortDir=${dir}`);
        const ref = await sql(`select id from jobs where job_time >= $1 order by ${expr} ${dir}, id ${dir} limit 30 offset 30`, [start]);
        expect(ids(wide), `${col} ${dir}`).toEqual(ref.map((r) => r.id));
      }
    }
  });

  it('JOB-012 ?vid= limits the list to the jobs of a simulation or an action', async () => {
    const [sim] = await s.db.query<{ vid: string; n: number }>('select s.vid, count(*)::int as n from jobs j join simulations s on s.id = j.simulation_id group by s.vid order by n desc limit 1');
    const a = await list(`vid=${sim!.vid}&size=100`);
    expect(a.total_filtered_jobs).toBe(sim!.n);
    expect(rowsOf(a).every((r) => r.simulation?.vid === sim!.vid)).toBe(true);
    const [act] = await s.db.query<{ vid: string; n: number }>('select sim_action_vid as vid, count(distinct job_id)::int as n from job_actions group by 1 order by 2 desc limit 1');
    const b = await list(`vid=${act!.vid}&size=100`);
    expect(b.total_filtered_jobs).toBe(act!.n);
  });

  it('JOB-007 JOB-033 the events filter (structured filter) keeps jobs with actions that have events, suspicious events, or none', async () => {
    for (const [events, cond] of [
      ['present', 'events > 0'],
      ['suspicious', 'suspect_events > 0'],
      ['none', 'events = 0 and suspect_events = 0'],
    ] as const) {
      const a = await list(`${structured({ events })}&size=100`);
      const ref = await sql(`select distinct job_id as id from job_actions where ${cond} order by 1 desc limit 100`);
      expect(ids(a), events).toEqual(ref.map((r) => r.id));
      expect(a.filtered_jobs).toBeDefined();
    }
  });

  it('echoes the selected_jobs that still exist', async () => {
    const a = await list('selected_jobs[]=3&selected_jobs[]=999999&selected_jobs[]=5');
    expect(a.selected_jobs).toEqual([3, 5]);
    expect((await list('selected_jobs=7,8')).selected_jobs).toEqual([7, 8]);
  });

  it('answers 401 without a session', async () => {
    expect((await s.call('GET', '/jobs/list_page_data.json')).statusCode).toBe(401);
  });

  const bad: [string, string, RegExp][] = [
    ['page -1', 'page=-1', /page must be 0 or more/],
    ['size 10000', 'size=10000', /size must be at most 100/],
    ['size 0', 'size=0', /size must be at least 1/],
    ['page not a number', 'page=abc', /page must be a number/],
    ['unknown sort column', 'sortCol=password_hash', /sortCol must be one of/],
    ['unknown sort direction', 'sortDir=sideways', /sortDir must be asc or desc/],
    ['malformed structuredFilter', `filter=adhoc&structuredFilter=${encodeURIComponent('{"events":')}`, /structuredFilter is not valid JSON/],
    ['structuredFilter that is a list', `filter=adhoc&structuredFilter=${encodeURIComponent('[1]')}`, /structuredFilter must be a JSON object/],
    ['unknown structuredFilter field', `filter=adhoc&structuredFilter=${encodeURIComponent('{"evil":1}')}`, /unknown field: evil/],
    ['unknown events value', `filter=adhoc&structuredFilter=${encodeURIComponent('{"events":"many"}')}`, /events must be one of present, suspicious, none/],
    ['an empty rule (issue 8 installs the rule compiler)', `filter=adhoc&structuredFilter=${encodeURIComponent('{"rules":[{"operator":"or","conditions":[]}]}')}`, /Rule must have at least one condition\./],
    ['structuredFilter without filter=adhoc', `structuredFilter=${encodeURIComponent('{"events":"present"}')}`, /needs filter=adhoc/],
    ['filter other than adhoc', 'filter=saved', /filter must be adhoc/],
    ['malformed date range', 'filterRange=yesterday', /filterRange must be two ISO 8601 times/],
    ['date range ending before it starts', `filterRange=${encodeURIComponent('2026-02-01T00:00:00Z,2026-01-01T00:00:00Z')}`, /starts after it ends/],
    ['malformed vid', 'vid=DROP%20TABLE', /vid must be an Action or Simulation VID/],
    ['page given twice', 'page=1&page=2', /page must be given once/],
    ['selected_jobs that are not ids', 'selected_jobs[]=x', /selected_jobs must hold job ids/],
    ['a garbage cursor', 'after=nonsense', /after is not a paging cursor/],
    ['a cursor of another sort', `sortCol=job_name&after=${Buffer.from(JSON.stringify(['job_id', 'desc', 5, 5])).toString('base64url')}`, /made for another sort order/],
    ['an unknown parameter', 'sort=id', /Unknown query parameter: sort/],
    ['a filter text over 200 characters', `filterVal=${'x'.repeat(201)}`, /filterVal must be at most 200/],
  ];
  it.each(bad)('answers 400 with a message for %s', async (_what, query, message) => {
    const res = await s.call('GET', `/jobs/list_page_data.json?${query}`, { as: admin });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ error: string }>().error).toMatch(message);
  });
});

describe('GET /jobs/{id}.json and /jobs/list_page_job_actions', () => {
  it('JOB-031 JOB-034 answers a job with its steps, their blocked and detected counts, and no actions until asked', async () => {
    const [row] = await sql(`select j.id from jobs j where simulation_id is not null and status = 'completed' order by id desc limit 1`);
    const res = await s.call('GET', `/jobs/${row!.id}.json`, { as: viewer });
    expect(res.statusCode).toBe(200);
    const job = res.json<JobDetail>();
    expect(job).toMatchObject({ id: row!.id, status: 'completed', progress: 100 });
    expect(job.steps.length).toBeGreaterThan(0);
    expect(job.simulation?.vid).toMatch(/^S/);
    expect(Object.keys(job.publish_job_pipeline)).toEqual(['latest_published_time', 'latest_published_status', 'latest_published_pipeline']);
    expect(job.steps.map((st) => st.group_order)).toEqual([...job.steps.map((st) => st.group_order)].sort((a, b) => a - b));
    for (const st of job.steps) {
      expect(st.actions).toBeNull();
      const [c] = await s.db.query<{ n: number; blocked: number; detected: number }>(
        `select count(*)::int as n, count(*) filter (where status = 'ran' and blocked)::int as blocked, count(*) filter (where status = 'ran' and (events > 0 or alerted))::int as detected from job_actions where job_step_id = $1`,
        [st.id],
      );
      expect({ n: st.action_count, blocked: st.blocked, detected: st.detected }).toEqual(c);
    }
    expect((await s.call('GET', `/jobs/${row!.id}`, { as: viewer, headers: { accept: 'application/json', 'x-requested-with': 'XMLHttpRequest' } })).statusCode).toBe(200);
  });

  it('JOB-011 JOB-086 JOB-035 answers the actions of several steps keyed by step id, in position order', async () => {
    const steps = await s.db.query<{ id: number }>('select id from job_steps order by id desc limit 3');
    const q = steps.map((st) => `job_step_ids[]=${st.id}`).join('&');
    const res = await s.call('GET', `/jobs/list_page_job_actions?${q}`, { as: viewer });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<StepActionsAnswer>();
    expect(Object.keys(body).sort()).toEqual(steps.map((st) => String(st.id)).sort());
    for (const st of steps) {
      const ref = await sql('select id from job_actions where job_step_id = $1 order by position, id', [st.id]);
      expect(body[String(st.id)]!.map((a) => a.id)).toEqual(ref.map((r) => r.id));
    }
    const one = body[String(steps[0]!.id)]![0]!;
    expect(Object.keys(one)).toEqual(expect.arrayContaining(['id', 'name', 'sim_action_id', 'sim_action_vid', 'status', 'alerted', 'blocked', 'blocked_msg', 'detected_msg', 'events', 'suspect_events', 'disabled', 'action_type']));
    const filtered = await s.call('GET', `/jobs/list_page_job_actions?${q}&events=present`, { as: viewer });
    expect(Object.values(filtered.json<StepActionsAnswer>()).flat().every((a) => a.events > 0)).toBe(true);
  });

  it.each([
    ['an unknown job', '/jobs/999999.json', 404, /Job 999999 was not found/],
    ['a job id that is not a number', '/jobs/abc.json', 400, /Job id must be a positive whole number/],
    ['a job id of 0', '/jobs/0.json', 400, /Job id must be a positive whole number/],
    ['no step ids', '/jobs/list_page_job_actions', 400, /job_step_ids is required/],
    ['step ids that are not numbers', '/jobs/list_page_job_actions?job_step_ids[]=x', 400, /job_step_ids must hold positive whole numbers/],
    ['an unknown step', '/jobs/list_page_job_actions?job_step_ids[]=99999999', 404, /Job step 99999999 was not found/],
    ['an unknown events filter', '/jobs/list_page_job_actions?job_step_ids[]=1&events=all', 400, /events must be one of/],
  ])('answers %s with a 4xx and a message', async (_what, url, status, message) => {
    const res = await s.call('GET', url, { as: admin });
    expect(res.statusCode).toBe(status);
    expect(res.json<{ error: string }>().error).toMatch(message);
  });
});

describe('cancel, delete and publish', () => {
  const cancel = (id: number, as: Session, csrf?: string | false) => s.call('GET', `/jobs/${id}/cancel.json`, { as, headers: csrf === false ? {} : { 'x-csrf-token': csrf ?? as.csrfToken } });

  it('JOB-049 JOB-087 cancels a running job: it ends cancelled, its pending actions do not run and its running ones are cancelled', async () => {
    const [job] = await sql(`select id from jobs where status = 'running' order by id desc limit 1`);
    const before = await s.db.query<{ status: string; n: number }>('select status, count(*)::int as n from job_actions where job_id = $1 group by status', [job!.id]);
    const res = await cancel(job!.id, operator);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<CancelAnswer>();
    expect(body).toMatchObject({ id: job!.id, status: 'cancelled' });
    const open = before.filter((b) => ['pending', 'running', 'waiting', 'reverting'].includes(b.status)).reduce((n, b) => n + b.n, 0);
    expect(body.stopped_actions).toBe(open);
    const after = await s.db.query<{ status: string }>('select status from job_actions where job_id = $1', [job!.id]);
    expect(after.every((a) => !['pending', 'running', 'waiting', 'reverting'].includes(a.status))).toBe(true);
    const detail = (await s.call('GET', `/jobs/${job!.id}.json`, { as: viewer })).json<JobDetail>();
    expect(detail.status).toBe('cancelled');
    expect(detail.finished_at).not.toBeNull();
    // A cancelled job cannot be cancelled again.
    const again = await cancel(job!.id, operator);
    expect(again.statusCode).toBe(409);
    expect(again.json<{ error: string }>().error).toBe(`Job ${job!.id} is cancelled and can no longer be cancelled.`);
  });

  it('cancel needs the CSRF token although it is a GET, the jobs.cancel permission, and a known job', async () => {
    const [job] = await sql(`select id from jobs where status = any($1::text[]) order by id desc limit 1`, [CANCELLABLE_STATUSES]);
    expect((await cancel(job!.id, operator, false)).statusCode).toBe(403);
    expect((await cancel(job!.id, operator, 'wrong')).statusCode).toBe(403);
    const v = await cancel(job!.id, viewer);
    expect(v.statusCode).toBe(403);
    expect(v.json<{ error: string }>().error).toMatch(/jobs.cancel/);
    expect((await cancel(99999999, operator)).statusCode).toBe(404);
    const [done] = await sql(`select id from jobs where status = 'completed' limit 1`);
    expect((await cancel(done!.id, operator)).statusCode).toBe(409);
    expect((await s.call('GET', `/jobs/${job!.id}.json`, { as: viewer })).json<JobDetail>().status).not.toBe('cancelled');
  });

  it('JOB-049 JOB-088 deletes a finished job with its steps, actions and events, and refuses a running one', async () => {
    const [job] = await sql(`select j.id from jobs j where status = 'completed' and exists (select 1 from job_actions a join job_action_events e on e.job_action_id = a.id where a.job_id = j.id) limit 1`);
    const total = (await list('')).total_jobs;
    const res = await s.call('DELETE', `/jobs/${job!.id}`, { as: admin });
    expect(res.statusCode, res.body).toBe(200);
    expect((await s.call('GET', `/jobs/${job!.id}.json`, { as: admin })).statusCode).toBe(404);
    expect(await sql('select id from job_steps where job_id = $1', [job!.id])).toEqual([]);
    expect(await sql('select id from job_actions where job_id = $1', [job!.id])).toEqual([]);
    expect((await list('')).total_jobs).toBe(total - 1);

    const [running] = await sql(`select id from jobs where status = 'running' order by id limit 1`);
    const refused = await s.call('DELETE', `/jobs/${running!.id}`, { as: admin });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ error: string }>().error).toBe(`Job ${running!.id} is running: only finished jobs can be deleted.`);
    expect((await s.call('GET', `/jobs/${running!.id}.json`, { as: admin })).statusCode).toBe(200);

    const [other] = await sql(`select id from jobs where status = 'errored' limit 1`);
    expect((await s.call('DELETE', `/jobs/${other!.id}`, { as: operator })).statusCode).toBe(403);
    expect((await s.call('DELETE', `/jobs/${other!.id}`, { as: admin, csrf: false })).statusCode).toBe(403);
    expect((await s.call('DELETE', '/jobs/99999999', { as: admin })).statusCode).toBe(404);
    expect((await s.call('DELETE', '/jobs/abc', { as: admin })).statusCode).toBe(400);
  });

  it('the total of jobs kept by the triggers stays equal to count(*) through inserts, updates and deletes', async () => {
    await s.db.query(`insert into jobs (name, status) values ('Counter check', 'pending'), ('Counter check', 'running')`);
    await s.db.query(`update jobs set status = 'completed' where name = 'Counter check'`);
    await s.db.query(`delete from jobs where name = 'Counter check' and status = 'completed'`);
    const [{ n } = { n: 0 }] = await s.db.query<{ n: number }>('select count(*)::int as n from jobs');
    expect((await list('')).total_jobs).toBe(n);
    const counts = await s.db.query<{ status: string; n: number }>('select status, n::int as n from job_status_counts where n > 0 order by status');
    const real = await s.db.query<{ status: string; n: number }>('select status, count(*)::int as n from jobs group by status order by status');
    expect(counts).toEqual(real);
  });

  it('JOB-073 publishes finished jobs to a pipeline, refuses unfinished ones, and needs jobs.publish', async () => {
    const done = await sql(`select id from jobs where status = any($1::text[]) and published_status = 0 order by id limit 2`, [FINISHED_STATUSES]);
    const jobIds = done.map((r) => r.id);
    const res = await s.call('POST', '/jobs/publish.json', { as: operator, body: { job_ids: jobIds, pipeline: 'Executive Dashboard', multisite_reporting: true } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ published: jobIds, pipeline: 'Executive Dashboard', multisite_reporting: true });
    for (const id of jobIds) {
      const job = (await s.call('GET', `/jobs/${id}.json`, { as: viewer })).json<JobDetail>();
      expect(job.publish_job_pipeline).toMatchObject({ latest_published_status: 2, latest_published_pipeline: 'Executive Dashboard' });
      expect(Date.now() - Date.parse(job.publish_job_pipeline.latest_published_time ?? '')).toBeLessThan(60_000);
    }
    const [running] = await sql(`select id from jobs where status = 'running' limit 1`);
    const refused = await s.call('POST', '/jobs/publish.json', { as: operator, body: { job_ids: [jobIds[0], running!.id] } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ error: string }>().error).toBe(`Only finished jobs can be published: job ${running!.id} is running.`);
    expect((await s.call('POST', '/jobs/publish.json', { as: viewer, body: { job_ids: jobIds } })).statusCode).toBe(403);
    expect((await s.call('POST', '/jobs/publish.json', { as: operator, body: { job_ids: [] } })).statusCode).toBe(400);
    expect((await s.call('POST', '/jobs/publish.json', { as: operator, body: { job_ids: ['x'] } })).statusCode).toBe(400);
    expect((await s.call('POST', '/jobs/publish.json', { as: operator, body: { job_ids: [99999999] } })).statusCode).toBe(404);
    expect((await s.call('POST', '/jobs/publish.json', { as: operator, body: '{"job_ids": [1' })).statusCode).toBe(400);
    expect((await s.call('POST', '/jobs/publish.json', { as: operator, body: { job_ids: jobIds }, csrf: false })).statusCode).toBe(403);
  });
});

describe('events, summary report', () => {
  it('JOB-077 JOB-105 lists the detected events of a job action, and the suspicious ones apart, for integrationEvents.all only', async () => {
    const [a] = await s.db.query<{ id: number; events: number; suspect_events: number }>('select id, events, suspect_events from job_actions where suspect_events > 0 and events > 0 order by id limit 1');
    const res = await s.call('GET', `/jobs/job_actions/${a!.id}/events.json`, { as: operator });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<JobActionEventsAnswer>();
    expect(body.job_action.id).toBe(a!.id);
    expect(body.events).toHaveLength(a!.events);
    expect(body.events.every((e) => !e.suspicious && e.description && e.occurred_at)).toBe(true);
    const sus = (await s.call('GET', `/jobs/job_actions/${a!.id}/events.json?kind=suspicious`, { as: operator })).json<JobActionEventsAnswer>();
    expect(sus.events).toHaveLength(a!.suspect_events);
    expect(sus.events.every((e) => e.suspicious)).toBe(true);
    expect((await s.call('GET', `/jobs/job_actions/${a!.id}/events.json`, { as: viewer })).statusCode).toBe(403);
    expect((await s.call('GET', '/jobs/job_actions/99999999/events.json', { as: operator })).statusCode).toBe(404);
    expect((await s.call('GET', `/jobs/job_actions/${a!.id}/events.json?kind=x`, { as: operator })).statusCode).toBe(400);
  });

  it('a job action\'s evidence: blocked reason, not-run reason, the actors\' output and timings, and its events for integrationEvents.all only', async () => {
    const [blocked] = await s.db.query<{ id: number; blocked_msg: string; events: number; suspect_events: number }>(
      `select id, blocked_msg, events, suspect_events from job_actions where status = 'ran' and blocked and events > 0 order by id limit 1`,
    );
    const evidence = async (id: number, as: Session) => {
      const res = await s.call('GET', `/jobs/job_actions/${id}/evidence.json`, { as });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<JobActionEvidenceAnswer>();
    };
    const b = await evidence(blocked!.id, operator);
    expect(b.job_action).toMatchObject({ id: blocked!.id, status: 'ran', blocked: true, blocked_msg: blocked!.blocked_msg, reason: null });
    expect(b.job_action.step.group_order).toBeGreaterThan(0);
    expect(Object.keys(b.job_action.evidence).length).toBeGreaterThan(0);
    expect(b.events).toHaveLength(blocked!.events + blocked!.suspect_events);
    expect((await evidence(blocked!.id, viewer)).events).toBeNull();

    const [notRun] = await s.db.query<{ id: number; reason: string }>(`select id, evidence ->> 'reason' as reason from job_actions where status = 'not run' and evidence ? 'reason' order by id limit 1`);
    const n = await evidence(notRun!.id, viewer);
    expect(n.job_action).toMatchObject({ status: 'not run', reason: notRun!.reason });

    // An engine run: each side's actor, its output and timings.
    const [node] = await s.db.query<{ id: number; name: string; friendly_name: string }>('select id, name, friendly_name from nodes order by id limit 1');
    await s.db.query(
      `insert into engine_work (job_action_id, job_id, node_id, role, status, result, error, created_at, claimed_at, finished_at)
       select id, job_id, $2, 'source', 'done', $3::jsonb, null, now() - interval '5 seconds', now() - interval '4 seconds', now() from job_actions where id = $1`,
      [blocked!.id, node!.id, JSON.stringify({ stdout: 'Blocked: 1433 (refused)' })],
    );
    await s.db.query(`update job_actions set started_at = now() - interval '4 seconds', finished_at = now() where id = $1`, [blocked!.id]);
    const w = await evidence(blocked!.id, operator);
    expect(w.work).toEqual([
      expect.objectContaining({ role: 'source', actor: { id: node!.id, name: node!.friendly_name || node!.name }, status: 'done', error: null, result: { stdout: 'Blocked: 1433 (refused)' } }),
    ]);
    expect(w.work[0]!.claimed_at).toMatch(/^\d{4}-/);
    expect(w.job_action.duration_ms).toBeGreaterThanOrEqual(3_900);

    await s.db.query('delete from engine_work where job_action_id = $1', [blocked!.id]);
    expect((await s.call('GET', `/jobs/job_actions/${blocked!.id}/evidence.json`, {})).statusCode).toBe(401);
    const bad = await s.call('GET', '/jobs/job_actions/abc/evidence.json', { as: viewer });
    expect([bad.statusCode, bad.json<{ error: string }>().error]).toEqual([400, 'Job action id must be a positive whole number, got "abc"']);
    const missing = await s.call('GET', '/jobs/job_actions/99999999/evidence.json', { as: viewer });
    expect([missing.statusCode, missing.json<{ error: string }>().error]).toEqual([404, 'Job action 99999999 was not found.']);
  });

  it('JOB-002 the summary report totals blocked, detected, alerted and not run per job and per step', async () => {
    const two = await sql(`select id from jobs where status = 'completed' order by id desc limit 2`);
    const res = await s.call('GET', `/reports/summary.json?${two.map((r) => `job_ids[]=${r.id}`).join('&')}`, { as: viewer });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<SummaryReportAnswer>();
    expect(body.jobs.map((j) => j.id)).toEqual(two.map((r) => r.id));
    for (const j of body.jobs) {
      const [ref] = await s.db.query<{ actions: number; blocked: number; not_run: number; ran: number }>(
        `select count(*)::int as actions, count(*) filter (where status = 'ran' and blocked)::int as blocked, count(*) filter (where status in ('not run', 'incompatible'))::int as not_run, count(*) filter (where status = 'ran')::int as ran from job_actions where job_id = $1`,
        [j.id],
      );
      expect(j.totals).toMatchObject({ actions: ref!.actions, blocked: ref!.blocked, not_run: ref!.not_run });
      expect(j.totals.percent_blocked).toBeCloseTo(ref!.ran ? (100 * ref!.blocked) / ref!.ran : 0, 0);
      expect(j.steps.reduce((n, st) => n + st.totals.actions, 0)).toBe(j.totals.actions);
    }
    expect((await s.call('GET', '/reports/summary.json?job_ids=1,99999999', { as: viewer })).statusCode).toBe(404);
    expect((await s.call('GET', '/reports/summary.json', { as: viewer })).statusCode).toBe(400);
    expect((await s.call('GET', `/reports/summary.json?job_ids=${Array.from({ length: 51 }, (_, i) => i + 1).join(',')}`, { as: viewer })).statusCode).toBe(400);
  });
});

describe('the refusals of cancel, delete, publish, events and the summary report say why', () => {
  const error = async (method: 'GET' | 'POST' | 'DELETE', url: string, opts: Parameters<TestServer['call']>[2], status: number, message: string | RegExp) => {
    const res = await s.call(method, url, opts);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
    const text = res.json<{ error: string }>().error;
    if (typeof message === 'string') expect(text, `${method} ${url}`).toBe(message);
    else expect(text, `${method} ${url}`).toMatch(message);
  };
  const csrfOf = (as: Session) => ({ as, headers: { 'x-csrf-token': as.csrfToken } });

  it('cancel: 401, 403 (role, token), 400, 404 and 409 with their messages', async () => {
    const [run] = await sql(`select id from jobs where status = any($1::text[]) order by id limit 1`, [CANCELLABLE_STATUSES]);
    const [done] = await sql(`select id from jobs where status = 'completed' order by id limit 1`);
    await error('GET', `/jobs/${run!.id}/cancel.json`, {}, 401, /sign in/);
    await error('GET', `/jobs/${run!.id}/cancel.json`, csrfOf(viewer), 403, 'Your role (viewer) does not allow this: jobs.cancel.');
    await error('GET', `/jobs/${run!.id}/cancel.json`, { as: operator }, 403, /CSRF token/);
    await error('GET', '/jobs/abc/cancel.json', csrfOf(operator), 400, 'Job id must be a positive whole number, got "abc"');
    await error('GET', '/jobs/99999999/cancel.json', csrfOf(operator), 404, 'Job 99999999 was not found.');
    await error('GET', `/jobs/${done!.id}/cancel.json`, csrfOf(operator), 409, `Job ${done!.id} is completed and can no longer be cancelled.`);
  });

  it('delete: 403 (role, token), 400 and 404 with their messages', async () => {
    const [done] = await sql(`select id from jobs where status = 'completed' order by id limit 1`);
    await error('DELETE', `/jobs/${done!.id}`, { as: operator }, 403, 'Your role (operator) does not allow this: jobs.destroy.');
    await error('DELETE', `/jobs/${done!.id}`, { as: admin, csrf: false }, 403, /CSRF token/);
    await error('DELETE', '/jobs/abc', { as: admin }, 400, 'Job id must be a positive whole number, got "abc"');
    await error('DELETE', '/jobs/99999999', { as: admin }, 404, 'Job 99999999 was not found.');
  });

  it('publish: 403, 400 (missing, empty, not numbers, bad JSON) and 404 with their messages', async () => {
    const [done] = await sql(`select id from jobs where status = 'completed' order by id limit 1`);
    await error('POST', '/jobs/publish.json', { as: viewer, body: { job_ids: [done!.id] } }, 403, 'Your role (viewer) does not allow this: jobs.publish.');
    await error('POST', '/jobs/publish.json', { as: operator, body: {} }, 400, 'job_ids is required');
    await error('POST', '/jobs/publish.json', { as: operator, body: { job_ids: [] } }, 400, 'job_ids needs at least one job');
    await error('POST', '/jobs/publish.json', { as: operator, body: { job_ids: ['x'] } }, 400, 'job_ids must hold positive whole numbers');
    await error('POST', '/jobs/publish.json', { as: operator, body: { job_ids: [-3] } }, 400, 'job_ids must hold positive whole numbers');
    await error('POST', '/jobs/publish.json', { as: operator, body: '{"job_ids": [1' }, 400, 'The request body is not valid JSON.');
    await error('POST', '/jobs/publish.json', { as: operator, body: { job_ids: [99999999] } }, 404, 'Job 99999999 was not found.');
  });

  it('events: 401, 403, 400 (id, kind) and 404 with their messages', async () => {
    const [a] = await sql('select id from job_actions order by id limit 1');
    await error('GET', `/jobs/job_actions/${a!.id}/events.json`, {}, 401, /sign in/);
    await error('GET', `/jobs/job_actions/${a!.id}/events.json`, { as: viewer }, 403, 'Your role (viewer) does not allow this: integrationEvents.all.');
    await error('GET', '/jobs/job_actions/abc/events.json', { as: operator }, 400, 'Job action id must be a positive whole number, got "abc"');
    await error('GET', `/jobs/job_actions/${a!.id}/events.json?kind=x`, { as: operator }, 400, 'kind must be detected, suspicious or all');
    await error('GET', '/jobs/job_actions/99999999/events.json', { as: operator }, 404, 'Job action 99999999 was not found.');
  });

  it('summary report: 401, 400 (missing, not numbers, too many) and 404 with their messages', async () => {
    await error('GET', '/reports/summary.json?job_ids=1', {}, 401, /sign in/);
    await error('GET', '/reports/summary.json', { as: viewer }, 400, 'job_ids is required');
    await error('GET', '/reports/summary.json?job_ids=abc', { as: viewer }, 400, 'job_ids must hold positive whole numbers');
    await error('GET', `/reports/summary.json?job_ids=${Array.from({ length: 51 }, (_, i) => i + 1).join(',')}`, { as: viewer }, 400, 'job_ids may hold at most 50 ids');
    await error('GET', '/reports/summary.json?job_ids=1,99999999', { as: viewer }, 404, 'Job 99999999 was not found.');
  });
});

describe('CSV exports', () => {
  it('MON-140 JOB-095 exports the visible jobs with a semicolon separator as CSV a spreadsheet reads, quotes and separators escaped', async () => {
    const [{ id } = { id: 0 }] = await s.db.query<{ id: number }>(`insert into jobs (name, status) values ($1, 'completed') returning id`, ['Tricky; "quoted"\nname, =1+1']);
    const res = await s.call('POST', '/jobs/list_page_data.csv', {
      as: viewer,
      body: { separator: 'semicolon', delivery: 'download', all_events: 'visible', regex: 'double', filename: 'my jobs', props: { size: 10, page: 0, sortCol: 'job_id', sortDir: 'desc' } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain('filename="my jobs.csv"');
    expect(res.body.startsWith('\uFEFF')).toBe(true);
    const rows = parseCsv(res.body, ';');
    expect(rows[0]).toEqual(['Job Id', 'Job Name', 'Job Status', 'Progress', 'Ran By', 'Time Started', 'Finished', 'Assessment', 'Published', 'Latest Published Time', 'Latest Published Pipeline']);
    expect(rows).toHaveLength(11);
    expect(rows[1]![0]).toBe(String(id));
    expect(rows[1]![1]).toBe('Tricky; "quoted"\nname, =1+1');
    expect(rows.slice(1).every((r) => r.length === rows[0]!.length)).toBe(true);
    // Single-quote replacement, the formula guard, and a name without .csv.
    const single = await s.call('POST', '/jobs/list_page_data.csv', { as: viewer, body: { separator: 'comma', regex: 'single', props: { job_ids: [id] } } });
    expect(parseCsv(single.body, ',')[1]![1]).toBe("Tricky; 'quoted'\nname, =1+1");
    expect(single.headers['content-disposition']).toContain('filename="jobs.csv"');
    await s.db.query('update jobs set name = $2 where id = $1', [id, '=HYPERLINK("x")']);
    const guarded = await s.call('POST', '/jobs/list_page_data.csv', { as: viewer, body: { separator: 'tab', props: { job_ids: [id] } } });
    expect(parseCsv(guarded.body, '\t')[1]![1]).toBe('\'=HYPERLINK("x")');
    await s.db.query('delete from jobs where id = $1', [id]);
  });

  it('exports all jobs matching the filter (not only the page), and GET takes the same options in the query', async () => {
    const res = await s.call('POST', '/jobs/list_page_data.csv', { as: viewer, body: { separator: 'comma', all_events: 'all', props: { filterVal: 'completed', sortCol: 'job_id', sortDir: 'asc' } } });
    expect(res.statusCode).toBe(200);
    const rows = parseCsv(res.body, ',');
    const ref = await sql(`select id from jobs where status = 'completed' or strpos(lower(name), 'completed') > 0 order by id`);
    expect(rows.slice(1).map((r) => Number(r[0]))).toEqual(ref.map((r) => r.id));
    const get = await s.call('GET', '/jobs/list_page_data.csv?separator=space&all_events=all&filename=x.CSV', { as: viewer });
    expect(get.statusCode).toBe(200);
    expect(get.headers['content-disposition']).toContain('filename="x.csv"');
    const [{ n } = { n: 0 }] = await s.db.query<{ n: number }>('select count(*)::int as n from jobs');
    expect(parseCsv(get.body, ' ')).toHaveLength(n + 1);
  });

  it('JOB-095 the Job Action Report lists every action of the visible jobs with its result text', async () => {
    const two = await sql(`select id from jobs where status = 'completed' order by id desc limit 2`);
    const res = await s.call('POST', '/jobs/job_actions_data.csv', { as: viewer, body: { separator: 'comma', props: { job_ids: two.map((r) => r.id) } } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toContain('filename="job_action_report.csv"');
    const rows = parseCsv(res.body, ',');
    const header = rows[0]!;
    expect(header).toEqual(expect.arrayContaining(['Job Id', 'Step', 'VID', 'Action Name', 'Status', 'Result', 'Events']));
    const ref = await s.db.query<{ id: number; status: 'ran'; alerted: boolean; blocked: boolean | null; events: number }>(
      'select a.id, a.status, a.alerted, a.blocked, a.events from job_actions a join job_steps s on s.id = a.job_step_id where a.job_id = any($1::int[]) order by a.job_id desc, s.group_order, a.position, a.id',
      [two.map((r) => r.id)],
    );
    expect(rows.length - 1).toBe(ref.length);
    const idCol = header.indexOf('Job Action Id');
    const resultCol = header.indexOf('Result');
    const byId = new Map(rows.slice(1).map((r) => [Number(r[idCol]), r[resultCol]]));
    for (const a of ref) expect(byId.get(a.id)).toBe(actionResult(a).text);
  });

  it.each([
    ['an unknown separator', { separator: 'pipe' }, /separator must be comma, semicolon, space or tab/],
    ['an unknown delivery', { delivery: 'email' }, /delivery must be popup or download/],
    ['an unknown rows choice', { all_events: 'some' }, /all_events must be visible or all/],
    ['an unknown quote replacement', { regex: 'curly' }, /quote replacement/],
    ['props that are not an object', { props: 'x' }, /props/],
    ['bad job ids', { props: { job_ids: ['a'] } }, /job_ids must hold job ids/],
    ['a bad list filter', { props: { page: -1 } }, /page must be 0 or more/],
  ])('refuses an export with %s (400 with a message)', async (_what, body, message) => {
    const res = await s.call('POST', '/jobs/list_page_data.csv', { as: viewer, body });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ error: string }>().error).toMatch(message);
  });
});

describe('larger totals', () => {
  it('estimates a filtered total beyond the exact-count limit and says so', async () => {
    await s.db.query(`insert into jobs (name, status, created_at) select 'Bulk estimate job', 'completed', now() - g * interval '1 minute' from generate_series(1, ${EXACT_COUNT_LIMIT + 200}) g`);
    await s.db.exec('analyze jobs');
    const a = await list('filterVal=bulk%20estimate');
    expect(a.total_filtered_estimated).toBe(true);
    expect(a.total_filtered_jobs).toBeGreaterThan(EXACT_COUNT_LIMIT);
    expect(rowsOf(a)).toHaveLength(10);
    const exact = await list('filterVal=bulk%20estimate&filterRange=' + encodeURIComponent(`${new Date(Date.now() - 30 * 60_000).toISOString()},`));
    expect(exact.total_filtered_estimated).toBe(false);
    expect(exact.total_filtered_jobs).toBeGreaterThanOrEqual(29);
    expect(exact.total_filtered_jobs).toBeLessThanOrEqual(31);
    await s.db.query(`delete from jobs where name = 'Bulk estimate job'`);
  });
});
