/**
 * BENCH_ACTOR_PROFILE=DIR (a diagnosis aid of bench/engine.bench.ts): every actor process runs under
 * V8's CPU profiler (--cpu-prof, a sample every 2 ms), writes its profile into DIR when it stops, and
 * the bench prints the actors' time together, only the samples taken while the job ran.
 */
import fs from 'node:fs';
import path from 'node:path';
import { printProfile, type CpuProfile } from './cpu-profile';

/** Node arguments that make an actor write its profile into `dir`. */
export function actorProfileArgs(dir: string): string[] {
  return ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=2000'];
}

/** Now on the clock V8's profiles use (CLOCK_MONOTONIC, microseconds). */
export function profileClockUs(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/**
 * Merges the profiles in `dir` (waiting up to 10 s for `expected` of them: actors write theirs as they
 * exit) and prints the samples taken between `fromUs` and `toUs`.
 */
export async function printActorsProfile(dir: string, expected: number, fromUs: number, toUs: number): Promise<void> {
  const files = () => fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  for (let i = 0; i < 100 && files().length < expected; i++) await new Promise((r) => setTimeout(r, 100));
  await new Promise((r) => setTimeout(r, 500)); // the loader threads' profiles come with their actors'
  const merged: CpuProfile = { nodes: [], samples: [], timeDeltas: [] };
  let offset = 0;
  for (const f of files()) {
    const p = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as CpuProfile & { startTime: number };
    let maxId = 0;
    for (const n of p.nodes) {
      merged.nodes.push({ ...n, id: n.id + offset, ...(n.children ? { children: n.children.map((c) => c + offset) } : {}) });
      maxId = Math.max(maxId, n.id);
    }
    // timeDeltas[i] is the time since the previous sample (the first: since startTime).
    let t = p.startTime;
    p.samples.forEach((s, i) => {
      const dt = p.timeDeltas[i] ?? 0;
      t += dt;
      if (t < fromUs || t > toUs) return;
      merged.samples.push(s + offset);
      merged.timeDeltas.push(dt);
    });
    offset += maxId + 1;
  }
  console.log(`  ${files().length} profiles of actor threads in ${dir}`);
  printProfile(merged, 'the actors while the job ran', /\/actor\//, 30);
}
