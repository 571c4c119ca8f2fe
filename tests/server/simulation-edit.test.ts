/** Editing and cloning simulations (issue 19): PUT /simulations/{id}.json and POST /simulations/{id}/clone.json. */
import { describe, expect, it } from 'vitest';
import type { SimulationPreview, SimulationPreviewAnswer } from '@/api/contracts/simulations';
import type { CreateSimulationAnswer, EditSimulationAnswer } from '@/api/contracts/simulation-draft';
import { useTestServer } from './helpers';

const s = useTestServer({
  prepare: async (t) => {
    await t.db.query(
      `insert into actions (id, vid, name, action_type, approved, disabled) values
         (921, 'A921-001', 'Resolve a C2 domain', 'dns', true, false),
         (922, 'A921-002', 'Scan ports', 'port_scan', true, false),
         (923, 'A921-003', 'Beacon over HTTP', 'socket', true, false)`,
    );
  },
});
const [admin, operator, viewer] = [s.session('admin'), s.session('operator'), s.session('viewer')];

const errorOf = (res: { json: <T>() => T }) => res.json<{ error: string }>().error;
const base = { sim_type: 'sequence', sim_name: 'Edit me', sim_desc: 'A sequence to edit.', steps: [[922], [921]], step_names: ['Scan', 'Resolve'] };

async function create(): Promise<CreateSimulationAnswer> {
  const res = await s.call('POST', '/simulations.json', { as: admin, body: base });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<CreateSimulationAnswer>();
}
async function preview(id: number): Promise<SimulationPreview> {
  const res = await s.call('GET', `/library/simulations.json?id=${id}`, { as: viewer });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<SimulationPreviewAnswer>().data.preview_props;
}
const shape = (p: SimulationPreview) => p.steps.map((st) => [st.name, st.actions.map((a) => a.id)]);

describe('PUT /simulations/{id}.json', () => {
  it('MON-047 the preview carries version, simType and title', async () => {
    const { id } = await create();
    const p = await preview(id);
    expect(p).toMatchObject({ id, version: 1, simType: 'sequence', title: 'Edit me' });
  });

  it('JOB-024 Edit: edits name, description, type and regrouped steps, and raises the version', async () => {
    const { id, vid } = await create();
    const res = await s.call('PUT', `/simulations/${id}.json`, {
      as: admin,
      body: { version: 1, sim_type: 'eval', sim_name: 'Edited', sim_desc: 'Now an evaluation.', steps: [[921, 922], [923]], step_names: ['Both', 'Beacon'] },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<EditSimulationAnswer>()).toEqual({ id, vid, version: 2 });
    const p = await preview(id);
    expect(p).toMatchObject({ vid, name: 'Edited', description: 'Now an evaluation.', simulation_type: 'eval', version: 2 });
    expect(shape(p)).toEqual([['Both', [921, 922]], ['Beacon', [923]]]);
  });

  it('refuses a stale version with 409 and a clear message, and writes nothing', async () => {
    const { id, vid } = await create();
    const first = await s.call('PUT', `/simulations/${id}.json`, { as: admin, body: { ...base, version: 1, sim_name: 'First writer' } });
    expect(first.statusCode, first.body).toBe(200);
    const stale = await s.call('PUT', `/simulations/${id}.json`, { as: operator, body: { ...base, version: 1, sim_name: 'Second writer', steps: [[923], [921]] } });
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale)).toBe(`${vid} was changed by someone else since you opened it (your version 1, now 2). Nothing was saved: reload it to see their changes (your edits are kept until you do).`);
    const p = await preview(id);
    expect(p.name).toBe('First writer');
    expect(shape(p)).toEqual([['Scan', [922]], ['Resolve', [921]]]);
  });

  it('answers 400/404 with messages for bad input and writes nothing', async () => {
    const { id } = await create();
    const cases: [string, unknown, number, RegExp][] = [
      [`/simulations/${id}.json`, { ...base }, 400, /version is required/],
      [`/simulations/${id}.json`, { ...base, version: 'x' }, 400, /version must be a whole number/],
      [`/simulations/${id}.json`, { ...base, version: 1, sim_name: ' ' }, 400, /sim_name is required/],
      [`/simulations/${id}.json`, { ...base, version: 1, steps: [[921], []] }, 400, /at least one action/],
      [`/simulations/${id}.json`, { ...base, version: 1, steps: [[921, 999999], [922]] }, 400, /do not exist: 999999/],
      [`/simulations/${id}.json`, { ...base, version: 1, steps: [[921]], step_names: ['a', 'b'] }, 400, /more names than there are steps/],
      ['/simulations/abc.json', { ...base, version: 1 }, 400, /id must be a number/],
      ['/simulations/99999999999.json', { ...base, version: 1 }, 404, /No record has id 99999999999/],
      ['/simulations/999999.json', { ...base, version: 1 }, 404, /Simulation 999999 was not found/],
      [`/simulations/${id}.json`, 'not json', 400, /.+/],
    ];
    for (const [url, body, status, message] of cases) {
      const res = await s.call('PUT', url, { as: admin, body });
      expect(res.statusCode, `${url} ${JSON.stringify(body)} ${res.body}`).toBe(status);
      expect(errorOf(res)).toMatch(message);
    }
    const p = await preview(id);
    expect(p).toMatchObject({ name: 'Edit me', version: 1 });
  });

  it('JOB-080 needs simulations.edit, a session and the CSRF token', async () => {
    const { id } = await create();
    const body = { ...base, version: 1, sim_name: 'Not allowed' };
    expect((await s.call('PUT', `/simulations/${id}.json`, { as: viewer, body })).statusCode).toBe(403);
    expect((await s.call('PUT', `/simulations/${id}.json`, { body })).statusCode).toBe(403);
    expect((await s.call('PUT', `/simulations/${id}.json`, { as: admin, csrf: false, body })).statusCode).toBe(403);
    expect((await preview(id)).name).toBe('Edit me');
  });
});

