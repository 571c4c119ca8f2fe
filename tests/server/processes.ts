/**
 * Real processes for engine tests: the director (`node --import tsx server/main.ts`) on a DATA_DIR
 * that survives it, actor processes (actor/main.ts), and a signed-in HTTP client.
 *
 * The director process's database: the PGlite in its DATA_DIR, or, on the PostgreSQL pass
 * (TEST_DATABASE_URL), a database of its own on that server, created on first use for the DATA_DIR
 * and dropped by `dropProcessDb` (openProcessDb gives the test a handle on the same database).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDb, openPostgres, type Db } from '../../server/db/index';
import { databaseUrl } from './template';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const ADMIN = { email: 'admin@example.com', password: 'kill-test-Passw0rd' };

export interface Proc {
  child: ChildProcess;
  output(): string;
  /** Resolves when the process has exited. */
  exited(): Promise<void>;
}

function start(args: string[], env: Record<string, string>, readyText: string | null, timeoutMs = 90_000): Promise<Proc> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const proc: Proc = { child, output: () => out, exited: () => gone };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args[0]} did not start within ${timeoutMs / 1000} s:\n${out}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (readyText && out.includes(readyText)) {
        clearTimeout(timer);
        resolve(proc);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void gone.then(() => {
      clearTimeout(timer);
      reject(new Error(`${args[0]} exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${out}`));
    });
    if (!readyText) {
      clearTimeout(timer);
      resolve(proc);
    }
  });
}

const processDbs = new Map<string, string>();

/** The DATABASE_URL of the director processes on dataDir: '' (PGlite in dataDir), or on TEST_DATABASE_URL's server a new empty database. */
async function processDbUrl(dataDir: string): Promise<string> {
  const server = process.env.TEST_DATABASE_URL;
  if (!server) return '';
  let url = processDbs.get(dataDir);
  if (!url) {
    const name = `vigil_p_${Date.now().toString(36)}_${crypto.randomBytes(4).toString('hex')}`;
    const admin = await openPostgres(server);
    try {
      await admin.exec(`create database ${name}`);
    } finally {
      await admin.close();
    }
    url = databaseUrl(server, name);
    processDbs.set(dataDir, url);
  }
  return url;
}

/** A handle on the database the director processes on dataDir use (to set up content, or look while it is down). */
export async function openProcessDb(dataDir: string): Promise<Db> {
  return openDb({ dataDir, databaseUrl: (await processDbUrl(dataDir)) || undefined });
}

/** Whether the director processes run on PostgreSQL (the PostgreSQL pass) rather than on PGlite. */
export const processesOnPostgres = () => Boolean(process.env.TEST_DATABASE_URL);

/** Drops the PostgreSQL database of the director processes on dataDir (nothing on PGlite: it is in dataDir). */
export async function dropProcessDb(dataDir: string): Promise<void> {
  const url = processDbs.get(dataDir);
  const server = process.env.TEST_DATABASE_URL;
  if (!url || !server) return;
  processDbs.delete(dataDir);
  const admin = await openPostgres(server);
  try {
    await admin.exec(`drop database if exists ${new URL(url).pathname.slice(1)} with (force)`);
  } finally {
    await admin.close();
  }
}

/** Starts the director on dataDir and port (no seed, no local actors, API only); resolves once it listens. */
export async function startDirectorProcess(dataDir: string, port: number, env: Record<string, string> = {}): Promise<Proc> {
  return start(
    ['server/main.ts'],
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: await processDbUrl(dataDir),
      SEED: 'none',
      LOCAL_ACTORS: '0',
      STATIC_DIR: 'none',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ...env,
    },
    'Open http',
  );
}

/** Starts `npm run actor`'s program (actor/main.ts) with a bulk token (in its environment, as the installer does) and a credential file. */
export function startActorProcess(director: string, token: string, name: string, address: string, stateFile: string): Promise<Proc> {
  return start(['actor/main.ts', '--director', director, '--name', name, '--address', address, '--state', stateFile], { VIGIL_BULK_TOKEN: token }, null);
}

/** Ends a process this test started (SIGTERM, then SIGKILL) and waits for it. */
export async function stopProcess(p: Proc | null | undefined): Promise<void> {
  if (!p || p.child.exitCode !== null || p.child.signalCode !== null) return;
  p.child.kill('SIGTERM');
  const t = setTimeout(() => p.child.kill('SIGKILL'), 10_000);
  await p.exited();
  clearTimeout(t);
}

/** A signed-in operator session over real HTTP (cookie and CSRF token). */
export class HttpSession {
  private cookie = '';
  private csrf = '';
  constructor(readonly base: string) {}

  async signIn(email = ADMIN.email, password = ADMIN.password): Promise<void> {
    const res = await fetch(`${this.base}/users/sign_in.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
      body: JSON.stringify({ email, password }),
    });
    if (res.status !== 200) throw new Error(`sign in answered ${res.status}: ${await res.text()}`);
    this.cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    this.csrf = ((await res.json()) as { csrf_token: string }).csrf_token;
  }

  async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: {
        cookie: this.cookie,
        'x-requested-with': 'XMLHttpRequest',
        accept: 'application/json',
        ...(method === 'POST' ? { 'content-type': 'application/json', 'x-csrf-token': this.csrf } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
  }
}

/** Polls fn until it returns a value other than undefined. */
export async function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s${last ? ` (${String(last)})` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
