import { describe, expect, it } from 'vitest';
import type { SimulationPreviewAnswer, VidAndIdAnswer } from '@/api/contracts/simulations';
import { useTestServer } from './helpers';

const s = useTestServer({
  prepare: async (t) => {
    await t.db.query(
      `insert into actions (id, vid, name, action_type, approved, disabled) values
         (901, 'A900-001', 'Resolve a C2 domain', 'dns', true, false),
         (902, 'A900-002', 'Scan ports', 'port_scan', true, false),
         (903, 'A900-003', 'Run whoami', 'host_cli', true, true)`,
    );
    await t.db.query(`insert into simulations (id, vid, name, description, simulation_type) values (701, 'S900-001', 'C2 Sequence', 'Talks to C2', 'sequence'), (702, 'S900-002', 'Empty Eval', '', 'eval')`);
    await t.db.query(`insert into simulation_steps (id, simulation_id, position, name) values (801, 701, 2, 'Second'), (802, 701, 1, 'First'), (803, 701, 3, 'Nothing'), (804, 701, 4, 'Disabled only')`);
    await t.db.query(`insert into simulation_step_actions (step_id, action_id, position) values (802, 902, 2), (802, 901, 1), (801, 902, 1), (804, 903, 1)`);
    await t.db.query(`insert into tags (id, name, tag_type, class_name) values (601, 'C2', 'user', 'user')`);
    await t.db.query('insert into simulation_tags (simulation_id, tag_id) values (701, 601)');
    await t.db.query(`insert into jobs (id, name, status, simulation_id) values (5001, 'C2 Sequence', 'completed', 701), (5002, 'C2 Sequence', 'running', 701)`);
  },
});
const [admin, viewer] = [s.session('admin'), s.session('viewer')];

const errorOf = (res: { json: <T>() => T }) => res.json<{ error: string }>().error;

describe('GET /library/simulations.json', () => {
  it('MON-127 JOB-043 a viewer reads data.preview_props: steps in order with their actions, flags, can_run, tags and latest runs', async () => {
    const res = await s.call('GET', '/library/simulations.json?id=701', { as: viewer });
    expect(res.statusCode, res.body).toBe(200);
    const p = res.json<SimulationPreviewAnswer>().data.preview_props;
    expect(p).toMatchObject({ id: 701, vid: 'S900-001', name: 'C2 Sequence', description: 'Talks to C2', simulation_type: 'sequence', options: { empty_steps: 1 }, total_jobs: 2, can_edit: false });
    expect(p.steps.map((x) => x.name)).toEqual(['First', 'Second', 'Nothing', 'Disabled only']);
    expect(p.steps[0]).toEqual({
      id: 802, name: 'First', dns_found: true, host_cli_found: false, cloud_validation_found: false, can_run: true,
      actions: [
        { id: 901, vid: 'A900-001', name: 'Resolve a C2 domain', action_type: 'dns', disabled: false },
        { id: 902, vid: 'A900-002', name: 'Scan ports', action_type: 'port_scan', disabled: false },
      ],
    });
    expect(p.steps[1]).toMatchObject({ dns_found: false, can_run: true });
    expect(p.steps[2]).toMatchObject({ actions: [], can_run: false });
    expect(p.steps[3]).toMatchObject({ host_cli_found: true, can_run: false });
    expect(p.tags).toEqual([{ id: 601, name: 'C2', tagType: 'user' }]);
    expect(p.latest_jobs.map((j) => j.id)).toEqual([5002, 5001]);
  });

  it('MON-047 preview_props carry simType and title: the type and the name again, for a sequence and an evaluation', async () => {
    for (const [id, simType, title] of [[701, 'sequence', 'C2 Sequence'], [702, 'eval', 'Empty Eval']] as const) {
      const res = await s.call('GET', `/library/simulations.json?id=${id}`, { as: viewer });
      expect(res.statusCode, res.body).toBe(200);
      const p = res.json<SimulationPreviewAnswer>().data.preview_props;
      expect({ id: p.id, simType: p.simType, title: p.title }).toEqual({ id, simType, title });
    }
  });

  it('MON-120 an admin gets the preview with edit rights; a VID works as well as an id', async () => {
    const res = await s.call('GET', '/library/simulations.json?vid=s900-002', { as: admin });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<SimulationPreviewAnswer>().data.preview_props).toMatchObject({ id: 702, steps: [], latest_jobs: [], total_jobs: 0, can_edit: true });
  });

  it('answers 404 for an unknown id, 400 for a bad or missing id, 401 signed out', async () => {
    const unknown = await s.call('GET', '/library/simulations.json?id=999999', { as: viewer });
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown)).toBe('Simulation 999999 was not found.');
    for (const q of ['id=abc', 'id=-1', 'id=1.5', '', 'vid=%20!', 'id=1&x=2']) {
      const bad = await s.call('GET', `/library/simulations.json?${q}`, { as: viewer });
      expect(bad.statusCode, q).toBe(400);
      expect(errorOf(bad), q).toEqual(expect.any(String));
    }
    expect((await s.call('GET', '/library/simulations.json?id=701')).statusCode).toBe(401);
  });
});

