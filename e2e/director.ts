import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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
  /** The director's process id (benchmarks read its CPU time). */
  pid: number;
  dataDir: string;
  /** Everything the director printed so far (stdout and stderr). */
  output(): string;
  /** Stops the director (SIGTERM, then SIGKILL) and removes its data directory (unless `keepData`). */
  stop(opts?: { keepData?: boolean }): Promise<void>;
}

/** The built workbench the browser tests serve: VIGIL_E2E_STATIC_DIR, else dist/. */
export const STATIC_DIR = process.env.VIGIL_E2E_STATIC_DIR || path.join(REPO_ROOT, 'dist');

/** Throws a clear error when the SPA has not been built. */
export function requireBuiltSpa(): void {
  const index = path.join(STATIC_DIR, 'index.html');
  if (!fs.existsSync(index)) throw new Error(`${index} is missing: run npm run build first.`);
}

/** The lowest port of the kernel's range for outgoing connections (Linux), or the usual one elsewhere. */
function ephemeralLow(): number {
  try {
    const low = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    if (low) return low;
  } catch {
    // not Linux
  }
  return 32768;
}

function listensOn(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', () => resolve(null));
    srv.listen(port, '127.0.0.1', () => {
      const addr = srv.address();
      const got = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(got || null));
    });
  });
}

/**
 * A free port for a server a test starts, and may restart on the same port. It is picked below the
 * kernel's range for outgoing connections: a port of that range (what listen(0) gives) can be taken by
 * any connection a parallel test opens while the server is down, and the restart then fails with
 * EADDRINUSE (seen in tests/server/monitors-kill.test.ts).
 */
