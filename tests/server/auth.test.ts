import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignInThrottle, THROTTLE_WINDOW_MIN } from '../../server/auth/throttle';
import { SESSION_COOKIE } from '../../server/auth/sessions';
import type { Db } from '../../server/db/index';
import { permissionsOf } from '@/api/contracts/permissions';
import type { SignInAnswer, VerifySessionAnswer } from '@/api/contracts/session';
import { EMAILS, PASSWORD, startTestServer, type Session, type TestServer } from './helpers';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const expiresAt = async (db: Db, s: Session): Promise<number> => {
  const [row] = await db.query<{ expires_at: Date }>(
    'select s.expires_at from sessions s join users u on u.id = s.user_id where s.csrf_token = $1',
    [s.csrfToken],
  );
  if (!row) throw new Error('session row not found');
  return new Date(row.expires_at).getTime();
};

describe('sign in', () => {
  it('refuses a wrong password with 401, then signs in with the right one and sets an httpOnly SameSite=Lax cookie', async () => {
    const wrong = await t.call('POST', '/users/sign_in.json', { body: { email: EMAILS.operator, password: 'not the password' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: 'Invalid email or password.' });
    expect(wrong.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();

    const right = await t.call('POST', '/users/sign_in.json', { body: { email: EMAILS.operator, password: PASSWORD } });
    expect(right.statusCode).toBe(200);
    const answer = right.json<SignInAnswer>();
    expect(answer.csrf_token).toMatch(/^[\w-]{32,}$/);
    expect(answer.user).toEqual({
      id: expect.any(Number),
      email: EMAILS.operator,
      first_name: 'Oscar',
      last_name: 'Operator',
      role: 'operator',
      permissions: permissionsOf('operator'),
    });
    const cookie = right.cookies.find((c) => c.name === SESSION_COOKIE);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.value).not.toBe('');
    expect(cookie?.value).not.toBe(answer.csrf_token);
  });

  it('never sends the password hash or the password back', async () => {
    const res = await t.call('POST', '/users/sign_in.json', { body: { email: EMAILS.admin, password: PASSWORD } });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toMatch(/password|scrypt/i);
  });

  it('stores only a digest of the session cookie, never the cookie itself', async () => {
    const s = await t.signIn('viewer');
    const value = s.cookie.split('=')[1] ?? '';
    const rows = await t.db.query('select 1 from sessions where id = $1', [value]);
    expect(rows).toHaveLength(0);
  });

  it('answers an unknown email with the same 401 as a wrong password', async () => {
    const res = await t.call('POST', '/users/sign_in.json', { body: { email: 'nobody@example.com', password: PASSWORD } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'Invalid email or password.' });
  });

  it('accepts the email in any letter case', async () => {
    const res = await t.call('POST', '/users/sign_in.json', { body: { email: 'Approver@Example.COM', password: PASSWORD } });
    expect(res.statusCode).toBe(200);
    expect(res.json<SignInAnswer>().user.role).toBe('approver');
  });

  it('answers a body that is not JSON with 400 and an error, not 500', async () => {
    const res = await t.call('POST', '/users/sign_in.json', { body: '{"email": "admin@example.com",' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'The request body is not valid JSON.' });
  });

  it('answers an empty JSON body with 400 and an error', async () => {
    const res = await t.call('POST', '/users/sign_in.json', { body: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: string }>().error).toEqual(expect.any(String));
  });

  it('answers a missing password with 400 and a message naming the field', async () => {
    const res = await t.call('POST', '/users/sign_in.json', { body: { email: EMAILS.admin } });
    expect(res.statusCode).toBe(400);
    const body = res.json<{ error: string; errors: Record<string, string[]> }>();
    expect(body.error).toContain('Password is required');
    expect(body.errors).toEqual({ password: ['Password is required'] });
  });

  it('answers a missing email and password with 400 naming both fields', async () => {
    const res = await t.call('POST', '/users/sign_in.json', { body: {} });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json<{ errors: Record<string, string[]> }>().errors).sort()).toEqual(['email', 'password']);
  });

  it('answers fields of the wrong type with 400', async () => {
    for (const body of [{ email: 42, password: PASSWORD }, { email: EMAILS.admin, password: ['x'] }, { email: EMAILS.admin, password: 12345678 }]) {
      const res = await t.call('POST', '/users/sign_in.json', { body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json<{ error: string }>().error).toEqual(expect.any(String));
    }
  });

  it('answers a JSON body that is not an object with 400', async () => {
    for (const body of ['[]', '"admin"', 'null', '42']) {
      const res = await t.call('POST', '/users/sign_in.json', { body });
      expect(res.statusCode, body).toBe(400);
      expect(res.json<{ error: string }>().error).toEqual(expect.any(String));
    }
  });

  it('answers a form-encoded sign-in like a JSON one', async () => {
    const res = await t.call('POST', '/users/sign_in.json', { form: true, body: { email: EMAILS.viewer, password: PASSWORD } });
    expect(res.statusCode).toBe(200);
    expect(res.json<SignInAnswer>().user.role).toBe('viewer');
  });

  it('ignores an authenticity_token field sent along with the sign-in form', async () => {
    const res = await t.call('POST', '/users/sign_in.json', { form: true, csrf: 'from-the-page-meta-tag', body: { email: EMAILS.viewer, password: PASSWORD } });
    expect(res.statusCode).toBe(200);
  });
});

