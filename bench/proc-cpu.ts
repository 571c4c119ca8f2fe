import fs from 'node:fs';

/**
 * CPU seconds (user + system, from /proc/<pid>/stat) of processes on this Linux machine, for benchmarks
 * that must report CPU time beside wall time on a loaded machine: of a process and of its children.
 */
const TICK = 100; // USER_HZ on Linux

interface Proc {
  pid: number;
  ppid: number;
  comm: string;
  cpu: number;
}

function read(pid: number): Proc | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = text.lastIndexOf(')');
    const f = text.slice(close + 2).split(' ');
    return { pid, ppid: Number(f[1]), comm: text.slice(text.indexOf('(') + 1, close), cpu: (Number(f[11]) + Number(f[12])) / TICK };
  } catch {
    return null;
  }
}

function all(): Proc[] {
  return fs.readdirSync('/proc').flatMap((d) => (/^\d+$/.test(d) ? (read(Number(d)) ?? []) : []));
}

/** CPU seconds so far of the process `pid` (0 when it is gone). */
export function cpuOf(pid: number): number {
  return read(pid)?.cpu ?? 0;
}

/** CPU seconds so far of each child of `pid` (by pid) and their sum. */
export function childrenCpu(pid: number): { byPid: Map<number, number>; total: number } {
  const byPid = new Map(all().filter((p) => p.ppid === pid).map((p) => [p.pid, p.cpu]));
  return { byPid, total: [...byPid.values()].reduce((s, x) => s + x, 0) };
}

/** CPU seconds so far of `pid` and all its children (e.g. a PostgreSQL postmaster and its backends). */
export function treeCpu(pid: number): number {
  return cpuOf(pid) + childrenCpu(pid).total;
}

/** The parent of a process (e.g. a PostgreSQL backend's postmaster). */
export function parentOf(pid: number): number {
  return read(pid)?.ppid ?? 0;
}
