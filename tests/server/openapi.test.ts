/**
 * The OpenAPI 3.1 description (GET /api/openapi.json, server/openapi/): every registered route is
 * described, its schemas are valid JSON Schema 2020-12, and real answers of the director validate
 * against it (the error answers of every call; the content types of the successful GET answers; the
 * successful answers of the main calls against their schemas, generated from the client's answer types).
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../server/seed/demo';
import { startTestServer, type Session, type TestServer } from './helpers';

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { summary: string; security: unknown[]; requestBody?: { content: Record<string, { schema: object }> }; parameters: { name: string; in: string; schema: object }[]; responses: Record<string, { content?: Record<string, { schema: object }> }> }>>;
  components: { schemas: Record<string, object> };
};

let t: TestServer;
let admin: Session;
let doc: Doc;
// Ajv 8 (JSON Schema 2020-12) as Fastify's own validator compiler resolves it: the project's top-level ajv is 6.
const fastifyAjv = createRequire(createRequire(import.meta.url).resolve('@fastify/ajv-compiler'));
interface Ajv {
  addSchema(schema: object): void;
  getSchema(ref: string): ((data: unknown) => boolean) | undefined;
  compile(schema: object): (data: unknown) => boolean;
}
const { default: Ajv2020 } = fastifyAjv('ajv/dist/2020') as { default: new (o: object) => Ajv };
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });

const toPath = (url: string) => url.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');

beforeAll(async () => {
  t = await startTestServer();
  await seedDemo(t.db, { jobs: 4 });
  admin = await t.signIn('admin');
  const res = await t.call('GET', '/api/openapi.json');
  expect(res.statusCode, res.body).toBe(200);
  doc = res.json<Doc>();
  ajv.addSchema({ $id: 'doc', ...doc, $schema: undefined });
});
afterAll(async () => {
  await t?.close();
});

type Validator = ((d: unknown) => boolean) & { errors?: { instancePath: string; message?: string }[] };
const compiled = new Map<string, Validator>();
/** The validator of one answer schema of the description, compiled where it sits (its `$ref`s resolve in the document); the same schema once. */
function answerValidator(method: string, p: string, status: string, type: string): Validator {
  const schema = doc.paths[p]![method]!.responses[status]!.content![type]!.schema;
  const key = JSON.stringify(schema);
  let v = compiled.get(key);
  if (!v) {
    v = ajv.compile({ $ref: `doc#/paths/${p.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}/responses/${status}/content/${type.replace(/\//g, '~1')}/schema` }) as Validator;
    compiled.set(key, v);
  }
  return v;
}

const errorSchema = () => ajv.getSchema('doc#/components/schemas/ErrorAnswer')!;

