import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Runs every bench/*.bench.ts in sequence, each in its own Node process, and lets them print their
 * figures. `npm run bench -- palette` runs only the files whose name contains "palette". Benchmarks
 * are not pass/fail: the exit code is non-zero only when a benchmark crashed.
 */
const benchDir = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(benchDir, '..');
const filters = process.argv.slice(2);
const files = fs
  .readdirSync(benchDir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

if (files.length === 0) {
  console.log(`No benchmark matched${filters.length ? ` ${filters.join(', ')}` : ''} in bench/.`);
  process.exit(0);
}

function runOne(file: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join('bench', file)], { cwd: root, stdio: 'inherit' });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', () => resolve(1));
  });
}

const failed: string[] = [];
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const t0 = Date.now();
  const code = await runOne(file);
  console.log(`=== ${file}: ${code === 0 ? 'done' : `crashed (exit ${code})`} in ${((Date.now() - t0) / 1000).toFixed(1)} s ===`);
  if (code !== 0) failed.push(file);
}
if (failed.length) {
  console.error(`\nBenchmarks that crashed: ${failed.join(', ')}`);
  process.exit(1);
}
