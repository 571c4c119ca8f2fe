import type { CDPSession } from 'playwright-core';

interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number };
}

/** A V8 CPU profile as the inspector's Profiler.stop answers it (a renderer's or this process's). */
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * Runs `act` under the renderer's CPU profiler (CDP Profiler, a sample every 200 µs) and prints where
 * its JavaScript time went: self time by function, then the inclusive time of the functions of the
 * workbench's own modules (src/, bench/map/). The samples are wall-clock: on a loaded machine a function
 * also counts the time its thread waited for a core.
 */
export async function cpuProfiled<T>(cdp: CDPSession, label: string, act: () => Promise<T>): Promise<T> {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  const out = await act();
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
  printProfile(profile, label, /\/(src|bench\/map)\//);
  return out;
}

/**
 * Prints a profile's self time by function and by where the code comes from (a package, node's own
 * modules, or the tree's own folders), then the inclusive time of the functions whose url matches `own`.
 */
export function printProfile(profile: CpuProfile, label: string, own: RegExp, rows = 14): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (f: ProfileNode['callFrame']) => `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()?.split('?')[0] ?? ''}:${f.lineNumber + 1}`;
  const self = new Map<string, number>();
  const origin = new Map<string, number>();
  const total = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, dt: number) => m.set(k, (m.get(k) ?? 0) + dt);
  profile.samples.forEach((id, i) => {
    const f = byId.get(id)?.callFrame;
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    add(self, f ? name(f) : '?', dt);
    add(origin, f ? originOf(f.url, f.functionName) : '?', dt);
    const seen = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const cf = byId.get(n)?.callFrame;
      if (!cf || !own.test(cf.url)) continue;
      const k = name(cf);
      if (!seen.has(k)) add(total, k, dt);
      seen.add(k);
    }
  });
  const top = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, rows);
  console.log(`profile of ${label} (self time):`);
  for (const [k, v] of top(self)) console.log(`  ${v.toFixed(0).padStart(7)} ms  ${k}`);
  console.log(`profile of ${label} (self time by origin):`);
  for (const [k, v] of top(origin)) console.log(`  ${v.toFixed(0).padStart(7)} ms  ${k}`);
  console.log(`profile of ${label} (own functions, inclusive time):`);
  for (const [k, v] of top(total)) console.log(`  ${v.toFixed(0).padStart(7)} ms  ${k}`);
}

/** node_modules/<package>, node:<module>, the tree's top folder, or V8's own entries ((garbage collector), (program), (idle)). */
function originOf(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1] ?? url;
  if (url.startsWith('node:')) return url;
  const own = /\/(server|src|actor|bench)\/([^/]+)/.exec(url);
  return own ? `${own[1]}/${own[2]}` : url;
}
