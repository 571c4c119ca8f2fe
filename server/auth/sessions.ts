import crypto from 'node:crypto';
import type { Db } from '../db/index';
import { isRole, permissionsOf } from '../../src/api/contracts/permissions';
import type { SessionUser } from '../../src/api/contracts/session';

export const SESSION_COOKIE = 'vigil_session';
/**
 * The session cookie's name on HTTPS (directly, or behind a TLS proxy with TRUST_PROXY): the `__Host-`
 * prefix makes the browser take it only when Secure, with Path=/ and no Domain, so neither a sibling
 * domain nor plain HTTP can plant or overwrite it.
 */
export const SECURE_SESSION_COOKIE = '__Host-vigil_session';

/** The cookie's name and attributes for a request that came over HTTPS (or not). */
export function sessionCookie(https: boolean) {
  return { name: https ? SECURE_SESSION_COOKIE : SESSION_COOKIE, options: { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: https } };
}

export interface ActiveSession {
  id: string;
  /** When the session was created (sign-in): its absolute lifetime counts from here. */
  createdAt: Date;
  user: SessionUser;
  csrfToken: string;
  expiresAt: Date;
}

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

interface UserDbRow {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  role: string;
}

export function toSessionUser(row: UserDbRow): SessionUser {
  const role = isRole(row.role) ? row.role : 'viewer';
  return { id: row.id, email: row.email, first_name: row.first_name, last_name: row.last_name, role, permissions: permissionsOf(role) };
}

/**
 * How long a verified session is taken from memory without reading the database again. Every write
 * through this director that names the sessions or users table (sign-out, a revoked session, a role or
 * password change, an expiry moved) makes the next request verify again at once; a session ended by
 * another director on the same database is refused here within this time.
 */
export const SESSION_CACHE_MS = 1000;
/** Beyond this many cached sessions the cache starts over (a flood of distinct cookies cannot grow it). */
const SESSION_CACHE_MAX = 10_000;

interface Verified {
  session: ActiveSession;
  /** performance.now() when the database said the session was live. */
  at: number;
  /** The database handle's authVersion before it was read. */
  authVersion: number;
}

export class SessionStore {
  /** Sessions verified in the last SESSION_CACHE_MS, by cookie value: a call then reads no table to know its user. */
  private verified = new Map<string, Verified>();

  constructor(
    private db: Db,
    private timeoutMs: number,
    /** Absolute lifetime from sign-in; no activity extends a session past it. */
    private maxMs = 12 * 3_600_000,
  ) {}

  async create(userId: number): Promise<{ cookie: string; csrfToken: string }> {
    const cookie = crypto.randomBytes(32).toString('base64url');
    const csrfToken = crypto.randomBytes(32).toString('base64url');
    await this.db.query('insert into sessions (id, user_id, csrf_token, expires_at) values ($1, $2, $3, $4)', [
      sha256(cookie),
      userId,
      csrfToken,
      new Date(Date.now() + Math.min(this.timeoutMs, this.maxMs)),
    ]);
    return { cookie, csrfToken };
  }

  /** The live session for a cookie value, or null when unknown or expired. */
  async find(cookie: string | undefined): Promise<ActiveSession | null> {
    if (!cookie) return null;
    const hit = this.verified.get(cookie);
    if (hit) {
      const now = Date.now();
      if (
        hit.authVersion === this.db.writes.authVersion &&
        performance.now() - hit.at < SESSION_CACHE_MS &&
        hit.session.expiresAt.getTime() > now &&
        hit.session.createdAt.getTime() + this.maxMs > now
      ) {
        return hit.session;
      }
      this.verified.delete(cookie);
    }
    const authVersion = this.db.writes.authVersion;
    const at = performance.now();
    const session = await this.read(cookie);
    if (session) {
      if (this.verified.size >= SESSION_CACHE_MAX) this.verified.clear();
      this.verified.set(cookie, { session, at, authVersion });
    }
    return session;
  }

  private async read(cookie: string): Promise<ActiveSession | null> {
    const rows = await this.db.query<UserDbRow & { sid: string; csrf_token: string; expires_at: Date | string; created_at: Date | string }>(
      `select s.id as sid, s.csrf_token, s.expires_at, s.created_at, u.id, u.email, u.first_name, u.last_name, u.role
         from sessions s join users u on u.id = s.user_id where s.id = $1`,
      [sha256(cookie)],
    );
    const row = rows[0];
    if (!row) return null;
    const expiresAt = new Date(row.expires_at);
    const createdAt = new Date(row.created_at);
    if (expiresAt.getTime() <= Date.now() || createdAt.getTime() + this.maxMs <= Date.now()) {
      await this.db.query('delete from sessions where id = $1', [row.sid]);
      return null;
    }
    return { id: row.sid, user: toSessionUser(row), csrfToken: row.csrf_token, expiresAt, createdAt };
  }

  /**
   * Extends a session to a full timeout. Activity extends it at most once per step (a tenth of the
   * timeout, at most a minute), so a burst of requests costs one write; `force` (Extend Session) always writes.
   */
  async touch(session: ActiveSession, force = false): Promise<Date> {
    const step = Math.min(60_000, this.timeoutMs / 10);
    if (!force && session.expiresAt.getTime() > Date.now() + this.timeoutMs - step) return session.expiresAt;
    const expiresAt = new Date(Math.min(Date.now() + this.timeoutMs, session.createdAt.getTime() + this.maxMs));
    await this.db.query('update sessions set expires_at = $2 where id = $1', [session.id, expiresAt]);
    session.expiresAt = expiresAt;
    return expiresAt;
  }

  async destroy(session: ActiveSession): Promise<void> {
    await this.db.query('delete from sessions where id = $1', [session.id]);
  }

  async destroyForUser(userId: number): Promise<void> {
    await this.db.query('delete from sessions where user_id = $1', [userId]);
  }

  async purgeExpired(): Promise<void> {
    await this.db.query('delete from sessions where expires_at < now()');
  }
}
