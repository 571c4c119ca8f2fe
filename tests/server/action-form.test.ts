import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../server/seed/demo';
import { MSG, typeKey, type ActionFormPayload, type FileDisplay, type FormDefinition, type LoadedAction, type SaveAnswer, type TagsAnswer } from '@/api/contracts/action-form';
import { testPayload } from '@/features/action-form/test-values';
import { startTestServer, type Session, type TestServer } from './helpers';
import { DIMENSION_TYPES, type ActionType } from '@/api/contracts/vocabulary';

let t: TestServer;
let admin: Session;
let operator: Session;
let approver: Session;
let viewer: Session;
let def: FormDefinition;
let files: FileDisplay[];

type ErrorAnswer = { error: string; errors: Record<string, string[]> };

beforeAll(async () => {
  t = await startTestServer();
  await seedDemo(t.db, { jobs: 4 });
  [admin, operator, approver, viewer] = await Promise.all([t.signIn('admin'), t.signIn('operator'), t.signIn('approver'), t.signIn('viewer')]);
  def = (await t.call('GET', '/manage_sims/actions/form_definition.json', { as: operator })).json<FormDefinition>();
  files = await t.db.query<FileDisplay>('select id, orig_file_name, sha256sum, file_restrictions, size from file_library order by id');
});
afterAll(async () => {
  await t?.close();
});

const create = (body: unknown, as: Session = operator) => t.call('POST', '/manage_sims/actions.json', { as, body });
const update = (id: number, body: unknown, as: Session = operator) => t.call('PUT', `/manage_sims/actions/${id}.json`, { as, body });
const load = async (id: number | string, as: Session = operator) => {
  const res = await t.call('GET', `/manage_sims/actions/${id}/form.json`, { as });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<LoadedAction>();
};
const errorsOf = (res: { statusCode: number; json: <T>() => T; body: string }) => {
  expect(res.statusCode, res.body).toBe(400);
  return res.json<ErrorAnswer>();
};

function withType<T extends ActionType>(type: T, change: (fields: NonNullable<ActionFormPayload[`${T}_action`]>) => void): ActionFormPayload {
  const p = testPayload(type, def, files);
  change(p[typeKey(type)] as NonNullable<ActionFormPayload[`${T}_action`]>);
  return p;
}

const EDITABLE_TYPES: ActionType[] = ['dns', 'captive_dns', 'captive_ioc_url', 'email', 'file_transfer', 'socket', 'website', 'host_cli', 'port_scan', 'cloud', 'web_request', 'sleep'];

describe('the form definition, tags and picker', () => {
  it('ACT-016 ACT-032 ACT-115 offers six dimension trees with defaults per type, DNS servers, run-as profiles and limits', () => {
    expect(def.dimension_trees.map((d) => d.type)).toEqual([...DIMENSION_TYPES]);
    for (const d of def.dimension_trees) expect(d.tree.children.length).toBeGreaterThan(0);
    expect(def.dimension_defaults.dns?.behavior_type).toEqual(expect.any(Number));
    expect(def.dns_servers.length).toBeGreaterThan(0);
    expect(def.action_user_profiles.length).toBeGreaterThan(0);
    expect(def.limits.server_port).toEqual({ min: 1, max: 65535, step: 1 });
    expect(def.action_types).toHaveLength(14);
    expect(def.pcap_upload).toBe(true);
  });

  it('ACT-086 brt_auth is set for the administrator only; protected_theater follows the licence', async () => {
    expect(def.flags.brt_auth).toBe(false);
    const adminDef = (await t.call('GET', '/manage_sims/actions/form_definition.json', { as: admin })).json<FormDefinition>();
    expect(adminDef.flags).toEqual({ brt_auth: true, protected_theater: true });
  });

  it('MON-008 MON-131 get_tags lists user, verodin and ATT&CK tags with the hidden field each is sent in', async () => {
    const res = await t.call('GET', '/manage_sims/actions/get_tags.json', { as: viewer });
    expect(res.statusCode).toBe(200);
    const { tags } = res.json<TagsAnswer>();
    expect(tags.find((x) => x.name === 'Lab Only')).toMatchObject({ class_name: 'user', field: 'user_tags' });
    expect(tags.find((x) => x.name === 'OS:Windows')).toMatchObject({ class_name: 'verodin', field: 'verodin_tags' });
    expect(tags.find((x) => x.class_name === 'mitre_attack')).toMatchObject({ field: 'verodin_tags' });
  });

  it('the picker lists Actions with vid, name and type', async () => {
    const res = await t.call('GET', '/manage_sims/actions/picker.json', { as: viewer });
    const { data } = res.json<{ data: { id: number; vid: string; name: string; action_type: string; vendor: boolean }[] }>();
    expect(data.length).toBeGreaterThan(60);
    expect(data.some((a) => a.vendor)).toBe(true);
  });
});

