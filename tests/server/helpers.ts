/**
 * A director on a fresh database for one test FILE.
 *
 * - PGlite in memory by default, a copy of the run's migrated template (template.ts; under 1 s to open,
 *   against about 4 s for initdb and the migrations), one instance per file, shared by its tests;
 * - PostgreSQL when TEST_DATABASE_URL is set: a database of its own per file, copied from the run's
 *   template database and dropped at the end, so runs and files never see each other's rows.
 *
 * Users of every role exist with known passwords; sign-in failures never really sleep (the throttle's
 * requested delays are recorded in `sleeps` instead).
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../server/app';
import type { DirectorConfig } from '../../server/config';
import { openPostgres, type Db } from '../../server/db/index';
import { SignInThrottle } from '../../server/auth/throttle';
import { SESSION_COOKIE } from '../../server/auth/sessions';
import type { Role } from '@/api/contracts/permissions';
import type { SignInAnswer } from '@/api/contracts/session';

import { EMAILS, PASSWORD, cheapPasswordHash, openTestDatabase } from './template';

export { EMAILS, PASSWORD };

export interface Credentials {
  email: string;
  password: string;
}

/** A signed-in browser: the Cookie header to send and the session's CSRF token. */
export interface Session {
  cookie: string;
  csrfToken: string;
  answer: SignInAnswer;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface CallOptions {
  /** Send this session's cookie (and, for non-GET calls, its CSRF token in X-CSRF-Token). */
  as?: Session;
  /** A JSON body (an object) or a raw string body (sent as application/json unless `contentType` says otherwise). */
  body?: unknown;
  /** `false` sends no token; a string sends that token instead of the session's. */
  csrf?: string | false;
  /** Send `body` form-encoded, with the token as the `authenticity_token` field instead of the header. */
  form?: boolean;
  contentType?: string;
  headers?: Record<string, string>;
  /** Call another app (e.g. one built with a different config) on the same database. */
  app?: FastifyInstance;
}

export interface TestServer {
  db: Db;
  app: FastifyInstance;
  config: DirectorConfig;
  /** Delays the sign-in throttle asked for, in ms, in order. */
  sleeps: number[];
  credentials(role: Role): Credentials;
  signIn(who: Role | Credentials, app?: FastifyInstance): Promise<Session>;
  call(method: Method, url: string, opts?: CallOptions): Promise<LightMyRequestResponse>;
  /** Inserts a user directly (faster than the admin API; for test setup), its password hashed cheaply (cheapPasswordHash). */
  createUser(email: string, role: Role, password?: string): Promise<number>;
  /** Another app on the same database, with config overrides (e.g. a tiny session timeout). */
  buildOtherApp(overrides: Partial<DirectorConfig>): Promise<FastifyInstance>;
  /**
   * Another handle on the same database, as a second director process has: its own connection pool on
   * PostgreSQL (so its transactions really interleave with this one's); on PGlite, which is one
   * connection in this process, the same database. Closed with the server.
   */
  connectAgain(): Promise<Db>;
  close(): Promise<void>;
}

export function testConfig(overrides: Partial<DirectorConfig> = {}): DirectorConfig {
  return {
    port: 0,
    host: '127.0.0.1',
    dataDir: '/nonexistent-test-data-dir',
    databaseUrl: undefined,
    seed: 'none',
    adminEmail: EMAILS.admin,
    adminPassword: PASSWORD,
    sessionTimeoutMin: 30,
    sessionMaxHours: 12,
    staticDir: undefined,
    ...overrides,
  };
}

function cookieHeader(res: LightMyRequestResponse): string {
  const c = res.cookies.find((x) => x.name === SESSION_COOKIE);
  if (!c) throw new Error(`sign-in answered ${res.statusCode} without a ${SESSION_COOKIE} cookie: ${res.body}`);
  return `${c.name}=${c.value}`;
}

export async function startTestServer(configOverrides: Partial<DirectorConfig> = {}): Promise<TestServer> {
  const { db, url: databaseUrl, dispose } = await openTestDatabase();
  const [{ n } = { n: 0 }] = await db.query<{ n: number }>('select count(*)::int as n from users');
  if (n !== 4) throw new Error(`expected one user per role in a fresh database, found ${n}`);

  const sleeps: number[] = [];
  const throttle = new SignInThrottle(db, async (ms) => {
    sleeps.push(ms);
  });
  const config = testConfig(configOverrides);
  const app = await buildApp({ db, config, throttle });
  const others: FastifyInstance[] = [];
  const handles: Db[] = [];

  const credentials = (role: Role): Credentials => ({ email: EMAILS[role], password: PASSWORD });

  const call = async (method: Method, url: string, opts: CallOptions = {}): Promise<LightMyRequestResponse> => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.as) headers.cookie = opts.as.cookie;
    const token = opts.csrf === false ? undefined : (opts.csrf ?? opts.as?.csrfToken);
    let payload: string | undefined;
    if (opts.form) {
      const fields = new URLSearchParams();
      for (const [k, v] of Object.entries((opts.body ?? {}) as Record<string, unknown>)) fields.set(k, String(v));
      if (token !== undefined) fields.set('authenticity_token', token);
      payload = fields.toString();
      headers['content-type'] = opts.contentType ?? 'application/x-www-form-urlencoded';
    } else {
      if (token !== undefined && method !== 'GET') headers['x-csrf-token'] = token;
      if (opts.body !== undefined) {
        payload = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
        headers['content-type'] = opts.contentType ?? 'application/json';
      }
    }
    return (opts.app ?? app).inject({ method, url, headers, ...(payload !== undefined ? { payload } : {}) });
  };

  const signIn = async (who: Role | Credentials, onApp: FastifyInstance = app): Promise<Session> => {
    const creds = typeof who === 'string' ? credentials(who) : who;
    const res = await call('POST', '/users/sign_in.json', { body: creds, app: onApp });
    if (res.statusCode !== 200) throw new Error(`sign-in of ${creds.email} answered ${res.statusCode}: ${res.body}`);
    const answer = res.json<SignInAnswer>();
    return { cookie: cookieHeader(res), csrfToken: answer.csrf_token, answer };
  };

  const createUser = async (email: string, role: Role, password = PASSWORD): Promise<number> => {
    const [row] = await db.query<{ id: number }>('insert into users (email, role, password_hash) values ($1, $2, $3) returning id', [
      email,
      role,
      cheapPasswordHash(password),
    ]);
    if (!row) throw new Error('insert returned no row');
    return row.id;
  };

  const buildOtherApp = async (overrides: Partial<DirectorConfig>) => {
    const other = await buildApp({ db, config: testConfig(overrides), throttle });
    others.push(other);
    return other;
  };

  const connectAgain = async (): Promise<Db> => {
    if (!databaseUrl) return { ...db, close: async () => {} };
    const handle = await openPostgres(databaseUrl);
    handles.push(handle);
    return handle;
  };

  return {
    db,
    app,
    config,
    sleeps,
    credentials,
    signIn,
    call,
    createUser,
    buildOtherApp,
    connectAgain,
    async close() {
      for (const o of others) await o.close();
      for (const h of handles) await h.close();
      await app.close();
      await dispose();
    },
  };
}

