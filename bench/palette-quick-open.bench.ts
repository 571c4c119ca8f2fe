import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPglite } from '../server/db/index';
import { migrate } from '../server/db/migrate';
import { LibraryService } from '../server/library/library-service';
import { search } from '../server/search/service';
import { paletteRows } from '../src/commands/palette-rows';
import type { AnyCommand } from '../src/commands/types';
import { cloneActions } from './seed-actions';
import { seedJobs } from './seed-jobs';
import { printTable, summarize } from './stats';

/**
 * The palette as quick open, per keystroke:
 *  1. ranking: the palette's ranking function (src/commands/palette-rows.ts, what the browser runs on
 *     each keystroke) over 10,000 commands, for queries typed one character at a time; each round
 *     starts from a new list (a registry change), so per-list preparation is measured at opening, and
 *     CPU time is printed beside the wall clock (on a loaded machine, the wall clock counts waiting);
 *  2. search: the director's search call (server/search/service.ts, what GET /search.json runs: the
 *     Actions and the small kinds in memory, a job id in SQL) on PGlite with 100,000 Actions and
 *     1,000,000 jobs, for the same kind of typing; CPU time (of this process, PGlite included) beside
 *     the wall clock.
 * Figures are printed; nothing is asserted. PALETTE_BENCH_DATA_DIR keeps (and reuses) the seeded
 * database; PALETTE_BENCH_JOBS and PALETTE_BENCH_ACTIONS change the sizes; PALETTE_BENCH_SEARCH=0 skips
 * the search part.
 */

const COMMANDS = 10_000;
const ROUNDS = 20;
const JOBS = Number(process.env.PALETTE_BENCH_JOBS || 1_000_000);
const ACTIONS = Number(process.env.PALETTE_BENCH_ACTIONS || 100_000);
const CATEGORIES = ['Actions', 'Jobs', 'Simulations', 'Evaluations', 'Sequences', 'Actors', 'Monitors', 'Reports', 'Dashboards', 'Topology', 'Integrations', 'Tags', 'Files', 'Packet Captures', 'Accounts', 'Settings', 'Scripts', 'Queue', 'Approvals', 'MITRE'];
const VERBS = ['Open', 'Run', 'Deploy', 'Inspect', 'Export', 'Archive', 'Schedule', 'Validate', 'Clone', 'Compare'];
const NOUNS = ['Network Action', 'Host Action', 'Evaluation', 'Sequence', 'Report', 'Actor', 'Monitor', 'Dashboard', 'Job Result', 'Agent Token', 'Email Profile', 'Zone'];
const RANK_QUERIES = ['deploy', 'export', 'netwac', 'agent9', 'sch mo', 'qqqqqq', 'run seq', 'dns', 'open job result 12'];

