import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../server/seed/demo';
import { startTestServer, type Session, type TestServer } from './helpers';
import type { ActionLibraryDetail, LegacyLibraryPage, LibraryFiltersAnswer, LibraryListAnswer, PreviewAnswer, UpdateFromLibraryAnswer } from '@/api/contracts/library';
import { LIBRARY_MESSAGES } from '@/api/contracts/library';
import { parseHostCommands } from '../../server/library/preview';
import { ACTION_TYPES } from '@/api/contracts/vocabulary';

let s: TestServer;
let admin: Session;
let approver: Session;
let operator: Session;
let viewer: Session;

const LIST = '/manage_sims/v2/actions/library_actions_list';

async function list(as: Session, query = ''): Promise<LibraryListAnswer> {
  const res = await s.call('GET', `${LIST}${query ? `?${query}` : ''}`, { as });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<LibraryListAnswer>();
}

async function idOf(where: string, params: unknown[] = []): Promise<number> {
  const [row] = await s.db.query<{ id: number }>(`select id from actions where ${where} order by id limit 1`, params);
  if (!row) throw new Error(`no action where ${where}`);
  return row.id;
}

async function detail(as: Session, id: number): Promise<ActionLibraryDetail> {
  const res = await s.call('GET', `/manage_sims/v2/actions/detail.json?id=${id}`, { as });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ action: ActionLibraryDetail }>().action;
}

beforeAll(async () => {
  s = await startTestServer();
  await seedDemo(s.db, { now: Date.parse('2026-11-20T12:00:00Z') });
  [admin, approver, operator, viewer] = [await s.signIn('admin'), await s.signIn('approver'), await s.signIn('operator'), await s.signIn('viewer')];
});
afterAll(async () => {
  await s?.close();
});

describe('JOB-017 JOB-059 ACT-090 the library list (GET /manage_sims/v2/actions/library_actions_list)', () => {
  it('answers actions, simulations, total_count, total_pages and start; each item has latest_job.status', async () => {
    const body = await list(viewer, 'page_size=20');
    const [{ n } = { n: 0 }] = await s.db.query<{ n: number }>('select count(*)::int as n from actions where not disabled and not decommissioned');
    expect(body.total_count).toBe(n);
    expect(body.total_pages).toBe(Math.ceil(n / 20));
    expect(body.start).toBe(0);
    expect(body.simulations).toEqual([]);
    expect(body.actions).toHaveLength(20);
    const ran = body.actions.find((a) => a.latest_job);
    expect(ran?.latest_job?.status).toMatch(/^[a-z]+$/);
    const names = body.actions.map((a) => a.name.toLowerCase());
    expect(names).toEqual([...names].sort());
  });

  it('pages through the filtered list without gaps or repeats', async () => {
    const all = await list(viewer, 'page_size=500');
    const seen: number[] = [];
    for (let p = 1; p <= Math.ceil(all.total_count / 7); p++) {
      const page = await list(viewer, `page_size=7&page_number=${p}`);
      expect(page.start).toBe((p - 1) * 7);
      seen.push(...page.actions.map((a) => a.id));
    }
    expect(seen).toEqual(all.actions.map((a) => a.id));
    const past = await list(viewer, `page_size=7&page_number=${Math.ceil(all.total_count / 7) + 3}`);
    expect(past.actions).toEqual([]);
    expect(past.total_count).toBe(all.total_count);
  });

  it('JOB-047 JOB-069 searches vid, name, description, action type and tag names case-insensitively and literally', async () => {
    const byName = await list(viewer, 'search=MIMIKATZ');
    expect(byName.actions.length).toBeGreaterThan(0);
    expect(byName.actions.every((a) => `${a.name} ${a.desc} ${a.tags.map((t) => t.name).join(' ')}`.toLowerCase().includes('mimikatz'))).toBe(true);
    const [{ vid } = { vid: '' }] = await s.db.query<{ vid: string }>('select vid from actions where id = 3');
    expect((await list(viewer, `search=${vid.toLowerCase()}`)).actions.map((a) => a.vid)).toContain(vid);
    const byTag = await list(viewer, `search=${encodeURIComponent('threat actor:apt29')}`);
    expect(byTag.actions.length).toBeGreaterThan(0);
    expect(byTag.actions.every((a) => a.tags.some((t) => t.name === 'Threat Actor:APT29'))).toBe(true);
    const byType = await list(viewer, 'search=web_request&page_size=500');
    expect(byType.actions.map((a) => a.action_type)).toContain('web_request');
    // Literal: pattern characters match themselves only.
    expect((await list(viewer, `search=${encodeURIComponent('%')}`)).total_count).toBe(0);
    expect((await list(viewer, `search=${encodeURIComponent('.*')}`)).total_count).toBe(0);
    expect((await list(viewer, `search=${encodeURIComponent("admin' OR 1=1")}`)).total_count).toBeGreaterThan(0);
  });

  it('JOB-069 filters by tags with OR and with AND', async () => {
    const tags = await s.db.query<{ id: number; name: string }>(`select id, name from tags where name in ('Control:Endpoint EDR', 'OS:Windows') order by name`);
    const [edr, win] = [tags.find((t) => t.name === 'Control:Endpoint EDR')!, tags.find((t) => t.name === 'OS:Windows')!];
    const either = await list(viewer, `tags[]=${edr.id}&tags[]=${win.id}&tag_mode=or&page_size=500`);
    const both = await list(viewer, `tags=${edr.id},${win.id}&tag_mode=and&page_size=500`);
    expect(either.total_count).toBeGreaterThan(both.total_count);
    expect(both.total_count).toBeGreaterThan(0);
    expect(both.actions.every((a) => a.tags.some((t) => t.id === edr.id) && a.tags.some((t) => t.id === win.id))).toBe(true);
    expect(either.actions.every((a) => a.tags.some((t) => t.id === edr.id || t.id === win.id))).toBe(true);
  });

  it('JOB-020 sorts by Name, VID, Last Updated, Modified, Last Added, Last Run and Total Runs in either direction', async () => {
    const vids = (await list(viewer, 'sort=vid&page_size=500')).actions.map((a) => a.vid.toLowerCase());
    expect(vids).toEqual([...vids].sort());
    const runs = (await list(viewer, 'sort=total_runs&page_size=500')).actions.map((a) => a.total_runs);
    expect(runs).toEqual([...runs].sort((a, b) => b - a));
    const asc = (await list(viewer, 'sort=total_runs&direction=asc&page_size=500')).actions.map((a) => a.total_runs);
    expect(asc).toEqual([...runs].reverse());
    const last = (await list(viewer, 'sort=last_run&page_size=500')).actions.map((a) => (a.last_run ? Date.parse(a.last_run) : 0));
    expect(last).toEqual([...last].sort((a, b) => b - a));
    for (const [sort, key] of [['updated', 'updated_at'], ['modified', 'date_modified'], ['added', 'last_added']] as const) {
      const times = (await list(viewer, `sort=${sort}&page_size=500`)).actions.map((a) => Date.parse(a[key]));
      expect(times, sort).toEqual([...times].sort((a, b) => b - a));
    }
  });

  it('filters by type, status (Pending Files), content_uuids, and hides disabled Actions unless asked', async () => {
    const cloud = await list(viewer, 'action_types[]=cloud');
    expect(cloud.actions.every((a) => a.action_type === 'cloud')).toBe(true);
    const pending = await list(viewer, 'status=pending_files&page_size=500');
    expect(pending.total_count).toBeGreaterThan(0);
    expect(pending.actions.every((a) => a.pending_files > 0)).toBe(true);
    const unapproved = await list(viewer, 'status=unapproved&page_size=500');
    expect(unapproved.actions.every((a) => !a.approved)).toBe(true);
    const picked = await s.db.query<{ vid: string }>('select vid from actions where id in (1, 2)');
    const byVid = await list(viewer, `content_uuids[]=${picked[0]!.vid}&content_uuids[]=${picked[1]!.vid.toLowerCase()}`);
    expect(byVid.actions.map((a) => a.vid).sort()).toEqual(picked.map((p) => p.vid).sort());
    const disabledId = await idOf('disabled');
    expect((await list(viewer, 'page_size=500')).actions.map((a) => a.id)).not.toContain(disabledId);
    expect((await list(viewer, 'page_size=500&include_disabled=true')).actions.map((a) => a.id)).toContain(disabledId);
  });

  it('filters by dimension tree nodes (a node stands for its subtree)', async () => {
    const [node] = await s.db.query<{ id: number }>(
      `select d.id from dimensions d where d.type = 'attack_vector' and d.parent_id is not null and exists (select 1 from action_dimensions ad where ad.dimension_id = d.id) order by d.id limit 1`,
    );
    const body = await list(viewer, `dimensions[]=${node!.id}&page_size=500&include_disabled=true`);
    const [{ n } = { n: 0 }] = await s.db.query<{ n: number }>('select count(*)::int as n from action_dimensions where dimension_id = $1', [node!.id]);
    expect(body.total_count).toBe(n);
  });

  it('refuses bad input with a 400 and a message', async () => {
    const cases: [string, RegExp][] = [
      ['page_number=0', /page_number must be at least 1/],
      ['page_number=-2', /page_number must be at least 1/],
      ['page_number=abc', /page_number must be a whole number/],
      ['page_number=1.5', /page_number must be a whole number/],
      ['page_size=501', /page_size must be at most 500/],
      ['page_size=0', /page_size must be at least 1/],
      ['sort=price', /sort must be one of/],
      ['direction=up', /direction must be asc or desc/],
      ['tag_mode=xor', /tag_mode must be and or or/],
      ['tags[]=abc', /tags must hold whole numbers/],
      ['tags[]=999999', /Unknown tag id: 999999/],
      ['dimensions[]=999999', /Unknown dimension node: 999999/],
      ['action_types[]=teleport', /unknown action type/],
      ['status=lost', /status must be one of/],
      ['bogus=1', /Unknown parameter: bogus/],
      [`search=${'x'.repeat(201)}`, /search must be at most 200 characters/],
    ];
    for (const [query, message] of cases) {
      const res = await s.call('GET', `${LIST}?${query}`, { as: viewer });
      expect(res.statusCode, query).toBe(400);
      expect(res.json<{ error: string }>().error, query).toMatch(message);
    }
  });

  it('needs a signed-in user', async () => {
    expect((await s.call('GET', LIST)).statusCode).toBe(401);
    expect((await s.call('GET', '/manage_sims/v2/actions/filters')).statusCode).toBe(401);
  });

  it('sees writes of any writer: an Action inserted with plain SQL is found at once', async () => {
    await s.db.query(`insert into actions (vid, name, description, action_type, details) values ('A009-001', 'Zebra Crossing Probe', 'Inserted by SQL', 'sleep', '{}')`);
    const found = await list(viewer, 'search=zebra crossing');
    expect(found.actions.map((a) => a.vid)).toEqual(['A009-001']);
    await s.db.query(`update actions set name = 'Yak Shaving Probe' where vid = 'A009-001'`);
    expect((await list(viewer, 'search=zebra crossing')).total_count).toBe(0);
    expect((await list(viewer, 'search=yak shaving')).total_count).toBe(1);
    await s.db.query(`delete from actions where vid = 'A009-001'`);
    expect((await list(viewer, 'search=yak shaving')).total_count).toBe(0);
  });
});