describe('creating and updating every type', () => {
  /** The type fields actions.md section 3 "Type fields (form)" names, as the form saves and loads them. */
  const SPEC_TYPE_FIELDS: Partial<Record<ActionType, string[]>> = {
    dns: ['query_type', 'domain', 'dns_server_id'],
    captive_dns: ['query_type', 'query', 'response'],
    captive_ioc_url: ['urls', 'timeout_ms'],
    email: ['subject', 'body', 'mime_text_type', 'block_matching_scheme', 'files'],
    file_transfer: ['file_transfer_library_id', 'compare_transfer', 'keep_after_compare', 'content_encoding', 'user_agent', 'method', 'app_layer', 'target_port', 'tunnel_cidr', 'tunnel_protocol', 'dns_domain', 'dns_server_ip'],
    socket: ['comm_type', 'server_port', 'steps'],
    website: ['server_port', 'http_ver', 'use_https', 'steps'],
    host_cli: ['action_user_profile_id', 'require_run_as_interactive', 'monitor_connections', 'delivery_wait_time', 'delivery_failed_result', 'destination_exists_result', 'require_protected', 'approve_anywhere', 'shell', 'raw_text', 'automatic_file_cleanup', 'execution_plan', 'separate_cleanup_shell', 'cleanup_raw_text', 'files'],
    port_scan: ['ports_list', 'sleep_timer', 'randomize_scan'],
    cloud: ['inputs', 'outputs', 'scripts', 'files'],
  };
  /** The fields of each element of the type's lists (steps, files, inputs...). */
  const SPEC_LIST_FIELDS: Partial<Record<ActionType, Record<string, string[]>>> = {
    email: { files: ['attachment_encoding', 'ignore_if_missing'] },
    socket: { steps: ['data_type', 'request', 'response'] },
    website: { steps: ['request', 'req_headers', 'request_body', 'resp_code', 'resp_headers', 'response'] },
    host_cli: { files: ['file_id', 'destination_directory', 'destination_name', 'file_owner', 'randomize_file'] },
    cloud: { inputs: ['name', 'default_value'], outputs: ['name'], scripts: ['name', 'script_text', 'script_type', 'timeout'], files: ['variable_name'] },
  };

  it.each([
    ['dns', 'ACT-033'],
    ['captive_dns', 'ACT-034'],
    ['captive_ioc_url', 'ACT-035'],
    ['email', 'ACT-036'],
    ['file_transfer', 'ACT-037'],
    ['socket', 'ACT-038'],
    ['website', 'ACT-039'],
    ['host_cli', 'ACT-040'],
    ['port_scan', 'ACT-041'],
    ['cloud', 'ACT-042'],
  ] as const)('ACT-033 ACT-034 ACT-035 ACT-036 ACT-037 ACT-038 ACT-039 ACT-040 ACT-041 ACT-042 a %s Action (%s) saves and loads every type field the spec names', async (type: ActionType, _item: string) => {
    const body = testPayload(type, def, files);
    const res = await create(body);
    expect(res.statusCode, res.body).toBe(201);
    const loaded = await load(res.json<SaveAnswer>().id);
    const fields = loaded.values[typeKey(type)] as unknown as Record<string, unknown>;
    expect(Object.keys(fields)).toEqual(expect.arrayContaining(SPEC_TYPE_FIELDS[type]!));
    for (const [list, keys] of Object.entries(SPEC_LIST_FIELDS[type] ?? {})) {
      const items = fields[list] as Record<string, unknown>[];
      expect(items.length, `${type} ${list}`).toBeGreaterThan(0);
      for (const item of items) expect(Object.keys(item), `${type} ${list}`).toEqual(expect.arrayContaining(keys));
    }
    expect(fields).toEqual(body[typeKey(type)]);
    if (type === 'host_cli' || type === 'email' || type === 'cloud') {
      // Attached files come back with their display data: file name, sha value, status (restriction).
      expect(loaded.files.length).toBeGreaterThan(0);
      for (const f of loaded.files) expect(f).toMatchObject({ orig_file_name: expect.any(String), sha256sum: expect.stringMatching(/^[0-9a-f]{64}$/), file_restrictions: expect.any(String) });
    }
    if (type === 'dns') {
      // 'Default' (no server) means the Actor's local DNS server: the form keeps it as no server.
      const none = await create({ ...body, dns_action: { ...body.dns_action!, dns_server_id: null } });
      expect(none.statusCode, none.body).toBe(201);
      expect((await load(none.json<SaveAnswer>().id)).values.dns_action?.dns_server_id).toBeNull();
    }
  });

  it.each(EDITABLE_TYPES)('ACT-094 ACT-062 creates a %s Action, loads the same values back, and an update makes version 2', async (type) => {
    const body = testPayload(type, def, files);
    const res = await create(body);
    expect(res.statusCode, res.body).toBe(201);
    const saved = res.json<SaveAnswer>();
    expect(saved.vid).toMatch(/^A000-\d{4,}$/);
    expect(saved.version).toBe(1);

    const loaded = await load(saved.id);
    expect(loaded.action_type).toBe(type);
    expect(loaded.values.sim_action).toMatchObject({ name: body.sim_action.name, desc: body.sim_action.desc, action_type: type });
    expect(loaded.values.trees).toEqual(body.trees);
    expect(loaded.values.tags.user_tags).toEqual(['Lab Only']);
    expect(loaded.values[typeKey(type)]).toEqual(body[typeKey(type)]);

    const changed = { ...loaded.values, sim_action: { ...loaded.values.sim_action, name: `${body.sim_action.name} (edited)` }, lock_version: 1 };
    const up = await update(saved.id, changed);
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json<SaveAnswer>()).toMatchObject({ id: saved.id, vid: saved.vid, version: 2 });
    const again = await load(saved.id);
    expect(again.version).toBe(2);
    expect(again.values.sim_action.name).toMatch(/\(edited\)$/);
    expect(Date.parse(again.updated_at)).toBeGreaterThanOrEqual(Date.parse(loaded.updated_at));
    const versions = await t.db.query<{ version: number }>('select version from action_versions where action_id = $1 order by version', [saved.id]);
    expect(versions.map((v) => v.version)).toEqual([1, 2]);
  });

  it('ACT-093 the library preview shows what the form saved', async () => {
    const body = testPayload('dns', def, files);
    const saved = (await create(body)).json<SaveAnswer>();
    const res = await t.call('GET', `/library/actions.json?id=${saved.id}`, { as: operator });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('test-c2.example-bad.com');
  });

  it('changing the type of an Action on update replaces its type fields', async () => {
    const saved = (await create(testPayload('dns', def, files))).json<SaveAnswer>();
    const body = testPayload('port_scan', def, files);
    const res = await update(saved.id, body);
    expect(res.statusCode, res.body).toBe(200);
    const loaded = await load(saved.id);
    expect(loaded.action_type).toBe('port_scan');
    expect(loaded.values.dns_action).toBeUndefined();
    expect(loaded.values.port_scan_action?.ports_list).toBe('22,80,443,8000-8010,#3389');
  });

  it('loads an Action by VID as well as by id', async () => {
    const saved = (await create(testPayload('sleep', def, files))).json<SaveAnswer>();
    expect((await load(saved.vid)).id).toBe(saved.id);
  });

  it('a stale form (older lock_version) is answered 409 and changes nothing', async () => {
    const saved = (await create(testPayload('captive_dns', def, files))).json<SaveAnswer>();
    const body = { ...testPayload('captive_dns', def, files), lock_version: 1 };
    expect((await update(saved.id, body)).statusCode).toBe(200);
    const stale = await update(saved.id, { ...body, sim_action: { ...body.sim_action, name: 'stale' } });
    expect(stale.statusCode).toBe(409);
    expect((await load(saved.id)).values.sim_action.name).not.toBe('stale');
  });
});