function rankingBench(): void {
  const commands: AnyCommand[] = Array.from({ length: COMMANDS }, (_, i) => ({
    id: `bench.cmd${i}` as const,
    title: `${VERBS[i % VERBS.length]} ${NOUNS[Math.floor(i / VERBS.length) % NOUNS.length]} ${i}`,
    category: CATEGORIES[i % CATEGORIES.length]!,
    keywords: i % 3 === 0 ? ['bulk', 'csv', NOUNS[i % NOUNS.length]!.toLowerCase()] : undefined,
    run: () => undefined,
  }));
  const recent = commands.slice(0, 20).map((c) => c.id);
  const samples: number[] = [];
  const cpu: number[] = [];
  const opening: number[] = [];
  const counts: Record<string, number> = {};
  for (let round = 0; round < ROUNDS; round++) {
    // Each round is a registry change: a new list of commands, so nothing prepared for the last round
    // is reused. Opening the palette lists it (the empty query), which prepares the list once.
    const list = [...commands];
    const t0 = performance.now();
    paletteRows(list, '', recent);
    opening.push(performance.now() - t0);
    for (const q of RANK_QUERIES) {
      for (let n = 1; n <= q.length; n++) {
        const c0 = process.cpuUsage();
        const t1 = performance.now();
        const { total } = paletteRows(list, q.slice(0, n), recent);
        samples.push(performance.now() - t1);
        const c = process.cpuUsage(c0);
        cpu.push((c.user + c.system) / 1000);
        if (n === q.length) counts[q] = total;
      }
    }
  }
  console.log(`load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);
  printTable(`ranking ${COMMANDS.toLocaleString('en-US')} commands (src/commands/palette-rows.ts), ${ROUNDS} rounds of ${RANK_QUERIES.length} queries typed one character at a time`, [
    ['opening (prepares the list)', summarize(opening)],
    ['per keystroke, wall clock', summarize(samples)],
    ['per keystroke, CPU time', summarize(cpu)],
  ]);
  console.log(`matches: ${Object.entries(counts).map(([q, n]) => `${JSON.stringify(q)} ${n}`).join(', ')}`);
}

async function searchBench(): Promise<void> {
  const keep = process.env.PALETTE_BENCH_DATA_DIR;
  const dataDir = keep ? path.resolve(keep) : fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-palette-bench-'));
  try {
    const marker = path.join(dataDir, 'palette-bench-seeded');
    if (keep && fs.existsSync(marker)) console.log(`Reusing the seeded database in ${dataDir}`);
    else {
      console.log(`Seeding ${JOBS.toLocaleString('en-US')} jobs and ${ACTIONS.toLocaleString('en-US')} Actions into ${dataDir} (PGlite)…`);
      const t0 = performance.now();
      await seedJobs(dataDir, JOBS);
      const db = await openPglite(dataDir);
      await cloneActions(db, ACTIONS);
      await db.exec('analyze');
      await db.close();
      fs.writeFileSync(marker, new Date().toISOString());
      console.log(`seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    }
    const db = await openPglite(dataDir);
    try {
      // A database seeded by an older version gets the newer migrations.
      await migrate(db);
      // The director's library index, as after its start (the Actions are searched there).
      const t0 = performance.now();
      const library = new LibraryService(db);
      await library.fresh();
      console.log(`library index built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      const [{ a, j } = { a: 0, j: 0 }] = await db.query<{ a: number; j: number }>('select (select count(*)::int from actions) as a, (select count(*)::int from jobs) as j');
      const [user] = await db.query<{ id: number }>(`select id from users where role = 'admin' order by id limit 1`);
      const [job] = await db.query<{ id: number }>('select max(id) as id from jobs');
      const [action] = await db.query<{ vid: string; name: string }>(`select vid, name from actions where vid like 'A5%' order by id desc limit 1`);
      const [actor] = await db.query<{ name: string }>('select name from nodes order by id limit 1');
      const typed = ['dns', action!.vid, String(job!.id), `job ${Math.floor(job!.id / 2)}`, actor!.name, 'variant 4217', 'powershell', 'zzzz-no-match'];
      console.log(`load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} on ${os.cpus().length} cores; ${a.toLocaleString('en-US')} Actions, ${j.toLocaleString('en-US')} jobs`);
      // Warm-up: the first calls compile the statements.
      for (const q of typed) await search(db, library, user!, q, 20);
      const perKind = new Map<string, number[]>();
      const all: number[] = [];
      const cpuAll: number[] = [];
      const ROUNDS_DB = 3;
      for (let round = 0; round < ROUNDS_DB; round++) {
        for (const q of typed) {
          // As the palette calls it: the text so far, from 2 characters (one call per pause in typing).
          for (let n = 2; n <= q.length; n++) {
            const c0 = process.cpuUsage();
            const t0 = performance.now();
            await search(db, library, user!, q.slice(0, n), 20);
            const ms = performance.now() - t0;
            const c = process.cpuUsage(c0);
            all.push(ms);
            cpuAll.push((c.user + c.system) / 1000);
            const key = q === action!.vid ? 'an Action VID' : q === String(job!.id) || q.startsWith('job ') ? 'a job id' : q === actor!.name ? 'an actor name' : `"${q}"`;
            perKind.set(key, [...(perKind.get(key) ?? []), ms]);
          }
        }
      }
      printTable('search call (server/search/service.ts, in-process on PGlite), per keystroke from the 2nd character', [['all typed queries', summarize(all)], ['all typed queries, CPU time', summarize(cpuAll)], ...[...perKind].map(([k, xs]) => [`typing ${k}`, summarize(xs)] as [string, ReturnType<typeof summarize>])]);
    } finally {
      await db.close();
    }
  } finally {
    if (!keep) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

rankingBench();
// PALETTE_BENCH_SEARCH=0 measures the ranking only.
if (process.env.PALETTE_BENCH_SEARCH !== '0') await searchBench();
