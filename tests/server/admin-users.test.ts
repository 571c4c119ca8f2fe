import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissionsOf } from '@/api/contracts/permissions';
import type { Environment, UserRow } from '@/api/contracts/session';
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
const NEW_PASSWORD = 'a brand new password';

async function createUser(body: Record<string, unknown>) {
  return t.call('POST', '/admin/users.json', { as: admin, body });
}

async function createdId(email: string, role = 'operator'): Promise<number> {
  const res = await createUser({ email, role, password: PASSWORD, first_name: 'New', last_name: 'Person' });
  expect(res.statusCode).toBe(201);
  return res.json<{ data: UserRow }>().data.id;
}

describe('listing users', () => {
  it('lists every user with id, email, names, role and created_at, and no password hash', async () => {
    const res = await t.call('GET', '/admin/users.json', { as: admin });
    expect(res.statusCode).toBe(200);
    const { data } = res.json<{ data: UserRow[] }>();
    expect(data.map((u) => u.email)).toEqual(expect.arrayContaining(Object.values(EMAILS)));
    for (const u of data) expect(Object.keys(u).sort()).toEqual(['created_at', 'email', 'first_name', 'id', 'last_name', 'role']);
    expect(res.body).not.toMatch(/password|scrypt/i);
  });
});

describe('adding a user', () => {
  it('creates the user with 201, and the user can sign in with that password and role', async () => {
    const res = await createUser({ email: 'new.analyst@example.com', role: 'approver', password: PASSWORD, first_name: ' Nia ', last_name: 'Analyst' });
    expect(res.statusCode).toBe(201);
    const { data } = res.json<{ data: UserRow }>();
    expect(data).toMatchObject({ id: expect.any(Number), email: 'new.analyst@example.com', role: 'approver', first_name: 'Nia', last_name: 'Analyst' });
    expect(res.body).not.toMatch(/password|scrypt/i);

    const s = await t.signIn({ email: 'new.analyst@example.com', password: PASSWORD });
    expect(s.answer.user).toMatchObject({ id: data.id, role: 'approver', permissions: permissionsOf('approver') });
  });

  it('creates a user without names, with empty names', async () => {
    const res = await createUser({ email: 'nameless@example.com', role: 'viewer', password: PASSWORD });
    expect(res.statusCode).toBe(201);
    expect(res.json<{ data: UserRow }>().data).toMatchObject({ first_name: '', last_name: '' });
  });

  it('answers a duplicate email with 409, in any letter case', async () => {
    for (const email of [EMAILS.operator, 'OPERATOR@example.com']) {
      const res = await createUser({ email, role: 'viewer', password: PASSWORD });
      expect(res.statusCode).toBe(409);
      expect(res.json<ErrorAnswer>()).toEqual({ error: `A user with the email ${email} already exists.`, errors: { email: ['is already taken'] } });
    }
  });

  it('answers 409, not 500, to the second of two simultaneous requests adding the same email', async () => {
    const body = { email: 'twice@example.com', role: 'viewer', password: PASSWORD };
    const answers = await Promise.all([createUser(body), createUser(body)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(await t.db.query("select 1 from users where email = 'twice@example.com'")).toHaveLength(1);
  });

  it('answers missing fields with 400 and a message naming each field', async () => {
    const res = await createUser({});
    expect(res.statusCode).toBe(400);
    const body = res.json<ErrorAnswer>();
    expect(body.error).toContain('Email is required');
    expect(body.error).toContain('Role is required');
    expect(body.error).toContain('Password is required');
    expect(Object.keys(body.errors ?? {}).sort()).toEqual(['email', 'password', 'role']);
  });

  it('answers a missing password alone with 400 naming the password', async () => {
    const res = await createUser({ email: 'no-password@example.com', role: 'viewer' });
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorAnswer>()).toEqual({ error: 'Password is required', errors: { password: ['Password is required'] } });
  });

  it('answers fields of the wrong type or value with 400', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ email: 'x@example.com', role: 5, password: PASSWORD }, 'role'],
      [{ email: 'x@example.com', role: 'superuser', password: PASSWORD }, 'role'],
      [{ email: 'not an email', role: 'viewer', password: PASSWORD }, 'email'],
      [{ email: ['x@example.com'], role: 'viewer', password: PASSWORD }, 'email'],
      [{ email: 'x@example.com', role: 'viewer', password: { secret: PASSWORD } }, 'password'],
      [{ email: 'x@example.com', role: 'viewer', password: 'short' }, 'password'],
      [{ email: 'x@example.com', role: 'viewer', password: 123456789 }, 'password'],
      [{ email: 'x@example.com', role: 'viewer', password: PASSWORD, first_name: 'x'.repeat(101) }, 'first_name'],
    ];
    for (const [body, field] of cases) {
      const res = await createUser(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json<ErrorAnswer>().errors ?? {}), JSON.stringify(body)).toEqual([field]);
    }
    expect(await t.db.query("select 1 from users where email = 'x@example.com'")).toHaveLength(0);
  });

  it('answers unknown fields, a non-object body and bad JSON with 400', async () => {
    const unknown = await createUser({ email: 'y@example.com', role: 'viewer', password: PASSWORD, is_admin: true });
    expect(unknown.statusCode).toBe(400);
    for (const body of ['[]', '"text"', 'null', '{"email":']) {
      const res = await t.call('POST', '/admin/users.json', { as: admin, body });
      expect(res.statusCode, body).toBe(400);
      expect(res.json<ErrorAnswer>().error, body).toEqual(expect.any(String));
    }
  });
});

