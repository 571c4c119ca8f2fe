import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeSyntheticCapture } from '../server/pcap/synth';
import { buildPcapCli } from '../server/pcap/build-cli';

/**
 * PCAP parsing against tshark (`npm run bench:pcap`, add `-- --1g` for the 1 GB capture too):
 *  - synthetic captures of 10 MB and 100 MB (mixed TCP/UDP, IPv4/IPv6, some VLAN tags, thousands of
 *    conversations), written to a temporary directory; the 1 GB one has as many conversations as the
 *    100 MB one, ten times longer (memory follows conversations, not bytes);
 *  - both timed the same way, as fresh processes from spawn to exit: our parser CLI (server/pcap/cli.ts
 *    bundled into plain JavaScript by esbuild, as `npm run build:pcap-cli` does, run by `node`: Node's
 *    start-up, loading it, reading the file, writing the conversations in tshark's layout to stdout;
 *    best of 3) and `tshark -q -z conv,tcp -z conv,udp -r FILE` (best of 2); peak RSS of each process;
 *    both outputs compared byte for byte. The parse alone (inside our process, without start-up) is
 *    printed too;
 *  - end to end: three fresh directors, each in its own process on loopback (PGlite in memory), each
 *    given a multipart upload of the 100 MB capture by curl (its own process) just after it started
 *    (cold) and a second one (warm), each timed from starting curl to status 100%.
 * Figures are printed; nothing is asserted.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const withGb = process.argv.includes('--1g') || process.env.BENCH_PCAP_1G === '1';
const sizes = [10e6, 100e6, ...(withGb ? [1e9] : [])];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-pcap-'));

interface Run {
  /** Wall time of the whole process, from spawning it to its exit (as tshark is timed). */
  ms: number;
  /** Inside the process: from the first read to the conversation rows (no start-up, no output). */
  parseMs: number;
  packets: number;
  rows: number;
  maxRssKb: number;
}

const cli = path.join(tmp, 'pcap-cli.cjs');

/**
 * Our parser as a fresh process, end to end like tshark: Node's start-up, loading the parser, reading
 * the file, writing the conversations in tshark's layout. Timed from spawn to exit.
 */
function ours(file: string, out: string): Run {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [cli, file, '--stats'], { encoding: 'utf8', maxBuffer: 256 << 20 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`pcap-cli failed: ${r.stderr}`);
  fs.writeFileSync(out, r.stdout);
  const inside = JSON.parse(r.stderr.trim().split('\n').pop()!) as Omit<Run, 'ms'>;
  return { ...inside, ms };
}

