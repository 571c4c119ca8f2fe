import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedDemo } from '../../server/seed/demo';
import { startTestServer, type Session, type TestServer } from './helpers';
import type { ActionLibraryDetail, LibraryItem, LibraryListAnswer } from '@/api/contracts/library';

/**
 * The library list answers from memory and reads the change log at most every 200 ms while nothing is
 * written through this director; every write made through it (any route, the engine, plain SQL on the
 * director's database handle) shows in the very next list call.
 */
let s: TestServer;
let operator: Session;
let approver: Session;
let viewer: Session;

const LIST = '/manage_sims/v2/actions/library_actions_list';
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function list(query: string): Promise<LibraryListAnswer> {
  const res = await s.call('GET', `${LIST}?${query}`, { as: viewer });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<LibraryListAnswer>();
}

async function item(vid: string): Promise<LibraryItem> {
  const found = (await list(`content_uuids[]=${vid}&include_disabled=true`)).actions[0];
  if (!found) throw new Error(`${vid} is not listed`);
  return found;
}

/** The item on the legacy pages (size 1,000) or undefined. */
async function legacyItem(id: number): Promise<LibraryItem | undefined> {
  for (let page = 1; ; page++) {
    const res = await s.call('GET', `/manage_sims/library_actions_list.json?page=${page}&size=1000`, { as: viewer });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<{ data: LibraryItem[]; meta: { total_pages: number } }>();
    const found = answer.data.find((x) => x.id === id);
    if (found || page >= answer.meta.total_pages) return found;
  }
}

async function detail(as: Session, id: number): Promise<ActionLibraryDetail> {
  const res = await s.call('GET', `/manage_sims/v2/actions/detail.json?id=${id}`, { as });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ action: ActionLibraryDetail }>().action;
}

async function actionWhere(where: string): Promise<{ id: number; vid: string }> {
  const [row] = await s.db.query<{ id: number; vid: string }>(`select id, vid from actions where ${where} order by id limit 1`);
  if (!row) throw new Error(`no action where ${where}`);
  return row;
}

beforeAll(async () => {
  s = await startTestServer();
  await seedDemo(s.db, { now: Date.parse('2026-11-20T12:00:00Z') });
  [operator, approver, viewer] = [await s.signIn('operator'), await s.signIn('approver'), await s.signIn('viewer')];
});
afterAll(async () => {
  await s?.close();
});