describe('ACT-092 filters (GET /manage_sims/v2/actions/filters, /v2/simulations/filters)', () => {
  it('lists types, statuses, tag groups with counts, tag modes, sort options and dimension trees', async () => {
    const res = await s.call('GET', '/manage_sims/v2/actions/filters', { as: viewer });
    expect(res.statusCode).toBe(200);
    const f = res.json<LibraryFiltersAnswer>();
    expect(f.types.map((t) => t.value)).toEqual([...ACTION_TYPES]);
    expect(f.types.reduce((sum, t) => sum + t.count, 0)).toBe(f.total_count);
    expect(f.statuses.map((x) => x.label)).toContain('Pending Files');
    expect(f.sort_options.map((o) => o.label)).toEqual(['Name', 'VID', 'Last Updated', 'Modified', 'Last Added', 'Last Run', 'Total Runs']);
    expect(f.tag_modes).toEqual(['or', 'and']);
    expect(f.tag_groups.find((g) => g.tag_type === 'mitre_attack')?.tags.length).toBeGreaterThan(5);
    expect(f.trees.map((t) => t.label)).toEqual(['Attack Vector', 'Attacker Location', 'Behavior Type', 'Covert', 'OS/Platform', 'Stage of Attack']);
    expect(f.trees[0]!.nodes[0]!.children.length).toBeGreaterThan(0);
  });

  it('answers the simulation filters for a simulation type and refuses an unknown type', async () => {
    const res = await s.call('GET', '/v2/simulations/filters?simulation_type=sequence', { as: viewer });
    expect(res.statusCode).toBe(200);
    expect(res.json<LibraryFiltersAnswer>().types.map((t) => t.value)).toEqual(['sequence', 'eval']);
    const bad = await s.call('GET', '/v2/simulations/filters?simulation_type=chain', { as: viewer });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: string }>().error).toMatch(/simulation_type must be sequence or eval/);
  });
});

