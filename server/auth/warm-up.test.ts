import { describe, expect, it } from 'vitest';
import type { Db } from '../db/index';
import { warmUpSignIn } from './warm-up';
import { USER_BY_EMAIL_SQL } from './sign-in-sql';
import { DUMMY_HASH, verifyPassword } from './passwords';

describe('sign-in warm-up', () => {
  it('runs the sign-in user lookup (for no user) and a password check against the dummy hash', async () => {
    const queries: [string, unknown[] | undefined][] = [];
    const db = { query: async (sql: string, params?: unknown[]) => (queries.push([sql, params]), []) } as unknown as Db;
    await warmUpSignIn(db);
    expect(queries).toEqual([[USER_BY_EMAIL_SQL, ['']]]);
    // The dummy hash matches no password: the warm-up compares nothing real.
    expect(await verifyPassword('warm-up', DUMMY_HASH)).toBe(false);
  });
});
