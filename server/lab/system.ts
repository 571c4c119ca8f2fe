/** The lab's contact with the machine: checks, `ip`/`nft` commands, detached processes, observation. */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { namespacesOf, type LabLayout } from './layout';
import { PROCESS_NAMES, type Observed, type ProcessName, type Step } from './plan';

const run = promisify(execFile);

/** A failure with the exit code `npm run lab` ends with (2: usage or not root, 3: the machine lacks something). */
export class LabError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

const SBIN = ['/usr/sbin', '/sbin', '/usr/bin', '/bin', '/usr/local/sbin', '/usr/local/bin'];

/** The absolute path of a program, or null. */
export function findProgram(name: string): string | null {
  for (const dir of [...(process.env.PATH ?? '').split(':').filter(Boolean), ...SBIN]) {
    const p = path.join(dir, name);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return p;
    } catch {
      /* next */
    }
  }
  return null;
}

export interface Tools {
  ip: string;
  nft: string;
  ulogd: string;
  pluginDir: string;
}

const PLUGIN_DIRS = ['/usr/lib/x86_64-linux-gnu/ulogd', '/usr/lib/aarch64-linux-gnu/ulogd', '/usr/lib/ulogd', '/usr/lib64/ulogd', '/usr/local/lib/ulogd'];

/** Why the lab cannot run here, or the tools it runs; checks root, the programs and namespaces. */
export function checkHost(): Tools {
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    throw new LabError('The lab needs root (it creates network namespaces and loads nftables rules): run it with sudo, e.g. sudo -E npm run lab.', 2);
  }
  if (process.platform !== 'linux') throw new LabError('The lab needs Linux network namespaces.', 3);
  if (!fs.existsSync('/proc/self/ns/net')) throw new LabError('This kernel has no network namespaces (/proc/self/ns/net is missing).', 3);
  const missing: string[] = [];
  const ip = findProgram('ip') ?? (missing.push('iproute2'), '');
  const nft = findProgram('nft') ?? (missing.push('nftables'), '');
  const ulogd = findProgram('ulogd') ?? (missing.push('ulogd2'), '');
  const pluginDir = PLUGIN_DIRS.find((d) => fs.existsSync(path.join(d, 'ulogd_output_JSON.so')));
  if (!pluginDir && ulogd) missing.push('ulogd2-json');
  if (missing.length) throw new LabError(`The lab needs ${missing.join(', ')}: apt-get install -y ${missing.join(' ')}`, 3);
  return { ip, nft, ulogd, pluginDir: pluginDir! };
}

export async function ipCmd(tools: Tools, args: string[]): Promise<string> {
  try {
    return (await run(tools.ip, args, { timeout: 20_000 })).stdout;
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new LabError(`ip ${args.join(' ')} failed: ${(err.stderr || err.message).trim()}`);
  }
}

/** Runs a program inside a namespace and waits for it. */
export async function inNamespace(tools: Tools, ns: string, argv: string[]): Promise<string> {
  try {
    return (await run(tools.ip, ['netns', 'exec', ns, ...argv], { timeout: 20_000 })).stdout;
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new LabError(`${argv.join(' ')} in ${ns} failed: ${(err.stderr || err.message).trim()}`);
  }
}

/** Starts a long-running process detached from the lab command (inside a namespace when `ns` is given); returns its pid. */
export function startDetached(tools: Tools, ns: string | null, argv: string[], logFile: string, cwd: string): number {
  const out = fs.openSync(logFile, 'a');
  const [cmd, ...args] = ns ? [tools.ip, 'netns', 'exec', ns, ...argv] : argv;
  const child = spawn(cmd!, args, { detached: true, stdio: ['ignore', out, out], cwd, env: process.env });
  fs.closeSync(out);
  if (!child.pid) throw new LabError(`${argv.join(' ')} did not start.`);
  child.unref();
  return child.pid;
}

function cmdline(pid: number): string | null {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return null;
  }
}

/** Alive and still the lab's: its command line names the lab's state directory (a recycled pid does not). */
export function isLabProcess(pid: number, layout: LabLayout): boolean {
  const cmd = cmdline(pid);
  return cmd !== null && cmd.includes(layout.stateDir);
}

export interface LabState {
  prefix: string;
  director: string;
  policy: string;
  pids: Partial<Record<ProcessName, number>>;
  started_at: string;
}

export function readState(layout: LabLayout): LabState | null {
  try {
    return JSON.parse(fs.readFileSync(layout.stateFile, 'utf8')) as LabState;
  } catch {
    return null;
  }
}

export function writeState(layout: LabLayout, state: LabState): void {
  fs.writeFileSync(layout.stateFile, `${JSON.stringify(state, null, 2)}\n`);
}

export async function listNamespaces(tools: Tools): Promise<string[]> {
  const out = await ipCmd(tools, ['netns', 'list']);
  return out.split('\n').map((l) => l.trim().split(/\s+/)[0] ?? '').filter(Boolean);
}

export async function observe(tools: Tools, layout: LabLayout): Promise<Observed> {
  const namespaces = await listNamespaces(tools);
  const state = readState(layout);
  const processes: Observed['processes'] = {};
  for (const name of PROCESS_NAMES) {
    const pid = state?.pids[name];
    if (pid) processes[name] = { pid, alive: isLabProcess(pid, layout) };
  }
  const pidsInNamespaces: Record<string, number[]> = {};
  for (const ns of namespacesOf(layout).filter((n) => namespaces.includes(n))) {
    const out = await ipCmd(tools, ['netns', 'pids', ns]).catch(() => '');
    pidsInNamespaces[ns] = out.split('\n').map(Number).filter((n) => Number.isInteger(n) && n > 0);
  }
  return { namespaces, processes, pidsInNamespaces, stateDirExists: fs.existsSync(layout.stateDir), director: state?.director ?? null };
}

/** Gone, or a zombie waiting for a parent that will never reap it (a container's init may not). */
const gone = (pid: number) => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
};

/** SIGTERM, then SIGKILL after 3 s; resolves when the process is gone. */
export async function stopProcess(pid: number): Promise<void> {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  const deadline = Date.now() + 3000;
  while (!gone(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (!gone(pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
    const last = Date.now() + 5000;
    while (!gone(pid) && Date.now() < last) await new Promise((r) => setTimeout(r, 20));
  }
}

/** Runs the machine steps of a plan (forgetDirector is the caller's). */
export async function runSteps(tools: Tools, layout: LabLayout, steps: Step[]): Promise<void> {
  await Promise.all(steps.filter((s) => s.kind === 'kill').map((s) => stopProcess(s.pid)));
  for (const s of steps) {
    if (s.kind === 'ip') await ipCmd(tools, s.args);
    else if (s.kind === 'removeState') fs.rmSync(layout.stateDir, { recursive: true, force: true });
  }
}
