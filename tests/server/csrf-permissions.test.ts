import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, permissionsOf, type Role } from '@/api/contracts/permissions';
import type { ContentServiceAnswer, UserRow } from '@/api/contracts/session';
import { startTestServer, type Session, type TestServer } from './helpers';

let t: TestServer;
const sessions = {} as Record<Role, Session>;
beforeAll(async () => {
  t = await startTestServer();
  for (const role of ROLES) sessions[role] = await t.signIn(role);
});
afterAll(async () => {
  await t?.close();
});

const CSRF_ERROR = 'Invalid or missing CSRF token. Reload the page and try again.';
const disconnected = { content_service_state: 'DISCONNECTED', content_service_last_success: null };

const userCount = async () => (await t.db.query<{ n: number }>('select count(*)::int as n from users'))[0]?.n;

describe('CSRF protection', () => {
  it('refuses a mutation without a CSRF token with 403 and changes nothing', async () => {
    const before = await userCount();
    const res = await t.call('POST', '/admin/users.json', {
      as: sessions.admin,
      csrf: false,
      body: { email: 'no-token@example.com', role: 'viewer', password: 'long enough password' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: CSRF_ERROR });
    expect(await userCount()).toBe(before);
  });

  it('refuses a mutation with a wrong token with 403', async () => {
    const res = await t.call('PUT', '/settings/content_service.json', { as: sessions.admin, csrf: 'not-the-token', body: disconnected });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: CSRF_ERROR });
  });

  it('refuses the token of another session', async () => {
    const res = await t.call('PUT', '/settings/content_service.json', { as: sessions.admin, csrf: sessions.viewer.csrfToken, body: disconnected });
    expect(res.statusCode).toBe(403);
  });

  it('refuses an empty token and a token sent twice', async () => {
    expect((await t.call('PUT', '/settings/content_service.json', { as: sessions.admin, csrf: '', body: disconnected })).statusCode).toBe(403);
    const twice = await t.app.inject({
      method: 'PUT',
      url: '/settings/content_service.json',
      headers: { cookie: sessions.admin.cookie, 'x-csrf-token': [sessions.admin.csrfToken, sessions.admin.csrfToken] },
      payload: disconnected,
    });
    expect(twice.statusCode).toBe(403);
  });

  it('refuses a mutation with a token but no session with 403', async () => {
    const res = await t.call('PUT', '/settings/content_service.json', { csrf: sessions.admin.csrfToken, body: disconnected });
    expect(res.statusCode).toBe(403);
  });

  it('accepts the session token in the X-CSRF-Token header', async () => {
    const res = await t.call('PUT', '/settings/content_service.json', { as: sessions.admin, body: disconnected });
    expect(res.statusCode).toBe(200);
    expect(res.json<ContentServiceAnswer>()).toEqual(disconnected);
  });

  it('accepts the session token as the authenticity_token field of a form-encoded body', async () => {
    const res = await t.call('POST', '/admin/users.json', {
      as: sessions.admin,
      form: true,
      body: { email: 'form@example.com', role: 'operator', password: 'long enough password', first_name: 'Fo', last_name: 'Rm' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json<{ data: UserRow }>().data).toMatchObject({ email: 'form@example.com', role: 'operator', first_name: 'Fo' });
    expect(res.body).not.toContain('authenticity_token');

    const patched = await t.call('PATCH', `/admin/users/${res.json<{ data: UserRow }>().data.id}.json`, { as: sessions.admin, form: true, body: { role: 'viewer' } });
    expect(patched.statusCode).toBe(200);
    expect(patched.json<{ data: UserRow }>().data.role).toBe('viewer');
  });

  it('refuses a form-encoded body whose authenticity_token is wrong', async () => {
    const res = await t.call('PUT', '/settings/content_service.json', { as: sessions.admin, form: true, csrf: 'wrong', body: disconnected });
    expect(res.statusCode).toBe(403);
  });

  it('needs no token to read with GET', async () => {
    expect((await t.call('GET', '/environment.json', { as: sessions.viewer, csrf: false })).statusCode).toBe(200);
  });

  it('needs no token to sign in', async () => {
    const res = await t.call('POST', '/users/sign_in.json', { csrf: false, body: t.credentials('viewer') });
    expect(res.statusCode).toBe(200);
  });
});

describe('permissions', () => {
  it('gives each role the permissions of src/api/contracts/permissions.ts at sign-in', () => {
    for (const role of ROLES) {
      expect(sessions[role].answer.user.role).toBe(role);
      expect(sessions[role].answer.user.permissions).toEqual(permissionsOf(role));
    }
  });

  it.each(['viewer', 'operator', 'approver'] as const)('refuses the %s every admin users call with 403', async (role) => {
    const as = sessions[role];
    const [admin] = await t.db.query<{ id: number }>("select id from users where role = 'admin' order by id limit 1");
    const calls = [
      t.call('GET', '/admin/users.json', { as }),
      t.call('POST', '/admin/users.json', { as, body: { email: `${role}-made@example.com`, role: 'admin', password: 'long enough password' } }),
      t.call('PATCH', `/admin/users/${as.answer.user.id}.json`, { as, body: { role: 'admin' } }),
      t.call('PATCH', `/admin/users/${admin?.id}.json`, { as, body: { password: 'taken over password' } }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode).toBe(403);
      expect(res.json<{ error: string }>().error).toBe(`Your role (${role}) does not allow this: users.manage.`);
    }
    const [me] = await t.db.query<{ role: string }>('select role from users where id = $1', [as.answer.user.id]);
    expect(me?.role).toBe(role);
    expect(await t.db.query('select 1 from users where email = $1', [`${role}-made@example.com`])).toHaveLength(0);
  });

  it('refuses the admin users calls without a session with 401', async () => {
    const res = await t.call('GET', '/admin/users.json');
    expect(res.statusCode).toBe(401);
    expect(res.json<{ error: string }>().error).toEqual(expect.any(String));
  });

  it('MON-139: refuses a non-admin recording the content-service state with 403', async () => {
    for (const role of ['viewer', 'operator', 'approver'] as const) {
      const res = await t.call('PUT', '/settings/content_service.json', { as: sessions[role], body: disconnected });
      expect(res.statusCode).toBe(403);
    }
  });
});

describe('malformed requests', () => {
  it('answers a body that is not JSON with 400 and an error', async () => {
    const res = await t.call('PUT', '/settings/content_service.json', { as: sessions.admin, body: '{"content_service_state": ' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'The request body is not valid JSON.' });
  });

  it('answers an unsupported content type with 415 and an error', async () => {
    const res = await t.call('PUT', '/settings/content_service.json', { as: sessions.admin, body: '<xml/>', contentType: 'application/xml' });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ error: 'Unsupported content type.' });
  });

  it('answers an unknown route with 404 JSON', async () => {
    const res = await t.call('GET', '/no/such/route.json', { as: sessions.viewer });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json()).toEqual({ error: 'No route for GET /no/such/route.json' });
  });

  it('answers an unknown route with 404 JSON even without a session', async () => {
    const res = await t.call('GET', '/nothing-here');
    expect(res.statusCode).toBe(404);
    expect(res.json<{ error: string }>().error).toEqual(expect.any(String));
  });

  it('answers a page address asked for as HTML with a plain 503 while the workbench is not built', async () => {
    const res = await t.call('GET', '/jobs/12', { headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('npm run build');
  });
});
