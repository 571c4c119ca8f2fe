/**
 * The session cache (server/auth/sessions.ts): a session verified in the last SESSION_CACHE_MS answers
 * calls without reading the sessions table, and every way a session ends or a user changes through this
 * director is seen by the very next call (sign-out, a password change ending the other sessions, an
 * administrator's role change, an expiry moved in the table); a session deleted through another
 * database handle (another director) is refused within SESSION_CACHE_MS.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SESSION_CACHE_MS } from '../../server/auth/sessions';
import { PASSWORD, startTestServer, type Session, type TestServer } from './helpers';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** Counts the session reads (the join of sessions and users) the director makes while `fn` runs. */
async function sessionReads(fn: () => Promise<void>): Promise<number> {
  const spy = vi.spyOn(t.db, 'query');
  await fn();
  const n = spy.mock.calls.filter(([sql]) => /from sessions s join users u/.test(sql)).length;
  spy.mockRestore();
  return n;
}

const status = async (s: Session, url = '/environment.json') => (await t.call('GET', url, { as: s })).statusCode;

describe('session cache', () => {
  it('answers a burst of calls of one session from one read of the sessions table', async () => {
    const s = await t.signIn('viewer');
    const started = performance.now();
    const reads = await sessionReads(async () => {
      for (let i = 0; i < 10; i++) expect(await status(s)).toBe(200);
    });
    // One read per SESSION_CACHE_MS the burst lasted: one on a quiet machine, where ten calls take far less.
    expect(reads).toBeLessThanOrEqual(1 + Math.floor((performance.now() - started) / SESSION_CACHE_MS));
  });

  it('refuses a signed-out session at the very next call', async () => {
    const s = await t.signIn('viewer');
    expect(await status(s)).toBe(200);
    expect((await t.call('DELETE', '/users/sign_out', { as: s })).statusCode).toBeLessThan(400);
    expect(await status(s)).toBe(401);
  });

  it('refuses the other sessions of a user who changed the password at the very next call', async () => {
    await t.createUser('cache-password@example.com', 'operator');
    const creds = { email: 'cache-password@example.com', password: PASSWORD };
    const here = await t.signIn(creds);
    const there = await t.signIn(creds);
    expect(await status(there)).toBe(200);
    const changed = await t.call('POST', '/users/password.json', { as: here, body: { current_password: PASSWORD, password: 'Another-Passw0rd-cache' } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await status(there)).toBe(401);
    expect(await status(here)).toBe(200);
  });

  it("applies an administrator's role change at the very next call (the user's sessions end)", async () => {
    const id = await t.createUser('cache-role@example.com', 'operator');
    const user = await t.signIn({ email: 'cache-role@example.com', password: PASSWORD });
    expect(await status(user, '/users/verify_user_session')).toBe(200);
    const admin = await t.signIn('admin');
    const res = await t.call('PATCH', `/admin/users/${id}.json`, { as: admin, body: { role: 'viewer' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(await status(user, '/users/verify_user_session')).toBe(401);
  });

  it('sees an expiry moved in the table at the very next call', async () => {
    const s = await t.signIn('viewer');
    expect(await status(s)).toBe(200);
    await t.db.query(`update sessions set expires_at = now() - interval '1 second' where csrf_token = $1`, [s.csrfToken]);
    expect(await status(s)).toBe(401);
  });

  it('refuses a session another director deleted within SESSION_CACHE_MS', async () => {
    const s = await t.signIn('viewer');
    expect(await status(s)).toBe(200);
    const other = await t.connectAgain();
    await other.query('delete from sessions where csrf_token = $1', [s.csrfToken]);
    await new Promise((r) => setTimeout(r, SESSION_CACHE_MS + 50));
    expect(await status(s)).toBe(401);
  });
});