describe('ACT-091 the simulation library (GET /v2/simulations/library_simulations_list)', () => {
  it('JOB-041 lists one simulation type with the library item fields, searchable by name, action VIDs, step names and action names', async () => {
    const res = await s.call('GET', '/v2/simulations/library_simulations_list?simulation_type=sequence&page_size=100', { as: viewer });
    expect(res.statusCode).toBe(200);
    const body = res.json<LibraryListAnswer>();
    expect(body.actions).toEqual([]);
    expect(body.simulations.length).toBeGreaterThan(0);
    const itemFields = ['id', 'vid', 'name', 'desc', 'approved', 'tags', 'disabled', 'decommissioned', 'updated_at', 'last_added', 'last_run', 'total_runs'];
    for (const x of body.simulations) expect(Object.keys(x)).toEqual(expect.arrayContaining([...itemFields, 'action_vids', 'group_names', 'sim_actions']));
    for (const x of (await list(viewer, 'page_size=20')).actions) expect(Object.keys(x)).toEqual(expect.arrayContaining([...itemFields, 'action_type']));
    const grouped = body.simulations.find((x) => x.group_names.length > 0)!;
    const byGroup = await s.call('GET', `/v2/simulations/library_simulations_list?simulation_type=sequence&search=${encodeURIComponent(grouped.group_names[0]!)}`, { as: viewer });
    expect(byGroup.json<LibraryListAnswer>().simulations.map((x) => x.id)).toContain(grouped.id);
    const byName = await s.call('GET', `/v2/simulations/library_simulations_list?simulation_type=sequence&search=${encodeURIComponent(grouped.name.toLowerCase())}`, { as: viewer });
    expect(byName.json<LibraryListAnswer>().simulations.map((x) => x.id)).toContain(grouped.id);
    expect(body.simulations.every((x) => x.simulation_type === 'sequence')).toBe(true);
    const sim = body.simulations.find((x) => x.action_vids.length > 0)!;
    const byVid = await s.call('GET', `/v2/simulations/library_simulations_list?simulation_type=sequence&search=${sim.action_vids[0]}`, { as: viewer });
    expect(byVid.json<LibraryListAnswer>().simulations.map((x) => x.id)).toContain(sim.id);
    const byAction = await s.call('GET', `/v2/simulations/library_simulations_list?simulation_type=sequence&search=${encodeURIComponent(sim.sim_actions[0]!.toUpperCase())}`, { as: viewer });
    expect(byAction.json<LibraryListAnswer>().simulations.map((x) => x.id)).toContain(sim.id);
  });

  it('refuses bad paging with a 400 and a message', async () => {
    const cases: [string, RegExp][] = [
      ['page_number=0', /page_number must be at least 1/],
      ['page_number=-1', /page_number must be at least 1/],
      ['page_number=abc', /page_number must be a whole number/],
      ['page_size=501', /page_size must be at most 500/],
      ['page_size=0', /page_size must be at least 1/],
    ];
    for (const [query, message] of cases) {
      const res = await s.call('GET', `/v2/simulations/library_simulations_list?simulation_type=sequence&${query}`, { as: viewer });
      expect(res.statusCode, query).toBe(400);
      expect(res.json<{ error: string }>().error, query).toMatch(message);
    }
  });

  it('needs simulation_type', async () => {
    const res = await s.call('GET', '/v2/simulations/library_simulations_list', { as: viewer });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: string }>().error).toMatch(/simulation_type is required/);
  });
});

describe('the library routes need a signed-in user', () => {
  it('answers 401 with a message to every GET without a session', async () => {
    const id = await idOf('not disabled');
    const urls = [
      LIST,
      '/manage_sims/v2/actions/filters',
      '/v2/simulations/library_simulations_list?simulation_type=sequence',
      '/v2/simulations/filters?simulation_type=sequence',
      '/manage_sims/library_actions_list.json?page=1&size=1000',
      `/manage_sims/v2/actions/detail.json?id=${id}`,
      `/manage_sims/v2/actions/latest_jobs.json?id=${id}`,
      `/library/actions.json?id=${id}`,
    ];
    for (const url of urls) {
      const res = await s.call('GET', url);
      expect(res.statusCode, url).toBe(401);
      expect(res.json<{ error: string }>().error, url).toMatch(/\w/);
    }
  });
});

describe('JOB-090 JOB-116 the legacy paged library (GET /manage_sims/library_actions_list.json)', () => {
  it('JOB-041 answers 204 until ready, then pages of data with meta.total_count and meta.total_pages', async () => {
    const other = await s.buildOtherApp({});
    let res = await s.call('GET', '/manage_sims/library_actions_list.json?page=1&size=1000', { as: viewer, app: other });
    expect([200, 204]).toContain(res.statusCode);
    for (let i = 0; i < 50 && res.statusCode === 204; i++) {
      expect(res.body).toBe('');
      await new Promise((r) => setTimeout(r, 100));
      res = await s.call('GET', '/manage_sims/library_actions_list.json?page=1&size=1000', { as: viewer, app: other });
    }
    expect(res.statusCode).toBe(200);
    const first = res.json<LegacyLibraryPage>();
    expect(first.meta.total_pages).toBe(1);
    const pages: number[] = [];
    const small = (await s.call('GET', '/manage_sims/library_actions_list.json?page=1&size=30', { as: viewer })).json<LegacyLibraryPage>();
    for (let p = 1; p <= small.meta.total_pages; p++) {
      const page = (await s.call('GET', `/manage_sims/library_actions_list.json?page=${p}&size=30`, { as: viewer })).json<LegacyLibraryPage>();
      pages.push(...page.data.map((d) => d.id));
    }
    expect(pages).toEqual(first.data.map((d) => d.id));
    expect(first.meta.total_count).toBe(first.data.length);
  });

  it('refuses an oversized page size and bad page numbers', async () => {
    for (const [q, m] of [
      ['size=1001', /size must be at most 1000/],
      ['page=0', /page must be at least 1/],
      ['page=x', /page must be a whole number/],
    ] as const) {
      const res = await s.call('GET', `/manage_sims/library_actions_list.json?${q}`, { as: viewer });
      expect(res.statusCode, q).toBe(400);
      expect(res.json<{ error: string }>().error).toMatch(m);
    }
  });
});