describe('POST /simulations/{id}/clone.json', () => {
  it('JOB-024 Clone and Edit makes a new VID with the edited copy and the source tags; the source is unchanged', async () => {
    const { id, vid } = await create();
    const [tag] = await s.db.query<{ id: number }>(`insert into tags (name, tag_type, class_name) values ('Clone tag', 'user', 'user') returning id`);
    await s.db.query('insert into simulation_tags (simulation_id, tag_id) values ($1, $2)', [id, tag?.id]);
    const res = await s.call('POST', `/simulations/${id}/clone.json`, { as: operator, body: { ...base, version: 1, sim_name: 'Copy of Edit me' } });
    expect(res.statusCode, res.body).toBe(201);
    const copy = res.json<EditSimulationAnswer>();
    expect(copy.vid).toMatch(/^S\d{3}-\d{3}$/);
    expect(copy.vid).not.toBe(vid);
    expect(copy.version).toBe(1);
    const p = await preview(copy.id);
    expect(p.name).toBe('Copy of Edit me');
    expect(shape(p)).toEqual([['Scan', [922]], ['Resolve', [921]]]);
    expect(p.tags.map((t) => t.name)).toEqual(['Clone tag']);
    expect((await preview(id)).name).toBe('Edit me');
  });

  it('refuses a clone of a stale version (409), a viewer (403) and a missing CSRF token (403)', async () => {
    const { id } = await create();
    await s.call('PUT', `/simulations/${id}.json`, { as: admin, body: { ...base, version: 1 } });
    const [before] = await s.db.query<{ n: number }>('select count(*)::int as n from simulations');
    const stale = await s.call('POST', `/simulations/${id}/clone.json`, { as: admin, body: { ...base, version: 1 } });
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale)).toMatch(/changed by someone else/);
    expect((await s.call('POST', `/simulations/${id}/clone.json`, { as: viewer, body: { ...base, version: 2 } })).statusCode).toBe(403);
    expect((await s.call('POST', `/simulations/${id}/clone.json`, { as: admin, csrf: false, body: { ...base, version: 2 } })).statusCode).toBe(403);
    const bad = await s.call('POST', `/simulations/${id}/clone.json`, { as: admin, body: { ...base, version: 2, steps: [] } });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad)).toMatch(/at least one step/);
    const [after] = await s.db.query<{ n: number }>('select count(*)::int as n from simulations');
    expect(after?.n).toBe(before?.n);
  });
});

