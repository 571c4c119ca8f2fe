import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../server/seed/demo';
import { MSG, typeKey, type FileDisplay, type FormDefinition, type LoadedAction, type SaveAnswer } from '@/api/contracts/action-form';
import { encodeActionForm } from '@/api/contracts/action-form-body';
import { testPayload } from '@/features/action-form/test-values';
import { startTestServer, type Session, type TestServer } from './helpers';
import { type ActionType } from '@/api/contracts/vocabulary';

let t: TestServer;
let operator: Session;
let def: FormDefinition;
let files: FileDisplay[];

beforeAll(async () => {
  t = await startTestServer();
  await seedDemo(t.db, { jobs: 0 });
  operator = await t.signIn('operator');
  def = (await t.call('GET', '/manage_sims/actions/form_definition.json', { as: operator })).json<FormDefinition>();
  files = await t.db.query<FileDisplay>(`select id, orig_file_name, sha256sum, file_restrictions, size from file_library where file_restrictions = 'none' order by id`);
});
afterAll(async () => {
  await t?.close();
});

/** Posts fields form-encoded; the CSRF token travels as the authenticity_token field, as a browser form sends it. */
const postForm = (fields: [string, string][], url = '/manage_sims/actions.json', method: 'POST' | 'PUT' = 'POST') =>
  t.call(method, url, {
    as: operator,
    csrf: false,
    body: new URLSearchParams([...fields, ['authenticity_token', operator.csrfToken]]).toString(),
    contentType: 'application/x-www-form-urlencoded',
  });