/** A fresh Node process that loads the parser CLI and exits (no file given): the start-up share of `ours`. */
function startupMs(): number {
  const t0 = process.hrtime.bigint();
  spawnSync(process.execPath, [cli], { stdio: 'ignore' });
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

function hasTshark(): boolean {
  return spawnSync('tshark', ['--version'], { stdio: 'ignore' }).status === 0;
}

function tshark(file: string, out: string): { ms: number; maxRssKb: number } {
  const timeFile = path.join(tmp, 'time.txt');
  const t0 = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-o', timeFile, '-f', '%M', 'tshark', '-q', '-z', 'conv,tcp', '-z', 'conv,udp', '-r', file], { encoding: 'utf8', maxBuffer: 256 << 20 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  fs.writeFileSync(out, r.stdout);
  const rss = Number(fs.readFileSync(timeFile, 'utf8').trim().split('\n').pop());
  return { ms, maxRssKb: rss };
}

function baselineRssKb(): number {
  const r = spawnSync(process.execPath, ['-e', 'console.log(process.resourceUsage().maxRSS)'], { encoding: 'utf8' });
  return Number(r.stdout.trim());
}

const mb = (b: number) => b / 1e6;
const fmt = (x: number, d = 0) => x.toFixed(d);

type Upload = { uploadMs: number; doneMs: number; status: string };

/**
 * End to end, three times: each a fresh director in its own process (see pcap-e2e.bench-child.ts),
 * a cold upload then a warm one. Null without curl.
 */
function endToEnd(file: string): { cold: Upload[]; warm: Upload[] } | null {
  if (spawnSync('curl', ['--version'], { stdio: 'ignore' }).status !== 0) return null;
  const cold: Upload[] = [];
  const warm: Upload[] = [];
  for (let i = 0; i < 3; i++) {
    const dataDir = path.join(tmp, `director-${i}`);
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/pcap-e2e.bench-child.ts', file, dataDir], { cwd: root, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`end-to-end run failed: ${r.stderr}`);
    const [c, w] = JSON.parse(r.stdout.trim().split('\n').pop()!) as Upload[];
    cold.push(c!);
    warm.push(w!);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return { cold, warm };
}

try {
  const tsharkThere = hasTshark();
  console.log(`PCAP parsing: our streaming parser vs ${tsharkThere ? 'tshark' : 'tshark (not installed: only our figures)'}; ${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(2)}`);
  buildPcapCli(cli);
  console.log('our parser: node pcap-cli.cjs FILE (server/pcap/cli.ts bundled by esbuild into plain JavaScript, as npm run build:pcap-cli does)');
  console.log(`Node baseline peak RSS: ${fmt(baselineRssKb() / 1024)} MB`);
  console.log(`Node start-up, loading the parser: ${fmt(Math.min(startupMs(), startupMs()))} ms (included in "ours ms")`);
  const header = ['capture', 'packets', 'convs', 'ours ms', 'tshark ms', 'ours/tshark', 'ours parse ms', 'ours MB/s', 'ours pkt/s', 'ours RSS MB', 'tshark RSS MB', 'identical'];
  const rows: string[][] = [];
  let hundred = '';
  let tshark100 = 0;
  for (const size of sizes) {
    const file = path.join(tmp, `synth-${mb(size)}MB.pcap`);
    const g0 = performance.now();
    // Beyond 100 MB the conversations get longer instead of more numerous: the same state, more bytes.
    const gen = writeSyntheticCapture(file, size, 7, Math.max(1, size / 100e6));
    console.log(`generated ${fmt(mb(gen.bytes), 1)} MB, ${gen.packets} packets in ${fmt(performance.now() - g0)} ms`);
    const oursOut = path.join(tmp, 'ours.txt');
    const runs = [ours(file, oursOut), ours(file, oursOut), ours(file, oursOut)].sort((a, b) => a.ms - b.ms);
    const best = runs[0]!;
    const maxRss = Math.max(...runs.map((r) => r.maxRssKb));
    let t: { ms: number; maxRssKb: number } | null = null;
    let identical = '-';
    if (tsharkThere) {
      const theirsOut = path.join(tmp, 'theirs.txt');
      const tries = size >= 1e9 ? 1 : 2;
      for (let i = 0; i < tries; i++) {
        const r = tshark(file, theirsOut);
        if (!t || r.ms < t.ms) t = r;
      }
      identical = fs.readFileSync(oursOut, 'utf8') === fs.readFileSync(theirsOut, 'utf8') ? 'yes' : 'NO';
    }
    rows.push([
      `${fmt(mb(gen.bytes))} MB`,
      String(best.packets),
      String(best.rows),
      fmt(best.ms),
      t ? fmt(t.ms) : '-',
      t ? `${fmt(best.ms / t.ms, 3)} (${fmt(t.ms / best.ms, 1)}x faster)` : '-',
      fmt(best.parseMs),
      fmt(mb(gen.bytes) / (best.ms / 1000)),
      fmt(best.packets / (best.ms / 1000)),
      fmt(maxRss / 1024),
      t ? fmt(t.maxRssKb / 1024) : '-',
      identical,
    ]);
    if (size === 100e6) {
      hundred = file;
      tshark100 = t?.ms ?? 0;
    } else if (size !== 100e6) fs.rmSync(file, { force: true });
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join('  ');
  console.log(line(header));
  console.log('-'.repeat(line(header).length));
  for (const r of rows) console.log(line(r));

  if (hundred) {
    const runs = endToEnd(hundred);
    if (!runs) console.log('\nEnd to end skipped: curl is not installed.');
    for (const [label, list] of runs ? ([['cold', runs.cold], ['warm', runs.warm]] as const) : []) {
      const sorted = [...list].sort((a, b) => a.doneMs - b.doneMs);
      const best = sorted[0]!;
      const median = sorted[Math.floor(sorted.length / 2)]!;
      console.log(
        `${label === 'cold' ? '\nEnd to end' : 'End to end'} (${label === 'cold' ? 'cold: the first upload after the director started' : 'warm: the second upload'}; 3 fresh directors on loopback, 100 MB multipart upload by curl, parsed while it streams in): ` +
          `status 100% after ${list.map((e) => fmt(e.doneMs)).join(' / ')} ms (answer after ${list.map((e) => fmt(e.uploadMs)).join(' / ')} ms; '${best.status}')` +
          (tshark100 ? `; best ${fmt(best.doneMs / tshark100, 2)}x, median ${fmt(median.doneMs / tshark100, 2)}x tshark's ${fmt(tshark100)} ms on the local file` : ''),
      );
    }
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
