/**
 * What `npm run lab` and `npm run lab -- --down` do, decided from what exists (pure, so the
 * idempotent up/down logic is tested without root). The executor (system.ts) observes, asks for a
 * plan and runs its steps.
 */
import { namespacesOf, type LabLayout } from './layout';

/** The lab's long-running processes, recorded in its state file. */
export const PROCESS_NAMES = ['ulogd', 'bridge', 'actor-user', 'actor-server', 'actor-dmz'] as const;
export type ProcessName = (typeof PROCESS_NAMES)[number];

export interface Observed {
  /** Network namespaces that exist now (`ip netns list`). */
  namespaces: string[];
  /** Processes the state file records, with whether each is alive and still ours. */
  processes: Partial<Record<ProcessName, { pid: number; alive: boolean }>>;
  /** Processes running inside each existing lab namespace (`ip netns pids`). */
  pidsInNamespaces: Record<string, number[]>;
  stateDirExists: boolean;
  /** The director the running lab registered with, from its state file. */
  director: string | null;
}

export type Step =
  | { kind: 'ip'; args: string[] }
  | { kind: 'kill'; pid: number; why: string }
  | { kind: 'removeState' }
  | { kind: 'forgetDirector' };

export type UpPlan = { kind: 'reload-policy' } | { kind: 'build'; cleanup: Step[] };

/** Every namespace exists, every recorded process is alive, and it serves the same director. */
export function isHealthy(layout: LabLayout, o: Observed, director: string): boolean {
  return (
    namespacesOf(layout).every((ns) => o.namespaces.includes(ns)) &&
    PROCESS_NAMES.every((p) => o.processes[p]?.alive === true) &&
    o.director === director
  );
}

/** Down: the director's records, the processes, the namespaces (their veths go with them), the state. */
export function planDown(layout: LabLayout, o: Observed): Step[] {
  const steps: Step[] = [{ kind: 'forgetDirector' }];
  const killed = new Set<number>();
  const kill = (pid: number, why: string) => {
    if (killed.has(pid)) return;
    killed.add(pid);
    steps.push({ kind: 'kill', pid, why });
  };
  for (const name of PROCESS_NAMES) {
    const p = o.processes[name];
    if (p?.alive) kill(p.pid, name);
  }
  const present = namespacesOf(layout).filter((ns) => o.namespaces.includes(ns));
  for (const ns of present) for (const pid of o.pidsInNamespaces[ns] ?? []) kill(pid, `process in ${ns}`);
  for (const ns of present) steps.push({ kind: 'ip', args: ['netns', 'del', ns] });
  if (o.stateDirExists) steps.push({ kind: 'removeState' });
  return steps;
}

/** Up: a healthy lab only reloads its policy; anything else (nothing, a half-built or crashed lab) is cleaned and built anew. */
export function planUp(layout: LabLayout, o: Observed, director: string): UpPlan {
  if (isHealthy(layout, o, director)) return { kind: 'reload-policy' };
  const anything = o.stateDirExists || namespacesOf(layout).some((ns) => o.namespaces.includes(ns));
  // The director's records of a crashed lab are replaced by the new setup itself.
  return { kind: 'build', cleanup: anything ? planDown(layout, o).filter((s) => s.kind !== 'forgetDirector') : [] };
}

/** The commands (for `ip`) that build the namespaces and links, in order. */
export function buildNetworkSteps(layout: LabLayout): Step[] {
  const ip = (...args: string[]): Step => ({ kind: 'ip', args });
  const steps: Step[] = [];
  for (const ns of namespacesOf(layout)) steps.push(ip('netns', 'add', ns), ip('-n', ns, 'link', 'set', 'lo', 'up'));
  for (const z of layout.zones) {
    steps.push(
      ip('-n', layout.fwNs, 'link', 'add', z.fwIf, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', z.ns),
      ip('-n', layout.fwNs, 'addr', 'add', `${z.gateway}/24`, 'dev', z.fwIf),
      ip('-n', layout.fwNs, 'link', 'set', z.fwIf, 'up'),
      ip('-n', z.ns, 'addr', 'add', `${z.address}/24`, 'dev', 'eth0'),
      ip('-n', z.ns, 'link', 'set', 'eth0', 'up'),
      // Only the lab's own /16 goes through the firewall; there is no default route.
      ip('-n', z.ns, 'route', 'add', layout.net, 'via', z.gateway),
    );
  }
  return steps;
}