/** Posts fields as multipart/form-data (the token in the header). */
function postMultipart(fields: [string, string][], file?: { name: string; content: string }) {
  const boundary = '----vigil-test-boundary';
  const parts = fields.map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  if (file) parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: text/plain\r\n\r\n${file.content}\r\n`);
  return t.call('POST', '/manage_sims/actions.json', { as: operator, body: `${parts.join('')}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` });
}

const load = async (id: number) => (await t.call('GET', `/manage_sims/actions/${id}/form.json`, { as: operator })).json<LoadedAction>();

/** The common fields of the spec's form: sim_action[...] and trees[i][id] per dimension. */
function common(type: ActionType, name: string): [string, string][] {
  const trees = testPayload(type, def, files).trees;
  return [
    ['sim_action[name]', name],
    ['sim_action[desc]', `${name}, posted as form data`],
    ['sim_action[action_type]', type],
    ['sim_action[timeout_ms]', ''],
    ['sim_action[uac]', '0'],
    ...trees.map((tr, i): [string, string] => [`trees[${i}][id]`, String(tr.id)]),
  ];
}

describe("ACT-094 saving with the spec's form data", () => {
  it('ACT-094 a dns Action posted form-encoded is created with its fields, tags by hidden field name and the Default DNS server', async () => {
    const res = await postForm([
      ...common('dns', 'Form dns'),
      ['dns_action[query_type]', 'MX'],
      ['dns_action[domain]', 'form-post.example-bad.com'],
      ['dns_action[dns_server_id]', ''],
      ['user_tags[]', 'Lab Only'],
      ['user_tags[]', 'Group:Form'],
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const loaded = await load(res.json<SaveAnswer>().id);
    expect(loaded.values.sim_action).toMatchObject({ name: 'Form dns', desc: 'Form dns, posted as form data', action_type: 'dns', timeout_ms: null, uac: false });
    expect(loaded.values.dns_action).toEqual({ query_type: 'MX', domain: 'form-post.example-bad.com', dns_server_id: null });
    expect(loaded.values.trees).toEqual(testPayload('dns', def, files).trees);
    expect([...loaded.values.tags.user_tags].sort()).toEqual(['Group:Form', 'Lab Only']);
  });

  it('ACT-094 a cloud Action posts its scripts, inputs, outputs and files under sim_action[cloud_action_attributes]', async () => {
    const cloud = 'sim_action[cloud_action_attributes]';
    const file = files[0]!;
    const res = await postForm([
      ...common('cloud', 'Form cloud'),
      [`${cloud}[inputs_attributes][0][name]`, 'bucket'],
      [`${cloud}[inputs_attributes][0][default_value]`, 'logs-01'],
      [`${cloud}[outputs_attributes][0][name]`, 'object_count'],
      [`${cloud}[scripts_attributes][0][name]`, 'Setup'],
      [`${cloud}[scripts_attributes][0][script_text]`, 'print("setup")'],
      [`${cloud}[scripts_attributes][0][script_type]`, 'setup'],
      [`${cloud}[scripts_attributes][0][timeout]`, '120'],
      [`${cloud}[scripts_attributes][1][name]`, 'List'],
      [`${cloud}[scripts_attributes][1][script_text]`, 'print("list")'],
      [`${cloud}[scripts_attributes][1][script_type]`, ''],
      [`${cloud}[scripts_attributes][1][timeout]`, '60'],
      [`${cloud}[scripts_attributes][2][name]`, 'Clean Up'],
      [`${cloud}[scripts_attributes][2][script_text]`, 'print("clean")'],
      [`${cloud}[scripts_attributes][2][script_type]`, 'cleanup'],
      [`${cloud}[scripts_attributes][2][timeout]`, '30'],
      [`${cloud}[files_attributes][0][file_id]`, String(file.id)],
      [`${cloud}[files_attributes][0][variable_name]`, 'payload'],
      [`${cloud}[approve_anywhere]`, 'false'],
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const loaded = await load(res.json<SaveAnswer>().id);
    expect(loaded.values.cloud_action).toEqual({
      inputs: [{ name: 'bucket', default_value: 'logs-01' }],
      outputs: [{ name: 'object_count' }],
      scripts: [
        { name: 'Setup', script_text: 'print("setup")', script_type: 'setup', timeout: 120 },
        { name: 'List', script_text: 'print("list")', script_type: null, timeout: 60 },
        { name: 'Clean Up', script_text: 'print("clean")', script_type: 'cleanup', timeout: 30 },
      ],
      files: [{ file_id: file.id, variable_name: 'payload' }],
      approve_anywhere: false,
    });
  });

  it('ACT-094 ACT-067 a website Action posted as multipart keeps its ordered steps; step errors come back by index', async () => {
    const step = (i: number, request: string, code: string): [string, string][] => [
      [`website_action[steps_attributes][${i}][request]`, request],
      [`website_action[steps_attributes][${i}][req_headers]`, 'Accept: */*'],
      [`website_action[steps_attributes][${i}][request_body]`, ''],
      [`website_action[steps_attributes][${i}][resp_code]`, code],
      [`website_action[steps_attributes][${i}][resp_headers]`, 'Content-Type: text/html'],
      [`website_action[steps_attributes][${i}][response]`, `<html>${i}</html>`],
    ];
    const website: [string, string][] = [['website_action[server_port]', '8443'], ['website_action[http_ver]', '1.1'], ['website_action[use_https]', '1']];
    const res = await postMultipart([...common('website', 'Form website'), ...website, ...step(1, 'GET /second HTTP/1.1', '404'), ...step(0, 'GET /first HTTP/1.1', '200')]);
    expect(res.statusCode, res.body).toBe(201);
    const loaded = await load(res.json<SaveAnswer>().id);
    expect(loaded.values.website_action).toMatchObject({ server_port: 8443, http_ver: '1.1', use_https: true });
    expect(loaded.values.website_action?.steps.map((s) => [s.request, s.resp_code, s.response])).toEqual([
      ['GET /first HTTP/1.1', 200, '<html>0</html>'],
      ['GET /second HTTP/1.1', 404, '<html>1</html>'],
    ]);

    const bad = await postMultipart([...common('website', 'Form website bad'), ...website, ...step(0, 'GET / HTTP/1.1', '200'), ...step(1, '', '999')]);
    expect(bad.statusCode, bad.body).toBe(400);
    const e = bad.json<{ error: string; errors: Record<string, string[]> }>();
    expect(e.error).toBe(MSG.saveFailed);
    expect(e.errors['web_action_steps.1.request']).toEqual([MSG.mustBeFilled]);
    expect(e.errors['web_action_steps.1.resp_code']).toEqual(['must be at most 599']);
  });

  it.each(['dns', 'captive_ioc_url', 'email', 'file_transfer', 'socket', 'host_cli', 'port_scan', 'cloud', 'web_request', 'sleep'] as const)(
    'ACT-094 the workbench form data of a %s Action saves the same values as its JSON, and updates with PUT',
    async (type) => {
      const body = testPayload(type, def, files);
      const res = await postForm(encodeActionForm(body));
      expect(res.statusCode, res.body).toBe(201);
      const saved = res.json<SaveAnswer>();
      const loaded = await load(saved.id);
      expect(loaded.values[typeKey(type)]).toEqual(body[typeKey(type)]);
      expect(loaded.values.tags).toEqual(body.tags);
      const up = await postForm(encodeActionForm({ ...loaded.values, lock_version: 1 }), `/manage_sims/actions/${saved.id}.json`, 'PUT');
      expect(up.statusCode, up.body).toBe(200);
      expect(up.json<SaveAnswer>().version).toBe(2);
    },
  );

  it('ACT-072 form data without an action type, with bad field names, unknown fields or a file is refused with 4xx messages', async () => {
    const noType = await postForm([['sim_action[name]', 'x'], ['sim_action[desc]', 'y']]);
    expect(noType.statusCode).toBe(400);
    expect(noType.json<{ error: string }>().error).toBe(MSG.selectType);

    const reserved = await postForm([...common('dns', 'bad'), ['dns_action[__proto__][polluted]', '1']]);
    expect(reserved.statusCode).toBe(400);
    expect(reserved.json<{ errors: Record<string, string[]> }>().errors.base![0]).toMatch(/reserved name __proto__/);

    const clash = await postForm([...common('dns', 'bad'), ['dns_action[domain]', 'a.example'], ['dns_action[domain][x]', 'b']]);
    expect(clash.statusCode).toBe(400);

    const unknown = await postForm([...common('dns', 'bad'), ['dns_action[domain]', 'a.example'], ['dns_action[query_type]', 'A'], ['dns_action[colour]', 'red']]);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<{ errors: Record<string, string[]> }>().errors.dns_action).toEqual(['has unknown fields: colour']);

    const withFile = await postMultipart(common('sleep', 'with file'), { name: 'x.txt', content: 'hello' });
    expect(withFile.statusCode).toBeGreaterThanOrEqual(400);
    expect(withFile.statusCode).toBeLessThan(500);
    expect(withFile.json<{ error: string }>().error).toBeTruthy();
  });
});