describe('changing a role', () => {
  it('gives the new role’s permissions at the next sign-in and in environment.json, and signs the user out', async () => {
    const email = 'promoted@example.com';
    const id = await createdId(email, 'operator');
    const before = await t.signIn({ email, password: PASSWORD });
    expect(before.answer.user.permissions).not.toContain('approve');

    const res = await t.call('PATCH', `/admin/users/${id}.json`, { as: admin, body: { role: 'approver' } });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: UserRow }>().data).toMatchObject({ id, role: 'approver' });

    expect((await t.call('GET', '/environment.json', { as: before })).statusCode).toBe(401);
    const after = await t.signIn({ email, password: PASSWORD });
    expect(after.answer.user.role).toBe('approver');
    expect(after.answer.user.permissions).toEqual(permissionsOf('approver'));
    const env = await t.call('GET', '/environment.json', { as: after });
    expect(env.json<Environment>().user_rights).toEqual(permissionsOf('approver'));
  });

  it('changes names without touching the role or the password', async () => {
    const email = 'renamed@example.com';
    const id = await createdId(email, 'viewer');
    const s = await t.signIn({ email, password: PASSWORD });
    const res = await t.call('PATCH', `/admin/users/${id}.json`, { as: admin, body: { first_name: 'Re', last_name: 'Named' } });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: UserRow }>().data).toMatchObject({ first_name: 'Re', last_name: 'Named', role: 'viewer' });
    expect((await t.call('GET', '/users/verify_user_session', { as: s })).statusCode).toBe(200);
    await t.signIn({ email, password: PASSWORD });
  });

  it('answers an unknown role with 400 naming the role', async () => {
    const id = await createdId('badrole@example.com');
    const res = await t.call('PATCH', `/admin/users/${id}.json`, { as: admin, body: { role: 'root' } });
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorAnswer>().errors).toEqual({ role: ['Role must be one of admin, approver, operator, viewer'] });
  });

  it('answers an unknown user with 404 and an id that is not a number with 400', async () => {
    const missing = await t.call('PATCH', '/admin/users/999999.json', { as: admin, body: { role: 'viewer' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'User 999999 does not exist.' });
    for (const id of ['abc', '0', '-3', '1.5']) {
      const res = await t.call('PATCH', `/admin/users/${id}.json`, { as: admin, body: { role: 'viewer' } });
      expect(res.statusCode, id).toBe(400);
      expect(res.json<ErrorAnswer>().error, id).toEqual(expect.any(String));
    }
  });

  it('answers bad JSON and unknown fields in an update with 400', async () => {
    const id = await createdId('badpatch@example.com');
    expect((await t.call('PATCH', `/admin/users/${id}.json`, { as: admin, body: '{"role":' })).statusCode).toBe(400);
    expect((await t.call('PATCH', `/admin/users/${id}.json`, { as: admin, body: { email: 'changed@example.com' } })).statusCode).toBe(400);
  });

  it('does not let an administrator remove their own administrator role', async () => {
    const res = await t.call('PATCH', `/admin/users/${admin.answer.user.id}.json`, { as: admin, body: { role: 'operator' } });
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorAnswer>().error).toBe('You cannot remove your own administrator role.');
    const [row] = await t.db.query<{ role: string }>('select role from users where id = $1', [admin.answer.user.id]);
    expect(row?.role).toBe('admin');
  });

  it('lets an administrator demote another administrator, but never the last one', async () => {
    const otherId = await createdId('second.admin@example.com', 'admin');
    const other = await t.signIn({ email: 'second.admin@example.com', password: PASSWORD });

    // The second admin demotes the first: allowed, one admin is left.
    const demote = await t.call('PATCH', `/admin/users/${admin.answer.user.id}.json`, { as: other, body: { role: 'approver' } });
    expect(demote.statusCode).toBe(200);
    expect((await t.call('GET', '/admin/users.json', { as: admin })).statusCode).toBe(401);

    // The remaining admin is the last one.
    const last = await t.call('PATCH', `/admin/users/${otherId}.json`, { as: other, body: { role: 'viewer' } });
    expect(last.statusCode).toBe(400);
    const admins = await t.db.query<{ id: number }>("select id from users where role = 'admin'");
    expect(admins).toEqual([{ id: otherId }]);

    // Restore the first admin for the other tests of this file.
    const restore = await t.call('PATCH', `/admin/users/${admin.answer.user.id}.json`, { as: other, body: { role: 'admin' } });
    expect(restore.statusCode).toBe(200);
    admin = await t.signIn('admin');
  });
  it('keeps one administrator when two administrators demote each other at the same moment', async () => {
    const aId = await createdId('admin.a@example.com', 'admin');
    const bId = await createdId('admin.b@example.com', 'admin');
    const a = await t.signIn({ email: 'admin.a@example.com', password: PASSWORD });
    const b = await t.signIn({ email: 'admin.b@example.com', password: PASSWORD });
    // Leave A and B as the only administrators.
    await t.db.query("update users set role = 'approver' where role = 'admin' and id not in ($1, $2)", [aId, bId]);
    const answers = await Promise.all([
      t.call('PATCH', `/admin/users/${bId}.json`, { as: a, body: { role: 'operator' } }),
      t.call('PATCH', `/admin/users/${aId}.json`, { as: b, body: { role: 'operator' } }),
    ]);
    const admins = await t.db.query<{ id: number }>("select id from users where role = 'admin'");
    // Restore the first admin for the other tests of this file before asserting.
    await t.db.query("update users set role = 'admin' where id = $1", [admin.answer.user.id]);
    admin = await t.signIn('admin');
    expect(admins).toHaveLength(1);
    // One demotion wins. The other is refused: 400 (the last administrator) when both passed the
    // permission check before either wrote, 403 when the winner had already demoted its author.
    const [won, lost] = answers.map((r) => r.statusCode).sort();
    expect(won).toBe(200);
    expect([400, 403]).toContain(lost);
  });
});

