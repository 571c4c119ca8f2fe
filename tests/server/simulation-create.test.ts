import { describe, expect, it } from 'vitest';
import type { SimulationPreviewAnswer } from '@/api/contracts/simulations';
import type { CreateSimulationAnswer } from '@/api/contracts/simulation-draft';
import type { LibraryListAnswer } from '@/api/contracts/library';
import { useTestServer } from './helpers';

const s = useTestServer({
  prepare: async (t) => {
    await t.db.query(
      `insert into actions (id, vid, name, action_type, approved, disabled) values
         (911, 'A911-001', 'Resolve a C2 domain', 'dns', true, false),
         (912, 'A911-002', 'Scan ports', 'port_scan', true, false)`,
    );
  },
});
const [admin, viewer] = [s.session('admin'), s.session('viewer')];

const errorOf = (res: { json: <T>() => T }) => res.json<{ error: string }>().error;
const draft = {
  sim_type: 'sequence', sim_name: 'Actions tagged C2', sim_desc: 'Sequence generated from Action library selection.',
  steps: [[912], [911]], step_names: ['Scan ports', 'Resolve a C2 domain'],
};

describe('POST /simulations.json', () => {
  it('JOB-022 JOB-042 saves a draft as a new simulation that the preview and the list read back', async () => {
    const res = await s.call('POST', '/simulations.json', { as: admin, body: draft });
    expect(res.statusCode, res.body).toBe(201);
    const { id, vid } = res.json<CreateSimulationAnswer>();
    expect(vid).toMatch(/^S\d{3}-\d{3}$/);
    const preview = await s.call('GET', `/library/simulations.json?vid=${vid}`, { as: viewer });
    expect(preview.statusCode, preview.body).toBe(200);
    const p = preview.json<SimulationPreviewAnswer>().data.preview_props;
    expect(p).toMatchObject({ id, vid, name: 'Actions tagged C2', description: 'Sequence generated from Action library selection.', simulation_type: 'sequence' });
    expect(p.steps.map((x) => [x.name, x.actions.map((a) => a.id)])).toEqual([['Scan ports', [912]], ['Resolve a C2 domain', [911]]]);
    const list = await s.call('GET', '/v2/simulations/library_simulations_list?simulation_type=sequence&search=Actions%20tagged', { as: viewer });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json<LibraryListAnswer>().simulations.map((x) => x.vid)).toContain(vid);
  });

  it('JOB-042 two saves get different VIDs and an evaluation keeps its type', async () => {
    const a = await s.call('POST', '/simulations.json', { as: admin, body: { ...draft, sim_type: 'eval' } });
    const b = await s.call('POST', '/simulations.json', { as: admin, body: draft });
    expect(a.statusCode).toBe(201);
    expect(b.statusCode).toBe(201);
    expect(a.json<CreateSimulationAnswer>().vid).not.toBe(b.json<CreateSimulationAnswer>().vid);
    const [row] = await s.db.query<{ simulation_type: string }>('select simulation_type from simulations where id = $1', [a.json<CreateSimulationAnswer>().id]);
    expect(row?.simulation_type).toBe('eval');
  });

  it('answers 400 with every problem for bad drafts and writes nothing', async () => {
    const [before] = await s.db.query<{ n: number }>('select count(*)::int as n from simulations');
    const cases: [unknown, RegExp][] = [
      [{ ...draft, sim_name: '  ' }, /sim_name is required/],
      [{ ...draft, sim_name: 'x'.repeat(256) }, /at most 255/],
      [{ ...draft, sim_type: 'chain' }, /sim_type must be sequence or eval/],
      [{ ...draft, steps: [] }, /at least one step/],
      [{ ...draft, steps: [[]] }, /at least one action/],
      [{ ...draft, steps: [[911, 999999]], step_names: ['Both'] }, /do not exist: 999999/],
      [{ ...draft, step_names: ['y'.repeat(256), 'ok'] }, /step names must be at most 255/],
      [{ ...draft, steps: 'all' }, /steps/],
      ['not json', /.+/],
    ];
    for (const [body, message] of cases) {
      const res = await s.call('POST', '/simulations.json', { as: admin, body });
      expect(res.statusCode, res.body).toBe(400);
      expect(errorOf(res)).toMatch(message);
    }
    const [after] = await s.db.query<{ n: number }>('select count(*)::int as n from simulations');
    expect(after?.n).toBe(before?.n);
  });

  it('JOB-079 needs the simulation edit permission, a session and the CSRF token', async () => {
    const denied = await s.call('POST', '/simulations.json', { as: viewer, body: draft });
    expect(denied.statusCode).toBe(403);
    expect(errorOf(denied)).toBeTruthy();
    expect((await s.call('POST', '/simulations.json', { body: draft })).statusCode).toBe(403);
    expect((await s.call('POST', '/simulations.json', { as: admin, csrf: false, body: draft })).statusCode).toBe(403);
  });
});
