import type { CDPSession } from 'playwright-core';

interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number };
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
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] } };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (f: ProfileNode['callFrame']) => `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()?.split('?')[0] ?? ''}:${f.lineNumber + 1}`;
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const f = byId.get(id)?.callFrame;
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    const key = f ? name(f) : '?';
    self.set(key, (self.get(key) ?? 0) + dt);
    const seen = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const cf = byId.get(n)?.callFrame;
      if (!cf || !/\/(src|bench\/map)\//.test(cf.url)) continue;
      const k = name(cf);
      if (!seen.has(k)) total.set(k, (total.get(k) ?? 0) + dt);
      seen.add(k);
    }
  });
  const top = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, 14);
  console.log(`profile of ${label} (self time):`);
  for (const [k, v] of top(self)) console.log(`  ${v.toFixed(0).padStart(7)} ms  ${k}`);
  console.log(`profile of ${label} (the workbench's own functions, inclusive time):`);
  for (const [k, v] of top(total)) console.log(`  ${v.toFixed(0).padStart(7)} ms  ${k}`);
  return out;
}