describe('sign-in throttle', () => {
  it('asks for no delay during the first 3 failures, then 0.5 s doubling up to 8 s', () => {
    const throttle = new SignInThrottle(t.db, async () => {});
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 19].map((n) => throttle.delayFor(n))).toEqual([0, 0, 0, 500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });

  it('refuses an address at an account after 20 attempts, and any address after 200 attempts', () => {
    const throttle = new SignInThrottle(t.db, async () => {});
    expect(throttle.isLocked({ pair: 19, address: 19, account: 500 })).toBe(false);
    expect(throttle.isLocked({ pair: 20, address: 20, account: 0 })).toBe(true);
    expect(throttle.isLocked({ pair: 0, address: 200, account: 0 })).toBe(true);
  });

  it('counts only failures of the last 15 minutes, per email in any letter case', async () => {
    const throttle = new SignInThrottle(t.db, async () => {});
    const email = 'window@example.com';
    await t.db.query(`insert into sign_in_failures (email, ip, at) values ($1, 'x', now() - interval '${THROTTLE_WINDOW_MIN + 1} minutes')`, [email]);
    await throttle.recordFailure('Window@Example.com', '127.0.0.1');
    await throttle.recordFailure(email, '127.0.0.1');
    expect(await throttle.recentFailures('WINDOW@example.com')).toBe(2);
    await throttle.succeeded(email, '127.0.0.1');
    expect(await throttle.recentFailures(email)).toBe(0);
  });

  it('slows sign-in down after repeated failures and a success resets the count', async () => {
    const email = 'slow@example.com';
    await t.createUser(email, 'viewer');
    t.sleeps.length = 0;
    for (let i = 0; i < 5; i++) {
      const res = await t.call('POST', '/users/sign_in.json', { body: { email, password: 'wrong password' } });
      expect(res.statusCode).toBe(401);
    }
    // Attempts 4 and 5 come after 3 and 4 failures.
    expect(t.sleeps).toEqual([500, 1000]);

    t.sleeps.length = 0;
    const ok = await t.call('POST', '/users/sign_in.json', { body: { email, password: PASSWORD } });
    expect(ok.statusCode).toBe(200);
    expect(t.sleeps).toEqual([2000]);

    t.sleeps.length = 0;
    const again = await t.call('POST', '/users/sign_in.json', { body: { email, password: 'wrong password' } });
    expect(again.statusCode).toBe(401);
    expect(t.sleeps).toEqual([]);
  });

  it('SEC-THROTTLE 30 concurrent guesses from one address: exactly 20 are checked, the rest and then the right password from there answer 429', async () => {
    const email = 'raced@example.com';
    await t.createUser(email, 'viewer');
    const guess = (password: string, remoteAddress: string) =>
      t.app.inject({ method: 'POST', url: '/users/sign_in.json', remoteAddress, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email, password }) });
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => guess(`wrong guess ${i}`, '10.9.9.9')));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes.filter((c) => c === 401)).toHaveLength(20);
    expect(codes.filter((c) => c === 429)).toHaveLength(10);
    const right = await guess(PASSWORD, '10.9.9.9');
    expect(right.statusCode).toBe(429);
    expect(right.json<{ error: string }>().error).toMatch(/Too many failed sign-in attempts/);
    expect(right.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
    const [row] = await t.db.query<{ n: number }>('select count(*)::int as n from sign_in_failures where email = $1', [email]);
    expect(row?.n).toBe(20);
  });

  it('SEC-THROTTLE failures from another address never lock the real user out: they only slow the account (at most 8 s)', async () => {
    const email = 'targeted@example.com';
    await t.createUser(email, 'viewer');
    await t.db.query(`insert into sign_in_failures (email, ip) select $1, '10.0.0.1' from generate_series(1, 50)`, [email]);
    t.sleeps.length = 0;
    const res = await t.call('POST', '/users/sign_in.json', { body: { email, password: PASSWORD } });
    expect(res.statusCode).toBe(200);
    expect(t.sleeps).toEqual([8000]);
  });

  it('lets the email sign in again once its failures are older than the window', async () => {
    const email = 'unlocked@example.com';
    await t.createUser(email, 'viewer');
    await t.db.query(
      `insert into sign_in_failures (email, ip, at) select $1, '10.0.0.1', now() - interval '${THROTTLE_WINDOW_MIN + 1} minutes' from generate_series(1, 25)`,
      [email],
    );
    const res = await t.call('POST', '/users/sign_in.json', { body: { email, password: PASSWORD } });
    expect(res.statusCode).toBe(200);
  });
});

