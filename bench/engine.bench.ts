/**
 * The job engine under load: an evaluation of 500 steps of one action each (half port_scan, half socket)
 * fanned out over BENCH_ACTORS actor processes (default 50, on 127.0.0.2 upwards): step n runs between
 * pair n mod 25, and the engine runs the steps of free pairs side by side (BENCH_SHAPE=sequences: one
 * sequence job per pair instead, 25 jobs of 20 actions; BENCH_ACTORS=2: everything between two actors).
 * Run by an in-process director on PGlite in memory (BENCH_DATA_DIR=new: in a new data directory on disk,
 * as a director's DATA_DIR, removed afterwards), or on PostgreSQL: BENCH_DATABASE_URL, or a fresh
 * database of TEST_DATABASE_URL's server (`npm run bench:engine:pg` starts a private cluster, as
 * scripts/with-test-postgres.sh does for the tests). Prints actions per second across
 * actors, the time from scheduled (work created) to running (claimed by the actor, and for two-actor
 * actions, the source claiming after the target is ready) p50/p95/p99, and the director's RSS, for the
 * director's first job and then for the same evaluation run again as a new job (BENCH_ROUNDS, default 2:
 * the first finds the director's code and its database connections cold; BENCH_GROW=N: the database
 * grows by N finished jobs before the second). Nothing is asserted.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/app';
import { readConfig } from '../server/config';
import { openDb, openPostgres, type Db } from '../server/db/index';
import { migrate } from '../server/db/migrate';
import { ensureAdmin } from '../server/seed/users';
import { startEngine } from '../server/engine/index';
import { createJob } from '../server/engine/jobs';
import { createBulkToken } from '../server/engine/secrets';
import { REPO_ROOT } from '../e2e/director';
import { printTable, summarize, percentile } from './stats';
import { withSqlStats } from './sql-stats';
import { pgStatements } from './pg-statements';
import { childrenCpu, parentOf, treeCpu } from './proc-cpu';
import { printProfile, type CpuProfile } from './cpu-profile';
import { Session } from 'node:inspector/promises';
import { actorProfileArgs, printActorsProfile, profileClockUs } from './actor-profile';
import { PgliteMaintenance } from '../server/db/pglite-maintenance';

const ACTIONS = Number(process.env.BENCH_ACTIONS ?? 500);
const ACTORS = Math.max(2, Number(process.env.BENCH_ACTORS ?? 50));
const PAIRS = Math.floor(ACTORS / 2);
// BENCH_SHAPE=sequences: one sequence job per pair (the shape measured before the engine ran an evaluation's steps side by side).
const SEQUENCES = process.env.BENCH_SHAPE === 'sequences';
// BENCH_ROUNDS (default 2): the same evaluation run again as a new job on the same director and actors.
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));
// BENCH_GROW=N: before the second round, the database grows by N finished jobs (grow() below).
const GROW = Number(process.env.BENCH_GROW ?? 0);

async function main() {
  // Actors are spawned by a small helper started now, before PGlite swells this process (see actor-launcher.ts).
  const profileDir = process.env.BENCH_ACTOR_PROFILE;
  if (profileDir) fs.mkdirSync(profileDir, { recursive: true });
  const actorArgs = [...(process.env.BENCH_ACTOR_NODE_ARGS?.split(' ').filter(Boolean) ?? []), ...(profileDir ? actorProfileArgs(profileDir) : [])].join(' ');
  const launcher = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'bench', 'actor-launcher.ts')], {
    cwd: REPO_ROOT,
    stdio: ['pipe', 'ignore', 'inherit'],
    env: { ...process.env, BENCH_ACTOR_NODE_ARGS: actorArgs },
  });
  let profiled: { from: number; to: number; actors: number } | null = null;
  const pg = await benchDatabase();
  const config = { ...readConfig({ ...process.env, SEED: 'none', STATIC_DIR: 'none' }), databaseUrl: pg?.url, port: 0 };
  // As server/main.ts opens it: a director keeps its connections.
  const opened = await openDb({ databaseUrl: config.databaseUrl, dataDir: benchDataDir() }, { keep: true });
  await migrate(opened);
  // BENCH_SQL_STATS=1: every statement counted and timed, the costliest printed at the end (a diagnosis aid).
  const sqlStats = process.env.BENCH_SQL_STATS ? withSqlStats(opened) : null;
  const db = sqlStats?.db ?? opened;
  await ensureAdmin(db, 'bench@example.com', 'bench-password-123');
  const app = await buildApp({ db, config });
  // The detection window after the last action is not engine throughput: 1 ms unless DETECTION_WINDOW_MS says otherwise.
  const engine = startEngine(app, { tickMs: 100, detectionWindowMs: Number(process.env.DETECTION_WINDOW_MS) || 1 });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const { token } = await createBulkToken(db, { name: 'bench' });
  const addresses = Array.from({ length: PAIRS * 2 }, (_, i) => `127.0.0.${i + 2}`);
  const registerStart = performance.now();
  try {
    // Started 250 ms apart, so 50 processes compiling at once do not starve the director's answers.
    launcher.stdin.write(`${JSON.stringify({ director: url, token, addresses, gapMs: 250 })}\n`);
    let nodes: { id: number }[] = [];
    // Actor processes start slowly on a busy machine, and one whose first call times out gives up: go on
    // with those registered once all are in or none came for 30 s (the figures name how many ran).
    // The first actor gets 240 s (the launcher and the actor each compile with tsx first; 120 s was too short at load average 30).
    let last = Date.now() + 210_000;
    for (let seen = 0; nodes.length < addresses.length && Date.now() - last < 30_000; ) {
      nodes = await db.query<{ id: number }>(`select id from nodes where status = 'online' and token_hash is not null order by id`);
      if (nodes.length > seen) [seen, last] = [nodes.length, Date.now()];
      if (nodes.length < addresses.length) await new Promise((r) => setTimeout(r, 200));
    }
    if (nodes.length < 2) throw new Error(`Only ${nodes.length} of ${addresses.length} actors registered.`);
    const registerSeconds = (performance.now() - registerStart) / 1000;
    const postmaster = db.kind === 'postgres' ? parentOf((await db.query<{ pid: number }>('select pg_backend_pid() as pid'))[0]?.pid ?? 0) : 0;
    const idle = await idleCpu(launcher.pid ?? 0, postmaster);
    for (let round = 1; round <= ROUNDS; round++) {
      // The director's first job finds its code and its database connections cold; a later one does not.
      if (ROUNDS > 1) console.log(round === 1 ? `Round 1 of ${ROUNDS}: the director's first job` : `Round ${round} of ${ROUNDS}: the next job, on the same director and actors`);
      if (round === 2 && GROW) await grow(db, GROW);
      // BENCH_PG_STATEMENTS=1: PostgreSQL's own time per statement while the job runs (bench/pg-statements.ts).
      const serverStats = process.env.BENCH_PG_STATEMENTS ? await pgStatements(db) : null;
      const pairs = Math.floor(nodes.length / 2);
      const perJob = SEQUENCES ? Math.ceil(ACTIONS / pairs) : ACTIONS;
      const [sim] = await db.query<{ id: number }>(`insert into simulations (vid, name, simulation_type) values ('S-BENCH-' || $2, 'Engine bench', $1) returning id`, [SEQUENCES ? 'sequence' : 'eval', round]);
      const [scan] = await db.query<{ id: number }>(
        `insert into actions (vid, name, action_type, approved, details) values ('A-BENCH-1-' || $2, 'bench scan', 'port_scan', true, $1) returning id`,
        [JSON.stringify({ ports_list: '48001,48002,#48003', sleep_timer: 0, randomize_scan: false }), round],
      );
      const [sock] = await db.query<{ id: number }>(
        `insert into actions (vid, name, action_type, approved, details) values ('A-BENCH-2-' || $2, 'bench socket', 'socket', true, $1) returning id`,
        [JSON.stringify({ comm_type: 'tcp', server_port: 48010, steps: [{ data_type: 'ascii', request: 'hello', response: 'world' }] }), round],
      );
      const pair = (p: number) => ({ source: nodes[2 * p]?.id ?? 0, target: nodes[2 * p + 1]?.id ?? 0 });
      const jobs: { job_id: number }[] = [];
      // When the jobs were created (the clock the database's finished_at is compared with).
      let createdAt: number;
      if (SEQUENCES) {
        // One step of perJob actions, run as one sequence job per pair.
        const [step] = await db.query<{ id: number }>(`insert into simulation_steps (simulation_id, position, name) values ($1, 1, 'all') returning id`, [sim?.id]);
        await db.query(
          `insert into simulation_step_actions (step_id, action_id, position) select $1, case when g % 2 = 0 then $2::int else $3::int end, g from generate_series(1, $4::int) g`,
          [step?.id, scan?.id, sock?.id, perJob],
        );
        createdAt = Date.now();
        for (let p = 0; p < pairs; p++) jobs.push(await createJob(db, { kind: 'sequence', id: sim?.id ?? 0, pairs: [pair(p)], userId: null }));
      } else {
        // ACTIONS steps of one action each, step n between pair n mod pairs: one evaluation job.
        const steps = await db.query<{ id: number; position: number }>(
          `insert into simulation_steps (simulation_id, position, name) select $1, g, 'step ' || g from generate_series(1, $2::int) g returning id, position`,
          [sim?.id, ACTIONS],
        );
        await db.query(
          `insert into simulation_step_actions (step_id, action_id, position) select s.id, case when s.position % 2 = 0 then $2::int else $3::int end, 1 from simulation_steps s where s.simulation_id = $1`,
          [sim?.id, scan?.id, sock?.id],
        );
        createdAt = Date.now();
        const stepPairs = [...steps].sort((a, b) => a.position - b.position).map((_, i) => pair(i % pairs));
        jobs.push(await createJob(db, { kind: 'evaluation', id: sim?.id ?? 0, pairs: stepPairs, userId: null }));
      }
      const jobIds = jobs.map((j) => j.job_id);
      // As the run route does (server/routes/run.ts): the engine hears of the new jobs at once, not at its next tick.
      engine.kick(jobIds);
      // CPU seconds per component while the jobs run (the machine is shared: wall time alone says little).
      const profileFrom = profileClockUs();
      const cpu0 = { director: process.cpuUsage(), actors: childrenCpu(launcher.pid ?? 0), db: postmaster ? treeCpu(postmaster) : 0, load: os.loadavg()[0] ?? 0 };
      // BENCH_DIRECTOR_PROFILE=1: where the director's own JavaScript time goes while the job runs (a diagnosis aid).
      const profiler = process.env.BENCH_DIRECTOR_PROFILE ? new Session() : null;
      if (profiler) {
        profiler.connect();
        await profiler.post('Profiler.enable');
        await profiler.post('Profiler.setSamplingInterval', { interval: 500 });
        await profiler.post('Profiler.start');
      }
      let rssMax = 0;
      let statuses: { status: string; n: number }[] = [];
      for (;;) {
        rssMax = Math.max(rssMax, process.memoryUsage().rss);
        statuses = await db.query<{ status: string; n: number }>('select status, count(*)::int as n from jobs where id = any($1::int[]) group by 1 order by 1', [jobIds]);
        if (statuses.every((j) => ['completed', 'errored', 'cancelled'].includes(j.status))) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      const directorCpu = process.cpuUsage(cpu0.director);
      profiled = { from: profileFrom, to: profileClockUs(), actors: nodes.length };
      const directorProfile = profiler ? ((await profiler.post('Profiler.stop')) as { profile: CpuProfile }).profile : null;
      const actorsCpu = childrenCpu(launcher.pid ?? 0);
      const perActor = [...actorsCpu.byPid].map(([pid, s]) => s - (cpu0.actors.byPid.get(pid) ?? 0));
      const dbCpu = postmaster ? treeCpu(postmaster) - cpu0.db : 0;
      const status = statuses.map((j) => `${j.n} ${j.status}`).join(', ');
      const total = SEQUENCES ? perJob * pairs : ACTIONS;
      // Until the last job finished (the database's time; every job the loop saw end has one): the loop looks only every 200 ms.
      const [ended] = await db.query<{ ms: number }>('select extract(epoch from max(finished_at)) * 1000 as ms from jobs where id = any($1::int[])', [jobIds]);
      const seconds = (Number(ended?.ms) - createdAt) / 1000;
      const work = await db.query<{ role: string; job_action_id: number; wait_ms: number; created_ms: number; claimed_ms: number }>(
        `select role, job_action_id, extract(epoch from (claimed_at - created_at)) * 1000 as wait_ms,
                extract(epoch from created_at) * 1000 as created_ms, extract(epoch from claimed_at) * 1000 as claimed_ms
           from engine_work where job_id = any($1::int[]) and claimed_at is not null`,
        [jobIds],
      );
      const byAction = new Map<number, { created: number; sourceClaimed: number }>();
      for (const w of work) {
        const e = byAction.get(w.job_action_id) ?? { created: Infinity, sourceClaimed: 0 };
        e.created = Math.min(e.created, Number(w.created_ms));
        if (w.role === 'source') e.sourceClaimed = Number(w.claimed_ms);
        byAction.set(w.job_action_id, e);
      }
      const firstClaim = work.map((w) => Number(w.wait_ms));
      const toSource = [...byAction.values()].filter((e) => e.sourceClaimed).map((e) => e.sourceClaimed - e.created);
      const results = await db.query<{ status: string; blocked: boolean | null; n: number }>(
        `select status, blocked, count(*)::int as n from job_actions where job_id = any($1::int[]) group by 1, 2 order by 1, 2`,
        [jobIds],
      );
      // Why actions errored, most frequent reason first (the figures must name what failed).
      const reasons = await db.query<{ status: string; reason: string; n: number }>(
        `select status, coalesce(blocked_msg, '(no message)') as reason, count(*)::int as n from job_actions
          where job_id = any($1::int[]) and status not in ('ran', 'completed') group by 1, 2 order by 3 desc limit 8`,
        [jobIds],
      );
      if (process.env.BENCH_TIMELINE) {
        const tl = await db.query<Record<string, number>>(
          `select ja.id, extract(epoch from ja.started_at) * 1000 as started, extract(epoch from ja.finished_at) * 1000 as finished,
                  extract(epoch from t.claimed_at) * 1000 as t_claim, extract(epoch from t.ready_at) * 1000 as t_ready,
                  extract(epoch from s.claimed_at) * 1000 as s_claim, extract(epoch from s.finished_at) * 1000 as s_done
             from job_actions ja left join engine_work t on t.job_action_id = ja.id and t.role = 'target' left join engine_work s on s.job_action_id = ja.id and s.role = 'source'
            where ja.job_id = $1 order by ja.id limit 8`,
          [jobIds[0]],
        );
        let prev = 0;
        for (const r of tl) {
          const b = Number(r.started);
          console.log(`  action ${r.id}: gap ${prev ? (b - prev).toFixed(0) : '-'} | t_claim +${(Number(r.t_claim) - b).toFixed(0)} ready +${(Number(r.t_ready) - b).toFixed(0)} s_claim +${(Number(r.s_claim) - b).toFixed(0)} s_done +${(Number(r.s_done) - b).toFixed(0)} finished +${(Number(r.finished) - b).toFixed(0)}`);
          prev = Number(r.finished);
        }
      }
      if (process.env.BENCH_PHASES) {
        // Where a pair's cycle goes, per action (the mean over actions created after the job's first second):
        // the gap after the pair's previous action, then each step of this one.
        const rows = await db.query<Record<string, number>>(
          `select s.source_node_id as pair, extract(epoch from ja.finished_at) * 1000 as finished,
                  extract(epoch from least(t.created_at, sw.created_at)) * 1000 as created, extract(epoch from t.claimed_at) * 1000 as t_claim,
                  extract(epoch from t.ready_at) * 1000 as t_ready, extract(epoch from sw.claimed_at) * 1000 as s_claim,
                  extract(epoch from sw.finished_at) * 1000 as s_done, extract(epoch from t.finished_at) * 1000 as t_done
             from job_actions ja join job_steps s on s.id = ja.job_step_id
             join engine_work t on t.job_action_id = ja.id and t.role = 'target' join engine_work sw on sw.job_action_id = ja.id and sw.role = 'source'
            where ja.job_id = any($1::int[]) order by 1, 3`,
          [jobIds],
        );
        const t0 = Math.min(...rows.map((r) => Number(r.created)));
        const sums: Record<string, number[]> = {};
        const add = (k: string, v: number) => (sums[k] ??= []).push(v);
        // The job's first wave (every pair's first action, created together) apart: there the actors start cold.
        rows.forEach((r, i) => {
          const prev = rows[i - 1];
          const first = prev?.pair !== r.pair ? 'first wave: ' : '';
          if (!first && Number(r.created) - t0 < 1000) return;
          if (prev && prev.pair === r.pair) add('previous action finished -> work created', Number(r.created) - Number(prev.finished));
          add(`${first}created -> target claimed`, Number(r.t_claim) - Number(r.created));
          add(`${first}target claimed -> ready`, Number(r.t_ready) - Number(r.t_claim));
          add(`${first}ready -> source claimed`, Number(r.s_claim) - Number(r.t_ready));
          add(`${first}source claimed -> its result stored`, Number(r.s_done) - Number(r.s_claim));
          add(`${first}source's result -> target's evidence stored`, Number(r.t_done) - Number(r.s_done));
          add(`${first}last of them -> action finished`, Number(r.finished) - Math.max(Number(r.t_done), Number(r.s_done)));
        });
        for (const [k, v] of Object.entries(sums)) {
          const sorted = [...v].sort((a, b) => a - b);
          console.log(`  ${k}: mean ${(v.reduce((a, b) => a + b, 0) / v.length).toFixed(1)} ms, p50 ${percentile(sorted, 50).toFixed(1)}, p95 ${percentile(sorted, 95).toFixed(1)}`);
        }
        // The slowest 1% (at least five): where their time went (the p99 is made of these).
        const slowest = [...rows].sort((a, b) => Number(b.s_claim) - Number(b.created) - (Number(a.s_claim) - Number(a.created))).slice(0, Math.max(5, Math.ceil(rows.length / 100)));
        const ms = (a: number | undefined, b: number | undefined) => (Number(b) - Number(a)).toFixed(0);
        console.log(`  slowest (created -> target claimed / -> ready / -> source claimed, at): ${slowest.map((r) => `${ms(r.created, r.t_claim)}/${ms(r.t_claim, r.t_ready)}/${ms(r.t_ready, r.s_claim)}@${((Number(r.created) - t0) / 1000).toFixed(2)}s`).join(' ')}`);
      }
      const shape = SEQUENCES ? `${pairs} sequence job(s) of ${perJob}` : `one evaluation of ${ACTIONS} steps, step n between pair n mod ${pairs}`;
      console.log(`Engine bench: ${total} actions (port_scan and socket) over ${pairs * 2} actor processes (${nodes.length} of ${addresses.length} started), ${shape}, on ${db.kind}`);
      console.log(`  ${nodes.length} actors registered in ${registerSeconds.toFixed(1)} s (started 250 ms apart)`);
      console.log(`  jobs ${status} in ${seconds.toFixed(1)} s: ${(total / seconds).toFixed(1)} actions/s across actors`);
      console.log(`  results: ${results.map((r) => `${r.status}${r.blocked === null ? '' : r.blocked ? '/blocked' : '/not blocked'} ${r.n}`).join(', ')}`);
      for (const r of reasons) console.log(`  ${r.n} ${r.status}: ${r.reason.slice(0, 200)}`);
      printTable('Scheduled to running', [
        ['work created -> first claim', summarize(firstClaim)],
        ['action scheduled -> source running', summarize(toSource)],
      ]);
      const sorted = [...toSource].sort((a, b) => a - b);
      if (process.env.BENCH_SLOWEST) {
        const t0 = Math.min(...[...byAction.values()].map((e) => e.created));
        const slow = [...byAction.values()].filter((e) => e.sourceClaimed).sort((a, b) => (b.sourceClaimed - b.created) - (a.sourceClaimed - a.created)).slice(0, 20);
        const later = [...byAction.values()].filter((e) => e.sourceClaimed && e.created - t0 > 1000).map((e) => e.sourceClaimed - e.created).sort((a, b) => a - b);
        console.log(`  created after the first second (${later.length}): p50 ${percentile(later, 50).toFixed(1)} p95 ${percentile(later, 95).toFixed(1)} p99 ${percentile(later, 99).toFixed(1)} ms`);
        console.log(`  slowest: ${slow.map((e) => `${(e.sourceClaimed - e.created).toFixed(0)}ms@${((e.created - t0) / 1000).toFixed(2)}s`).join(' ')}`);
      }
      console.log(`  scheduled -> source running: p95 ${percentile(sorted, 95).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms`);
      console.log(`  director RSS: ${(process.memoryUsage().rss / 1048576).toFixed(0)} MB now, ${(rssMax / 1048576).toFixed(0)} MB max while running`);
      const dirS = (directorCpu.user + directorCpu.system) / 1e6;
      const actS = perActor.reduce((a, b) => a + b, 0);
      console.log(
        `  CPU while running (${seconds.toFixed(1)} s wall): director ${dirS.toFixed(1)} s, ${perActor.length} actors ${actS.toFixed(1)} s (max one ${Math.max(0, ...perActor).toFixed(2)} s)` +
          `${postmaster ? `, PostgreSQL ${dbCpu.toFixed(1)} s` : ''}; per action ${((1000 * (dirS + actS + dbCpu)) / total).toFixed(1)} ms` +
          ` (director ${((1000 * dirS) / total).toFixed(1)}, actors ${((1000 * actS) / total).toFixed(1)}${postmaster ? `, PostgreSQL ${((1000 * dbCpu) / total).toFixed(1)}` : ''})`,
      );
      console.log(`  load average (1 min): ${cpu0.load.toFixed(1)} at the start, ${(os.loadavg()[0] ?? 0).toFixed(1)} at the end`);
      // What this machine could do at that cost with every core busy with the job and nothing else (PostgreSQL's CPU is known only for its private cluster).
      const perAction = (dirS + actS + dbCpu) / total;
      if (perAction > 0) console.log(`  ceiling at that cost: ${os.availableParallelism()} cores / ${(1000 * perAction).toFixed(1)} ms per action = ${(os.availableParallelism() / perAction).toFixed(0)} actions/s`);
      if (idle && round === 1) {
        const per = (x: number) => `${((100 * x) / idle.seconds).toFixed(1)}%`;
        console.log(
          `  idle, before the job (${nodes.length} actors waiting for work, ${idle.seconds} s): CPU of a core: director ${per(idle.director)}, actors ${per(idle.actors)}` +
            `${postmaster ? `, PostgreSQL ${per(idle.db)}` : ''}`,
        );
      }
      // Counted from the start: printed once, after the last round, per action of all of them.
      if (round === ROUNDS) sqlStats?.print(Number(process.env.BENCH_SQL_TOP) || 25, total * ROUNDS);
      if (directorProfile) printProfile(directorProfile, 'the director while the job ran', /\/server\//, 25);
      await serverStats?.print(total);
    }
  } finally {
    launcher.kill('SIGTERM');
    if (profileDir && profiled) await printActorsProfile(profileDir, profiled.actors, profiled.from, profiled.to);
    await app.close();
    await db.close();
    await pg?.drop();
  }
}

/**
 * BENCH_IDLE_S (default 10; 0 skips it): the CPU seconds the director, the actors and PostgreSQL spend
 * while the registered actors only wait for work (their long polls and heartbeats), after 3 s for the
 * last registrations to settle.
 */