describe('ACT-090 the library list shows a write made through this director in the very next call', () => {
  it('ACT-102 a name saved with update_from_library is found by the next search', async () => {
    const a = await actionWhere(`vid not like 'A1%' and not disabled and not decommissioned`);
    const d = await detail(operator, a.id);
    // A list call just before: the next one is inside the 200 ms in which the change log is not read for others' writes.
    expect((await list('search=wombat%20relay')).total_count).toBe(0);
    const res = await s.call('POST', '/manage_sims/actions/update_from_library.json', {
      as: operator,
      body: { id: a.id, param_name: 'name', new_value: 'Wombat Relay Probe', brt_license: d.brt_license, auth_token: d.auth_token },
    });
    expect(res.statusCode, res.body).toBe(200);
    const found = await list('search=wombat%20relay');
    expect(found.actions.map((x) => [x.id, x.name])).toEqual([[a.id, 'Wombat Relay Probe']]);
  });

  it('ACT-058 an approval moves the Action from Unapproved to Approved in the next call', async () => {
    const a = await actionWhere(`not approved and action_type not in ('cloud', 'host_cli') and not require_protected and not disabled and not decommissioned`);
    const d = await detail(approver, a.id);
    expect((await list(`status=unapproved&content_uuids[]=${a.vid}`)).actions.map((x) => x.id)).toEqual([a.id]);
    const ok = await s.call('PUT', `/manage_sims/actions/${a.id}/approve?required=false&version=${d.version}`, { as: approver });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await list(`status=unapproved&content_uuids[]=${a.vid}`)).actions).toEqual([]);
    expect((await list(`status=approved&content_uuids[]=${a.vid}`)).actions.map((x) => [x.id, x.approved])).toEqual([[a.id, true]]);
  });

  it('ACT-090 MON-056 a new run and its finished job action show as latest_job (id, status, updated_at) in the next call', async () => {
    const a = await actionWhere(`not disabled and not decommissioned`);
    const before = await item(a.vid);
    // A run written the way the engine writes one: the job, a step and the job action in one transaction.
    const jobId = await s.db.transaction(async (tx) => {
      const [job] = await tx.query<{ id: number }>(`insert into jobs (name, status, action_id) values ('Latest run probe', 'running', $1) returning id`, [a.id]);
      const [step] = await tx.query<{ id: number }>(`insert into job_steps (job_id, group_order) values ($1, 1) returning id`, [job!.id]);
      await tx.query(
        `insert into job_actions (job_step_id, job_id, action_id, sim_action_vid, name, action_type, status) select $1, $2, id, vid, name, action_type, 'running' from actions where id = $3`,
        [step!.id, job!.id, a.id],
      );
      return job!.id;
    });
    const running = await item(a.vid);
    expect(running.latest_job).toEqual({ id: jobId, status: 'running', updated_at: expect.stringMatching(ISO) });
    expect(running.total_runs).toBe(before.total_runs + 1);
    expect((await legacyItem(a.id))?.latest_job).toEqual({ id: jobId, status: 'running', updated_at: expect.stringMatching(ISO) });
    // The job action finishes and the job completes, as the engine's finishJob does.
    await s.db.transaction(async (tx) => {
      await tx.query(`update job_actions set status = 'completed', finished_at = now() where job_id = $1`, [jobId]);
      await tx.query(`update jobs set status = 'completed', progress = 100, finished_at = now(), updated_at = now() where id = $1`, [jobId]);
    });
    const done = (await item(a.vid)).latest_job;
    expect(done).toEqual({ id: jobId, status: 'completed', updated_at: expect.stringMatching(ISO) });
    expect(Date.parse(done!.updated_at)).toBeGreaterThanOrEqual(Date.parse(running.latest_job!.updated_at));
    // The legacy page, kept as sent, is made again.
    expect((await legacyItem(a.id))?.latest_job).toEqual({ id: jobId, status: 'completed', updated_at: expect.stringMatching(ISO) });
  });

  it('a renamed tag shows in the next call, in the items and in what the search finds', async () => {
    const [tag] = await s.db.query<{ id: number; name: string; action_id: number }>(
      `select t.id, t.name, min(at.action_id) as action_id from tags t join action_tags at on at.tag_id = t.id join actions a on a.id = at.action_id
        where not a.disabled and not a.decommissioned group by t.id order by t.id limit 1`,
    );
    const [{ vid } = { vid: '' }] = await s.db.query<{ vid: string }>('select vid from actions where id = $1', [tag!.action_id]);
    expect((await item(vid)).tags.map((t) => t.name)).toContain(tag!.name);
    expect((await legacyItem(tag!.action_id))?.tags.map((t) => t.name)).toContain(tag!.name);
    await s.db.query(`update tags set name = 'Platypus Tag' where id = $1`, [tag!.id]);
    expect((await item(vid)).tags.map((t) => t.name)).toContain('Platypus Tag');
    expect((await legacyItem(tag!.action_id))?.tags.map((t) => t.name)).toContain('Platypus Tag');
    expect((await list(`search=platypus%20tag&content_uuids[]=${vid}`)).actions.map((x) => x.id)).toEqual([tag!.action_id]);
  });

  it('ACT-091 a simulation job whose status moves shows the new status in the next simulations list call', async () => {
    const sims = async () => {
      const res = await s.call('GET', '/v2/simulations/library_simulations_list?simulation_type=sequence&include_disabled=true', { as: viewer });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<LibraryListAnswer>().simulations;
    };
    const sim = (await sims()).find((x) => x.latest_job);
    if (!sim?.latest_job) throw new Error('no sequence has run');
    const next = sim.latest_job.status === 'cancelled' ? 'completed' : 'cancelled';
    await s.db.query(`update jobs set status = $2 where id = $1`, [sim.latest_job.id, next]);
    expect((await sims()).find((x) => x.id === sim.id)?.latest_job).toEqual({ id: sim.latest_job.id, status: next, updated_at: expect.stringMatching(ISO) });
  });

  it('an Action change the simulations do not show leaves them unread; a renamed Action of a sequence is found by the next simulations search', async () => {
    const simList = async (query: string) => {
      const res = await s.call('GET', `/v2/simulations/library_simulations_list?simulation_type=sequence&include_disabled=true&${query}`, { as: viewer });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<LibraryListAnswer>();
    };
    const [used] = await s.db.query<{ id: number; simulation_id: number }>(
      `select ssa.action_id as id, st.simulation_id from simulation_step_actions ssa join simulation_steps st on st.id = ssa.step_id
         join simulations sim on sim.id = st.simulation_id where sim.simulation_type = 'sequence' order by ssa.id limit 1`,
    );
    if (!used) throw new Error('no sequence uses an Action');
    await simList('page_size=1');
    const query = vi.spyOn(s.db, 'query');
    try {
      await s.db.query(`update actions set description = description || ' (reviewed)' where id = $1`, [used.id]);
      await simList('page_size=1');
      expect(query.mock.calls.map((c) => c[0]).filter((q) => /\bfrom simulations\b/.test(q))).toEqual([]);
    } finally {
      query.mockRestore();
    }
    await s.db.query(`update actions set name = 'Echidna Beacon Step' where id = $1`, [used.id]);
    expect((await simList('search=echidna%20beacon')).simulations.map((x) => x.id)).toContain(used.simulation_id);
  });

  it('a new dimension tree node can be filtered on in the next call', async () => {
    expect((await list('page_size=1')).total_count).toBeGreaterThan(0);
    const [node] = await s.db.query<{ id: number }>(
      `insert into dimensions (type, parent_id, name, param_name, position) values ('covert', null, 'Quiet Probe Node', 'quiet_probe_node', 99) returning id`,
    );
    expect((await list(`dimensions[]=${node!.id}`)).total_count).toBe(0);
  });

  it('a kept answer (the same page, the filters) is made again after a write: a disabled Action leaves the first page and the counts, a renamed tree node shows in the filters', async () => {
    const filters = async () => {
      const res = await s.call('GET', '/manage_sims/v2/actions/filters', { as: viewer });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ total_count: number; trees: { nodes?: unknown }[] }>();
    };
    const first = await list('page_size=5');
    const before = await filters();
    // Asked again with nothing written: the same answers.
    expect(await list('page_size=5')).toEqual(first);
    expect(await filters()).toEqual(before);
    const gone = first.actions[0]!;
    await s.db.query('update actions set disabled = true where id = $1', [gone.id]);
    const after = await list('page_size=5');
    expect(after.actions.map((x) => x.id)).not.toContain(gone.id);
    expect(after.total_count).toBe(first.total_count - 1);
    expect((await filters()).total_count).toBe(before.total_count - 1);
    const [node] = await s.db.query<{ id: number }>(`select id from dimensions where parent_id is not null order by id limit 1`);
    await s.db.query(`update dimensions set name = 'Numbat Tree Node' where id = $1`, [node!.id]);
    expect(JSON.stringify((await filters()).trees)).toContain('Numbat Tree Node');
  });

  it('answers repeated list calls from memory: no job reads, and the change log read at most once per 200 ms', async () => {
    await list('page_size=100');
    const query = vi.spyOn(s.db, 'query');
    try {
      const started = performance.now();
      for (let i = 0; i < 20; i++) await list(`page_size=100&page_number=${1 + (i % 3)}&sort=${i % 2 ? 'name' : 'last_run'}`);
      const elapsed = performance.now() - started;
      const sql = query.mock.calls.map((c) => c[0]);
      expect(sql.filter((q) => /\bjob_actions\b|\bjobs\b/.test(q))).toEqual([]);
      expect(sql.filter((q) => q.includes('library_changes')).length).toBeLessThanOrEqual(1 + Math.floor(elapsed / 200));
    } finally {
      query.mockRestore();
    }
  });
});