describe('JOB-091 the tree filter and quick ids', () => {
  it('POST /manage_sims/library_actions_filter.json answers the ids under the selected tree nodes (form or JSON)', async () => {
    const [node] = await s.db.query<{ id: number; n: number }>(
      `select dimension_id as id, count(*)::int as n from action_dimensions ad join actions a on a.id = ad.action_id
        where ad.dimension_type = 'behavior_type' and not a.disabled and not a.decommissioned group by dimension_id order by n desc limit 1`,
    );
    const form = await s.call('POST', '/manage_sims/library_actions_filter.json', { as: operator, form: true, body: { 'behavior_type[]': node!.id, utf8: '✓' } });
    expect(form.statusCode, form.body).toBe(200);
    expect(form.json<{ data: number[] }>().data).toHaveLength(node!.n);
    const json = await s.call('POST', '/manage_sims/library_actions_filter.json', { as: operator, body: { behavior_type: [node!.id] } });
    expect(json.json<{ data: number[] }>().data).toEqual(form.json<{ data: number[] }>().data);
    const bad = await s.call('POST', '/manage_sims/library_actions_filter.json', { as: operator, body: { behavior_type: [424242] } });
    expect(bad.statusCode).toBe(400);
    const unknown = await s.call('POST', '/manage_sims/library_actions_filter.json', { as: operator, body: { colour: [1] } });
    expect(unknown.statusCode).toBe(400);
    expect((await s.call('POST', '/manage_sims/library_actions_filter.json', { as: operator, body: {}, csrf: false })).statusCode).toBe(403);
  });

  it('ACT-100 POST /manage_sims/quick_action_ids.json answers every matching id in list order, without paging', async () => {
    const res = await s.call('POST', '/manage_sims/quick_action_ids.json', { as: viewer, body: { search: 'host cli', sort: 'vid' } });
    expect(res.statusCode, res.body).toBe(200);
    const ids = res.json<number[]>();
    const page = await list(viewer, 'search=host%20cli&sort=vid&page_size=500');
    expect(ids).toEqual(page.actions.map((a) => a.id));
    const bad = await s.call('POST', '/manage_sims/quick_action_ids.json', { as: viewer, body: { page_number: 2 } });
    expect(bad.statusCode).toBe(400);
  });
});

describe('ACT-001..ACT-005 ACT-028 the detail (GET /manage_sims/v2/actions/detail.json)', () => {
  it('answers the library Action with tags grouped by type, dimensions apart, latest runs by id descending', async () => {
    const id = await idOf(`id in (select action_id from job_actions group by action_id having count(distinct job_id) > 6)`);
    const a = await detail(viewer, id);
    expect(a.id).toBe(id);
    expect(a.latest_jobs.length).toBe(5);
    expect(a.total_jobs).toBeGreaterThan(5);
    expect(a.latest_jobs.map((j) => j.id)).toEqual([...a.latest_jobs.map((j) => j.id)].sort((x, y) => y - x));
    expect(a.tags.filter((t) => t.tagType === 'dimensions')).toHaveLength(6);
    expect(a.tags.some((t) => t.tagType === 'mitre_attack')).toBe(true);
    expect(a.date_created).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(a.auth_token).toBeTruthy();
    expect(a.brt_license).toBe('VIGIL-COMMUNITY');
    expect(a.userPermissions).toEqual({ edit: false, approve: false, endpointApproval: false, cloudApproval: false });
    expect(a.simulations.length).toBeGreaterThan(0);
    expect(a.detection_alerts.length).toBeGreaterThan(0);
    const byVid = await s.call('GET', `/manage_sims/v2/actions/detail.json?vid=${a.vid.toLowerCase()}`, { as: viewer });
    expect(byVid.json<{ action: ActionLibraryDetail }>().action.id).toBe(id);
  });

  it('ACT-029 each latest job summary has id, created_at, status and the user\'s first_name and last_name', async () => {
    const id = await idOf(`id in (select ja.action_id from job_actions ja join jobs j on j.id = ja.job_id where j.user_id is not null)`);
    const a = await detail(viewer, id);
    const withUser = a.latest_jobs.find((j) => j.user !== null);
    expect(withUser).toBeDefined();
    expect(withUser).toMatchObject({ id: expect.any(Number), created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), status: expect.any(String) });
    expect(Object.keys(withUser!.user!).sort()).toEqual(['first_name', 'last_name']);
    expect(withUser!.user!.first_name).toBeTruthy();
  });

  it('shows a job without a user as a null user (the panel shows Scheduled Process)', async () => {
    const [row] = await s.db.query<{ action_id: number; job_id: number }>(
      `select ja.action_id, max(ja.job_id) as job_id from job_actions ja where ja.action_id is not null group by ja.action_id order by ja.action_id limit 1`,
    );
    await s.db.query('update jobs set user_id = null where id = $1', [row!.job_id]);
    const a = await detail(viewer, row!.action_id);
    expect(a.latest_jobs[0]).toMatchObject({ id: row!.job_id, user: null });
    const latest = await s.call('GET', `/manage_sims/v2/actions/latest_jobs.json?id=${row!.action_id}`, { as: viewer, headers: { 'x-background-task': 'true' } });
    expect(latest.json<{ latest_jobs: { id: number }[] }>().latest_jobs[0]?.id).toBe(row!.job_id);
  });

  it('refuses unknown ids and bad input', async () => {
    expect((await s.call('GET', '/manage_sims/v2/actions/detail.json?id=999999', { as: viewer })).statusCode).toBe(404);
    expect((await s.call('GET', '/manage_sims/v2/actions/detail.json?vid=A999-999', { as: viewer })).statusCode).toBe(404);
    const bad = await s.call('GET', '/manage_sims/v2/actions/detail.json?vid=DROP TABLE', { as: viewer });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: string }>().error).toMatch(/vid must be/);
    expect((await s.call('GET', '/manage_sims/v2/actions/detail.json', { as: viewer })).statusCode).toBe(400);
    expect((await s.call('GET', '/manage_sims/v2/actions/latest_jobs.json?id=x', { as: viewer })).statusCode).toBe(400);
  });
});

