/**
 * Passwords per OWASP ASVS 2.1: length 12..128, common and breached passwords refused (the bundled
 * list, in any case, repeated or padded), users change their own password with the current one (their
 * other sessions end), administrators reset others', and generated and demo passwords meet the rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '@/api/contracts/session';
import { passwordProblem } from '../../server/auth/password-policy';
import { generatePassword } from '../../server/auth/passwords';
import { ADMIN_PASSWORD, DEMO_USER_PASSWORD } from '../../e2e/director';
import { EMAILS, PASSWORD, startTestServer, type Session, type TestServer } from './helpers';

let t: TestServer;
let admin: Session;
beforeAll(async () => {
  t = await startTestServer();
  admin = await t.signIn('admin');
});
afterAll(async () => {
  await t?.close();
});

type ErrorAnswer = { error: string; errors?: Record<string, string[]> };

describe('the password rules', () => {
  it('refuse fewer than 12 and more than 128 characters, and accept 12 and 128', () => {
    expect(passwordProblem('Tr0ub4dor&3')).toBe('Password must be at least 12 characters');
    expect(passwordProblem('x7#Kq!m2Lp@9')).toBeNull();
    expect(passwordProblem('a9$'.repeat(42) + 'zq')).toBeNull(); // 128
    expect(passwordProblem('a9$'.repeat(43))).toBe('Password must be at most 128 characters'); // 129
    // Characters, not UTF-16 units: twelve emoji are twelve characters.
    expect(passwordProblem('🔒🗝️🐉🌋🧭🎻🪐🦉🍄🛶🎲🧿'.replace('\uFE0F', ''))).toBeNull();
  });

  it('refuse listed passwords in any case, repeated, or padded with digits and symbols', () => {
    for (const p of ['password1234', 'PASSWORD123456', 'Password1234!', 'passwordpassword', 'qwerty123456', '2024Football!!', 'Sunshine2024!', 'iloveyou1234', 'masterbating']) {
      expect(passwordProblem(p), p).toBe('Password is a commonly used password; choose another');
    }
  });

  it('refuse one repeated character and runs of keys or digits', () => {
    for (const p of ['aaaaaaaaaaaa', '123456789012', '210987654321', 'qwertyuiopqw', 'abcdefghijklm', '111111111111111']) {
      expect(passwordProblem(p), p).not.toBeNull();
    }
  });

  it('accept the passphrases the demo, the tests and generated passwords use', () => {
    for (const p of [PASSWORD, ADMIN_PASSWORD, DEMO_USER_PASSWORD, 'a brand new password', 'kill-test-Passw0rd', 'bench-Passw0rd-library']) expect(passwordProblem(p), p).toBeNull();
    for (let i = 0; i < 200; i++) {
      const g = generatePassword();
      expect(passwordProblem(g), g).toBeNull();
    }
  });
});

describe('adding and resetting users with the rules (admin)', () => {
  it('refuses a short, a too long and a common password with the field named', async () => {
    for (const [password, message] of [
      ['short-pass1', 'Password must be at least 12 characters'],
      ['x'.repeat(60) + 'Y9'.repeat(40), 'Password must be at most 128 characters'],
      ['Password1234', 'Password is a commonly used password; choose another'],
    ] as const) {
      const res = await t.call('POST', '/admin/users.json', { as: admin, body: { email: `weak-${password.length}@example.com`, role: 'viewer', password } });
      expect(res.statusCode, password).toBe(400);
      expect(res.json<ErrorAnswer>().errors?.password).toEqual([message]);
    }
  });

  it('resets a password: the old one stops working, the new one signs in, the user is signed out elsewhere', async () => {
    const id = await t.createUser('reset-me@example.com', 'operator');
    const theirs = await t.signIn({ email: 'reset-me@example.com', password: PASSWORD });
    const weak = await t.call('PATCH', `/admin/users/${id}.json`, { as: admin, body: { password: 'letmein12345' } });
    expect(weak.statusCode).toBe(400);
    expect(weak.json<ErrorAnswer>().errors?.password).toEqual(['Password is a commonly used password; choose another']);
    const res = await t.call('PATCH', `/admin/users/${id}.json`, { as: admin, body: { password: 'granite orchard lantern' } });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: UserRow }>().data.email).toBe('reset-me@example.com');
    expect((await t.call('GET', '/users/verify_user_session', { as: theirs })).statusCode).toBe(401);
    const old = await t.call('POST', '/users/sign_in.json', { body: { email: 'reset-me@example.com', password: PASSWORD } });
    expect(old.statusCode).toBe(401);
    await t.signIn({ email: 'reset-me@example.com', password: 'granite orchard lantern' });
  });

  it('lets only users.manage reset someone else', async () => {
    const operator = await t.signIn('operator');
    const res = await t.call('PATCH', `/admin/users/1.json`, { as: operator, body: { password: 'granite orchard lantern' } });
    expect(res.statusCode).toBe(403);
  });
});

describe('changing one\u2019s own password', () => {
  const change = (as: Session, body: Record<string, unknown>) => t.call('POST', '/users/password.json', { as, body });

  it('needs the current password, ends the user\u2019s other sessions and keeps this one', async () => {
    await t.createUser('changer@example.com', 'viewer');
    const creds = { email: 'changer@example.com', password: PASSWORD };
    const here = await t.signIn(creds);
    const elsewhere = await t.signIn(creds);
    const wrong = await change(here, { current_password: 'not the password at all', password: 'violet meadow compass' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<ErrorAnswer>().errors).toEqual({ current_password: ['is not correct'] });
    const ok = await change(here, { current_password: PASSWORD, password: 'violet meadow compass' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ changed: true, other_sessions_ended: 1 });
    expect((await t.call('GET', '/users/verify_user_session', { as: here })).statusCode).toBe(200);
    expect((await t.call('GET', '/users/verify_user_session', { as: elsewhere })).statusCode).toBe(401);
    expect((await t.call('POST', '/users/sign_in.json', { body: creds })).statusCode).toBe(401);
    await t.signIn({ email: creds.email, password: 'violet meadow compass' });
  });

  it('refuses a weak, a too long, or an unchanged new password and changes nothing', async () => {
    await t.createUser('keeper@example.com', 'viewer');
    const creds = { email: 'keeper@example.com', password: PASSWORD };
    const s = await t.signIn(creds);
    for (const [password, field] of [
      ['abc', 'password'],
      ['Z'.repeat(129), 'password'],
      ['qwerty123456', 'password'],
      [PASSWORD, 'password'],
    ] as const) {
      const res = await change(s, { current_password: PASSWORD, password });
      expect(res.statusCode, password).toBe(400);
      expect(Object.keys(res.json<ErrorAnswer>().errors ?? {}), password).toEqual([field]);
    }
    await t.signIn(creds);
  });

  it('is refused without a session (401) or without the CSRF token (403)', async () => {
    const anon = await t.call('POST', '/users/password.json', { body: { current_password: PASSWORD, password: 'violet meadow compass' } });
    expect([401, 403]).toContain(anon.statusCode);
    const viewer = await t.signIn('viewer');
    const noCsrf = await t.call('POST', '/users/password.json', { as: viewer, csrf: false, body: { current_password: PASSWORD, password: 'violet meadow compass' } });
    expect(noCsrf.statusCode).toBe(403);
    await t.signIn({ email: EMAILS.viewer, password: PASSWORD });
  });

  it('slows and then refuses repeated wrong current passwords (throttled like sign-in)', async () => {
    await t.createUser('guessed@example.com', 'viewer');
    const s = await t.signIn({ email: 'guessed@example.com', password: PASSWORD });
    const before = t.sleeps.length;
    const answers: number[] = [];
    for (let i = 0; i < 21; i++) answers.push((await change(s, { current_password: `wrong guess number ${i}`, password: 'violet meadow compass' })).statusCode);
    expect(answers.slice(0, 20).every((c) => c === 400)).toBe(true);
    expect(answers[20]).toBe(429);
    expect(t.sleeps.length).toBeGreaterThan(before);
  });
});
