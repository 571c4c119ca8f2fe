/** The director's side of the security lab: integrations of the file kinds, the lab's records, the ulogd file tail. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IntegrationRow } from '@/api/contracts/integrations';
import type { LabActor, LabRemoval, LabSetupAnswer } from '@/api/contracts/lab';
import type { NetworkMap } from '@/api/contracts/topology';
import { FileSources } from '../../server/integrations/file-sources';
import { startTestServer, type Session, type TestServer } from './helpers';

let s: TestServer;
let admin: Session;
let operator: Session;
let dir: string;
beforeAll(async () => {
  s = await startTestServer();
  admin = await s.signIn('admin');
  operator = await s.signIn('operator');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-lab-director-'));
});
afterAll(async () => {
  await s?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const errorOf = (res: { json: <T>() => T }) => res.json<{ error: string }>().error;
const fixture = fs.readFileSync(path.join(__dirname, '../../server/integrations/fixtures/ulogd-lab.jsonl'), 'utf8');

describe('integrations of the file kinds', () => {
  it('JOB-089 creating an nftables/ulogd JSON integration: validated, needs actors.manage, listed, removed', async () => {
    const noPath = await s.call('POST', '/integrations.json', { as: admin, body: { name: 'fw', type: 'nftables_ulogd_json' } });
    expect(noPath.statusCode).toBe(400);
    expect(errorOf(noPath)).toContain('A file path is required for this kind');
    const badKind = await s.call('POST', '/integrations.json', { as: admin, body: { name: 'fw', type: 'syslog' } });
    expect(errorOf(badKind)).toContain('Kind must be one of webhook, suricata_eve, nftables_ulogd_json');
    expect((await s.call('POST', '/integrations.json', { as: operator, body: { name: 'fw', type: 'webhook' } })).statusCode).toBe(403);
    const made = await s.call('POST', '/integrations.json', { as: admin, body: { name: 'Edge fw', type: 'nftables_ulogd_json', source_path: '/var/log/ulog/lab.json' } });
    expect(made.statusCode, made.body).toBe(201);
    const row = made.json<IntegrationRow>();
    expect(row).toMatchObject({ name: 'Edge fw', brand_name: 'nftables/ulogd JSON', type: 'nftables_ulogd_json', source_path: '/var/log/ulog/lab.json', enabled: true });
    const list = await s.call('GET', '/integrations.json', { as: operator });
    expect(list.json<{ data: IntegrationRow[] }>().data.map((i) => i.id)).toContain(row.id);
    expect((await s.call('DELETE', `/integrations/${row.id}.json`, { as: admin })).statusCode).toBe(200);
    const again = await s.call('DELETE', `/integrations/${row.id}.json`, { as: admin });
    expect(again.statusCode).toBe(404);
    expect(errorOf(again)).toBe(`Integration ${row.id} does not exist.`);
  });

  it('the director tails an nftables/ulogd JSON file from its end and stores each logged packet as a normalized event', async () => {
    const file = path.join(dir, 'ulogd.json');
    fs.writeFileSync(file, '{"oob.prefix":"LOG:low written before the integration was seen","src_ip":"10.0.0.1"}\n');
    const made = await s.call('POST', '/integrations.json', { as: admin, body: { name: 'tail', type: 'nftables_ulogd_json', source_path: file } });
    const id = made.json<IntegrationRow>().id;
    const sources = new FileSources(s.db, () => 1000);
    await sources.poll();
    const lines = fixture.split('\n').filter(Boolean);
    // A partial last line waits for its end.
    fs.appendFileSync(file, `${lines.join('\n')}\n${lines[0]!.slice(0, 40)}`);
    await sources.poll();
    const rows = await s.db.query<{ description: string; src_ip: string; dest_port: number; proto: string; alert: boolean; suspicious: boolean; severity: string | null }>(
      'select description, src_ip, dest_port, proto, alert, suspicious, severity from integration_events where integration_id = $1 order by id',
      [id],
    );
    expect(rows.map((r) => [r.description, r.dest_port, r.proto, r.alert, r.suspicious, r.severity])).toEqual([
      ['ALERT:high web admin port reached from another zone', 8443, 'TCP', true, false, 'high'],
      ['LOG:medium FTP control channel between zones', 21, 'TCP', false, false, 'medium'],
      ['LOG:medium FTP control channel between zones', 21, 'TCP', false, false, 'medium'],
      ['LOG:low SSH from the user zone', 22, 'TCP', false, false, 'low'],
      ['ALERT:critical Telnet between zones', 23, 'TCP', true, false, 'critical'],
      ['ALERT:medium DNS to a server other than the lab resolver', 53, 'UDP', true, false, 'medium'],
    ]);
    // Disabled: no longer read.
    await s.db.query('update integrations set enabled = false where id = $1', [id]);
    fs.appendFileSync(file, `${lines[1]!.slice(40)}\n${lines[1]}\n`);
    await sources.poll();
    expect((await s.db.query('select 1 from integration_events where integration_id = $1', [id])).length).toBe(6);
  });
});

describe('the lab records in the director', () => {
  const setup = (prefix = 'vt') => ({
    prefix,
    events_path: `/run/vigil-lab/${prefix}/ulogd.json`,
    zones: [
      { name: 'user', cidr: '10.88.1.0/24', gateway: '10.88.1.1' },
      { name: 'server', cidr: '10.88.2.0/24', gateway: '10.88.2.1' },
      { name: 'dmz', cidr: '10.88.3.0/24', gateway: '10.88.3.1' },
    ],
  });

  it('only administrators set a lab up; bad input answers 400 with the reason', async () => {
    const op = await s.call('POST', '/lab/setups.json', { as: operator, body: setup() });
    expect(op.statusCode).toBe(403);
    const bad = await s.call('POST', '/lab/setups.json', { as: admin, body: { ...setup(), prefix: 'Bad Prefix', events_path: 'relative.json' } });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad)).toContain('The lab prefix is 1 to 16 lowercase letters');
    const cidr = await s.call('POST', '/lab/setups.json', { as: admin, body: { ...setup(), zones: [{ name: 'user', cidr: '10.88.1.0', gateway: '10.88.1.1' }] } });
    expect(errorOf(cidr)).toContain('A zone cidr is an IPv4 network');
  });

  it('JOB-094 JOB-044 setting up draws the zones and the firewall on the network map, puts the actors in their zones, again replaces it, and removing leaves nothing but the disabled integration', async () => {
    const first = await s.call('POST', '/lab/setups.json', { as: admin, body: setup() });
    expect(first.statusCode, first.body).toBe(201);
    const a = first.json<LabSetupAnswer>();
    expect(a.bulk_token).toMatch(/^vbt_/);
    const again = (await s.call('POST', '/lab/setups.json', { as: admin, body: setup() })).json<LabSetupAnswer>();
    expect(again.integration_id).toBe(a.integration_id);
    const [token] = await s.db.query<{ id: number }>(`select id from actor_bulk_tokens where name = 'lab:vt'`);
    expect((await s.db.query(`select 1 from actor_bulk_tokens where name = 'lab:vt'`)).length).toBe(1);
    // An actor that registered with the lab's token, at the user zone's address.
    await s.db.query(
      `insert into nodes (name, node_type, status, sim_address, token_hash, capabilities) values ('vt-user', 'endpoint', 'online', '10.88.1.10', 'x', $1::jsonb)`,
      [JSON.stringify({ types: ['socket'], addresses: ['10.88.1.10'], bulk_token_id: token!.id })],
    );
    const actors = await s.call('POST', '/lab/setups/vt/actors.json', { as: admin, body: {} });
    expect(actors.json<{ data: LabActor[] }>().data).toEqual([expect.objectContaining({ name: 'vt-user', sim_address: '10.88.1.10', zone: 'vt user' })]);

    const map = (await s.call('GET', '/topology/network.json', { as: operator })).json<NetworkMap>();
    const zones = map.zones.filter((z) => z.name.startsWith('vt '));
    expect(zones.map((z) => [z.name, z.cidr])).toEqual([['vt user', '10.88.1.0/24'], ['vt server', '10.88.2.0/24'], ['vt dmz', '10.88.3.0/24']]);
    const fw = map.devices.find((d) => d.name === 'vt firewall')!;
    expect(fw).toMatchObject({ device_type: 'firewall', prevention_enabled: true, zone_ids: zones.map((z) => z.id) });
    expect(fw.interfaces.map((i) => [i.name, i.ip_address])).toEqual([['z-user', '10.88.1.1'], ['z-server', '10.88.2.1'], ['z-dmz', '10.88.3.1']]);
    expect(map.links.filter((l) => l.id1 === `device_${fw.id}` || l.id2 === `device_${fw.id}`)).toHaveLength(6);
    const user = map.nodes.find((n) => n.name === 'vt-user')!;
    expect(zones[0]!.combos).toEqual([`node_${user.id}`]);

    const removed = await s.call('DELETE', '/lab/setups/vt.json', { as: admin });
    expect(removed.json<LabRemoval>()).toEqual({ prefix: 'vt', actors: 1, zones: 3, links: 6, devices: 1, tokens: 1 });
    const after = (await s.call('GET', '/topology/network.json', { as: operator })).json<NetworkMap>();
    expect(after.zones.filter((z) => z.name.startsWith('vt '))).toEqual([]);
    expect(after.devices.filter((d) => d.name === 'vt firewall')).toEqual([]);
    expect(after.nodes.filter((n) => n.name === 'vt-user')).toEqual([]);
    expect(await s.db.query(`select 1 from actor_bulk_tokens where name = 'lab:vt'`)).toEqual([]);
    const [integration] = await s.db.query<{ enabled: boolean }>('select enabled from integrations where id = $1', [a.integration_id]);
    expect(integration!.enabled).toBe(false);
    expect((await s.call('DELETE', '/lab/setups/vt.json', { as: admin })).json<LabRemoval>()).toMatchObject({ zones: 0, tokens: 0, actors: 0 });
    expect((await s.call('POST', '/lab/setups/vt/actors.json', { as: admin, body: {} })).statusCode).toBe(404);
  });
});