describe('ACT-093 ACT-044..ACT-051 the preview (GET /library/actions.json)', () => {
  it('answers data.preview_props with the type-specific detail for every type', async () => {
    for (const type of ACTION_TYPES) {
      const id = await idOf('action_type = $1 and not disabled and not decommissioned', [type]);
      const res = await s.call('GET', `/library/actions.json?id=${id}`, { as: approver });
      expect(res.statusCode, `${type}: ${res.body}`).toBe(200);
      const p = res.json<PreviewAnswer>().data.preview_props;
      expect(p.action_type).toBe(type);
      expect(p.userPermissions).toEqual({ approve: true, endpointApproval: true, cloudApproval: true });
      if (type === 'sleep') {
        expect(p.detection_alerts).toEqual([]);
        expect(p.simulations).toEqual([]);
        expect(p.verodin_signatures).toEqual([]);
      }
      if (p.action_type === 'dns') expect(typeof p.detail.domain_server).toBe('string');
      if (p.action_type === 'host_cli') expect(p.detail.commands.commands.length).toBeGreaterThan(0);
      if (p.action_type === 'pcap') expect(p.detail.file.sim_id).toBe(id);
      if (p.action_type === 'file_transfer') expect(p.detail.sha256sum).toMatch(/^[0-9a-f]{64}$/);
      if (p.action_type === 'cloud') expect(p.detail.scripts.length).toBeGreaterThan(0);
      if (p.action_type === 'web_request') expect(p.detail.host).toBeTruthy();
    }
  });

  it('ACT-044 names the DNS server of a dns Action by name and address, and leaves it empty (Default) when none is set', async () => {
    const id = await idOf(`action_type = 'dns' and not disabled and not decommissioned`);
    const serverOf = async () => {
      const p = (await s.call('GET', `/library/actions.json?id=${id}`, { as: viewer })).json<PreviewAnswer>().data.preview_props;
      if (p.action_type !== 'dns') throw new Error(`expected a dns Action, got ${p.action_type}`);
      return p.detail.domain_server;
    };
    await s.db.query(`update actions set details = jsonb_set(details, '{dns_server_id}', '2'::jsonb) where id = $1`, [id]);
    expect(await serverOf()).toBe('Google Public DNS (8.8.8.8)');
    await s.db.query(`update actions set details = jsonb_set(details, '{dns_server_id}', 'null'::jsonb) where id = $1`, [id]);
    expect(await serverOf()).toBe('');
  });

  it('ACT-045 says a pcap Action has HTTP traffic from its capture\'s conversations, not from its file name', async () => {
    const [a] = await s.db.query<{ id: number }>(
      `insert into actions (vid, name, description, action_type, details) values ('A009-201', 'HTTP beacon replay', 'x', 'pcap', '{"file": "http_beacon.pcap"}') returning id`,
    );
    const id = a!.id;
    const httpOf = async () => {
      const p = (await s.call('GET', `/library/actions.json?id=${id}`, { as: viewer })).json<PreviewAnswer>().data.preview_props;
      if (p.action_type !== 'pcap') throw new Error(`expected a pcap Action, got ${p.action_type}`);
      return p.detail.has_http_traffic;
    };
    expect(await httpOf()).toBe(false);
    const [u] = await s.db.query<{ id: number }>(`insert into pcap_uploads (orig_filename, status, action_id) values ('beacon.pcap', 'Completed', $1) returning id`, [id]);
    const conversation = (index: number, service: string, port: number) =>
      s.db.query(
        `insert into pcap_conversations (upload_id, conv_index, timestamp, source_address, dest_address, protocol, service, source_port, dest_port, data_size,
                                         frames_a_to_b, bytes_a_to_b, frames_b_to_a, bytes_b_to_a, rel_start, duration, orig_source_address, orig_dest_address)
         values ($1, $2, '2026-11-20T12:00:00.000000000Z', '10.0.0.1', '10.0.0.2', 'tcp', $3, 50000, $4, 100, 1, 50, 1, 50, 0, 0.1, '10.0.0.1', '10.0.0.2')`,
        [u!.id, index, service, port],
      );
    await conversation(0, 'https', 443);
    expect(await httpOf()).toBe(false);
    await conversation(1, 'http', 80);
    expect(await httpOf()).toBe(true);
  });

  it('ACT-031 ACT-030 the preview Action has the spec fields; its alerts and simulations too', async () => {
    const id = await idOf(`action_type = 'dns' and not disabled and not decommissioned and id in (select action_id from simulation_step_actions) and id in (select action_id from detection_alerts)`);
    const p = (await s.call('GET', `/library/actions.json?id=${id}`, { as: approver })).json<PreviewAnswer>().data.preview_props;
    expect(Object.keys(p)).toEqual(
      expect.arrayContaining(['id', 'vid', 'action_type', 'approved', 'detail', 'detection_alerts', 'event_filter_rules', 'require_protected', 'simulations', 'verodin_signatures', 'userPermissions', 'sim_name']),
    );
    expect(Object.keys(p.userPermissions).sort()).toEqual(['approve', 'cloudApproval', 'endpointApproval']);
    expect(p.simulations.length).toBeGreaterThan(0);
    for (const sim of p.simulations) expect(Object.keys(sim).sort()).toEqual(['created_at', 'id', 'name', 'simulation_type', 'vid']);
    expect(p.detection_alerts.length).toBeGreaterThan(0);
    for (const alert of p.detection_alerts) expect(Object.keys(alert).sort()).toEqual(['message', 'source', 'source_identifier']);
  });

  it('ACT-046 ACT-047 ACT-048 ACT-050 the preview detail of host_cli, pcap, port_scan, socket, website and cloud has the spec fields', async () => {
    const detailOf = async (type: string) => {
      const id = await idOf('action_type = $1 and not disabled and not decommissioned', [type]);
      const p = (await s.call('GET', `/library/actions.json?id=${id}`, { as: viewer })).json<PreviewAnswer>().data.preview_props;
      expect(p.action_type).toBe(type);
      return { id, detail: p.detail as unknown as Record<string, Record<string, unknown> & Record<string, unknown>[]> };
    };
    const keys = (o: unknown) => Object.keys(o as object);
    const host = (await detailOf('host_cli')).detail;
    expect(keys(host.commands)).toEqual(expect.arrayContaining(['shell_type', 'commands', 'cleanup']));
    const commands = host.commands!.commands as { command: string; conditions: string[] }[];
    expect(commands.length).toBeGreaterThan(0);
    for (const c of commands) expect(c).toMatchObject({ command: expect.any(String), conditions: expect.any(Array) });
    expect(keys(host.files)).toEqual(
      expect.arrayContaining(['file_list', 'automatic_file_cleanup', 'delivery_wait_time', 'delivery_failed_result', 'destination_exists_result']),
    );
    const pcap = await detailOf('pcap');
    expect(keys(pcap.detail)).toEqual(expect.arrayContaining(['file', 'has_hex', 'has_http_traffic']));
    expect(pcap.detail.file).toMatchObject({ sim_id: pcap.id });
    expect(keys(pcap.detail.file)).toContain('preview_link');
    expect(keys((await detailOf('port_scan')).detail).sort()).toEqual(['ports_list', 'randomize_scan', 'sleep_timer']);
    const socket = (await detailOf('socket')).detail;
    expect(socket.steps!.length).toBeGreaterThan(0);
    for (const step of socket.steps as unknown as object[]) expect(keys(step)).toEqual(expect.arrayContaining(['request', 'response']));
    const website = (await detailOf('website')).detail;
    expect(typeof website.use_https).toBe('boolean');
    for (const step of website.steps as unknown as object[]) {
      expect(keys(step).sort()).toEqual(['req_headers', 'request', 'request_body', 'resp_code', 'resp_headers', 'response']);
    }
    const cloud = (await detailOf('cloud')).detail;
    expect(keys(cloud)).toEqual(expect.arrayContaining(['inputs', 'outputs', 'files', 'scripts', 'logs']));
    expect(keys(cloud.files)).toEqual(['file_list']);
    for (const f of cloud.files!.file_list as unknown as object[]) expect(keys(f)).toEqual(expect.arrayContaining(['orig_file_name', 'variable_name', 'file_restrictions']));
    expect(cloud.scripts!.length).toBeGreaterThan(0);
    for (const sc of cloud.scripts as unknown as object[]) expect(keys(sc)).toEqual(expect.arrayContaining(['id', 'name', 'script_text']));
  });

  it('hides disabled Actions unless include_disabled, and refuses unknown ids and bad ids', async () => {
    const id = await idOf('disabled');
    expect((await s.call('GET', `/library/actions.json?id=${id}`, { as: viewer })).statusCode).toBe(404);
    expect((await s.call('GET', `/library/actions.json?id=${id}&include_disabled=true`, { as: viewer })).statusCode).toBe(200);
    expect((await s.call('GET', '/library/actions.json?id=999999', { as: viewer })).statusCode).toBe(404);
    const bad = await s.call('GET', '/library/actions.json?id=abc', { as: viewer });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: string }>().error).toMatch(/id must be a whole number/);
    expect((await s.call('GET', '/library/actions.json', { as: viewer })).statusCode).toBe(400);
  });

  it('parses host_cli commands: command, prompt/sleep/logs/timeout, conditions', () => {
    const parsed = parseHostCommands('whoami /all\n    auto 4 true 60\n    success_match S-1-5\n    error_nonzero\nnet user\n    auto 3 false\n    cleanup');
    expect(parsed).toEqual([
      { command: 'whoami /all', prompt: 'auto', sleep_seconds: 4, check_logs: true, max_timeout_seconds: 60, conditions: ['success_match S-1-5', 'error_nonzero'] },
      { command: 'net user', prompt: 'auto', sleep_seconds: 3, check_logs: false, max_timeout_seconds: null, conditions: ['cleanup'] },
    ]);
  });
});