async function idleCpu(launcherPid: number, postmaster: number): Promise<{ seconds: number; director: number; actors: number; db: number } | null> {
  const seconds = Number(process.env.BENCH_IDLE_S ?? 10);
  if (!(seconds > 0)) return null;
  await new Promise((r) => setTimeout(r, 3000));
  const start = { director: process.cpuUsage(), actors: childrenCpu(launcherPid).total, db: postmaster ? treeCpu(postmaster) : 0 };
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const d = process.cpuUsage(start.director);
  return { seconds, director: (d.user + d.system) / 1e6, actors: childrenCpu(launcherPid).total - start.actors, db: postmaster ? treeCpu(postmaster) - start.db : 0 };
}

/**
 * BENCH_GROW: N finished jobs of 4 job actions and their work each, added in one transaction (months of
 * history on a director that kept running since its first job), then the director's database
 * maintenance once, as its next minute would run it (on PGlite, server/db/pglite-maintenance.ts; on
 * PostgreSQL, its autovacuum). BENCH_GROW_MAINTENANCE=0 leaves it out: the statements keep the plans
 * made for the tables of the first round.
 */
async function grow(db: Db, n: number): Promise<void> {
  const t0 = performance.now();
  await db.transaction(async (tx) => {
    // Without the triggers (the rollups and counters): this is history, not what the measured job writes.
    await tx.exec('set local session_replication_role = replica');
    const [{ base } = { base: 0 }] = await tx.query<{ base: number }>('select coalesce(max(id), 0) + 1000 as base from jobs');
    await tx.query(
      `insert into jobs (id, name, status, progress, created_at, started_at, finished_at, updated_at)
       select $1::int + g, 'grown ' || g, 'completed', 100, now() - interval '1 day', now() - interval '1 day', now() - interval '1 day', now() from generate_series(1, $2::int) g`,
      [base, n],
    );
    await tx.query(`insert into job_steps (job_id, group_order, name) select $1::int + g, 1, 'grown' from generate_series(1, $2::int) g`, [base, n]);
    await tx.query(
      `insert into job_actions (job_step_id, job_id, position, sim_action_vid, name, action_type, status, events)
       select s.id, s.job_id, k, 'A' || k, 'grown', 'dns', 'ran', k % 3 from job_steps s cross join generate_series(1, 4) k where s.job_id > $1::int`,
      [base],
    );
    await tx.query(
      `insert into engine_work (job_id, job_action_id, node_id, role, status, payload, created_at, finished_at)
       select ja.job_id, ja.id, (select min(id) from nodes), 'source', 'done', '{}'::jsonb, now(), now() from job_actions ja where ja.job_id > $1::int`,
      [base],
    );
  });
  const grown = (performance.now() - t0) / 1000;
  const t1 = performance.now();
  const maintained = process.env.BENCH_GROW_MAINTENANCE === '0' || db.kind !== 'pglite' ? null : await new PgliteMaintenance(db).run();
  const what = maintained ? `then the maintenance vacuumed or analyzed ${maintained.length} tables in ${((performance.now() - t1) / 1000).toFixed(1)} s` : 'no maintenance';
  console.log(`  grown by ${n.toLocaleString('en-US')} finished jobs (4 job actions and work each) in ${grown.toFixed(1)} s; ${what}`);
}

/** BENCH_DATABASE_URL as it is, or a fresh database on TEST_DATABASE_URL's server (dropped afterwards), or none (PGlite). */
/** BENCH_DATA_DIR=new: PGlite in a new temporary data directory on disk, as a director runs it. */
function benchDataDir(): string | undefined {
  if (process.env.BENCH_DATA_DIR !== 'new') return undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-engine-'));
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function benchDatabase(): Promise<{ url: string; drop: () => Promise<void> } | null> {
  if (process.env.BENCH_DATABASE_URL) return { url: process.env.BENCH_DATABASE_URL, drop: async () => {} };
  const server = process.env.TEST_DATABASE_URL;
  if (!server) return null;
  const name = `vigil_engine_bench_${process.pid}`;
  const admin = await openPostgres(server);
  await admin.exec(`create database ${name}`);
  const u = new URL(server);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      await admin.exec(`drop database if exists ${name} with (force)`);
      await admin.close();
    },
  };
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