export async function freePort(): Promise<number> {
  const low = ephemeralLow();
  const floor = 10_000;
  if (low - floor > 1000) {
    for (let i = 0; i < 50; i++) {
      const got = await listensOn(floor + Math.floor(Math.random() * (low - floor)));
      if (got) return got;
    }
  }
  const any = await listensOn(0);
  if (!any) throw new Error('Could not pick a free port');
  return any;
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
 * What a fresh director seeds depends on these variables only: a director whose `env` sets none of
 * them starts from a copy of the seeded data directory (see seedDataDir) when there is one.
 */
const SEED_INPUTS = ['SEED', 'DEMO_MONITORS', 'ADMIN_EMAIL', 'ADMIN_PASSWORD', 'DEMO_USER_PASSWORD', 'DATA_DIR', 'DATABASE_URL'];
/** Names the seeded data directory of this run (set by e2e/global-setup.ts, and in the workers by e2e/setup.ts). */
export const SEEDED_DIR_VARIABLE = 'VIGIL_E2E_SEEDED_DIR';

/** Names the director bundled once for the run (set by e2e/global-setup.ts, and in the workers by e2e/setup.ts). */
export const DIRECTOR_BUNDLE_VARIABLE = 'VIGIL_E2E_DIRECTOR_BUNDLE';

/**
 * Bundles the director (server/main.ts and what it imports, packages left to node_modules) into one
 * ES module under .e2e-tmp/ (inside the repository, so its imports of packages resolve) and answers its
 * path: the directors started afterwards run it with `node` alone instead of tsx, whose loader hooks
 * cost a director start about 1 s of CPU (16 starts a run). Each module's `import.meta.url` stays its
 * own source file's URL, so the migrations, the password list and the local actors are found where they
 * are. Stack traces in a director's output then name lines of the bundle.
 */
export async function bundleDirector(): Promise<string> {
  const { build } = await import('esbuild');
  const outfile = path.join(REPO_ROOT, '.e2e-tmp', `director-${process.pid}-${Date.now()}.mjs`);
  await build({
    entryPoints: [path.join(REPO_ROOT, 'server', 'main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
    plugins: [
      {
        name: 'own-import-meta-url',
        setup(b) {
          b.onLoad({ filter: /\.ts$/ }, async (args) => ({
            contents: (await fs.promises.readFile(args.path, 'utf8')).replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
            loader: 'ts',
          }));
        },
      },
    ],
  });
  return outfile;
}

/**
 * Starts a director with the default environment on a fresh install (it creates, migrates and seeds its
 * PGlite database), stops it and answers its data directory, kept: the directors started afterwards
 * with an environment that seeds the same copy it instead of doing that work again (seconds of CPU each
 * on this 2-core machine). The demo's times are relative to the seeding, minutes before.
 */
export async function seedDataDir(): Promise<string> {
  // Once per run, and it does the work of all the others (initdb, migrations, the demo seed): more time to start.
  const d = await startDirector({}, { fresh: true, startTimeoutMs: 3 * START_TIMEOUT_MS });
  await d.stop({ keepData: true });
  return d.dataDir;
}

/**
 * Node switches of the run's directors (those that run its bundle, see bundleDirector; the benchmarks'
 * directors run tsx with the defaults): PGlite's WebAssembly compiled by Liftoff only, never tiered up by
 * TurboFan. A test's director lives a file or less, so the optimized code is mostly work thrown away:
 * from a copy of the seeded install, 4.1-5.1 s of CPU by 15 s after its start with the default tiers,
 * 2.7-3.2 s with Liftoff only; over a file, sampled by process, `jobs.e2e.ts`'s four directors 29-31 ->
 * 21-23 s, the shared director serving `action-form.e2e.ts` 31 -> 23 s, while `reports.e2e.ts`'s
 * heavier queries cost it 12 -> 15 s.
 */
const RUN_DIRECTOR_NODE_ARGS = ['--liftoff-only'];

/**
 * Starts the real director (`node --import tsx server/main.ts`, or the run's bundle of it, see
 * bundleDirector) on a free port with a fresh temporary
 * PGlite directory, SEED=demo and the known passwords; `env` adds or overrides variables
 * (e.g. SESSION_TIMEOUT_MIN). Resolves once it prints "Open http". Its data directory is a copy of the
 * run's seeded one (seedDataDir) when there is one and `env` changes nothing the seed depends on, unless `fresh`.
 * `nodeArgs` go to Node before the script (benchmarks: --cpu-prof).
 */
export async function startDirector(env: Record<string, string> = {}, opts: { fresh?: boolean; startTimeoutMs?: number; nodeArgs?: string[] } = {}): Promise<Director> {
  requireBuiltSpa();
  const dataDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'vigil-e2e-'));
  const seeded = process.env[SEEDED_DIR_VARIABLE];
  const copied = !!seeded && !opts.fresh && !Object.keys(env).some((k) => SEED_INPUTS.includes(k));
  if (copied) await fs.promises.cp(seeded, dataDir, { recursive: true });
  const port = await freePort();
  const bundle = process.env[DIRECTOR_BUNDLE_VARIABLE];
  const script = bundle && fs.existsSync(bundle) ? [...RUN_DIRECTOR_NODE_ARGS, bundle] : ['--import', 'tsx', 'server/main.ts'];
  // VIGIL_E2E_DIRECTOR_NODE_ARGS profiles every director of a run (e.g. "--cpu-prof --cpu-prof-dir=/tmp/p").
  const runArgs = process.env.VIGIL_E2E_DIRECTOR_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...runArgs, ...(opts.nodeArgs ?? []), ...script], {
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
      // No capture parser warm-up (about 0.6 s of CPU a start): only the shared directors take captures
      // (e2e/pcap.e2e.ts, e2e/action-form.e2e.ts), and global-setup.ts asks for it there.
      PCAP_WARM_UP: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const removeDir = () => fs.promises.rm(dataDir, { recursive: true, force: true });
  const stop = async (o: { keepData?: boolean } = {}) => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      // Data kept for copies must be closed cleanly (PGlite writes on close): give it longer.
      if (!(await waitForExit(child, o.keepData ? 6 * STOP_TIMEOUT_MS : STOP_TIMEOUT_MS))) {
        child.kill('SIGKILL');
        await waitForExit(child, STOP_TIMEOUT_MS);
      }
    }
    if (!o.keepData) await removeDir();
  };

  try {
    await new Promise<void>((resolve, reject) => {
      // A director that seeds its own database (initdb, every migration, the demo) does what seedDataDir does once a run: as long.
      const limit = opts.startTimeoutMs ?? (copied ? START_TIMEOUT_MS : 3 * START_TIMEOUT_MS);
      const timer = setTimeout(() => reject(new Error(`The director did not start within ${limit / 1000} s. Output:\n${out}`)), limit);
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
  return { url: `http://127.0.0.1:${port}`, port, pid: child.pid ?? 0, dataDir, output: () => out, stop };
}