describe('sign out', () => {
  it('ends the session: the old cookie then gets 401', async () => {
    const s = await t.signIn('operator');
    expect((await t.call('GET', '/users/verify_user_session', { as: s })).statusCode).toBe(200);
    const out = await t.call('DELETE', '/users/sign_out', { as: s });
    expect(out.statusCode).toBe(200);
    const cleared = out.cookies.find((c) => c.name === SESSION_COOKIE);
    expect(cleared?.value).toBe('');
    const after = await t.call('GET', '/users/verify_user_session', { as: s });
    expect(after.statusCode).toBe(401);
    expect(after.json<{ error: string }>().error).toEqual(expect.any(String));
    expect((await t.call('GET', '/environment.json', { as: s })).statusCode).toBe(401);
  });

  it('keeps the session when sign-out comes without the CSRF token', async () => {
    const s = await t.signIn('operator');
    const out = await t.call('DELETE', '/users/sign_out', { as: s, csrf: false });
    expect(out.statusCode).toBe(403);
    expect((await t.call('GET', '/users/verify_user_session', { as: s })).statusCode).toBe(200);
  });

  it('answers sign-out without a live session quietly, clearing the cookie', async () => {
    const out = await t.call('DELETE', '/users/sign_out', { csrf: false });
    expect(out.statusCode).toBe(200);
    expect(out.cookies.find((c) => c.name === SESSION_COOKIE)?.value).toBe('');
  });

  it('ends only the session signed out, not the same user’s other sessions', async () => {
    const a = await t.signIn('approver');
    const b = await t.signIn('approver');
    expect((await t.call('DELETE', '/users/sign_out', { as: a })).statusCode).toBe(200);
    expect((await t.call('GET', '/users/verify_user_session', { as: a })).statusCode).toBe(401);
    expect((await t.call('GET', '/users/verify_user_session', { as: b })).statusCode).toBe(200);
  });
});

