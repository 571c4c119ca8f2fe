import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file lives in e2e/). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Known credentials of the directors started here (SEED=demo). */
export const ADMIN_EMAIL = 'admin@example.com';
export const ADMIN_PASSWORD = 'e2e-admin-Passw0rd';
export const DEMO_USER_PASSWORD = 'e2e-demo-Passw0rd';
export const DEMO_USERS = { approver: 'approver@example.com', operator: 'operator@example.com', viewer: 'viewer@example.com' } as const;

const START_TIMEOUT_MS = Number(process.env.VIGIL_E2E_START_TIMEOUT_MS) || 90_000;
const STOP_TIMEOUT_MS = 10_000;

export interface Director {
  /** http://127.0.0.1:PORT */
  url: string;
  port: number;
  dataDir: string;
  /** Everything the director printed so far (stdout and stderr). */
  output(): string;
  /** Stops the director (SIGTERM, then SIGKILL) and removes its data directory. */
  stop(): Promise<void>;
}

/** The built workbench the browser tests serve: VIGIL_E2E_STATIC_DIR, else dist/. */
export const STATIC_DIR = process.env.VIGIL_E2E_STATIC_DIR || path.join(REPO_ROOT, 'dist');

/** Throws a clear error when the SPA has not been built. */
export function requireBuiltSpa(): void {
  const index = path.join(STATIC_DIR, 'index.html');
  if (!fs.existsSync(index)) throw new Error(`${index} is missing: run npm run build first.`);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => (port ? resolve(port) : reject(new Error('Could not pick a free port'))));
    });
  });
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * Starts the real director (`node --import tsx server/main.ts`) on a free port with a fresh temporary
 * PGlite directory, SEED=demo and the known passwords; `env` adds or overrides variables
 * (e.g. SESSION_TIMEOUT_MIN). Resolves once it prints "Open http".
 */
export async function startDirector(env: Record<string, string> = {}): Promise<Director> {
  requireBuiltSpa();
  const dataDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'vigil-e2e-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED: 'demo',
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      DEMO_USER_PASSWORD,
      STATIC_DIR,
      DATABASE_URL: '',
      // No local actors unless a test asks for them (LOCAL_ACTORS: '1').
      LOCAL_ACTORS: '0',
      // The demo monitors add jobs (and a run every 5 minutes): only e2e/monitors.e2e.ts asks for them.
      DEMO_MONITORS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const removeDir = () => fs.promises.rm(dataDir, { recursive: true, force: true });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      if (!(await waitForExit(child, STOP_TIMEOUT_MS))) {
        child.kill('SIGKILL');
        await waitForExit(child, STOP_TIMEOUT_MS);
      }
    }
    await removeDir();
  };

  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`The director did not start within ${START_TIMEOUT_MS / 1000} s. Output:\n${out}`)), START_TIMEOUT_MS);
      const onData = (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('Open http')) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`The director exited (code ${code}, signal ${signal}) before listening. Output:\n${out}`));
      });
      child.once('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
    });
  } catch (e) {
    await stop();
    throw e;
  }
  // Keep collecting output after start, for failure reports.
  return { url: `http://127.0.0.1:${port}`, port, dataDir, output: () => out, stop };
}