describe('the OpenAPI description', () => {
  it('is OpenAPI 3.1, served without a session, and describes every registered route with a summary', () => {
    expect(doc.openapi).toBe('3.1.0');
    const missing = t.app.routeList.filter((r) => !doc.paths[toPath(r.url)]?.[r.method.toLowerCase()]?.summary).map((r) => `${r.method} ${r.url}`);
    expect(missing).toEqual([]);
    const described = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
    expect(described).toBe(t.app.routeList.length);
    expect(described).toBeGreaterThan(150);
  });

  it('every call has an answer schema: a JSON call the schema of its answer type, any other call its content type', () => {
    const missing: string[] = [];
    for (const r of t.app.routeList) {
      const content = doc.paths[toPath(r.url)]![r.method.toLowerCase()]!.responses['200']!.content ?? {};
      const json = content['application/json']?.schema as { $ref?: string; type?: unknown; anyOf?: unknown[] } | undefined;
      const other = Object.entries(content).filter(([type, c]) => type !== 'application/json' && Object.keys(c.schema).length);
      if (json ? !(json.$ref || json.type || json.anyOf) : !other.length) missing.push(`${r.method} ${r.url}`);
    }
    expect(missing).toEqual([]);
    const jsonCalls = t.app.routeList.filter((r) => doc.paths[toPath(r.url)]![r.method.toLowerCase()]!.responses['200']!.content?.['application/json']);
    expect(jsonCalls.length).toBeGreaterThan(150);
  });

  it("every request and answer schema is valid JSON Schema 2020-12, and the body schemas are the routes' own: an unknown field the description forbids is refused by the route with 400", { timeout: 120_000 }, async () => {
    let bodies = 0;
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const c of Object.values(op.requestBody?.content ?? {})) expect(() => ajv.compile(c.schema), `${method} ${p}`).not.toThrow();
        for (const prm of op.parameters) expect(() => ajv.compile(prm.schema), `${method} ${p} ${prm.name}`).not.toThrow();
        for (const [status, r] of Object.entries(op.responses)) {
          for (const type of Object.keys(r.content ?? {})) expect(() => answerValidator(method, p, status, type), `${method} ${p}`).not.toThrow();
        }
        const json = op.requestBody?.content['application/json']?.schema as { additionalProperties?: boolean; properties?: object } | undefined;
        if (!json || json.additionalProperties !== false || p.startsWith('/api/actor') || p.includes('{')) continue;
        const res = await t.call(method.toUpperCase() as 'POST', p, { as: admin, body: { not_a_field_of_this_call: 1 } });
        expect(res.statusCode, `${method.toUpperCase()} ${p}: ${res.body}`).toBe(400);
        expect(errorSchema()(res.json()), `${method.toUpperCase()} ${p}`).toBe(true);
        bodies++;
      }
    }
    expect(bodies).toBeGreaterThan(10);
  });

  it('the error answer of every call, anonymous and without a CSRF token, validates against the description', async () => {
    const failures: string[] = [];
    for (const r of t.app.routeList) {
      const op = doc.paths[toPath(r.url)]![r.method.toLowerCase()]!;
      if (!op.security.length) continue;
      const res = await t.call(r.method as 'GET', r.url.replace(/:[A-Za-z_]+/g, '1'), { headers: { accept: 'application/json' }, ...(r.method === 'GET' ? {} : { body: {} }) });
      if (res.statusCode < 400 || res.statusCode >= 500) failures.push(`${r.method} ${r.url}: ${res.statusCode}`);
      else if (!errorSchema()(res.json())) failures.push(`${r.method} ${r.url}: ${res.body}`);
    }
    expect(failures).toEqual([]);
  });

  it('the successful answers of the main calls validate against the schemas the description gives them', async () => {
    const failures: string[] = [];
    const checked: string[] = [];
    const check = async (route: string, res: { statusCode: number; body: string; json: () => unknown }) => {
      const [method, url] = route.split(' ') as [string, string];
      const schema = doc.paths[toPath(url)]?.[method.toLowerCase()]?.responses['200']?.content?.['application/json']?.schema as { $ref?: string; type?: unknown; anyOf?: unknown[] } | undefined;
      // A union answer (GET /users/session.json: signed out, or signed in with the environment) is an anyOf.
      expect(schema && (schema.$ref || schema.type || schema.anyOf), `${route} has an answer schema`).toBeTruthy();
      expect(res.statusCode, `${route}: ${res.body.slice(0, 300)}`).toBeLessThan(300);
      const validate = answerValidator(method.toLowerCase(), toPath(url), '200', 'application/json');
      if (validate(res.json())) checked.push(route);
      else failures.push(`${route}: ${(validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath} ${e.message ?? ''}`).join('; ')}`);
    };
    // Every GET call without path parameters that answers 200 to a bare request.
    for (const r of t.app.routeList) {
      if (r.method !== 'GET' || r.url.includes(':')) continue;
      const op = doc.paths[toPath(r.url)]!.get!;
      const schema = op.responses['200']!.content?.['application/json']?.schema;
      if (!schema || !Object.keys(schema).length) continue;
      const res = await t.call('GET', r.url, { as: admin });
      if (res.statusCode === 200) await check(`GET ${r.url}`, res);
    }
    // Calls with path parameters and required queries, on the demo content and on things created here.
    const one = async (sql: string) => (await t.db.query<{ id: number }>(sql))[0]!.id;
    const job = await one('select id from jobs order by id limit 1');
    const step = await one(`select id from job_steps where job_id = ${job} order by id limit 1`);
    const jobAction = await one('select id from job_actions order by id limit 1');
    const action = await one('select id from actions order by id limit 1');
    const node = await one('select id from nodes order by id limit 1');
    await check('GET /jobs/:id', await t.call('GET', `/jobs/${job}.json`, { as: admin }));
    await check('GET /jobs/list_page_job_actions', await t.call('GET', `/jobs/list_page_job_actions?job_step_ids[]=${step}`, { as: admin }));
    await check('GET /reports/summary.json', await t.call('GET', `/reports/summary.json?job_ids[]=${job}`, { as: admin }));
    await check('GET /jobs/job_actions/:id/events.json', await t.call('GET', `/jobs/job_actions/${jobAction}/events.json`, { as: admin }));
    await check('GET /jobs/job_actions/:id/evidence.json', await t.call('GET', `/jobs/job_actions/${jobAction}/evidence.json`, { as: admin }));
    await check('GET /manage_sims/actions/:id/form.json', await t.call('GET', `/manage_sims/actions/${action}/form.json`, { as: admin }));
    await check('GET /manage_sims/v2/actions/detail.json', await t.call('GET', `/manage_sims/v2/actions/detail.json?id=${action}`, { as: admin }));
    await check('GET /library/actions.json', await t.call('GET', `/library/actions.json?id=${action}`, { as: admin }));
    await check('GET /topology/nodes/:id.json', await t.call('GET', `/topology/nodes/${node}.json`, { as: admin }));
    const dashboard = await t.call('POST', '/dashboards.json', { as: admin, body: { name: 'OpenAPI answers' } });
    await check('POST /dashboards.json', dashboard);
    await check('GET /dashboards/:id', await t.call('GET', `/dashboards/${dashboard.json<{ id: number }>().id}`, { as: admin }));
    const token = await t.call('POST', '/bulk_tokens.json', { as: admin, body: { name: 'openapi', hours: 1 } });
    await check('POST /bulk_tokens.json', token);
    await check('GET /actors/tables.json', await t.call('GET', '/actors/tables.json', { as: admin }));
    await check('POST /users/sign_in.json', await t.call('POST', '/users/sign_in.json', { body: t.credentials('viewer') }));
    // Answers typed by their handlers or declared (server/openapi/declared-answers.ts), not by a client call.
    const libraryFile = await one('select id from file_library order by id limit 1');
    await check('GET /run/jobs/:id/status.json', await t.call('GET', `/run/jobs/${job}/status.json`, { as: admin }));
    await check('GET /manage_sims/file_transfer_libraries/:id.json', await t.call('GET', `/manage_sims/file_transfer_libraries/${libraryFile}.json`, { as: admin }));
    await check('POST /manage_sims/library_actions_filter.json', await t.call('POST', '/manage_sims/library_actions_filter.json', { as: admin, body: {} }));
    await check('DELETE /users/sign_out', await t.call('DELETE', '/users/sign_out', { as: await t.signIn('viewer') }));
    expect(failures).toEqual([]);
    expect(checked.length, checked.join(', ')).toBeGreaterThan(40);
  });

  it('the successful answers of the GET calls without parameters come in the content type the description names', async () => {
    let checked = 0;
    for (const r of t.app.routeList) {
      if (r.method !== 'GET' || r.url.includes(':') || r.url === '/') continue;
      const res = await t.call('GET', r.url, { as: admin, headers: { accept: 'application/json' } });
      if (res.statusCode !== 200) continue;
      const types = Object.keys(doc.paths[toPath(r.url)]!.get!.responses['200']!.content ?? {});
      expect(types, r.url).toContain(String(res.headers['content-type']).split(';')[0]);
      checked++;
    }
    expect(checked).toBeGreaterThan(30);
  });
});
