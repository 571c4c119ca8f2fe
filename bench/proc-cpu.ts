import fs from 'node:fs';
import path from 'node:path';

/**
 * CPU time of other processes from /proc (Linux), for the figures a loaded machine changes least: the
 * director's CPU per call (its process), PostgreSQL's (the cluster's postmaster and every backend).
 * Elsewhere the readers answer NaN and the benches print "-".
 */

const TICKS_PER_SECOND = 100;

/** utime, stime, cutime, cstime of a process in ticks, or null when it is gone (or there is no /proc). */
function ticks(pid: number): { own: number; children: number; ppid: number } | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), own: Number(f[11]) + Number(f[12]), children: Number(f[13]) + Number(f[14]) };
  } catch {
    return null;
  }
}

/** Every process on this machine now, by pid. */
function processes(): Map<number, { own: number; children: number; ppid: number }> {
  const all = new Map<number, { own: number; children: number; ppid: number }>();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const t = ticks(Number(d));
    if (t) all.set(Number(d), t);
  }
  return all;
}

/** CPU time (ms) a process used so far (all its threads). */
export function processCpuMs(pid: number): number {
  const t = ticks(pid);
  return t ? (t.own * 1000) / TICKS_PER_SECOND : Number.NaN;
}

/** CPU time (ms) of a process and all its descendants so far, those that ended included (PostgreSQL's backends). */
export function treeCpuMs(root: number): number {
  const top = ticks(root);
  if (!top) return Number.NaN;
  const all = processes();
  const inTree = (pid: number): boolean => {
    for (let p: number | undefined = pid; p !== undefined && p > 1; p = all.get(p)?.ppid) if (p === root) return true;
    return false;
  };
  let sum = top.children;
  for (const [pid, t] of all) if (inTree(pid)) sum += t.own;
  return (sum * 1000) / TICKS_PER_SECOND;
}

/**
 * The postmaster of the PostgreSQL server a connection URL names, when it runs on this machine with its
 * socket beside its data directory (scripts/with-test-postgres.sh's private cluster: `?host=DIR`, data in
 * DIR/data); null otherwise.
 */
export function postmasterPid(url: string | undefined): number | null {
  if (!url) return null;
  const dir = new URL(url).searchParams.get('host');
  if (!dir) return null;
  try {
    const pid = Number(fs.readFileSync(`${dir}/data/postmaster.pid`, 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** CPU meters for a measured stretch: the director's, PostgreSQL's (when local) and this process's own (the load generator). */
export function cpuMeters(directorPid: number, databaseUrl?: string): () => { director: number; postgres: number; client: number } {
  const pm = postmasterPid(databaseUrl);
  const read = () => ({ director: processCpuMs(directorPid), postgres: pm ? treeCpuMs(pm) : Number.NaN, client: process.cpuUsage() });
  const start = read();
  return () => {
    const end = read();
    const c = process.cpuUsage(start.client);
    return { director: end.director - start.director, postgres: end.postgres - start.postgres, client: (c.user + c.system) / 1000 };
  };
}

/** "director 0.84 ms CPU a call, PostgreSQL 0.40, load generator 0.31" for `calls` calls. */
export function cpuPerCall(used: { director: number; postgres: number; client: number }, calls: number): string {
  const f = (x: number) => (Number.isFinite(x) ? (x / calls).toFixed(2) : '-');
  return `CPU a call: director ${f(used.director)} ms, PostgreSQL ${f(used.postgres)} ms, load generator ${f(used.client)} ms`;
}

/** BENCH_CPU_PROF=DIR: the Node arguments that make a director write its CPU profile to DIR when it stops. */
export function profileArgs(): string[] {
  const dir = process.env.BENCH_CPU_PROF;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(dir)}`] : [];
}

/** CPU seconds so far of the process `pid` (0 when it is gone). */
export function cpuOf(pid: number): number {
  const t = ticks(pid);
  return t ? t.own / TICKS_PER_SECOND : 0;
}

/** CPU seconds so far of each living child of `pid` (by pid) and their sum (the engine bench's actors). */
export function childrenCpu(pid: number): { byPid: Map<number, number>; total: number } {
  const byPid = new Map([...processes()].filter(([, t]) => t.ppid === pid).map(([p, t]) => [p, t.own / TICKS_PER_SECOND]));
  return { byPid, total: [...byPid.values()].reduce((s, x) => s + x, 0) };
}

/** CPU seconds so far of `pid` and its children, living and ended (e.g. a PostgreSQL postmaster and its backends). */
export function treeCpu(pid: number): number {
  return cpuOf(pid) + (ticks(pid)?.children ?? 0) / TICKS_PER_SECOND + childrenCpu(pid).total;
}

/** The parent of a process (e.g. a PostgreSQL backend's postmaster); 0 when it is gone. */
export function parentOf(pid: number): number {
  return ticks(pid)?.ppid ?? 0;
}
