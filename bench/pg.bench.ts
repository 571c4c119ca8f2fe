import os from 'node:os';
import { startDirector, type Director } from '../e2e/director';
import { openPostgres } from '../server/db/index';
import { migrate } from '../server/db/migrate';
import { CONCURRENCY, get, login, mixed, scenarios, summaryLine, time, type MixedFigures } from './jobs-calls';
import { profileArgs } from './proc-cpu';
import { seedJobsInto } from './seed-jobs';

/**
 * Many users on PostgreSQL (issue 22): `npm run bench:pg` seeds PG_BENCH_ROWS jobs (default
 * 1,000,000, as bench:jobs does on PGlite) into a fresh database of the PostgreSQL server of
 * TEST_DATABASE_URL (scripts/with-test-postgres.sh starts a private cluster of the installed postgresql
 * package when it is unset), starts the real director on it (DATABASE_URL) and times the jobs calls
 * from 8 and 32 clients at once (PG_BENCH_CLIENTS), each for JOBS_BENCH_MIXED_SECONDS: calls per second,
 * p50/p99 of the list calls and of all calls, and the CPU a call costs the director, PostgreSQL and the
 * load generator. PG_BENCH_KEEP=1 keeps the seeded database for the next run. Figures are printed; nothing is asserted.
 */

const ROWS = Number(process.env.PG_BENCH_ROWS || 1_000_000);
const CLIENTS = process.env.PG_BENCH_CLIENTS ? process.env.PG_BENCH_CLIENTS.split(',').map(Number) : CONCURRENCY;

async function main(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set: run `npm run bench:pg` (scripts/with-test-postgres.sh sets it).');
  // PG_BENCH_KEEP=1 keeps the seeded database (vigil_jobs_bench_kept) and reuses it when it holds the rows.
  const keep = !!process.env.PG_BENCH_KEEP;
  const name = keep ? 'vigil_jobs_bench_kept' : `vigil_bench_${process.pid}`;
  const admin = await openPostgres(url);
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).length > 0;
  if (!exists) await admin.exec(`create database ${name}`);
  const [{ server_version: version } = { server_version: '' }] = await admin.query<{ server_version: string }>('show server_version');
  const u = new URL(url);
  u.pathname = `/${name}`;
  const own = u.toString();
  let director: Director | null = null;
  try {
    const db = await openPostgres(own);
    const seeded = exists && (await db.query<{ n: number }>(`select count(*)::int as n from pg_tables where tablename = 'jobs'`))[0]?.n
      ? ((await db.query<{ n: number }>('select count(*)::int as n from jobs'))[0]?.n ?? 0) >= ROWS
      : false;
    if (seeded) {
      console.log(`Reusing ${ROWS.toLocaleString('en-US')} jobs in PostgreSQL ${version} (database ${name})`);
      await migrate(db);
    } else {
      console.log(`Seeding ${ROWS.toLocaleString('en-US')} jobs into PostgreSQL ${version} (database ${name})…`);
      const [, t] = await time(() => seedJobsInto(db, ROWS));
      console.log(`seeded in ${(t / 1000).toFixed(0)} s`);
    }
    await db.close();
    console.log(`load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);
    director = await startDirector({ DATABASE_URL: own, SEED: 'none' }, { nodeArgs: profileArgs() });
    const s = await login(director.url);
    const list = await scenarios((p) => get(director!.url + p, s));
    // Warm-up: every call once, so the first clients do not pay for cold caches.
    for (const [, p] of list) await get(director.url + p(), s);
    const figures: MixedFigures[] = [];
    for (const clients of CLIENTS) figures.push(await mixed(director.url, s, list, clients, { pid: director.pid, databaseUrl: own }));
    console.log(`\nPostgreSQL ${version}, ${ROWS.toLocaleString('en-US')} jobs, the director over HTTP:`);
    for (const f of figures) console.log(`  ${summaryLine(f)}`);
  } finally {
    await director?.stop();
    if (!keep) await admin.exec(`drop database if exists ${name} with (force)`);
    await admin.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