describe('resetting a password', () => {
  it('makes the old password fail and the new one work, and signs the user out of their other sessions', async () => {
    const email = 'forgetful@example.com';
    const id = await createdId(email, 'operator');
    const phone = await t.signIn({ email, password: PASSWORD });
    const laptop = await t.signIn({ email, password: PASSWORD });

    const res = await t.call('PATCH', `/admin/users/${id}.json`, { as: admin, body: { password: NEW_PASSWORD } });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toMatch(/password|scrypt/i);

    for (const s of [phone, laptop]) expect((await t.call('GET', '/users/verify_user_session', { as: s })).statusCode).toBe(401);
    const old = await t.call('POST', '/users/sign_in.json', { body: { email, password: PASSWORD } });
    expect(old.statusCode).toBe(401);
    const fresh = await t.signIn({ email, password: NEW_PASSWORD });
    expect(fresh.answer.user.id).toBe(id);
  });

  it('keeps the administrator signed in when they reset their own password, and ends their other sessions', async () => {
    const otherAdminSession = await t.signIn('admin');
    const res = await t.call('PATCH', `/admin/users/${admin.answer.user.id}.json`, { as: admin, body: { password: NEW_PASSWORD } });
    expect(res.statusCode).toBe(200);
    expect((await t.call('GET', '/users/verify_user_session', { as: admin })).statusCode).toBe(200);
    expect((await t.call('GET', '/users/verify_user_session', { as: otherAdminSession })).statusCode).toBe(401);
    await t.signIn({ email: EMAILS.admin, password: NEW_PASSWORD });
  });

  it('refuses a new password shorter than 12 characters with 400 and keeps the old one', async () => {
    const email = 'shortpw@example.com';
    const id = await createdId(email);
    const res = await t.call('PATCH', `/admin/users/${id}.json`, { as: admin, body: { password: 'short' } });
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorAnswer>().errors).toEqual({ password: ['Password must be at least 12 characters'] });
    await t.signIn({ email, password: PASSWORD });
  });
});
