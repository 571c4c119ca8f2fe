/**
 * `npm run bench:bundle` (after `npx vite build`): the first-load JS and CSS (entry chunk and its
 * static imports, from the Vite manifest), raw and gzip, against the goals, plus the lazy chunks.
 */
import path from 'node:path';
import { eagerChunks, readManifest, sizeOf } from './bundle-size';

const GOAL_JS_GZIP = 250 * 1024;
const GOAL_CSS_GZIP = 40 * 1024;
const dist = path.resolve(process.argv[2] ?? 'dist');
const manifest = readManifest(dist);
const eager = eagerChunks(manifest);
const eagerJs = [...new Set(eager.map((c) => c.file))];
const eagerCss = [...new Set(eager.flatMap((c) => c.css ?? []))];
const allJs = [...new Set(Object.values(manifest).map((c) => c.file))].filter((f) => f.endsWith('.js'));
const lazyJs = allJs.filter((f) => !eagerJs.includes(f));

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const row = (label: string, files: readonly string[], goal?: number) => {
  const s = sizeOf(dist, files);
  const verdict = goal === undefined ? '' : s.gzip <= goal ? `  (goal <= ${kb(goal)} gzip: met)` : `  (goal <= ${kb(goal)} gzip: MISSED)`;
  console.log(`${label.padEnd(16)} ${String(files.length).padStart(3)} files  ${kb(s.raw).padStart(11)} raw  ${kb(s.gzip).padStart(10)} gzip${verdict}`);
  return goal === undefined || s.gzip <= goal;
};

console.log(`bundle in ${dist}`);
const ok = [row('initial JS', eagerJs, GOAL_JS_GZIP), row('initial CSS', eagerCss, GOAL_CSS_GZIP)].every(Boolean);
row('lazy JS', lazyJs);
const biggest = lazyJs.map((f) => ({ f, ...sizeOf(dist, [f]) })).sort((a, b) => b.gzip - a.gzip).slice(0, 5);
biggest.forEach((b) => console.log(`  ${b.f.padEnd(48)} ${kb(b.raw).padStart(10)} raw ${kb(b.gzip).padStart(9)} gzip`));
process.exitCode = ok ? 0 : 1;
