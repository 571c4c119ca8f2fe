/**
 * `npm run fuzz:pcap -- MINUTES` fuzzes the PCAP parser for MINUTES (default 1) and prints how many
 * inputs it tried; exits non-zero when an input made anything throw (the input's mutation is printed).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fuzz } from './fuzz';

const minutes = Number(process.argv[2] ?? '1');
if (!Number.isFinite(minutes) || minutes <= 0) {
  console.error('usage: npm run fuzz:pcap -- MINUTES');
  process.exit(2);
}
const fixtureDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../tests/fixtures/pcap');
const seeds = fs
  .readdirSync(fixtureDir)
  .filter((f) => /\.(pcap|pcapng)$/.test(f))
  .map((f) => fs.readFileSync(path.join(fixtureDir, f)));
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 1e9);
console.log(`Fuzzing the PCAP parser for ${minutes} min from ${seeds.length} seed captures (FUZZ_SEED=${seed})...`);
const t0 = Date.now();
const stats = await fuzz({
  seeds,
  deadline: t0 + minutes * 60_000,
  writeEvery: 10,
  seed,
  onProgress: (s) => {
    if (s.inputs % 20000 === 0) console.log(`  ${s.inputs} inputs, ${s.failures.length} failures`);
  },
});
const secs = (Date.now() - t0) / 1000;
console.log(
  `Tried ${stats.inputs} inputs in ${secs.toFixed(1)} s (${Math.round(stats.inputs / secs)}/s): ${stats.errors} ended in a reader error, ${stats.withConversations} had conversations, ${stats.written} also written and read back; slowest ${stats.slowestMs.toFixed(1)} ms; ${stats.failures.length} failures.`,
);
for (const f of stats.failures.slice(0, 10)) console.log(`FAILURE input ${f.seed} (${f.mutation}): ${f.error}`);
process.exitCode = stats.failures.length ? 1 : 0;