describe('session timeout', () => {
  it('MON-137 MON-054: verify_user_session answers time_left close to SESSION_TIMEOUT_MIN * 60 seconds after sign-in', async () => {
    const s = await t.signIn('viewer');
    const res = await t.call('GET', '/users/verify_user_session', { as: s });
    expect(res.statusCode).toBe(200);
    const { time_left } = res.json<VerifySessionAnswer>();
    expect(Object.keys(res.json<object>())).toEqual(['time_left']);
    expect(time_left).toBeGreaterThanOrEqual(t.config.sessionTimeoutMin * 60 - 2);
    expect(time_left).toBeLessThanOrEqual(t.config.sessionTimeoutMin * 60);
  });

  it('MON-137 MON-138: verifying does not extend the session, reset_user_session_timeout does', async () => {
    const s = await t.signIn('viewer');
    // Let the session run down to about 60 s.
    await t.db.query(`update sessions set expires_at = now() + interval '60 seconds' where csrf_token = $1`, [s.csrfToken]);
    const before = await expiresAt(t.db, s);

    const verify = await t.call('GET', '/users/verify_user_session', { as: s });
    expect(verify.json<VerifySessionAnswer>().time_left).toBeGreaterThanOrEqual(58);
    expect(verify.json<VerifySessionAnswer>().time_left).toBeLessThanOrEqual(60);
    expect(await expiresAt(t.db, s)).toBe(before);

    const reset = await t.call('GET', '/users/reset_user_session_timeout', { as: s });
    expect(reset.statusCode).toBe(200);
    expect(reset.json<VerifySessionAnswer>().time_left).toBeGreaterThanOrEqual(t.config.sessionTimeoutMin * 60 - 2);
    expect(await expiresAt(t.db, s)).toBeGreaterThan(before + 60_000);

    const verifyAgain = await t.call('GET', '/users/verify_user_session', { as: s });
    expect(verifyAgain.json<VerifySessionAnswer>().time_left).toBeGreaterThanOrEqual(t.config.sessionTimeoutMin * 60 - 2);
  });

  it('MON-142: a call marked as a background task does not extend the session, an ordinary call does', async () => {
    const s = await t.signIn('viewer');
    await t.db.query(`update sessions set expires_at = now() + interval '60 seconds' where csrf_token = $1`, [s.csrfToken]);
    const before = await expiresAt(t.db, s);
    const background = await t.call('GET', '/environment.json', { as: s, headers: { 'x-background-task': 'true' } });
    expect(background.statusCode).toBe(200);
    expect(await expiresAt(t.db, s)).toBe(before);
    for (const poll of ['/check_completed_background_processes', '/settings/content_service.json']) {
      expect((await t.call('GET', poll, { as: s })).statusCode).toBe(200);
      expect(await expiresAt(t.db, s)).toBe(before);
    }
    expect((await t.call('GET', '/environment.json', { as: s })).statusCode).toBe(200);
    expect(await expiresAt(t.db, s)).toBeGreaterThan(before + 60_000);
  });

  it('a burst of ordinary calls right after an extension writes the session once: it is extended again only after a step of the timeout', async () => {
    const s = await t.signIn('viewer');
    const fresh = await expiresAt(t.db, s);
    for (let i = 0; i < 5; i++) expect((await t.call('GET', '/environment.json', { as: s })).statusCode).toBe(200);
    expect(await expiresAt(t.db, s)).toBe(fresh);
    // A minute (the step for a 30-minute timeout) later, the next call extends it to a full timeout again.
    await t.db.query(`update sessions set expires_at = expires_at - interval '61 seconds' where csrf_token = $1`, [s.csrfToken]);
    const aged = await expiresAt(t.db, s);
    expect((await t.call('GET', '/environment.json', { as: s })).statusCode).toBe(200);
    expect(await expiresAt(t.db, s)).toBeGreaterThan(aged + 60_000);
  });

  it('answers 401 once the session has expired, and forgets the expired session', async () => {
    const quick = await t.buildOtherApp({ sessionTimeoutMin: 0.001 }); // 60 ms
    const s = await t.signIn('operator', quick);
    expect((await expiresAt(t.db, s)) - Date.now()).toBeLessThanOrEqual(60);
    // Its 60 ms pass (the clock moved instead of waiting for it).
    await t.db.query(`update sessions set expires_at = expires_at - interval '1 second' where csrf_token = $1`, [s.csrfToken]);
    const res = await t.call('GET', '/users/verify_user_session', { as: s, app: quick });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'You need to sign in before continuing.' });
    expect(await t.db.query('select 1 from sessions where csrf_token = $1', [s.csrfToken])).toHaveLength(0);
    expect((await t.call('GET', '/users/reset_user_session_timeout', { as: s, app: quick })).statusCode).toBe(401);
  });

  it('answers 401 without a session cookie or with an unknown one', async () => {
    for (const cookie of [undefined, `${SESSION_COOKIE}=not-a-session`]) {
      const res = await t.call('GET', '/users/verify_user_session', cookie ? { headers: { cookie } } : {});
      expect(res.statusCode).toBe(401);
      expect(res.json<{ error: string }>().error).toEqual(expect.any(String));
    }
  });
});

describe('session rotation and absolute lifetime', () => {
  it('SEC-SESSION signing in again from a browser with a session ends the old session: its id dies', async () => {
    const first = await t.signIn('operator');
    const res = await t.call('POST', '/users/sign_in.json', { headers: { cookie: first.cookie }, body: t.credentials('operator') });
    expect(res.statusCode).toBe(200);
    const fresh = res.cookies.find((c) => c.name === SESSION_COOKIE)?.value;
    expect(fresh).toBeTruthy();
    expect(`${SESSION_COOKIE}=${fresh}`).not.toBe(first.cookie);
    expect((await t.call('GET', '/users/verify_user_session', { as: first })).statusCode).toBe(401);
    expect((await t.call('GET', '/users/verify_user_session', { headers: { cookie: `${SESSION_COOKIE}=${fresh}` } })).statusCode).toBe(200);
  });

  it('SEC-SESSION a session older than SESSION_MAX_HOURS is dead even while active, and extension never passes the limit', async () => {
    const s = await t.signIn('viewer');
    // Extending caps the expiry at created_at + SESSION_MAX_HOURS.
    await t.db.query(`update sessions set created_at = now() - interval '11 hours 59 minutes 30 seconds' where csrf_token = $1`, [s.csrfToken]);
    const reset = await t.call('GET', '/users/reset_user_session_timeout', { as: s });
    expect(reset.statusCode).toBe(200);
    expect(reset.json<VerifySessionAnswer>().time_left).toBeLessThanOrEqual(30);
    await t.db.query(`update sessions set created_at = now() - interval '${t.config.sessionMaxHours} hours 1 minute' where csrf_token = $1`, [s.csrfToken]);
    expect((await t.call('GET', '/users/verify_user_session', { as: s })).statusCode).toBe(401);
  });
});
