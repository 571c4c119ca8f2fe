/**
 * The first sign-in after a start was slow (up to 1.4 s measured): its password check was the
 * process's first scrypt (libuv's thread pool started, scrypt's 16 MB allocated) and its user lookup
 * the database's first read of users. Run once at start, off the request path, the sign-in's own
 * password check (against the dummy hash, so nothing is compared with a real one) and its lookup.
 */
import type { Db } from '../db/index';
import { DUMMY_HASH, verifyPassword } from './passwords';
import { USER_BY_EMAIL_SQL } from './sign-in-sql';

export async function warmUpSignIn(db: Db): Promise<void> {
  await Promise.all([verifyPassword('warm-up', DUMMY_HASH), db.query(USER_BY_EMAIL_SQL, [''])]);
}
