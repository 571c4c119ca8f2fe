/**
 * Issue 20's director calls: run-as user profiles (/action_user_profiles.json), actor edit
 * (/topology/nodes/{id}.json) and the operational status (/operational_status.json). Permissions by
 * role, CSRF, bad input answered 4xx with a message, and the run-as secret never answered and stored
 * encrypted.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunAsProfile } from '@/api/contracts/run-as-profiles';
import type { NodeDetail, NodeEditOptions } from '@/api/contracts/node-edit';
import type { OperationalStatus } from '@/api/contracts/operational-status';
import type { TagChangeReply, TagOptionsAnswer } from '@/api/contracts/tags';
import { open, secretKey } from '../../server/admin/secret-box';
import { startTestServer, type Session, type TestServer } from './helpers';

const KEY = 'test key for run-as secrets';
let t: TestServer;
let admin: Session;
let operator: Session;
let viewer: Session;
beforeAll(async () => {
  vi.stubEnv('VIGIL_SECRET_KEY', KEY);
  t = await startTestServer();
  [admin, operator, viewer] = [await t.signIn('admin'), await t.signIn('operator'), await t.signIn('viewer')];
  await t.db.query(`insert into zones (id, name) values (1, 'Corporate LAN'), (2, 'DMZ')`);
  await t.db.query(
    `insert into nodes (id, name, node_type, os_base, os, node_version, status, security_zone_id, token_hash, last_heartbeat_at)
     values (1, 'WS01', 'endpoint', 'windows', 'Windows 11', '4.12.0', 'online', 1, 'hash-ws01', now()),
            (2, 'LNX01', 'endpoint', 'linux', 'Debian 12', '4.12.0', 'online', 2, 'hash-lnx01', now() - interval '1 hour')`,
  );
  await t.db.query("insert into tags (name, class_name, tag_type) values ('Finance', 'user', 'user')");
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await t?.close();
});

const errorOf = (res: { json: <T>() => T }) => res.json<{ error: string }>().error;

describe('run-as user profiles', () => {
  it('JOB-005 MON-044 an admin creates a profile with a secret: 201, the row has id, friendly_name, username and has_secret, never the secret', async () => {
    const res = await t.call('POST', '/action_user_profiles.json', { as: admin, body: { friendly_name: ' Backup operator ', username: 'backup', secret: 'S3cret-pass!' } });
    expect(res.statusCode, res.body).toBe(201);
    const { data } = res.json<{ data: RunAsProfile }>();
    expect(data).toMatchObject({ id: expect.any(Number), friendly_name: 'Backup operator', username: 'backup', has_secret: true, action_count: 0 });
    expect(res.body).not.toContain('S3cret-pass!');
    expect(Object.keys(data).sort()).toEqual(['action_count', 'created_at', 'friendly_name', 'has_secret', 'id', 'updated_at', 'username']);

    const [row] = await t.db.query<{ secret_ciphertext: string }>('select secret_ciphertext from action_user_profiles where id = $1', [data.id]);
    expect(row?.secret_ciphertext).toMatch(/^v1:/);
    expect(row?.secret_ciphertext).not.toContain('S3cret');
    expect(open(secretKey('/unused', { VIGIL_SECRET_KEY: KEY }), row!.secret_ciphertext)).toBe('S3cret-pass!');
    expect(() => open(secretKey('/unused', { VIGIL_SECRET_KEY: 'another key' }), row!.secret_ciphertext)).toThrow();

    const list = await t.call('GET', '/action_user_profiles.json', { as: viewer });
    expect(list.statusCode).toBe(200);
    expect(list.json<{ data: RunAsProfile[] }>().data.map((p) => p.friendly_name)).toContain('Backup operator');
    expect(list.body).not.toMatch(/S3cret|secret_ciphertext|v1:/);
  });

  it('refuses bad input with 400 and a message per field, and a taken friendly name with 409', async () => {
    const empty = await t.call('POST', '/action_user_profiles.json', { as: admin, body: {} });
    expect(empty.statusCode).toBe(400);
    expect(errorOf(empty)).toContain('Friendly name is required');
    expect(errorOf(empty)).toContain('Username is required');
    const bad = await t.call('POST', '/action_user_profiles.json', { as: admin, body: { friendly_name: 'x', username: 'no spaces allowed' } });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad)).toBe('Username must be an account name such as alice, CORP\\alice or alice@corp.example');
    const unknown = await t.call('POST', '/action_user_profiles.json', { as: admin, body: { friendly_name: 'x', username: 'x', password: 'y' } });
    expect(unknown.statusCode).toBe(400);
    expect(errorOf(unknown)).toBe('Unknown field: password');
    const taken = await t.call('POST', '/action_user_profiles.json', { as: admin, body: { friendly_name: 'BACKUP OPERATOR', username: 'other' } });
    expect(taken.statusCode).toBe(409);
    expect(errorOf(taken)).toBe('A run-as user profile named BACKUP OPERATOR already exists.');
    for (const username of ['.\\Administrator', 'CORP\\svc_backup', 'alice@corp.example', 'HOST$']) {
      const ok = await t.call('POST', '/action_user_profiles.json', { as: admin, body: { friendly_name: `Account ${username}`, username } });
      expect(ok.statusCode, ok.body).toBe(201);
    }
  });

  it('operators and viewers may list but not change (403); signed out is 401; a missing CSRF token is 403', async () => {
    for (const who of [operator, viewer]) {
      const res = await t.call('POST', '/action_user_profiles.json', { as: who, body: { friendly_name: 'Nope', username: 'nope' } });
      expect(res.statusCode).toBe(403);
      expect(errorOf(res)).toContain('actors.manage');
    }
    expect((await t.call('GET', '/action_user_profiles.json')).statusCode).toBe(401);
    const noCsrf = await t.call('POST', '/action_user_profiles.json', { as: admin, csrf: false, body: { friendly_name: 'Nope', username: 'nope' } });
    expect(noCsrf.statusCode).toBe(403);
    expect(await t.db.query("select 1 from action_user_profiles where friendly_name = 'Nope'")).toHaveLength(0);
  });

  it('updates names, replaces and clears the secret; an empty update and an unknown id are refused', async () => {
    const { id } = (await t.call('POST', '/action_user_profiles.json', { as: admin, body: { friendly_name: 'Web admin', username: 'www' } })).json<{ data: RunAsProfile }>().data;
    const renamed = await t.call('PATCH', `/action_user_profiles/${id}.json`, { as: admin, body: { friendly_name: 'Web server admin', secret: 'pw-1' } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<{ data: RunAsProfile }>().data).toMatchObject({ friendly_name: 'Web server admin', username: 'www', has_secret: true });
    expect(renamed.body).not.toContain('pw-1');
    const cleared = await t.call('PATCH', `/action_user_profiles/${id}.json`, { as: admin, body: { clear_secret: true } });
    expect(cleared.json<{ data: RunAsProfile }>().data.has_secret).toBe(false);
    const nothing = await t.call('PATCH', `/action_user_profiles/${id}.json`, { as: admin, body: {} });
    expect(nothing.statusCode).toBe(400);
    expect(errorOf(nothing)).toBe('Nothing to change: give friendly_name, username, secret or clear_secret.');
    const missing = await t.call('PATCH', '/action_user_profiles/999999.json', { as: admin, body: { username: 'x' } });
    expect(missing.statusCode).toBe(404);
    expect(errorOf(missing)).toBe('Run-as user profile 999999 does not exist.');
    const badId = await t.call('PATCH', '/action_user_profiles/abc.json', { as: admin, body: { username: 'x' } });
    expect(badId.statusCode).toBe(400);
  });

  it('deleting a profile an Action runs as is refused with 409 naming the Action; an unused one is deleted', async () => {
    const created = await t.call('POST', '/action_user_profiles.json', { as: admin, body: { friendly_name: 'In use', username: 'inuse' } });
    const id = created.json<{ data: RunAsProfile }>().data.id;
    await t.db.query(`insert into actions (vid, name, action_type, details) values ('A020-001', 'Whoami as inuse', 'host_cli', $1)`, [JSON.stringify({ action_user_profile_id: id })]);
    const refused = await t.call('DELETE', `/action_user_profiles/${id}.json`, { as: admin });
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused)).toBe('In use is used by 1 Action (Whoami as inuse); change them first.');
    expect((await t.call('GET', '/action_user_profiles.json', { as: admin })).json<{ data: RunAsProfile[] }>().data.find((p) => p.id === id)?.action_count).toBe(1);
    await t.db.query(`delete from actions where vid = 'A020-001'`);
    const forbidden = await t.call('DELETE', `/action_user_profiles/${id}.json`, { as: operator });
    expect(forbidden.statusCode).toBe(403);
    const done = await t.call('DELETE', `/action_user_profiles/${id}.json`, { as: admin });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ id, message: 'Run-as user profile In use was deleted.' });
    expect((await t.call('DELETE', `/action_user_profiles/${id}.json`, { as: admin })).statusCode).toBe(404);
  });
});

describe('actor edit', () => {
  it('JOB-005 MON-132 reads an actor with its reported facts, tags and the zone and tag options', async () => {
    const res = await t.call('GET', '/topology/nodes/1.json', { as: viewer });
    expect(res.statusCode, res.body).toBe(200);
    const { data, options } = res.json<{ data: NodeDetail; options: NodeEditOptions }>();
    expect(data).toMatchObject({ id: 1, name: 'WS01', node_type: 'endpoint', os_base: 'windows', os: 'Windows 11', node_version: '4.12.0', zone_name: 'Corporate LAN', registered: true, retired_at: null, user_tags: [] });
    expect(res.body).not.toContain('hash-ws01');
    expect(options.zones.map((z) => z.name)).toEqual(['Corporate LAN', 'DMZ']);
    expect(options.user_tags).toContain('Finance');
    expect((await t.call('GET', '/topology/nodes/99.json', { as: viewer })).statusCode).toBe(404);
    expect((await t.call('GET', '/topology/nodes/x.json', { as: viewer })).statusCode).toBe(400);
  });

  it('changes name, zone, type and tags (new tags created, existing reused in any case); bad input is 400 with a message', async () => {
    const res = await t.call('PATCH', '/topology/nodes/1.json', { as: admin, body: { name: 'WS01-finance', security_zone_id: 2, node_type: 'protected', user_tags: ['finance', 'Group:Desktops', 'Group:Desktops'] } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ data: NodeDetail }>().data).toMatchObject({ name: 'WS01-finance', security_zone_id: 2, zone_name: 'DMZ', node_type: 'protected', user_tags: ['Finance', 'Group:Desktops'] });
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '' }, 'Name is required'],
      [{ security_zone_id: 77 }, 'Zone 77 does not exist.'],
      [{ node_type: 'toaster' }, 'Type must be one of endpoint, protected, network, cloud, email'],
      [{ user_tags: [''] }, 'A tag must not be empty'],
      [{}, 'Nothing to change: give name, friendly_name, security_zone_id, node_type, user_tags, sandbox_node_id or retired.'],
      [{ os: 'Hacked' }, 'Unknown field: os'],
    ];
    for (const [body, message] of cases) {
      const bad = await t.call('PATCH', '/topology/nodes/1.json', { as: admin, body });
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorOf(bad)).toBe(message);
    }
    const clearZone = await t.call('PATCH', '/topology/nodes/1.json', { as: admin, body: { security_zone_id: null } });
    expect(clearZone.json<{ data: NodeDetail }>().data.security_zone_id).toBeNull();
  });

  it('MON-042 sets and clears the sandbox actor (sandbox_node_id, with its name) and answers the username the actor reported; itself, unknown or retired actors are refused with 400', async () => {
    await t.db.query(`update nodes set username = 'vigil' where id = 2`);
    const read = (await t.call('GET', '/topology/nodes/2.json', { as: viewer })).json<{ data: NodeDetail; options: NodeEditOptions }>();
    expect(read.data).toMatchObject({ username: 'vigil', sandbox_node_id: null, sandbox_name: null });
    expect(read.options.actors.map((a) => a.id)).toEqual(expect.arrayContaining([1, 2]));
    const set = await t.call('PATCH', '/topology/nodes/2.json', { as: admin, body: { sandbox_node_id: 1 } });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json<{ data: NodeDetail }>().data).toMatchObject({ sandbox_node_id: 1, sandbox_name: expect.stringMatching(/^WS01/) });
    const self = await t.call('PATCH', '/topology/nodes/2.json', { as: admin, body: { sandbox_node_id: 2 } });
    expect([self.statusCode, errorOf(self)]).toEqual([400, 'LNX01 cannot be its own sandbox.']);
    const unknown = await t.call('PATCH', '/topology/nodes/2.json', { as: admin, body: { sandbox_node_id: 999 } });
    expect([unknown.statusCode, errorOf(unknown)]).toEqual([400, 'Actor 999 does not exist.']);
    const [retired] = await t.db.query<{ id: number }>(`insert into nodes (id, name, node_type, retired_at) values (40, 'Old sandbox', 'endpoint', now()) returning id`);
    const gone = await t.call('PATCH', '/topology/nodes/2.json', { as: admin, body: { sandbox_node_id: retired!.id } });
    expect([gone.statusCode, errorOf(gone)]).toEqual([400, 'Old sandbox is retired and cannot be a sandbox.']);
    const bad = await t.call('PATCH', '/topology/nodes/2.json', { as: admin, body: { sandbox_node_id: 'abc' } });
    expect([bad.statusCode, errorOf(bad)]).toEqual([400, 'Sandbox must be an actor id']);
    const cleared = await t.call('PATCH', '/topology/nodes/2.json', { as: admin, body: { sandbox_node_id: null } });
    expect(cleared.json<{ data: NodeDetail }>().data).toMatchObject({ sandbox_node_id: null, sandbox_name: null });
    // The other tests count the actors: the retired one goes.
    await t.db.query('delete from nodes where id = 40');
  });

  it('only actors.manage may edit (403 for operator and viewer); CSRF is required', async () => {
    for (const who of [operator, viewer]) expect((await t.call('PATCH', '/topology/nodes/2.json', { as: who, body: { name: 'x' } })).statusCode).toBe(403);
    expect((await t.call('PATCH', '/topology/nodes/2.json', { as: admin, csrf: 'wrong', body: { name: 'x' } })).statusCode).toBe(403);
    expect((await t.db.query<{ name: string }>('select name from nodes where id = 2'))[0]?.name).toBe('LNX01');
  });

  it('retiring revokes the actor credential; it is refused while the actor has open work; enabling restores it', async () => {
    const retired = await t.call('PATCH', '/topology/nodes/2.json', { as: admin, body: { retired: true } });
    expect(retired.statusCode, retired.body).toBe(200);
    expect(retired.json<{ data: NodeDetail }>().data).toMatchObject({ status: 'offline', retired_at: expect.any(String) });
    const { hashSecret } = await import('../../server/engine/secrets');
    await t.db.query('update nodes set token_hash = $1 where id = 2', [hashSecret('actor-token-of-lnx01')]);
    const poll = await t.call('POST', '/api/actor/heartbeat', { headers: { authorization: 'Bearer actor-token-of-lnx01' }, body: {} });
    expect(poll.statusCode).toBe(401);
    expect(errorOf(poll)).toBe('Unknown or revoked actor credential, or the actor is retired.');

    const enabled = await t.call('PATCH', '/topology/nodes/2.json', { as: admin, body: { retired: false } });
    expect(enabled.json<{ data: NodeDetail }>().data.retired_at).toBeNull();
    expect((await t.call('POST', '/api/actor/heartbeat', { headers: { authorization: 'Bearer actor-token-of-lnx01' }, body: {} })).statusCode).not.toBe(401);

    const [job] = await t.db.query<{ id: number }>("insert into jobs (name, status) values ('busy', 'running') returning id");
    const [step] = await t.db.query<{ id: number }>("insert into job_steps (job_id, group_order) values ($1, 1) returning id", [job!.id]);
    const [ja] = await t.db.query<{ id: number }>("insert into job_actions (job_step_id, job_id, sim_action_vid, name, action_type, status) values ($1, $2, 'A1', 'a', 'sleep', 'running') returning id", [step!.id, job!.id]);
    await t.db.query("insert into engine_work (job_action_id, job_id, node_id, role, status) values ($1, $2, 2, 'source', 'claimed')", [ja!.id, job!.id]);
    const busy = await t.call('PATCH', '/topology/nodes/2.json', { as: admin, body: { retired: true } });
    expect(busy.statusCode).toBe(409);
    expect(errorOf(busy)).toBe(`LNX01 has work of job ${job!.id} in progress; cancel the job or wait for it before retiring the actor.`);
  });
});

describe('operational status', () => {
  it('MON-006 answers processes, actors by last contact, integrations, the content service and the scheduler', async () => {
    await t.db.query("insert into background_processes (user_id, kind, status, result) values (null, 'export', 'failed', 'disk full')");
    await t.db.query("insert into integrations (name, type) values ('Lab webhook', 'webhook')");
    // Last contacts set here: an earlier test's heartbeat (any call with the actor's credential) moves LNX01's.
    await t.db.query("update nodes set last_heartbeat_at = now() - (case name when 'LNX01' then interval '1 minute' else interval '0' end) where name in ('LNX01', 'WS01-finance')");
    const res = await t.call('GET', '/operational_status.json', { as: admin });
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json<OperationalStatus>();
    expect(s.actors.map((a) => a.name)).toEqual(['WS01-finance', 'LNX01']);
    expect(s.actors.find((a) => a.name === 'LNX01')?.open_work).toBe(1);
    expect(s.processes[0]).toMatchObject({ kind: 'export', status: 'failed', result: 'disk full' });
    expect(s.integrations).toEqual([expect.objectContaining({ name: 'Lab webhook', type: 'webhook', events_last_day: 0, last_event_at: null })]);
    expect(s.content_service.content_service_state).toBe('CONNECTED');
    expect(s.scheduler).toMatchObject({ open_work: 1, monitors_scheduled: 0, next_monitor: null });
    const asViewer = await t.call('GET', '/operational_status.json', { as: viewer });
    expect(asViewer.json<OperationalStatus>().processes).toEqual([]);
    expect((await t.call('GET', '/operational_status.json')).statusCode).toBe(401);
  });
});

describe('tags on Actions, actors and simulations', () => {
  it('MON-133 ACT-081 adds a tag by the form field tag (form-encoded with the token field too); the reply has status and data with user_tags, threat_actor_reference_id, name, updated_at', async () => {
    const [action] = await t.db.query<{ id: number }>(`insert into actions (vid, name, action_type) values ('A020-100', 'Tagged action', 'sleep') returning id`);
    const res = await t.call('POST', `/tags/actions/${action!.id}/add.json`, { as: operator, body: { tag: ' Group:Finance ' } });
    expect(res.statusCode, res.body).toBe(200);
    const reply = res.json<TagChangeReply>();
    expect(reply).toMatchObject({ status: 200, data: { user_tags: ['Group:Finance'], threat_actor_reference_id: null, name: 'Tagged action', updated_at: expect.any(String) } });
    const form = await t.call('POST', `/tags/actions/${action!.id}/add.json`, { as: operator, form: true, body: { tag: 'finance' } });
    expect(form.statusCode, form.body).toBe(200);
    // The existing tag Finance is reused in its own letter case; adding it again changes nothing.
    expect(form.json<TagChangeReply>().data.user_tags).toEqual(['Finance', 'Group:Finance']);
    expect((await t.call('POST', `/tags/actions/${action!.id}/add.json`, { as: operator, body: { tag: 'FINANCE' } })).json<TagChangeReply>().data.user_tags).toEqual(['Finance', 'Group:Finance']);
    const removed = await t.call('POST', `/tags/actions/${action!.id}/remove.json`, { as: operator, body: { tag: 'group:finance' } });
    expect(removed.json<TagChangeReply>().data.user_tags).toEqual(['Finance']);
  });

  it('MON-107 MON-076 refuses an empty value, a tag not there, a locked tag, an unknown kind; tags.edit and CSRF are required', async () => {
    const [sim] = await t.db.query<{ id: number }>(`insert into simulations (vid, name, simulation_type) values ('S020-1', 'Tagged sim', 'sequence') returning id`);
    const url = (op: string) => `/tags/simulations/${sim!.id}/${op}.json`;
    const empty = await t.call('POST', url('add'), { as: admin, body: { tag: '   ' } });
    expect([empty.statusCode, errorOf(empty)]).toEqual([400, 'The value must not be empty.']);
    const missing = await t.call('POST', url('remove'), { as: admin, body: { tag: 'Nope' } });
    expect([missing.statusCode, errorOf(missing)]).toEqual([404, 'Tagged sim has no tag "Nope".']);
    await t.db.query("insert into tags (name, class_name, tag_type, editable) values ('Locked', 'user', 'user', false)");
    expect((await t.call('POST', url('add'), { as: admin, body: { tag: 'Locked' } })).statusCode).toBe(200);
    const locked = await t.call('POST', url('remove'), { as: admin, body: { tag: 'Locked' } });
    expect([locked.statusCode, errorOf(locked)]).toEqual([403, 'The tag "Locked" is not editable.']);
    expect((await t.call('POST', '/tags/jobs/1/add.json', { as: admin, body: { tag: 'x' } })).statusCode).toBe(400);
    expect((await t.call('POST', '/tags/nodes/999/add.json', { as: admin, body: { tag: 'x' } })).statusCode).toBe(404);
    const asViewer = await t.call('POST', url('add'), { as: viewer, body: { tag: 'x' } });
    expect([asViewer.statusCode, errorOf(asViewer)]).toEqual([403, 'Your role (viewer) does not allow this: tags.edit.']);
    expect((await t.call('POST', url('add'), { as: admin, csrf: false, body: { tag: 'x' } })).statusCode).toBe(403);
  });

  it('MON-132 MON-112 GET /tags/options.json?tag_type&taggableType answers data[tagType]: the tags of that type with editable and how many carry them; ATT&CK product tags hidden; bad queries 400', async () => {
    await t.db.query("insert into tags (name, class_name, tag_type) values ('ATT&CK Enterprise', 'verodin', 'user'), ('Ops', 'user', 'user'), ('Windows', 'verodin', 'os')");
    const [sim] = await t.db.query<{ id: number }>(`insert into simulations (vid, name, simulation_type) values ('S020-2', 'Options sim', 'sequence') returning id`);
    expect((await t.call('POST', `/tags/simulations/${sim!.id}/add.json`, { as: admin, body: { tag: 'Ops' } })).statusCode).toBe(200);
    const res = await t.call('GET', '/tags/options.json?tag_type=user&taggableType=simulations', { as: viewer });
    expect(res.statusCode, res.body).toBe(200);
    const { data } = res.json<TagOptionsAnswer>();
    expect(Object.keys(data)).toEqual(['user']);
    const byName = new Map(data.user!.map((o) => [o.name, o]));
    expect(byName.get('Ops')).toEqual({ name: 'Ops', editable: true, count: 1 });
    expect(byName.get('Locked')).toMatchObject({ editable: false });
    expect(byName.has('ATT&CK Enterprise')).toBe(false);
    expect(byName.has('Windows')).toBe(false);
    // The same tag counted for actors instead: no actor carries Ops.
    const nodes = (await t.call('GET', '/tags/options.json?tag_type=user&taggableType=nodes', { as: viewer })).json<TagOptionsAnswer>();
    expect(nodes.data.user!.find((o) => o.name === 'Ops')!.count).toBe(0);
    expect((await t.call('GET', '/tags/options.json?tag_type=os&taggableType=actions', { as: viewer })).json<TagOptionsAnswer>().data.os!.map((o) => o.name)).toEqual(['Windows']);
    const cases: [string, string][] = [
      ['taggableType=nodes', 'tag_type is required'],
      ['tag_type=user', 'taggableType is required'],
      ['tag_type=user&taggableType=jobs', 'taggableType must be one of actions, nodes, simulations'],
      ['tag_type=DROP%20TABLE&taggableType=nodes', 'tag_type must be a tag type such as user, verodin or mitre_attack'],
      ['tag_type=user&taggableType=nodes&x=1', 'Unknown query parameter: x'],
    ];
    for (const [q, message] of cases) {
      const bad = await t.call('GET', `/tags/options.json?${q}`, { as: viewer });
      expect(bad.statusCode, q).toBe(400);
      expect(errorOf(bad)).toBe(message);
    }
    expect((await t.call('GET', '/tags/options.json?tag_type=user&taggableType=nodes')).statusCode).toBe(401);
  });
});