describe('ACT-102 ACT-088 in-place edits (POST /manage_sims/actions/update_from_library.json)', () => {
  it('saves name, description and notes with the licence and auth token; bumps the version; search sees the new name', async () => {
    const id = await idOf(`vid not like 'A1%'`);
    const a = await detail(operator, id);
    expect(a.userPermissions.edit).toBe(true);
    const res = await s.call('POST', '/manage_sims/actions/update_from_library.json', {
      as: operator,
      body: { id, param_name: 'name', new_value: '  Quokka Beacon Test  ', brt_license: a.brt_license, auth_token: a.auth_token },
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json<UpdateFromLibraryAnswer>().data;
    expect(data).toMatchObject({ id, param_name: 'name', value: 'Quokka Beacon Test', version: a.version + 1 });
    expect((await list(viewer, 'search=quokka')).actions.map((x) => x.id)).toEqual([id]);
    // The answer's token allows the next edit; the old one is stale.
    const notes = await s.call('POST', '/manage_sims/actions/update_from_library.json', {
      as: operator,
      form: true,
      body: { id, param_name: 'notes', new_value: 'Checked on Tuesday', brt_license: a.brt_license, auth_token: data.auth_token },
    });
    expect(notes.statusCode, notes.body).toBe(200);
    const stale = await s.call('POST', '/manage_sims/actions/update_from_library.json', {
      as: operator,
      body: { id, param_name: 'description', new_value: 'New text', brt_license: a.brt_license, auth_token: a.auth_token },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json<{ error: string }>().error).toBe(LIBRARY_MESSAGES.staleEdit);
    const after = await detail(operator, id);
    expect(after).toMatchObject({ name: 'Quokka Beacon Test', notes: 'Checked on Tuesday', version: a.version + 2 });
  });

  it('refuses a viewer, a wrong licence, a blank name, an unknown param, an unknown id, and names of vendor Actions', async () => {
    const id = await idOf(`vid not like 'A1%'`);
    const a = await detail(operator, id);
    const send = (as: Session, body: Record<string, unknown>) => s.call('POST', '/manage_sims/actions/update_from_library.json', { as, body });
    const base = { id, param_name: 'name', new_value: 'X', brt_license: a.brt_license, auth_token: a.auth_token };
    expect((await send(viewer, base)).statusCode).toBe(403);
    expect((await send(operator, { ...base, brt_license: 'PIRATE' })).statusCode).toBe(403);
    const blank = await send(operator, { ...base, new_value: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json<{ error: string }>().error).toBe("Name can't be blank");
    expect((await send(operator, { ...base, param_name: 'vid' })).statusCode).toBe(400);
    expect((await send(operator, { ...base, new_value: 42 })).statusCode).toBe(400);
    expect((await send(operator, { ...base, id: 999999 })).statusCode).toBe(404);
    expect((await send(operator, { id })).statusCode).toBe(400);
    const vendorId = await idOf(`vid like 'A1%'`);
    const v = await detail(operator, vendorId);
    const vendor = await send(operator, { id: vendorId, param_name: 'name', new_value: 'Mine now', brt_license: v.brt_license, auth_token: v.auth_token });
    expect(vendor.statusCode).toBe(403);
    expect(vendor.json<{ error: string }>().error).toBe(LIBRARY_MESSAGES.vendorEdit);
    const vendorNotes = await send(operator, { id: vendorId, param_name: 'notes', new_value: 'Ours', brt_license: v.brt_license, auth_token: v.auth_token });
    expect(vendorNotes.statusCode).toBe(200);
  });
});

describe('ACT-058 ACT-082 ACT-103 ACT-111 approval (PUT /manage_sims/actions/{id}/approve?required=)', () => {
  it('refuses an operator, then approves as an approver, records who, when and which version, and refuses twice', async () => {
    const id = await idOf(`not approved and action_type not in ('cloud', 'host_cli') and not require_protected`);
    const a = await detail(approver, id);
    const denied = await s.call('PUT', `/manage_sims/actions/${id}/approve?required=false&version=${a.version}`, { as: operator });
    expect(denied.statusCode).toBe(403);
    expect(denied.json<{ error: string }>().error).toMatch(/does not allow approving/);
    const ok = await s.call('PUT', `/manage_sims/actions/${id}/approve?required=false&version=${a.version}`, { as: approver });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json<{ data: { approved: boolean; approve_anywhere: boolean } }>().data).toMatchObject({ approved: true, approve_anywhere: true });
    const after = await detail(viewer, id);
    expect(after.approved).toBe(true);
    expect(after.version).toBe(a.version);
    expect(after.history[0]).toMatchObject({ event: 'approved_anywhere', action_version: a.version, user_email: 'approver@example.com' });
    const again = await s.call('PUT', `/manage_sims/actions/${id}/approve?required=true&version=${a.version}`, { as: approver });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ error: string }>().error).toBe(LIBRARY_MESSAGES.alreadyApproved);
    expect((await list(viewer, `content_uuids[]=${a.vid}`)).actions[0]?.approved).toBe(true);
  });

  it('refuses an approval of a version the approver did not review', async () => {
    const id = await idOf(`not approved and action_type = 'host_cli' and not require_protected and not monitor_connections`);
    const a = await detail(approver, id);
    await s.db.query(`update actions set notes = notes || ' (edited)' where id = $1`, [id]);
    const res = await s.call('PUT', `/manage_sims/actions/${id}/approve?required=true&version=${a.version}`, { as: approver });
    expect(res.statusCode).toBe(409);
    expect(res.json<{ error: string }>().error).toBe(LIBRARY_MESSAGES.staleVersion(a.version, a.version + 1));
    const ok = await s.call('PUT', `/manage_sims/actions/${id}/approve?required=true&version=${a.version + 1}`, { as: approver });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await detail(viewer, id)).history[0]).toMatchObject({ event: 'approved_protected', action_version: a.version + 1 });
    expect((await detail(viewer, id)).require_protected).toBe(true);
  });

  it('refuses allow-anywhere for an Action that requires a Protected Theater', async () => {
    const [row] = await s.db.query<{ id: number; version: number }>(`insert into actions (vid, name, description, action_type, require_protected, details) values ('A009-101', 'Protected only', 'x', 'port_scan', true, '{}') returning id, version`);
    const res = await s.call('PUT', `/manage_sims/actions/${row!.id}/approve?required=false&version=${row!.version}`, { as: approver });
    expect(res.statusCode).toBe(422);
    expect(res.json<{ error: string }>().error).toBe(LIBRARY_MESSAGES.requiresProtected);
  });

  it('refuses bad input: missing or bad required, missing or bad version, bad id, unknown id', async () => {
    const id = await idOf('not approved');
    const missing = await s.call('PUT', `/manage_sims/actions/${id}/approve?version=1`, { as: approver });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ error: string }>().error).toMatch(/required is required/);
    expect((await s.call('PUT', `/manage_sims/actions/${id}/approve?required=maybe&version=1`, { as: approver })).statusCode).toBe(400);
    expect((await s.call('PUT', '/manage_sims/actions/abc/approve?required=true&version=1', { as: approver })).statusCode).toBe(400);
    expect((await s.call('PUT', '/manage_sims/actions/999999/approve?required=true&version=1', { as: approver })).statusCode).toBe(404);
    expect((await s.call('PUT', `/manage_sims/actions/${id}/approve?required=true&version=1`, { as: approver, csrf: false })).statusCode).toBe(403);
  });

  it('needs the version the approver reviewed: without it nothing is approved', async () => {
    const id = await idOf('not approved');
    const noVersion = await s.call('PUT', `/manage_sims/actions/${id}/approve?required=true`, { as: approver });
    expect(noVersion.statusCode).toBe(400);
    expect(noVersion.json<{ error: string }>().error).toMatch(/version is required/);
    const badVersion = await s.call('PUT', `/manage_sims/actions/${id}/approve?required=true&version=x`, { as: approver });
    expect(badVersion.statusCode).toBe(400);
    expect(badVersion.json<{ error: string }>().error).toMatch(/version must be a whole number/);
    expect((await detail(viewer, id)).approved).toBe(false);
  });
});