describe('simulation tags in the editor (issue 19)', () => {
  const tagsOf = async (id: number) => (await preview(id)).tags.map((t) => `${t.tagType}:${t.name}`).sort();

  it('an edit sets the user tags it sends (new ones made, any letter case is the same tag), keeps the other tags, and leaves them alone when user_tags is absent', async () => {
    const { id } = await create();
    const [product] = await s.db.query<{ id: number }>(`insert into tags (name, tag_type, class_name) values ('Product tag 921', 'verodin', 'verodin') returning id`);
    await s.db.query(`insert into tags (name, tag_type, class_name) values ('Existing 921', 'user', 'user')`);
    await s.db.query('insert into simulation_tags (simulation_id, tag_id) values ($1, $2)', [id, product?.id]);
    const first = await s.call('PUT', `/simulations/${id}.json`, { as: operator, body: { ...base, version: 1, user_tags: ['existing 921', 'Fresh 921'] } });
    expect(first.statusCode, first.body).toBe(200);
    expect(await tagsOf(id)).toEqual(['user:Existing 921', 'user:Fresh 921', 'verodin:Product tag 921']);
    const second = await s.call('PUT', `/simulations/${id}.json`, { as: operator, body: { ...base, version: 2, user_tags: ['Fresh 921'] } });
    expect(second.statusCode, second.body).toBe(200);
    expect(await tagsOf(id)).toEqual(['user:Fresh 921', 'verodin:Product tag 921']);
    const untouched = await s.call('PUT', `/simulations/${id}.json`, { as: operator, body: { ...base, version: 3, sim_name: 'Renamed' } });
    expect(untouched.statusCode, untouched.body).toBe(200);
    expect(await tagsOf(id)).toEqual(['user:Fresh 921', 'verodin:Product tag 921']);
    const [made] = await s.db.query<{ n: number }>("select count(*)::int as n from tags where class_name = 'user' and lower(name) = 'existing 921'");
    expect(made?.n).toBe(1);
  });

  it('a clone takes the edited user tags and the source\'s other tags; the source keeps its own; bad tags are refused with 400', async () => {
    const { id } = await create();
    await s.call('PUT', `/simulations/${id}.json`, { as: operator, body: { ...base, version: 1, user_tags: ['Source only 921'] } });
    const res = await s.call('POST', `/simulations/${id}/clone.json`, { as: operator, body: { ...base, version: 2, sim_name: 'Tagged copy', user_tags: ['Copy only 921'] } });
    expect(res.statusCode, res.body).toBe(201);
    expect(await tagsOf(res.json<EditSimulationAnswer>().id)).toEqual(['user:Copy only 921']);
    expect(await tagsOf(id)).toEqual(['user:Source only 921']);
    const empty = await s.call('PUT', `/simulations/${id}.json`, { as: operator, body: { ...base, version: 2, user_tags: ['  '] } });
    expect(empty.statusCode).toBe(400);
    expect(errorOf(empty)).toMatch(/a tag must not be empty/);
    const long = await s.call('PUT', `/simulations/${id}.json`, { as: operator, body: { ...base, version: 2, user_tags: ['x'.repeat(101)] } });
    expect(long.statusCode).toBe(400);
    expect(errorOf(long)).toMatch(/at most 100 characters/);
    expect(await tagsOf(id)).toEqual(['user:Source only 921']);
  });
});

describe('the preview\'s actor options', () => {
  it('JOB-043 cttn_attackers, cttn_targets and cttn_authorized_actors come from the topology: same zone or linked zones can talk, an isolated zone cannot, actors without a token are left out', async () => {
    const zones = await s.db.query<{ id: number }>(`insert into zones (name) values ('JOB-043 users'), ('JOB-043 servers'), ('JOB-043 island') returning id`);
    const [users, servers, island] = zones.map((z) => z.id) as [number, number, number];
    await s.db.query('insert into topology_links (id1, id2) values ($1, $2)', [`zone_${users}`, `zone_${servers}`]);
    const nodes = await s.db.query<{ id: number; name: string }>(
      `insert into nodes (name, node_type, status, token_hash, security_zone_id) values
         ('job043 a', 'endpoint', 'online', 'h043a', $1), ('job043 b', 'endpoint', 'online', 'h043b', $1),
         ('job043 c', 'endpoint', 'online', 'h043c', $2), ('job043 d', 'endpoint', 'online', 'h043d', $3),
         ('job043 no token', 'endpoint', 'pending', null, $1) returning id, name`,
      [users, servers, island],
    );
    const id = (name: string) => nodes.find((n) => n.name === name)!.id;
    const ours = new Set(nodes.map((n) => n.id));
    const { options } = await preview((await create()).id);
    const mine = (list: { id: number; name: string }[]) => list.filter((a) => ours.has(a.id)).map((a) => a.name);
    expect(mine(options.cttn_attackers)).toEqual(['job043 a', 'job043 b', 'job043 c', 'job043 d']);
    expect(mine(options.cttn_targets)).toEqual(['job043 a', 'job043 b', 'job043 c']);
    const reach = (name: string) => [...(options.cttn_authorized_actors[String(id(name))] ?? [])].filter((x) => ours.has(x)).sort((a, b) => a - b);
    expect(reach('job043 a')).toEqual([id('job043 b'), id('job043 c')]);
    expect(reach('job043 c')).toEqual([id('job043 a'), id('job043 b')]);
    expect(reach('job043 d')).toEqual([]);
    expect(options.cttn_authorized_actors[String(id('job043 no token'))]).toBeUndefined();
    expect(options.empty_steps).toBe(0);
  });
});
