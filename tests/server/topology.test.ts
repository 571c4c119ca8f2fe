import { describe, expect, it } from 'vitest';
import type { MapLayout, NetworkMap } from '@/api/contracts/topology';
import { useTestServer } from './helpers';

const s = useTestServer({
  prepare: async (t) => {
    await t.db.query(`insert into zones (id, name, cidr) values (1, 'Corporate LAN', '10.10.0.0/16'), (2, 'DMZ', '172.16.10.0/24'), (3, 'Empty', '')`);
    await t.db.query(
      `insert into nodes (id, name, node_type, os, status, security_zone_id, mgmt_address, sim_address, monitor_address, last_heartbeat_at)
       values (1, 'WS01', 'endpoint', 'Windows 11', 'online', 1, '10.10.0.11', '10.10.0.101', '', now()),
              (2, 'WEB01', 'network', 'Ubuntu 22.04', 'offline', 2, '172.16.10.12', '172.16.10.102', '172.16.10.152', null),
              (3, 'LOOSE', 'cloud', 'Amazon Linux', 'pending', null, '', '', '', null)`,
    );
    await t.db.query(
      `insert into devices (id, name, description, device_type, prevention_enabled, interfaces)
       values (1, 'Edge FW', 'Perimeter firewall', 'firewall', true, '[{"name":"eth0","ip_address":"10.10.0.1","zone_id":1},{"name":"eth1","ip_address":"172.16.10.1","zone_id":2}]')`,
    );
    await t.db.query('insert into device_zones (device_id, zone_id) values (1, 2), (1, 1)');
    await t.db.query(`insert into topology_links (id, id1, id2, compliment_id) values (1, 'device_1', 'zone_1', 2), (2, 'zone_1', 'device_1', 1), (3, 'device_1', 'zone_2', null)`);
  },
});
const [admin, viewer] = [s.session('admin'), s.session('viewer')];

const errorOf = (res: { json: <T>() => T }) => res.json<{ error: string }>().error;

