import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
 *  - end to end: the director on loopback (PGlite in memory), a multipart upload of the 100 MB
 *    capture by curl (its own process), from starting curl to status 100%.
 * Figures are printed; nothing is asserted.
 */

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

async function endToEnd(file: string): Promise<{ uploadMs: number; doneMs: number; status: string }[] | null> {
  if (spawnSync('curl', ['--version'], { stdio: 'ignore' }).status !== 0) return null;
  const { buildApp } = await import('../server/app');
  const { openPglite } = await import('../server/db/index');
  const { migrate } = await import('../server/db/migrate');
  const { ensureAdmin } = await import('../server/seed/users');
  const db = await openPglite(undefined);
  await migrate(db);
  await ensureAdmin(db, 'admin@example.com', 'bench password 123');
  const dataDir = path.join(tmp, 'director');
  const app = await buildApp({
    db,
    config: { port: 0, host: '127.0.0.1', dataDir, databaseUrl: undefined, seed: 'none', adminEmail: 'admin@example.com', adminPassword: undefined, sessionTimeoutMin: 30, staticDir: undefined },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  try {
    const signIn = await fetch(`http://127.0.0.1:${port}/users/sign_in.json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@example.com', password: 'bench password 123' }) });
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    const { csrf_token } = (await signIn.json()) as { csrf_token: string };
    // The client is curl in its own process (a real HTTP upload, not sharing the director's CPU time).
    const uploadOnce = async () => {
      const t0 = performance.now();
      const curl = await new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn('curl', ['-sS', '-F', 'anonymized_ip=true', '-F', `file=@${file};filename=bench.pcap`, '-H', `cookie: ${cookie}`, '-H', `x-csrf-token: ${csrf_token}`, `http://127.0.0.1:${port}/manage_sims/upload/upload_pcap_file`]);
        let out = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        child.on('close', (code) => resolve({ code, out }));
      });
      if (curl.code !== 0) throw new Error(`curl failed: ${curl.out}`);
      const uploadId = (JSON.parse(curl.out) as { data: { upload_id: number } }).data.upload_id;
      const uploadMs = performance.now() - t0;
      for (;;) {
        const r = await fetch(`http://127.0.0.1:${port}/manage_sims/upload/check_process_status/${uploadId}`, { headers: { cookie, 'x-requested-with': 'XMLHttpRequest', 'x-background-task': 'true' } });
        const d = ((await r.json()) as { data: { percent_complete: number; status: string } }).data;
        if (d.percent_complete >= 100) return { uploadMs, doneMs: performance.now() - t0, status: d.status };
        // Polled every 5 ms (the browser polls every 2 s): the poll adds at most 5 ms to the figure.
        await new Promise((res) => setTimeout(res, 5));
      }
    };
    // Twice: the first upload runs on a cold JIT, the second on a warm one.
    const results = [await uploadOnce(), await uploadOnce()];
    return results;
  } finally {
    await app.close();
    await db.close();
  }
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
    const runs = await endToEnd(hundred);
    for (const [i, e] of (runs ?? []).entries()) {
      console.log(
        `${i === 0 ? '\nEnd to end' : 'End to end'} (${i === 0 ? 'cold' : 'warm'}; director on loopback, 100 MB multipart upload by curl, parsed while it streams in): answer after ${fmt(e.uploadMs)} ms, status 100% ('${e.status}') after ${fmt(e.doneMs)} ms` +
          (tshark100 ? `; ${fmt(e.doneMs / tshark100, 2)}x tshark's ${fmt(tshark100)} ms on the local file` : ''),
      );
    }
    if (!runs) console.log('\nEnd to end skipped: curl is not installed.');
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
