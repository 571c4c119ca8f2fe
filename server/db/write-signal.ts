/**
 * Counts the writes committed through one database handle, so in-memory caches (the library index)
 * can skip re-reading the database while nothing was written here and still see every write made
 * through this director in the very next call. A statement counts as a write unless it is a plain
 * read (select, show, explain); a transaction counts once it has ended, if it wrote.
 */
export class WriteSignal {
  private count = 0;
  private authCount = 0;

  /** Moves after every committed write. */
  get version(): number {
    return this.count;
  }

  /**
   * Moves after every committed write whose statements name the sessions or users table: the session
   * cache (server/auth/sessions.ts) verifies a session again after one (a sign-out, a revoked session,
   * a role or password change, an expiry moved).
   */
  get authVersion(): number {
    return this.authCount;
  }

  bump(auth = false): void {
    this.count++;
    if (auth) this.authCount++;
  }
}

const AUTH_TABLES = /\b(sessions|users)\b/i;

/** Whether a write statement may change who is signed in (it names the sessions or users table). */
export const touchesAuth = (sql: string): boolean => AUTH_TABLES.test(sql);

const READ = /^\s*(select|show|explain)\b/i;
const PLAIN_DML = /^\s*(insert|update|delete)\b/i;

/**
 * Whether a statement that ran wrote something: anything but a plain read, except a plain insert,
 * update or delete that touched no row (`affected` is the driver's row count, when it gives one).
 * The engine's periodic sweeps usually match nothing, and must not make every cache re-read.
 */
export function isWrite(sql: string, affected?: number | null): boolean {
  if (READ.test(sql)) return false;
  return !(affected === 0 && PLAIN_DML.test(sql));
}