describe('network map calls', () => {
  it('JOB-094 JOB-044 the map items match the database rows; a viewer reads them; signed out is 401', async () => {
    const res = await s.call('GET', '/topology/network.json', { as: viewer });
    expect(res.statusCode, res.body).toBe(200);
    const map = res.json<NetworkMap>();
    expect(map.zones).toEqual([
      { id: 1, name: 'Corporate LAN', description: '', cidr: '10.10.0.0/16', combos: ['node_1'] },
      { id: 2, name: 'DMZ', description: '', cidr: '172.16.10.0/24', combos: ['node_2'] },
      { id: 3, name: 'Empty', description: '', cidr: '', combos: [] },
    ]);
    expect(map.nodes).toEqual([
      { id: 1, name: 'WS01', node_type: 'endpoint', os: 'Windows 11', status: 'online', mgmt_address: '10.10.0.11', sim_address: '10.10.0.101', monitor_address: '', zone_id: 1, help: 'actor-endpoint.html' },
      { id: 2, name: 'WEB01', node_type: 'network', os: 'Ubuntu 22.04', status: 'offline', mgmt_address: '172.16.10.12', sim_address: '172.16.10.102', monitor_address: '172.16.10.152', zone_id: 2, help: 'actor-network.html' },
      { id: 3, name: 'LOOSE', node_type: 'cloud', os: 'Amazon Linux', status: 'pending', mgmt_address: '', sim_address: '', monitor_address: '', zone_id: null, help: 'actor-cloud.html' },
    ]);
    expect(map.devices).toEqual([
      {
        id: 1, name: 'Edge FW', device_type: 'firewall', description: 'Perimeter firewall', prevention_enabled: true, zone_ids: [1, 2], help: 'device-firewall.html',
        interfaces: [{ name: 'eth0', ip_address: '10.10.0.1', zone_id: 1 }, { name: 'eth1', ip_address: '172.16.10.1', zone_id: 2 }],
      },
    ]);
    expect(map.links).toEqual([
      { id: 1, id1: 'device_1', id2: 'zone_1', compliment_id: 2 },
      { id: 2, id1: 'zone_1', id2: 'device_1', compliment_id: 1 },
      { id: 3, id1: 'device_1', id2: 'zone_2', compliment_id: null },
    ]);
    const out = await s.call('GET', '/topology/network.json');
    expect(out.statusCode).toBe(401);
    expect(errorOf(out)).toEqual(expect.any(String));
  });

  it('JOB-110 a layout is saved and read per user; nothing saved reads as Standard', async () => {
    const none = await s.call('GET', '/topology/layout.json', { as: viewer });
    expect(none.json<MapLayout>()).toEqual({ mode: 'Standard', positions: {}, updated_at: null });
    const body = { mode: 'Tweak', positions: { node_1: { x: 10.5, y: -20 }, zone_3: { x: 0, y: 400 } } };
    const put = await s.call('PUT', '/topology/layout.json', { as: viewer, body });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json<MapLayout>()).toMatchObject(body);
    expect((await s.call('GET', '/topology/layout.json', { as: viewer })).json<MapLayout>()).toMatchObject({ ...body, updated_at: expect.any(String) });
    // Another user keeps their own.
    expect((await s.call('GET', '/topology/layout.json', { as: admin })).json<MapLayout>().mode).toBe('Standard');
    await s.call('PUT', '/topology/layout.json', { as: admin, body: { mode: 'Lens', positions: {} } });
    expect((await s.call('GET', '/topology/layout.json', { as: viewer })).json<MapLayout>().mode).toBe('Tweak');
    expect((await s.call('GET', '/topology/layout.json', { as: admin })).json<MapLayout>().mode).toBe('Lens');
  });

  it.each([
    ['an unknown mode', { mode: 'Circular', positions: {} }, /mode must be one of Standard, Organic, Sequential, Lens, Structural, Tweak/],
    ['no positions', { mode: 'Tweak' }, /positions is required/],
    ['positions as a list', { mode: 'Tweak', positions: [1, 2] }, /positions must be an object/],
    ['a key that is no map item', { mode: 'Tweak', positions: { host_1: { x: 1, y: 2 } } }, /"host_1" is not a map item/],
    ['a position that is not a number', { mode: 'Tweak', positions: { node_1: { x: '1', y: 2 } } }, /node_1: x must be a number/],
    ['a position out of bounds', { mode: 'Tweak', positions: { node_1: { x: 1, y: 2e9 } } }, /node_1: y must be at most 1000000/],
    ['a position with extra fields', { mode: 'Tweak', positions: { node_1: { x: 1, y: 2, z: 3 } } }, /node_1: A position has only x and y/],
  ])('JOB-110 saving %s answers 400 with the reason', async (_what, body, message) => {
    const res = await s.call('PUT', '/topology/layout.json', { as: viewer, body });
    expect(res.statusCode, res.body).toBe(400);
    expect(errorOf(res)).toMatch(message);
  });

  it('JOB-110 too many positions, a missing body and signing out are refused', async () => {
    const positions = Object.fromEntries(Array.from({ length: 5001 }, (_, i) => [`node_${i + 1}`, { x: i, y: i }]));
    const many = await s.call('PUT', '/topology/layout.json', { as: viewer, body: { mode: 'Tweak', positions } });
    expect(many.statusCode).toBe(400);
    expect(errorOf(many)).toMatch(/at most 5000 items/);
    const bad = await s.call('PUT', '/topology/layout.json', { as: viewer, body: '{"mode":' });
    expect(bad.statusCode).toBe(400);
    // Signed out, the CSRF check refuses the save before the session check.
    expect((await s.call('PUT', '/topology/layout.json', { body: { mode: 'Standard', positions: {} }, csrf: false })).statusCode).toBe(403);
    expect((await s.call('GET', '/topology/layout.json')).statusCode).toBe(401);
  });
});
