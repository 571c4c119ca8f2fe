/** JOB-043: the preview's cttn_* options, computed from the topology (who can talk to whom). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulationPreviewAnswer } from '@/api/contracts/simulations';
import { startTestServer, type TestServer } from './helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  // Start from an empty map: only this test's zones, devices, actors and links.
  await s.db.query('delete from topology_links');
  await s.db.query('delete from device_zones');
  await s.db.query('update nodes set token_hash = null');
});
afterAll(async () => {
  await s?.close();
});

async function id(sql: string, params: unknown[]): Promise<number> {
  const [row] = await s.db.query<{ id: number }>(`${sql} returning id`, params);
  if (!row) throw new Error('no row');
  return row.id;
}

describe('cttn_attackers, cttn_targets and cttn_authorized_actors', () => {
  it('JOB-043 actors in one zone or in zones joined through a device can talk; an isolated zone and never-connected nodes cannot; unplaced actors reach each other', async () => {
    const z1 = await id(`insert into zones (name) values ('Users r')`, []);
    const z2 = await id(`insert into zones (name) values ('Servers r')`, []);
    const z3 = await id(`insert into zones (name) values ('Island r')`, []);
    const fw = await id(`insert into devices (name, device_type) values ('Firewall r', 'firewall')`, []);
    await s.db.query('insert into topology_links (id1, id2) values ($1, $2), ($3, $4)', [`zone_${z1}`, `device_${fw}`, `device_${fw}`, `zone_${z2}`]);
    const node = (name: string, zone: number, token: boolean) =>
      id(`insert into nodes (name, node_type, security_zone_id, token_hash, status) values ($1, 'endpoint', $2, $3, 'online')`, [name, zone, token ? `hash-${name}` : null]);
    const a = await node('a-user', z1, true);
    const b = await node('b-user', z1, true);
    const c = await node('c-server', z2, true);
    const d = await node('d-island', z3, true);
    await node('e-never', z1, false);
    const f = await id(`insert into nodes (name, node_type, token_hash, status) values ('f-unplaced', 'endpoint', 'hash-f', 'online')`, []);
    const g = await id(`insert into nodes (name, node_type, token_hash, status) values ('g-unplaced', 'endpoint', 'hash-g', 'offline')`, []);
    const sim = await id(`insert into simulations (vid, name, simulation_type) values ('S990-001', 'Reach', 'sequence')`, []);
    const admin = await s.signIn('admin');
    const res = await s.call('GET', `/library/simulations.json?id=${sim}`, { as: admin });
    expect(res.statusCode, res.body).toBe(200);
    const o = res.json<SimulationPreviewAnswer>().data.preview_props.options;
    expect(o.cttn_attackers.map((x) => x.name)).toEqual(['a-user', 'b-user', 'c-server', 'd-island', 'f-unplaced', 'g-unplaced']);
    expect(o.cttn_attackers.find((x) => x.id === c)).toMatchObject({ zone_name: 'Servers r', status: 'online' });
    expect(o.cttn_targets.map((x) => x.name)).toEqual(['a-user', 'b-user', 'c-server', 'f-unplaced', 'g-unplaced']);
    const sorted = (ids: number[] | undefined) => [...(ids ?? [])].sort((x, y) => x - y);
    expect(sorted(o.cttn_authorized_actors[String(a)])).toEqual(sorted([b, c]));
    expect(sorted(o.cttn_authorized_actors[String(c)])).toEqual(sorted([a, b]));
    expect(o.cttn_authorized_actors[String(d)]).toEqual([]);
    // Actors not placed on the map share one network with each other only.
    expect(o.cttn_authorized_actors[String(f)]).toEqual([g]);
    expect(o.cttn_authorized_actors[String(g)]).toEqual([f]);
  });
});