describe('ACT-057 ACT-060 ACT-061 cloud Actions and their pending files', () => {
  it('keeps a cloud Action with a pending file from approval until the file is decided; approves it with plain Approve', async () => {
    const id = await idOf(`action_type = 'cloud' and not approved and exists (select 1 from action_files af join file_library f on f.id = af.file_id where af.action_id = actions.id and f.file_restrictions = 'pending_approval')`);
    const preview = (await s.call('GET', `/library/actions.json?id=${id}`, { as: approver })).json<PreviewAnswer>().data.preview_props;
    expect(preview.eligible_for_approval).toBe(false);
    expect(preview.ineligible_reason).toBe(LIBRARY_MESSAGES.pendingFile);
    const blocked = await s.call('PUT', `/manage_sims/actions/${id}/approve?required=false&version=${preview.version}`, { as: approver });
    expect(blocked.statusCode).toBe(422);
    expect(blocked.json<{ error: string }>().error).toBe(LIBRARY_MESSAGES.pendingFile);
    expect((await s.call('PUT', `/manage_sims/actions/${id}/approve?required=true&version=${preview.version}`, { as: approver })).json<{ error: string }>().error).toBe(LIBRARY_MESSAGES.cloudRequired);
    const file = preview.files.find((f) => f.file_restrictions === 'pending_approval')!;
    expect((await s.call('PUT', `/manage_sims/actions/${id}/files/${file.id}/approve.json`, { as: operator })).statusCode).toBe(403);
    const ok = await s.call('PUT', `/manage_sims/actions/${id}/files/${file.id}/approve.json`, { as: approver });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json<{ data: { file_restrictions: string } }>().data.file_restrictions).toBe('none');
    const twice = await s.call('PUT', `/manage_sims/actions/${id}/files/${file.id}/approve.json`, { as: approver });
    expect(twice.statusCode).toBe(409);
    expect((await list(viewer, `status=pending_files&content_uuids[]=${preview.vid}`)).total_count).toBe(0);
    const approved = await s.call('PUT', `/manage_sims/actions/${id}/approve?required=false&version=${preview.version}`, { as: approver });
    expect(approved.statusCode, approved.body).toBe(200);
    const events = (await detail(viewer, id)).history.map((e) => e.event);
    expect(events).toEqual(['approved', 'file_approved']);
  });

  it('ACT-089 refuses an operator restricting or removing a pending file, and the file stays pending', async () => {
    const id = await idOf(`action_type = 'cloud' and not approved and exists (select 1 from action_files af join file_library f on f.id = af.file_id where af.action_id = actions.id and f.file_restrictions = 'pending_approval')`);
    const preview = (await s.call('GET', `/library/actions.json?id=${id}`, { as: approver })).json<PreviewAnswer>().data.preview_props;
    const file = preview.files.find((f) => f.file_restrictions === 'pending_approval')!;
    const restrict = await s.call('PUT', `/manage_sims/actions/${id}/files/${file.id}/restrict.json`, { as: operator });
    expect(restrict.statusCode).toBe(403);
    expect(restrict.json<{ error: string }>().error).toMatch(/does not allow/);
    const remove = await s.call('DELETE', `/manage_sims/actions/${id}/files/${file.id}.json`, { as: operator });
    expect(remove.statusCode).toBe(403);
    expect(remove.json<{ error: string }>().error).toMatch(/does not allow/);
    const after = (await s.call('GET', `/library/actions.json?id=${id}`, { as: approver })).json<PreviewAnswer>().data.preview_props;
    expect(after.files.find((f) => f.id === file.id)?.file_restrictions).toBe('pending_approval');
    expect(after.version).toBe(preview.version);
  });

  it('makes a cloud Action ineligible when its file is restricted as malicious; removing a file keeps it in the library', async () => {
    const id = await idOf(`action_type = 'cloud' and not approved and exists (select 1 from action_files af join file_library f on f.id = af.file_id where af.action_id = actions.id and f.file_restrictions = 'pending_approval')`);
    const preview = (await s.call('GET', `/library/actions.json?id=${id}`, { as: approver })).json<PreviewAnswer>().data.preview_props;
    const file = preview.files.find((f) => f.file_restrictions === 'pending_approval')!;
    const restricted = await s.call('PUT', `/manage_sims/actions/${id}/files/${file.id}/restrict.json`, { as: approver });
    expect(restricted.statusCode, restricted.body).toBe(200);
    const p2 = (await s.call('GET', `/library/actions.json?id=${id}`, { as: approver })).json<PreviewAnswer>().data.preview_props;
    expect(p2.ineligible_reason).toBe(LIBRARY_MESSAGES.maliciousIneligible);
    const refused = await s.call('PUT', `/manage_sims/actions/${id}/approve?required=false&version=${p2.version}`, { as: approver });
    expect(refused.statusCode).toBe(422);
    expect(refused.json<{ error: string }>().error).toBe(LIBRARY_MESSAGES.maliciousIneligible);
    expect((await list(viewer, `status=malicious_files&content_uuids[]=${preview.vid}`)).total_count).toBe(1);
    // Put a fresh pending file on it, then remove it from the Action.
    const [f] = await s.db.query<{ id: number }>(`insert into file_library (orig_file_name, sha256sum) values ('gcp_probe.py', repeat('a', 64)) returning id`);
    await s.db.query('insert into action_files (action_id, file_id, position, variable_name) values ($1, $2, 9, $3)', [id, f!.id, 'probe']);
    const removed = await s.call('DELETE', `/manage_sims/actions/${id}/files/${f!.id}.json`, { as: approver });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json<{ data: { attached: boolean; version: number } }>().data).toMatchObject({ attached: false, version: preview.version + 1 });
    expect((await s.db.query('select id from file_library where id = $1', [f!.id])).length).toBe(1);
    expect((await s.call('DELETE', `/manage_sims/actions/${id}/files/${f!.id}.json`, { as: approver })).statusCode).toBe(404);
    expect((await s.call('PUT', `/manage_sims/actions/${id}/files/abc/approve.json`, { as: approver })).statusCode).toBe(400);
  });
});

