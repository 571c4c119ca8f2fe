import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACTOR_API, ACTOR_NODE_FLAGS } from '@/api/contracts/engine';
import type { ActorTables, BulkTokenRow, CreatedBulkToken, InstallerOption, PendingNode, RegisterPush } from '@/api/contracts/actors';
import type { NodeDetail } from '@/api/contracts/node-edit';
import { useTestServer, type Session } from './helpers';

const s = useTestServer();
const [admin, viewer] = [s.session('admin'), s.session('viewer')];

const create = async (name: string, hours = 24) => {
  const res = await s.call('POST', '/bulk_tokens.json', { as: admin, body: { name, hours } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<CreatedBulkToken>();
};
const register = (bulk_token: string, name: string) =>
  s.call('POST', `${ACTOR_API}/register`, { csrf: false, body: { bulk_token, name, version: '1', os: 'Linux', addresses: ['127.0.0.9'], capabilities: ['sleep'] } });
const tables = async (as: Session) => (await s.call('GET', '/actors/tables.json', { as })).json<ActorTables>();
const rowOf = async (id: number, as: Session = admin): Promise<BulkTokenRow | undefined> => (await tables(as)).bulk.data.find((r) => r.id === id);
const pending = async (id: number) => (await s.call('GET', `/bulk_pending_nodes/${id}`, { as: viewer })).json<PendingNode[]>();
const errorOf = (res: { json: <T>() => T }) => res.json<{ error: string }>().error;

describe('bulk tokens: table source, pending actors, CSV, clearing', () => {
  it('MON-128 MON-043 MON-042 the table source answers bulk.data and nodes.data; a viewer reads it without Clear', async () => {
    const t = await create('Lab rollout');
    const row = await rowOf(t.id);
    expect(row).toMatchObject({ id: t.id, name: 'Lab rollout', status: 'Active', status_details: null, active_pending: 0, registered: 0, created_by: 'admin@example.com' });
    expect(row?.links).toEqual({
      pending: `/bulk_pending_nodes/${t.id}`, csv: `/csv_bulk_token/${t.id}`, delete: `/delete_bulk_token/${t.id}`,
      register_push: `/nodes/new.js?node_type=bulk&id=${t.id}`, installer: `/actor_installer/${t.id}/options.json`,
    });
    expect(row?.actions).toContain('clear');
    expect((await rowOf(t.id, viewer))?.actions).toEqual(['pending', 'download', 'installer', 'register_push']);
    const { node_id } = (await register(t.token, 'first')).json<{ node_id: number }>();
    const all = await tables(viewer);
    const node = all.nodes.data.find((n) => n.id === node_id);
    expect(node).toMatchObject({ name: 'first', node_type: 'endpoint', os_base: 'linux', status: 'online', user_tags: [], links: { edit: `/topology/nodes/${node_id}/edit` } });
    expect(Object.keys(node ?? {})).toEqual(expect.arrayContaining(['id', 'name', 'friendly_name', 'node_version', 'os_base', 'node_type', 'status', 'status_details', 'security_zone_id', 'sandbox_node_id', 'user_tags', 'active_pending', 'username', 'links']));
    expect((await s.call('GET', '/actors/tables.json')).statusCode).toBe(401);
  });

  it('JOB-046 a registered actor reads back its id, name, service version and dependency state', async () => {
    const t = await create('Service version');
    const { node_id } = (await register(t.token, 'versioned')).json<{ node_id: number }>();
    const res = await s.call('GET', `/topology/nodes/${node_id}.json`, { as: viewer });
    expect(res.statusCode, res.body).toBe(200);
    // A newly registered actor has had no dependency install yet (JOB-108: NOT_INSTALLED until one succeeds).
    expect(res.json<{ data: NodeDetail }>().data).toMatchObject({ id: node_id, name: 'versioned', msi_service_version: '1', deps_installed: false });
  });

  it('MON-129 an actor that registered and has not called in is pending; after a heartbeat it is not; offline since is a pending actor in error (Errored token)', async () => {
    const t = await create('Pending rule');
    const a = (await register(t.token, 'never-called')).json<{ node_id: number; token: string }>();
    const b = (await register(t.token, 'called-in')).json<{ node_id: number; token: string }>();
    const hb = await s.call('POST', `${ACTOR_API}/heartbeat`, { csrf: false, body: { session: 'x' }, headers: { authorization: `Bearer ${b.token}` } });
    expect(hb.statusCode, hb.body).toBe(200);
    expect(await pending(t.id)).toEqual([{ id: a.node_id, name: 'never-called', status: 'pending', status_details: null, registered_at: expect.any(String) }]);
    expect(await rowOf(t.id)).toMatchObject({ status: 'Active', active_pending: 1, registered: 2 });
    const node = (await tables(viewer)).nodes.data.find((n) => n.id === a.node_id);
    expect(node).toMatchObject({ active_pending: 1, bulk_token_id: t.id, name: 'never-called' });
    // What the engine's offline sweep writes for an actor without a heartbeat.
    await s.db.query(`update nodes set status = 'offline', status_details = 'No heartbeat since ' || last_heartbeat_at::text where id = $1`, [a.node_id]);
    const [p] = await pending(t.id);
    expect(p).toMatchObject({ id: a.node_id, status: 'offline', status_details: expect.stringMatching(/^No heartbeat since /) });
    expect(await rowOf(t.id)).toMatchObject({ status: 'Errored', status_details: '1 actor registered with this token and never called in after registering.' });
  });

  it('MON-118 MON-153 an expired token is Expired and offers no installer or Register Push', async () => {
    const t = await create('Old');
    await s.db.query(`update actor_bulk_tokens set expires_at = now() - interval '1 minute' where id = $1`, [t.id]);
    const row = await rowOf(t.id);
    expect(row).toMatchObject({ status: 'Expired', status_details: expect.stringContaining('actors cannot register with it') });
    expect(row?.actions).toEqual(['pending', 'download', 'clear']);
    const script = await s.call('GET', `/actor_installer/${t.id}/linux.sh`);
    expect(script.statusCode).toBe(409);
    expect(errorOf(script)).toBe(`Bulk token ${t.id} has expired: actors cannot register with it.`);
  });

  it('MON-003 the CSV download holds the token row and its actors, never the secret', async () => {
    const t = await create('CSV, "quoted"');
    await register(t.token, '=cmd-actor');
    const res = await s.call('GET', `/csv_bulk_token/${t.id}`, { as: viewer });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="bulk-token-${t.id}.csv"`);
    const lines = res.body.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(lines[0]).toBe('Token Id,Token Name,Token Status,Created,Expires,Actor Id,Actor Name,Actor Status,Pending,Registered,Last Heartbeat,OS,Address,Details');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(new RegExp(`^${t.id},"CSV, ""quoted""",Active,[^,]+,[^,]+,\\d+,'=cmd-actor,online,Yes,`));
    expect(res.body).not.toContain(t.token);
    const empty = await create('No actors');
    const lone = (await s.call('GET', `/csv_bulk_token/${empty.id}`, { as: viewer })).body.trimEnd().split('\r\n');
    expect(lone).toHaveLength(2);
    expect(lone[1]).toMatch(new RegExp(`^${empty.id},No actors,Active,[^,]+,[^,]+$`));
  });

  it('MON-004 MON-135 clearing a token (DELETE or POST) needs actors.manage; registering with it is refused afterwards', async () => {
    const t = await create('To clear');
    const refused = await s.call('DELETE', `/delete_bulk_token/${t.id}`, { as: viewer });
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused)).toBe('Your role (viewer) does not allow this: actors.manage.');
    const ok = await s.call('DELETE', `/delete_bulk_token/${t.id}`, { as: admin });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ id: t.id, message: 'Bulk token To clear was cleared.' });
    expect(await rowOf(t.id)).toBeUndefined();
    const reg = await register(t.token, 'late');
    expect(reg.statusCode).toBe(401);
    expect(errorOf(reg)).toBe('Unknown bulk token.');
    const again = await s.call('POST', `/delete_bulk_token/${t.id}`, { as: admin });
    expect(again.statusCode).toBe(404);
    expect(errorOf(again)).toBe(`Bulk token ${t.id} does not exist.`);
    const legacy = await create('Legacy clear');
    expect((await s.call('POST', `/delete_bulk_token/${legacy.id}`, { as: admin })).statusCode).toBe(200);
  });

  it('MON-005 MON-154 a pending actor is cleared; an actor that called in is refused with 409; viewers get 403', async () => {
    const t = await create('Destroy pending');
    const a = (await register(t.token, 'stuck')).json<{ node_id: number; token: string }>();
    const b = (await register(t.token, 'alive')).json<{ node_id: number; token: string }>();
    await s.call('POST', `${ACTOR_API}/heartbeat`, { csrf: false, body: { session: 'y' }, headers: { authorization: `Bearer ${b.token}` } });
    expect((await s.call('DELETE', `/nodes/${a.node_id}/destroy_pending.js`, { as: viewer })).statusCode).toBe(403);
    const alive = await s.call('DELETE', `/nodes/${b.node_id}/destroy_pending.js`, { as: admin });
    expect(alive.statusCode).toBe(409);
    expect(errorOf(alive)).toBe('Actor alive is not pending: only an actor that registered with a bulk token and has not called in since can be cleared.');
    const seeded = await s.db.query<{ id: number }>(`select id from nodes where not (capabilities ? 'bulk_token_id') limit 1`);
    if (seeded[0]) expect((await s.call('DELETE', `/nodes/${seeded[0].id}/destroy_pending.js`, { as: admin })).statusCode).toBe(409);
    const ok = await s.call('DELETE', `/nodes/${a.node_id}/destroy_pending.js`, { as: admin });
    expect(ok.json()).toEqual({ id: a.node_id, message: 'Pending actor stuck was cleared.' });
    expect(await pending(t.id)).toEqual([]);
    // Its credential is gone with it.
    const hb = await s.call('POST', `${ACTOR_API}/heartbeat`, { csrf: false, body: { session: 'z' }, headers: { authorization: `Bearer ${a.token}` } });
    expect(hb.statusCode).toBe(401);
  });

  it('MON-154 an actor that called in within the clock\'s resolution of registering is not pending (PGlite\'s now() counts milliseconds)', async () => {
    const t = await create('Same millisecond');
    const quick = (await register(t.token, 'quick')).json<{ node_id: number; token: string }>();
    // Its registration as late as its call-in or later, as when both fall in one millisecond of the database's clock.
    await s.db.query(`update nodes set created_at = now() + interval '1 hour', last_heartbeat_at = now() + interval '1 hour' where id = $1`, [quick.node_id]);
    const hb = await s.call('POST', `${ACTOR_API}/heartbeat`, { csrf: false, body: { session: 'q' }, headers: { authorization: `Bearer ${quick.token}` } });
    expect(hb.statusCode).toBe(200);
    expect(await pending(t.id)).toEqual([]);
    expect((await s.call('DELETE', `/nodes/${quick.node_id}/destroy_pending.js`, { as: admin })).statusCode).toBe(409);
  });

  it('creating needs actors.manage and valid input; every call refuses bad and unknown ids with a message', async () => {
    const refused = await s.call('POST', '/bulk_tokens.json', { as: viewer, body: { name: 'x' } });
    expect(refused.statusCode).toBe(403);
    const bad = await s.call('POST', '/bulk_tokens.json', { as: admin, body: { name: 'x', hours: 0 } });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad)).toBe('Hours must be at least 1');
    const unknownField = await s.call('POST', '/bulk_tokens.json', { as: admin, body: { secret: 'x' } });
    expect(unknownField.statusCode).toBe(400);
    const cases: [string, string, number, string][] = [
      ['GET', '/bulk_pending_nodes/abc', 400, '"abc" is not a bulk token id.'],
      ['GET', '/bulk_pending_nodes/999999', 404, 'Bulk token 999999 does not exist.'],
      ['GET', '/csv_bulk_token/0', 400, '"0" is not a bulk token id.'],
      ['GET', '/csv_bulk_token/999999', 404, 'Bulk token 999999 does not exist.'],
      ['DELETE', '/delete_bulk_token/-1', 400, 'id must be a positive whole number, got "-1".'],
      ['DELETE', '/nodes/x1/destroy_pending.js', 400, '"x1" is not an actor id.'],
      ['DELETE', '/nodes/999999/destroy_pending.js', 404, 'Actor 999999 does not exist.'],
      ['GET', '/nodes/new.js?node_type=endpoint&id=1', 400, 'node_type must be bulk.'],
      ['GET', '/nodes/new.js?node_type=bulk', 400, '"" is not a bulk token id.'],
      ['GET', '/actor_installer/999999/options.json', 404, 'Bulk token 999999 does not exist.'],
      ['GET', '/actor_installer/1/solaris.sh', 404, 'No installer solaris.sh: use linux.sh or macos.sh.'],
      ['GET', '/actor_installer/1/windows.exe', 404, 'No .exe installer for windows: this director cannot build one. Use linux.sh or macos.sh, or run the actor with Node.js.'],
      ['GET', '/actor_installer/1/linux.sh?secure=yes', 400, 'secure must be 1 or 0.'],
      ['GET', '/actor_installer/999999/linux.sh', 404, 'Bulk token 999999 does not exist.'],
    ];
    for (const [method, url, status, message] of cases) {
      const res = await s.call(method as 'GET' | 'DELETE', url, { as: admin });
      expect([url, res.statusCode, errorOf(res)]).toEqual([url, status, message]);
    }
  });
});

