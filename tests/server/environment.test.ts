import { describe, expect, it } from 'vitest';
import { permissionsOf } from '@/api/contracts/permissions';
import type { BackgroundProcessesAnswer, ContentServiceAnswer, Environment, SignInAnswer } from '@/api/contracts/session';
import { useTestServer } from './helpers';

const t = useTestServer();
const [admin, viewer] = [t.session('admin'), t.session('viewer')];

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

describe('environment.json', () => {
  it('MON-055: answers csrfToken, timeZone, utcOffset, userTimeZone, orgUuid, orgId, nistControls, mitreMitigations, plannerVersion, licensed features, user_rights and preferences', async () => {
    const res = await t.call('GET', '/environment.json', { as: viewer });
    expect(res.statusCode).toBe(200);
    const env = res.json<Environment>();
    expect(env).toMatchObject({
      csrfToken: viewer.csrfToken,
      timeZone: 'UTC',
      utcOffset: 0,
      userTimeZone: 'UTC',
      orgUuid: expect.any(String),
      orgId: expect.any(Number),
      plannerVersion: expect.any(String),
      nistControls: expect.any(Boolean),
      mitreMitigations: expect.any(Boolean),
      user_rights: permissionsOf('viewer'),
      preferences: { hide_modal_on_click: expect.any(Boolean), flash_notice_time: expect.any(Number) },
      user: viewer.answer.user,
      session_timeout_min: t.config.sessionTimeoutMin,
    });
    expect(env.licensed_features.length).toBeGreaterThan(0);
    for (const f of env.licensed_features) expect(typeof f).toBe('string');
    expect(res.body).not.toMatch(/password|scrypt/i);
  });

  it('MON-171 the flash_notice_time preference defaults to 2.5 s', async () => {
    const env = (await t.call('GET', '/environment.json', { as: viewer })).json<Environment>();
    expect(env.preferences.flash_notice_time).toBe(2.5);
  });

  it('MON-055 MON-124: gives each role its own user_rights', async () => {
    const env = (await t.call('GET', '/environment.json', { as: admin })).json<Environment>();
    expect(env.user_rights).toEqual(permissionsOf('admin'));
    expect(env.user_rights).toContain('users.manage');
    const operator = await t.signIn('operator');
    expect((await t.call('GET', '/environment.json', { as: operator })).json<Environment>().user_rights).not.toContain('users.manage');
  });

  it('MON-055: answers the user’s own time zone and its offset from UTC in minutes', async () => {
    const traveller = await t.createUser('traveller@example.com', 'viewer');
    await t.db.query("update users set time_zone = 'Asia/Kolkata' where id = $1", [traveller]);
    const s = await t.signIn({ email: 'traveller@example.com', password: t.credentials('viewer').password });
    const env = (await t.call('GET', '/environment.json', { as: s })).json<Environment>();
    expect(env.userTimeZone).toBe('Asia/Kolkata');
    expect(env.utcOffset).toBe(330);
    expect(env.timeZone).toBe('UTC');
  });

  it('answers 401 without a session', async () => {
    const res = await t.call('GET', '/environment.json');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'You need to sign in before continuing.' });
  });

  it('GET /users/session.json says whether the browser is signed in, with 200 either way (a signed-out load logs no 401), and signed in carries the environment', async () => {
    const out = await t.call('GET', '/users/session.json');
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ signed_in: false });
    const inside = await t.call('GET', '/users/session.json', { as: viewer });
    expect(inside.statusCode).toBe(200);
    const env = (await t.call('GET', '/environment.json', { as: viewer })).json<Environment>();
    expect(inside.json()).toEqual({ signed_in: true, environment: env });
  });

  it('the sign-in answer carries the new session’s environment, as GET /environment.json answers it (one round trip to a usable workbench)', async () => {
    const res = await t.call('POST', '/users/sign_in.json', { body: t.credentials('approver') });
    expect(res.statusCode).toBe(200);
    const answer = res.json<SignInAnswer>();
    expect(answer.environment.csrfToken).toBe(answer.csrf_token);
    expect(answer.environment.user).toEqual(answer.user);
    expect(answer.environment.user_rights).toEqual(permissionsOf('approver'));
    const cookie = res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const env = await t.call('GET', '/environment.json', { headers: { cookie } });
    expect(env.statusCode).toBe(200);
    expect(answer.environment).toEqual(env.json<Environment>());
    expect(res.body).not.toMatch(/password_hash|scrypt/i);
  });
});