describe('POST vid_and_id', () => {
  it('JOB-092 /simulations/vid_and_id turns an id into its vid and a vid into its id', async () => {
    const byId = await s.call('POST', '/simulations/vid_and_id', { as: viewer, body: { id: 701, type: 'id' } });
    expect(byId.statusCode, byId.body).toBe(200);
    expect(byId.json<VidAndIdAnswer>()).toEqual({ vid: 'S900-001', id: 701 });
    const byVid = await s.call('POST', '/simulations/vid_and_id', { as: viewer, body: { id: 'S900-002', type: 'vid' } });
    expect(byVid.json<VidAndIdAnswer>()).toEqual({ vid: 'S900-002', id: 702 });
  });

  it('JOB-092 /manage_sims/actions/vid_and_id does the same for Actions', async () => {
    const byId = await s.call('POST', '/manage_sims/actions/vid_and_id', { as: viewer, body: { id: '902', type: 'id' } });
    expect(byId.json<VidAndIdAnswer>()).toEqual({ vid: 'A900-002', id: 902 });
    const byVid = await s.call('POST', '/manage_sims/actions/vid_and_id', { as: admin, body: { id: 'a900-001', type: 'vid' } });
    expect(byVid.json<VidAndIdAnswer>()).toEqual({ vid: 'A900-001', id: 901 });
  });

  it('answers 400 for bad input, 404 for unknown ones, 422/403 without CSRF, 401 signed out', async () => {
    for (const body of [{}, { id: 701 }, { type: 'id' }, { id: 701, type: 'name' }, { id: 'x y', type: 'vid' }, { id: -3, type: 'id' }, { id: 701, type: 'id', more: 1 }]) {
      const res = await s.call('POST', '/simulations/vid_and_id', { as: viewer, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorOf(res)).toEqual(expect.any(String));
    }
    const unknown = await s.call('POST', '/manage_sims/actions/vid_and_id', { as: viewer, body: { id: 'A999-999', type: 'vid' } });
    expect(unknown.statusCode).toBe(404);
    expect(errorOf(unknown)).toBe('Action A999-999 was not found.');
    const noSim = await s.call('POST', '/simulations/vid_and_id', { as: viewer, body: { id: 99999, type: 'id' } });
    expect(noSim.statusCode).toBe(404);
    const noCsrf = await s.call('POST', '/simulations/vid_and_id', { as: viewer, body: { id: 701, type: 'id' }, csrf: false });
    expect(noCsrf.statusCode).toBeGreaterThanOrEqual(400);
    expect(noCsrf.statusCode).toBeLessThan(500);
    expect((await s.call('POST', '/simulations/vid_and_id', { body: { id: 701, type: 'id' } })).statusCode).toBeGreaterThanOrEqual(400);
  });
});
