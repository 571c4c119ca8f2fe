/**
 * `npm run bench:bundle` (after `npx vite build`): the first-load JS and CSS (entry chunk and its
 * static imports, from the Vite manifest), raw and gzip, against the goals; what a signed-in first
 * load fetches before the workbench is usable; and the biggest lazy chunks. After
 * `npx vite build --mode stats`, `-- --modules` also names the heaviest packages of each.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ChunkStats } from '../build-tools/bundle-stats';
import { eagerChunks, readManifest, sizeOf, staticGraph, workbenchKeys } from './bundle-size';

const GOAL_JS_GZIP = 250 * 1024;
const GOAL_CSS_GZIP = 40 * 1024;
/** Issue 22: a cold load transfers under 300 KB before the workbench is usable (JS + CSS + HTML). */
const GOAL_WORKBENCH_GZIP = 300 * 1024;
const args = process.argv.slice(2);
const dist = path.resolve(args.find((a) => !a.startsWith('--')) ?? 'dist');
const manifest = readManifest(dist);
const jsOf = (chunks: { file: string }[]) => [...new Set(chunks.map((c) => c.file))].filter((f) => f.endsWith('.js'));
const cssOf = (chunks: { css?: string[] }[]) => [...new Set(chunks.flatMap((c) => c.css ?? []))];
const eager = eagerChunks(manifest);
const eagerJs = jsOf(eager);
const eagerCss = cssOf(eager);
const workbench = staticGraph(manifest, workbenchKeys(manifest));
const workbenchFiles = [...jsOf(workbench), ...cssOf(workbench), 'index.html'];
const allJs = jsOf(Object.values(manifest));
const lazyJs = allJs.filter((f) => !eagerJs.includes(f));

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const row = (label: string, files: readonly string[], goal?: number) => {
  const s = sizeOf(dist, files);
  const verdict = goal === undefined ? '' : s.gzip <= goal ? `  (goal <= ${kb(goal)} gzip: met)` : `  (goal <= ${kb(goal)} gzip: MISSED)`;
  console.log(`${label.padEnd(22)} ${String(files.length).padStart(3)} files  ${kb(s.raw).padStart(11)} raw  ${kb(s.gzip).padStart(10)} gzip  ${kb(s.br).padStart(10)} br${verdict}`);
  return goal === undefined || s.gzip <= goal;
};

console.log(`bundle in ${dist}`);
const ok = [row('initial JS', eagerJs, GOAL_JS_GZIP), row('initial CSS', eagerCss, GOAL_CSS_GZIP), row('to usable workbench', workbenchFiles, GOAL_WORKBENCH_GZIP)].every(Boolean);
row('lazy JS', lazyJs);
const biggest = lazyJs.map((f) => ({ f, ...sizeOf(dist, [f]) })).sort((a, b) => b.gzip - a.gzip).slice(0, 5);
biggest.forEach((b) => console.log(`  ${b.f.padEnd(48)} ${kb(b.raw).padStart(10)} raw ${kb(b.gzip).padStart(9)} gzip`));

if (args.includes('--modules')) {
  const stats = JSON.parse(readFileSync(path.join(dist, '.vite/bundle-stats.json'), 'utf8')) as ChunkStats[];
  const heaviest = (label: string, files: readonly string[]) => {
    const byPackage = new Map<string, number>();
    for (const c of stats.filter((s) => files.includes(s.file))) {
      for (const [id, bytes] of Object.entries(c.modules)) {
        const key = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(id)?.[1] ?? id.split('/').slice(0, 3).join('/');
        byPackage.set(key, (byPackage.get(key) ?? 0) + bytes);
      }
    }
    console.log(`${label}, heaviest packages and folders (rendered bytes before minifying):`);
    [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 15).forEach(([k, n]) => console.log(`  ${kb(n).padStart(10)}  ${k}`));
  };
  heaviest('initial JS', eagerJs);
  heaviest('to usable workbench', jsOf(workbench));
}
process.exitCode = ok ? 0 : 1;