/** A file's test server (useTestServer): the TestServer's members, usable once the file's set-up ran. */
export interface ServerFixture extends TestServer {
  /**
   * The session of `role`, signed in during set-up: call it at the top of the file (before the
   * tests run); its cookie and token are read when a test uses it.
   */
  session(role: Role): Session;
}

/**
 * The set-up most server test files share, written once: before the file's tests a director on a fresh
 * database (`config` overrides), then `prepare` (seed rows), then one sign-in per role asked for with
 * `session(role)`; closed after the file. Use it instead of a hand-written beforeAll/afterAll:
 *
 *   const s = useTestServer({ prepare: (t) => seedDemo(t.db) });
 *   const [admin, viewer] = [s.session('admin'), s.session('viewer')];
 */
export function useTestServer(opts: { config?: Partial<DirectorConfig>; prepare?: (s: TestServer) => Promise<unknown>; timeout?: number } = {}): ServerFixture {
  let server: TestServer | undefined;
  const roles = new Set<Role>();
  const sessions = new Map<Role, Session>();
  beforeAll(async () => {
    server = await startTestServer(opts.config);
    await opts.prepare?.(server);
    const started = server;
    await Promise.all([...roles].map(async (role) => sessions.set(role, await started.signIn(role))));
  }, opts.timeout);
  afterAll(async () => {
    await server?.close();
  });
  const now = (): TestServer => {
    if (!server) throw new Error('The test server has not started: use it inside a test or hook.');
    return server;
  };
  const signedIn = (role: Role): Session => {
    const got = sessions.get(role);
    if (!got) throw new Error(`No ${role} session: the file's set-up has not run.`);
    return got;
  };
  return {
    get db() {
      return now().db;
    },
    get app() {
      return now().app;
    },
    get config() {
      return now().config;
    },
    get sleeps() {
      return now().sleeps;
    },
    credentials: (role) => now().credentials(role),
    signIn: (who, app) => now().signIn(who, app),
    call: (method, url, callOpts) => now().call(method, url, callOpts),
    createUser: (email, role, password) => now().createUser(email, role, password),
    buildOtherApp: (overrides) => now().buildOtherApp(overrides),
    connectAgain: () => now().connectAgain(),
    close: () => now().close(),
    session(role) {
      roles.add(role);
      return {
        get cookie() {
          return signedIn(role).cookie;
        },
        get csrfToken() {
          return signedIn(role).csrfToken;
        },
        get answer() {
          return signedIn(role).answer;
        },
      };
    },
  };
}