describe('background processes', () => {
  it('JOB-084 JOB-040: lists the user’s finished processes as failed and completed {id, result, updated_at}, each only once', async () => {
    const me = viewer.answer.user.id;
    const other = admin.answer.user.id;
    const rows = await t.db.query<{ id: number; status: string }>(
      `insert into background_processes (user_id, kind, status, result, updated_at) values
         ($1, 'pcap', 'completed', 'capture.pcap processed: 12 conversations', '2026-11-20T10:00:00Z'),
         ($1, 'pcap', 'failed', 'broken.pcap is not a capture file', '2026-11-20T10:05:00Z'),
         ($1, 'export', 'running', '', now()),
         ($2, 'export', 'completed', 'someone else''s export', now())
       returning id, status`,
      [me, other],
    );
    const idOf = (status: string) => rows.find((r) => r.status === status)?.id;

    const first = await t.call('GET', '/check_completed_background_processes', { as: viewer });
    expect(first.statusCode).toBe(200);
    const answer = first.json<BackgroundProcessesAnswer>();
    expect(answer).toEqual({
      failed: [{ id: idOf('failed'), result: 'broken.pcap is not a capture file', updated_at: '2026-11-20T10:05:00.000Z' }],
      completed: [{ id: rows[0]?.id, result: 'capture.pcap processed: 12 conversations', updated_at: '2026-11-20T10:00:00.000Z' }],
    });

    const second = await t.call('GET', '/check_completed_background_processes', { as: viewer });
    expect(second.json<BackgroundProcessesAnswer>()).toEqual({ failed: [], completed: [] });

    // The running one is answered once it finishes.
    await t.db.query("update background_processes set status = 'completed', result = 'export ready', updated_at = now() where id = $1", [idOf('running')]);
    const third = await t.call('GET', '/check_completed_background_processes', { as: viewer });
    const done = third.json<BackgroundProcessesAnswer>();
    expect(done.failed).toEqual([]);
    expect(done.completed).toEqual([{ id: idOf('running'), result: 'export ready', updated_at: expect.stringMatching(ISO) }]);

    // The other user still gets their own.
    const theirs = (await t.call('GET', '/check_completed_background_processes', { as: admin })).json<BackgroundProcessesAnswer>();
    expect(theirs.completed.map((n) => n.result)).toEqual(["someone else's export"]);
  });

  it('answers 401 without a session', async () => {
    expect((await t.call('GET', '/check_completed_background_processes')).statusCode).toBe(401);
  });
});

describe('content service state', () => {
  it('MON-139 MON-050: answers CONNECTED with a last-success time by default', async () => {
    const res = await t.call('GET', '/settings/content_service.json', { as: viewer });
    expect(res.statusCode).toBe(200);
    const answer = res.json<ContentServiceAnswer>();
    expect(answer.content_service_state).toBe('CONNECTED');
    expect(answer.content_service_last_success).toMatch(ISO);
    expect(Object.keys(answer).sort()).toEqual(['content_service_last_success', 'content_service_state']);
  });

  it('MON-139 MON-050: lets an administrator record the state, which every user then reads', async () => {
    const value = { content_service_state: 'RECONNECTING', content_service_last_success: '2026-11-21T08:30:00.000Z' };
    const put = await t.call('PUT', '/settings/content_service.json', { as: admin, body: value });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual(value);
    expect((await t.call('GET', '/settings/content_service.json', { as: viewer })).json()).toEqual(value);

    const withOffset = { content_service_state: 'DISCONNECTED', content_service_last_success: '2026-11-21T09:30:00+01:00' };
    const normalized = (await t.call('PUT', '/settings/content_service.json', { as: admin, body: withOffset })).json<ContentServiceAnswer>();
    expect(normalized).toEqual({ content_service_state: 'DISCONNECTED', content_service_last_success: '2026-11-21T08:30:00.000Z' });

    const back = { content_service_state: 'CONNECTED', content_service_last_success: null };
    expect((await t.call('PUT', '/settings/content_service.json', { as: admin, body: back })).json()).toEqual(back);
    expect((await t.call('GET', '/settings/content_service.json', { as: viewer })).json()).toEqual(back);
  });

  it('MON-139: refuses an unknown state, a missing state, a bad time, wrong types and unknown fields with 400', async () => {
    const before = (await t.call('GET', '/settings/content_service.json', { as: viewer })).json();
    const cases: [unknown, string][] = [
      [{ content_service_state: 'OFFLINE' }, 'content_service_state'],
      [{ content_service_last_success: null }, 'content_service_state'],
      [{ content_service_state: ['CONNECTED'] }, 'content_service_state'],
      [{ content_service_state: 'CONNECTED', content_service_last_success: 'yesterday-ish' }, 'content_service_last_success'],
      [{ content_service_state: 'CONNECTED', content_service_last_success: 42 }, 'content_service_last_success'],
    ];
    for (const [body, field] of cases) {
      const res = await t.call('PUT', '/settings/content_service.json', { as: admin, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      const answer = res.json<{ error: string; errors: Record<string, string[]> }>();
      expect(answer.error, JSON.stringify(body)).toEqual(expect.any(String));
      expect(Object.keys(answer.errors), JSON.stringify(body)).toEqual([field]);
    }
    const unknown = await t.call('PUT', '/settings/content_service.json', { as: admin, body: { content_service_state: 'CONNECTED', banner: 'x' } });
    expect(unknown.statusCode).toBe(400);
    expect((await t.call('GET', '/settings/content_service.json', { as: viewer })).json()).toEqual(before);
  });

  it('answers 401 without a session', async () => {
    expect((await t.call('GET', '/settings/content_service.json')).statusCode).toBe(401);
  });
});