describe('ACT-059 ACT-104 ACT-111 rejection (DELETE /manage_sims/actions/{id}.json)', () => {
  it('refuses an operator with base, rejects as an approver, and the Action is gone', async () => {
    const id = await idOf(`not approved and action_type <> 'cloud'`);
    const denied = await s.call('DELETE', `/manage_sims/actions/${id}.json`, { as: operator });
    expect(denied.statusCode).toBe(403);
    expect(denied.json<{ base: string }>().base).toMatch(/does not allow rejecting/);
    const { vid } = await detail(viewer, id);
    const res = await s.call('DELETE', `/manage_sims/actions/${id}.json`, { as: approver });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ data: { deleted: boolean; removed_from: string[] } }>().data.deleted).toBe(true);
    expect((await s.call('GET', `/manage_sims/v2/actions/detail.json?id=${id}`, { as: viewer })).statusCode).toBe(404);
    expect((await list(viewer, `search=${vid}`)).total_count).toBe(0);
    const [event] = await s.db.query<{ event: string; action_vid: string; user_email: string }>('select event, action_vid, user_email from action_approval_events where action_vid = $1', [vid]);
    expect(event).toEqual({ event: 'rejected', action_vid: vid, user_email: 'approver@example.com' });
  });

  it('refuses approved Actions, unknown ids and bad ids, with base', async () => {
    const approvedId = await idOf('approved');
    const res = await s.call('DELETE', `/manage_sims/actions/${approvedId}.json`, { as: admin });
    expect(res.statusCode).toBe(409);
    expect(res.json<{ base: string }>().base).toBe(LIBRARY_MESSAGES.rejectApproved);
    const unknown = await s.call('DELETE', '/manage_sims/actions/999999.json', { as: admin });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<{ base: string }>().base).toMatch(/not found/);
    const bad = await s.call('DELETE', '/manage_sims/actions/abc.json', { as: admin });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ base: string }>().base).toMatch(/id must be a whole number/);
  });
});

describe('ACT-105 PCAP download (GET /manage_sims/actions/download/{sim_id})', () => {
  it('sends a stored capture, says when it is not stored, and refuses other Actions', async () => {
    const id = await idOf(`action_type = 'pcap'`);
    const missing = await s.call('GET', `/manage_sims/actions/download/${id}`, { as: viewer });
    expect(missing.statusCode).toBe(404);
    expect(missing.json<{ error: string }>().error).toMatch(/is not stored on this director/);
    const [{ file } = { file: '' }] = await s.db.query<{ file: string }>(`select details->>'file' as file from actions where id = $1`, [id]);
    await s.db.query(`insert into file_library (orig_file_name, sha256sum, content) values ($1, repeat('b', 64), $2)`, [file, new Uint8Array([0xd4, 0xc3, 0xb2, 0xa1])]);
    const ok = await s.call('GET', `/manage_sims/actions/download/${id}.pcap`, { as: viewer, headers: { accept: 'text/html' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-disposition']).toBe(`attachment; filename="${file}"`);
    expect([...ok.rawPayload]).toEqual([0xd4, 0xc3, 0xb2, 0xa1]);
    expect((await s.call('GET', `/manage_sims/actions/download/${await idOf(`action_type = 'dns'`)}`, { as: viewer })).statusCode).toBe(404);
    expect((await s.call('GET', '/manage_sims/actions/download/x', { as: viewer })).statusCode).toBe(400);
    expect((await s.call('GET', `/manage_sims/actions/download/${id}`)).statusCode).toBe(401);
  });
});