describe('Register Push and installers', () => {
  it('MON-002 Register Push answers the exact command line for the token, without its secret, naming the director from PUBLIC_URL whatever the Host header says', async () => {
    const t = await create('Push');
    const configured = await s.buildOtherApp({ publicUrl: 'http://director.example:3000' });
    const res = await s.call('GET', `/nodes/new.js?node_type=bulk&id=${t.id}`, { as: viewer, app: configured, headers: { host: 'evil.example' } });
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json<{ data: RegisterPush }>().data;
    expect(d).toMatchObject({ bulk_token_id: t.id, name: 'Push', status: 'Active', director: 'http://director.example:3000' });
    // The token goes in the environment, never on the command line (ps shows that to every user).
    expect(d.command).toBe('VIGIL_BULK_TOKEN=<BULK_TOKEN> npm run actor -- --director http://director.example:3000 --name "$(hostname)" --address <ACTOR_IP>');
    expect(res.body).not.toContain(t.token);
    expect(res.body).not.toContain('evil');
    const badHost = await s.call('GET', `/nodes/new.js?node_type=bulk&id=${t.id}`, { as: viewer, app: configured, headers: { host: "evil'; rm -rf /" } });
    expect(badHost.json<{ data: RegisterPush }>().data.director).toBe('http://director.example:3000');
  });

  it('MON-048 MON-182 MON-117 the options offer sh scripts for Linux and macOS, say plainly there is no exe or app, and secure=1 makes the script verify TLS', async () => {
    const t = await create('Installers');
    const configured = await s.buildOtherApp({ publicUrl: 'http://d.example' });
    const res = await s.call('GET', `/actor_installer/${t.id}/options.json`, { as: viewer, app: configured, headers: { host: 'evil.example' } });
    const opts = res.json<{ data: InstallerOption[] }>().data;
    expect(opts.map((o) => [o.os, o.label, o.kind, o.url])).toEqual([
      ['windows', 'Windows', 'exe', null],
      ['macos', 'macOS', 'app', `/actor_installer/${t.id}/macos.sh`],
      ['linux', 'Linux', 'sh', `/actor_installer/${t.id}/linux.sh`],
    ]);
    expect(opts[0]?.message).toMatch(/^No \.exe installer: this director cannot build one\./);
    expect(opts[1]?.message).toMatch(/^No \.app installer: this director cannot build one\. The shell installer runs on macOS too\./);
    expect(opts[2]?.selected_command).toBe(`curl -fsSLk 'http://d.example/actor_installer/${t.id}/linux.sh' -o vigil-actor-linux.sh && VIGIL_BULK_TOKEN=<BULK_TOKEN> VIGIL_DIR=<VIGIL_CHECKOUT> sh vigil-actor-linux.sh`);
    expect(opts[2]?.deselected_command).toBe(`curl -fsSL 'http://d.example/actor_installer/${t.id}/linux.sh?secure=1' -o vigil-actor-linux.sh && VIGIL_BULK_TOKEN=<BULK_TOKEN> VIGIL_DIR=<VIGIL_CHECKOUT> sh vigil-actor-linux.sh`);

    const lenient = await s.call('GET', `/actor_installer/${t.id}/linux.sh`, { app: configured, headers: { host: 'evil.example' } });
    expect(lenient.statusCode).toBe(200);
    expect(lenient.headers['content-disposition']).toBe('attachment; filename="vigil-actor-linux.sh"');
    expect(lenient.body).toMatch(/^#!\/bin\/sh\n/);
    expect(lenient.body).toContain("DIRECTOR='http://d.example'");
    expect(lenient.body).toContain("CURL_TLS='-k'\nexport NODE_TLS_REJECT_UNAUTHORIZED=0");
    expect(lenient.body).not.toContain(t.token);
    const strict = await s.call('GET', `/actor_installer/${t.id}/linux.sh?secure=1`, { app: configured, headers: { host: 'evil.example' } });
    expect(strict.body).toContain("# TLS: the director's certificate is verified (secure=1).\nCURL_TLS=''");
    expect(strict.body).not.toContain('NODE_TLS_REJECT_UNAUTHORIZED');
    const mac = await s.call('GET', `/actor_installer/${t.id}/macos.sh`, { app: configured, headers: { host: 'evil.example' } });
    expect(mac.body).toContain('ipconfig getifaddr en0');
    // Node's flags for actor processes, as `npm run actor` passes them.
    expect(lenient.body).toContain(`exec node ${ACTOR_NODE_FLAGS.join(' ')} --import tsx actor/main.ts`);
    const scripts = (JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../../package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.actor).toBe(`node ${ACTOR_NODE_FLAGS.join(' ')} --import tsx actor/main.ts`);
  });

  it('MON-182 the Linux script really starts this project\'s actor, which registers with the token and calls in', async () => {
    const t = await create('Script');
    const url = await s.app.listen({ port: 0, host: '127.0.0.1' });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-installer-'));
    const script = path.join(dir, 'vigil-actor-linux.sh');
    fs.writeFileSync(script, await (await fetch(`${url}/actor_installer/${t.id}/linux.sh?secure=1`)).text());
    const missing = spawn('sh', [script], { env: { ...process.env, VIGIL_BULK_TOKEN: '', VIGIL_ACTOR_STATE: path.join(dir, 'none.json') }, stdio: ['ignore', 'ignore', 'pipe'] });
    let missingErr = '';
    missing.stderr.on('data', (c: Buffer) => (missingErr += c.toString()));
    expect(await new Promise((r) => missing.on('exit', r))).toBe(2);
    expect(missingErr).toContain('Give the bulk token');
    // A token on the command line is refused (ps would show it).
    const onArgv = spawn('sh', [script, t.token], { env: process.env, stdio: ['ignore', 'ignore', 'pipe'] });
    let argvErr = '';
    onArgv.stderr.on('data', (c: Buffer) => (argvErr += c.toString()));
    expect(await new Promise((r) => onArgv.on('exit', r))).toBe(2);
    expect(argvErr).toContain('not taken from the command line');

    const child = spawn('sh', [script], {
      env: { ...process.env, VIGIL_BULK_TOKEN: t.token, VIGIL_DIR: process.cwd(), VIGIL_ACTOR_NAME: 'installed-by-script', VIGIL_ACTOR_ADDRESS: '127.0.0.7', VIGIL_ACTOR_STATE: path.join(dir, 'state.json') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    try {
      const deadline = Date.now() + 60_000;
      let row: { registered: number; active_pending: number } | undefined;
      while (Date.now() < deadline) {
        row = await rowOf(t.id);
        if (row?.registered === 1 && row.active_pending === 0) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(row, out).toMatchObject({ registered: 1, active_pending: 0 });
      const [node] = await s.db.query<{ name: string; sim_address: string; status: string }>(`select name, sim_address, status from nodes where capabilities->>'bulk_token_id' = $1`, [String(t.id)]);
      expect(node).toEqual({ name: 'installed-by-script', sim_address: '127.0.0.7', status: 'online' });
      expect(out).toContain(`Starting the Vigil actor installed-by-script (127.0.0.7) for ${url}`);
      // No process's command line (what ps shows every user) holds the token: not the script's, not the actor's.
      const lines = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)).map((p) => {
        try {
          return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').replace(/\0/g, ' ');
        } catch {
          return '';
        }
      });
      expect(lines.some((l) => l.includes('installed-by-script'))).toBe(true);
      expect(lines.filter((l) => l.includes(t.token))).toEqual([]);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.on('exit', r)));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