describe('validation (spec section 5) answered in the spec error shapes', () => {
  it('ACT-072 ACT-107 without an action type: the Select an Action Type message', async () => {
    const body = testPayload('dns', def, files);
    const res = await create({ ...body, sim_action: { ...body.sim_action, action_type: '' } });
    const e = errorsOf(res);
    expect(e.error).toBe(MSG.selectType);
    expect(e.errors['sim_action.action_type']).toEqual(['Select an Action Type.']);
    const missing = errorsOf(await create({ sim_action: { name: 'x', desc: 'y' } }));
    expect(missing.error).toBe(MSG.selectType);
  });

  it('ACT-106 ACT-073 required empty fields say must be filled under sim_action and {type}_action keys', async () => {
    const body = withType('dns', (d) => (d.domain = ''));
    body.sim_action.name = '  ';
    const e = errorsOf(await create(body));
    expect(e.error).toBe(MSG.saveFailed);
    expect(e.errors['sim_action.name']).toEqual([MSG.mustBeFilled]);
    expect(e.errors['dns_action.domain']).toEqual([MSG.mustBeFilled]);
  });

  it('ACT-073 an empty dimension says must be filled on its trees entry', async () => {
    const body = testPayload('dns', def, files);
    body.trees[2] = { id: null };
    const e = errorsOf(await create(body));
    expect(e.errors['trees.2.id']).toEqual([MSG.mustBeFilled]);
    const wrongTree = testPayload('dns', def, files);
    wrongTree.trees[0] = { id: def.dimension_trees[1]!.tree.children[0]!.id };
    expect(errorsOf(await create(wrongTree)).errors['trees.0.id']).toEqual(['is not a value of attack_vector']);
  });

  it('ACT-078 bad port scan syntax is refused; ranges and # prefixes are accepted', async () => {
    for (const bad of ['22,,80', '80-70', '70000', 'http', '#', '1;2']) {
      const e = errorsOf(await create(withType('port_scan', (d) => (d.ports_list = bad))));
      expect(e.errors['port_scan_action.ports_list']?.[0]).toBeTruthy();
    }
    const ok = await create(withType('port_scan', (d) => (d.ports_list = '1,2,3,5-9,11,#3389')));
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('ACT-077 bad host_cli syntax is refused with the line; python scripts are not parsed; the cleanup script is optional', async () => {
    const noParams = errorsOf(await create(withType('host_cli', (d) => (d.raw_text = 'whoami\nipconfig\n    auto 4 true 60'))));
    expect(noParams.errors['host_cli_action.raw_text']?.[0]).toMatch(/^line 1: This command has no parameters line/);
    const badCondition = errorsOf(await create(withType('host_cli', (d) => (d.raw_text = 'whoami\n    auto 4 true 60\n    blocked_matches x'))));
    expect(badCondition.errors['host_cli_action.raw_text']?.[0]).toMatch(/^line 3: "blocked_matches" is not a condition/);
    const badBool = errorsOf(await create(withType('host_cli', (d) => (d.raw_text = 'whoami\n    auto 4 yes'))));
    expect(badBool.errors['host_cli_action.raw_text']?.[0]).toMatch(/check_logs_boolean must be true or false/);
    const blank = errorsOf(await create(withType('host_cli', (d) => (d.raw_text = '  '))));
    expect(blank.errors['host_cli_action.raw_text']).toEqual([MSG.cantBeBlank]);
    const python = await create(withType('host_cli', (d) => ((d.shell = 'python'), (d.raw_text = 'import os\nprint(os.getcwd())'), (d.cleanup_raw_text = ''))));
    expect(python.statusCode, python.body).toBe(201);
  });

  it('ACT-076 host_cli files need a destination directory', async () => {
    const e = errorsOf(await create(withType('host_cli', (d) => (d.files = [{ file_id: files[1]!.id, destination_directory: '', destination_name: '', file_owner: 'match_action', randomize_file: false }]))));
    expect(e.errors['host_cli_action.files.0.destination_directory']).toEqual([MSG.mustBeFilled]);
  });

  it('unknown fields are refused, at the top and inside the type fields', async () => {
    const top = errorsOf(await create({ ...testPayload('sleep', def, files), surprise: 1 }));
    expect(top.errors.base?.[0]).toMatch(/unknown fields: surprise/);
    const inner = errorsOf(await create(withType('dns', (d) => Object.assign(d, { color: 'red' }))));
    expect(inner.errors.dns_action?.[0]).toMatch(/unknown fields: color/);
    const otherType = errorsOf(await create({ ...testPayload('sleep', def, files), dns_action: { query_type: 'A', domain: 'x.com', dns_server_id: null } }));
    expect(otherType.errors.base?.[0]).toMatch(/unknown fields: dns_action/);
  });

  it('ACT-067 ACT-106 website and socket step errors come back as web_action_steps and socket_action_steps by index', async () => {
    const web = errorsOf(
      await create(
        withType('website', (d) => {
          d.steps.push({ request: '', req_headers: '', request_body: '', resp_code: 700, resp_headers: '', response: '' });
        }),
      ),
    );
    expect(web.errors['web_action_steps.1.request']).toEqual([MSG.mustBeFilled]);
    expect(web.errors['web_action_steps.1.resp_code']).toEqual(['must be at most 599']);
    const sock = errorsOf(await create(withType('socket', (d) => (d.steps[1] = { data_type: 'hex', request: 'zz', response: '' }))));
    expect(sock.errors['socket_action_steps.1.request']).toEqual(['is not hex: use pairs of hex digits']);
    const none = errorsOf(await create(withType('socket', (d) => (d.steps = []))));
    expect(none.errors['socket_action.steps']).toEqual(['must have at least one step']);
  });

  it('ACT-075 ACT-068 file_transfer: content encoding list, CIDR and DNS fields per tunnel, no ssh over scp, one file', async () => {
    const enc = errorsOf(await create(withType('file_transfer', (d) => (d.content_encoding = '.zip'))));
    expect(enc.errors['file_transfer_action.content_encoding']?.[0]).toMatch(/period/);
    const enc2 = errorsOf(await create(withType('file_transfer', (d) => (d.content_encoding = 'zip,lzma'))));
    expect(enc2.errors['file_transfer_action.content_encoding']?.[0]).toMatch(/"lzma" is not one of/);
    const dns = errorsOf(await create(withType('file_transfer', (d) => ((d.dns_domain = ''), (d.dns_server_ip = 'nope'), (d.tunnel_cidr = '10.0.0.0')))));
    expect(dns.errors['file_transfer_action.dns_domain']).toEqual([MSG.mustBeFilled]);
    expect(dns.errors['file_transfer_action.dns_server_ip']).toEqual(['is not an IPv4 address']);
    expect(dns.errors['file_transfer_action.tunnel_cidr']).toEqual(['is not a CIDR such as 10.0.0.0/24']);
    const ssh = errorsOf(await create(withType('file_transfer', (d) => ((d.app_layer = 'scp'), (d.tunnel_protocol = 'ssh')))));
    expect(ssh.errors['file_transfer_action.tunnel_protocol']).toEqual(['ssh is not offered when the app layer is scp']);
    const nofile = errorsOf(await create(withType('file_transfer', (d) => (d.file_transfer_library_id = null))));
    expect(nofile.errors['file_transfer_action.file_transfer_library_id']).toEqual([MSG.mustBeFilled]);
    const none = await create(withType('file_transfer', (d) => ((d.tunnel_protocol = 'none'), (d.tunnel_cidr = ''), (d.dns_domain = ''), (d.dns_server_ip = ''))));
    expect(none.statusCode, none.body).toBe(201);
  });

  it('ACT-074 a file attached twice is refused with the spec text', async () => {
    const f = files[1]!;
    const e = errorsOf(
      await create(
        withType('email', (d) => {
          d.files = [
            { file_id: f.id, attachment_encoding: 'base64', ignore_if_missing: false },
            { file_id: f.id, attachment_encoding: '7bit', ignore_if_missing: true },
          ];
        }),
      ),
    );
    expect(e.errors['email_action.files.1.file_id']).toEqual([MSG.duplicateAttach]);
  });

  it('ACT-073 cloud scripts: blank script text says cannot be blank, an empty name must be filled, one script at least', async () => {
    const e = errorsOf(await create(withType('cloud', (d) => ((d.scripts[1]!.script_text = ' \n'), (d.scripts[0]!.name = '')))));
    expect(e.errors['cloud_action.scripts.1.script_text']).toEqual([MSG.cantBeBlank]);
    expect(e.errors['cloud_action.scripts.0.name']).toEqual([MSG.mustBeFilled]);
    expect(errorsOf(await create(withType('cloud', (d) => (d.scripts = [])))).errors['cloud_action.scripts']).toEqual(['must have at least one script']);
  });

  it('numbers outside the form definition limits are refused (captive IOC URL timeout, server ports)', async () => {
    const e = errorsOf(await create(withType('captive_ioc_url', (d) => (d.timeout_ms = 10))));
    expect(e.errors['captive_ioc_url_action.timeout_ms']).toEqual(['must be at least 1000']);
    const port = errorsOf(await create(withType('socket', (d) => (d.server_port = 0))));
    expect(port.errors['socket_action.server_port']).toEqual(['must be at least 1']);
  });

  it('tags: unknown verodin tags are refused with the tag message; new user tags are created', async () => {
    const body = testPayload('sleep', def, files);
    body.tags = { user_tags: ['Group:Brand New Group'], verodin_tags: ['OS:Windows', 'No Such Tag', 'File:Script'] };
    const e = errorsOf(await create(body));
    expect(e.errors['tags.verodin_tags']).toEqual([MSG.invalidTag('No Such Tag'), MSG.invalidTag('File:Script')]);
    body.tags.verodin_tags = ['OS:Windows', 'T1059'];
    const ok = await create(body);
    expect(ok.statusCode, ok.body).toBe(201);
    const loaded = await load(ok.json<SaveAnswer>().id);
    expect(loaded.values.tags.user_tags).toEqual(['Group:Brand New Group']);
    expect(loaded.values.tags.verodin_tags).toHaveLength(2);
  });
});

describe('permissions, VIDs, protection and approval', () => {
  it('ACT-083 a viewer cannot create or update Actions', async () => {
    expect((await create(testPayload('sleep', def, files), viewer)).statusCode).toBe(403);
    const saved = (await create(testPayload('sleep', def, files))).json<SaveAnswer>();
    expect((await update(saved.id, testPayload('sleep', def, files), viewer)).statusCode).toBe(403);
  });

  it('a CSRF token is required to save', async () => {
    const res = await t.call('POST', '/manage_sims/actions.json', { as: operator, csrf: false, body: testPayload('sleep', def, files) });
    expect(res.statusCode).toBe(403);
  });

  it('ACT-086 the VID override needs brt_auth, the VID shape, and a free VID', async () => {
    const body = { ...testPayload('sleep', def, files), system_override: { vid: 'A250-9001' } };
    expect(errorsOf(await create(body)).errors.vid).toEqual(['can only be set by a user with brt_auth']);
    const ok = await create(body, admin);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json<SaveAnswer>().vid).toBe('A250-9001');
    expect(errorsOf(await create(body, admin)).errors.vid).toEqual(['has already been taken']);
    expect(errorsOf(await create({ ...body, system_override: { vid: 'X1' } }, admin)).errors.vid).toEqual(['must look like A000-1234']);
  });

  it('ACT-076 ACT-086 randomize_file on a host_cli file needs brt_auth; an edit by others keeps what the file had', async () => {
    const withRandom = () => withType('host_cli', (d) => (d.files = [{ file_id: files[1]!.id, destination_directory: 'C:/temp/', destination_name: '', file_owner: 'match_action', randomize_file: true }]));
    expect(errorsOf(await create(withRandom())).errors['host_cli_action.files.0.randomize_file']).toEqual(['can only be set by a user with brt_auth']);
    const ok = await create(withRandom(), admin);
    expect(ok.statusCode, ok.body).toBe(201);
    const saved = ok.json<SaveAnswer>();
    const loaded = await load(saved.id);
    expect(loaded.values.host_cli_action?.files[0]?.randomize_file).toBe(true);
    const keep = await update(saved.id, { ...loaded.values, sim_action: { ...loaded.values.sim_action, name: 'kept by operator' } });
    expect(keep.statusCode, keep.body).toBe(200);
    const second = { file_id: files[0]!.id, destination_directory: 'C:/temp/', destination_name: '', file_owner: 'match_action', randomize_file: true };
    const add = await update(saved.id, { ...loaded.values, host_cli_action: { ...loaded.values.host_cli_action!, files: [...loaded.values.host_cli_action!.files, second] } });
    expect(errorsOf(add).errors['host_cli_action.files.1.randomize_file']).toEqual(['can only be set by a user with brt_auth']);
  });

  it('ACT-068 file_transfer app layer: a known layer or a port number standing for itself', async () => {
    const port = await create(withType('file_transfer', (d) => ((d.app_layer = '8080'), (d.target_port = 8080))));
    expect(port.statusCode, port.body).toBe(201);
    expect((await load(port.json<SaveAnswer>().id)).values.file_transfer_action).toMatchObject({ app_layer: '8080', target_port: 8080 });
    const bad = errorsOf(await create(withType('file_transfer', (d) => (d.app_layer = 'gopher'))));
    expect(bad.errors['file_transfer_action.app_layer']).toEqual(['must be one of http, https, ftp, scp or a port number']);
  });

  it('vendor content (A1xx) cannot be edited without brt_auth', async () => {
    const [vendor] = await t.db.query<{ id: number }>(`select id from actions where vid like 'A1%' and action_type = 'dns' limit 1`);
    const loaded = await load(vendor!.id);
    expect(loaded.vendor).toBe(true);
    const res = await update(vendor!.id, loaded.values);
    expect(res.statusCode).toBe(403);
    expect(res.json<ErrorAnswer>().error).toMatch(/vendor content/);
  });

  it('ACT-065 host_cli: monitor connections or a malicious file force Require Protected Theater; both choices together are refused', async () => {
    const malicious = files.find((f) => f.file_restrictions === 'restricted_malicious')!;
    const res = await create(
      withType('host_cli', (d) => {
        d.approve_anywhere = true;
        d.files = [{ file_id: malicious.id, destination_directory: 'C:/users/public/documents/', destination_name: '', file_owner: 'match_action', randomize_file: false }];
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const loaded = await load(res.json<SaveAnswer>().id);
    expect(loaded.values.host_cli_action).toMatchObject({ require_protected: true, approve_anywhere: false });
    const both = errorsOf(await create(withType('host_cli', (d) => ((d.require_protected = true), (d.approve_anywhere = true)))));
    expect(both.errors['host_cli_action.approve_anywhere']).toEqual(['cannot be chosen together with Require Protected Theater']);
  });

  it('ACT-064 cloud: Approve Now needs the permission and no pending file; malicious files are refused', async () => {
    const safe = files.find((f) => f.file_restrictions === 'none')!;
    const pending = files.find((f) => f.file_restrictions === 'pending_approval')!;
    const malicious = files.find((f) => f.file_restrictions === 'restricted_malicious')!;
    const approveNow = (fileId: number) => withType('cloud', (d) => ((d.approve_anywhere = true), (d.files = [{ file_id: fileId, variable_name: 'f1' }])));
    expect(errorsOf(await create(approveNow(safe.id), operator)).errors['cloud_action.approve_anywhere']?.[0]).toMatch(/requires the approve permission/);
    expect(errorsOf(await create(approveNow(pending.id), approver)).errors['cloud_action.approve_anywhere']).toEqual([MSG.cloudPending]);
    expect(errorsOf(await create(approveNow(malicious.id), approver)).errors['cloud_action.files.0.file_id']).toEqual([MSG.cloudIneligible]);
    const ok = await create(approveNow(safe.id), approver);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json<SaveAnswer>().approved).toBe(true);
    const queued = await create(withType('cloud', (d) => (d.files = [{ file_id: pending.id, variable_name: 'f1' }])), operator);
    expect(queued.json<SaveAnswer>().approved).toBe(false);
  });

  it('PCAP Actions: a new one must come from the upload flow; an existing one can be edited', async () => {
    const e = errorsOf(await create(testPayload('pcap', def, files)));
    expect(e.errors['pcap_action.upload']?.[0]).toMatch(/created from an uploaded PCAP/);
    const [pcap] = await t.db.query<{ id: number }>(`select id from actions where action_type = 'pcap' and vid not like 'A1%' limit 1`);
    const loaded = await load(pcap!.id);
    const body = { ...loaded.values, pcap_action: { ...loaded.values.pcap_action!, destination_ip: '198.51.100.99' } };
    const res = await update(pcap!.id, body);
    expect(res.statusCode, res.body).toBe(200);
    const after = await t.db.query<{ details: { destination_ip: string; file: string } }>('select details from actions where id = $1', [pcap!.id]);
    expect(after[0]!.details.destination_ip).toBe('198.51.100.99');
    expect(after[0]!.details.file).toMatch(/\.pcap$/);
  });

  it('ids that are not numbers, and missing Actions, are 4xx', async () => {
    expect((await update(999999, testPayload('sleep', def, files))).statusCode).toBe(404);
    expect((await t.call('PUT', '/manage_sims/actions/abc.json', { as: operator, body: testPayload('sleep', def, files) })).statusCode).toBe(400);
    expect((await t.call('GET', '/manage_sims/actions/A999-0000/form.json', { as: operator })).statusCode).toBe(404);
    expect((await t.call('POST', '/manage_sims/actions.json', { as: operator, body: '[1]' })).statusCode).toBe(400);
  });
});
