import os from 'node:os';
import { openPglite, type Db } from '../server/db/index';
import { migrate } from '../server/db/migrate';
import { percentile } from './stats';

/**
 * What the report triggers cost a job action write (issue 18), on an in-memory PGlite database: the
 * writes of a job's life as the engine makes them (the job, its step, its N job actions pending in one
 * statement, the job started, each job action finished with events in its own statement, the job
 * completed), timed with
 *   - no report triggers (the rollup triggers of 017-022 disabled): the baseline,
 *   - the triggers of 020_reports_filter_rollups.sql (the database migrated without 022),
 *   - with those of 022_reports_status_rollups.sql too (a job that finishes adds its job actions to the
 *     status rollups; job action writes of a running job add nothing there),
 *   - with those of 023_reports_facet_rollups.sql too (a job that finishes adds its job actions to the
 *     facet rollups under its VID and event classes; nothing either while it runs).
 * Prints per variant the CPU time of this process (PGlite runs in it) per job and per job action written,
 * p50 over REPORT_TRIGGERS_JOBS jobs of N = 2 and N = 20 job actions. Nothing is asserted.
 */

const JOBS = Number(process.env.REPORT_TRIGGERS_JOBS || 150);
const REPORT_TRIGGERS = [
  [
    'job_actions',
    [
      'job_actions_report_insert',
      'job_actions_report_update',
      'job_actions_report_delete',
      'job_actions_report_status_insert',
      'job_actions_report_status_update',
      'job_actions_report_status_delete',
      'job_actions_report_facet_insert',
      'job_actions_report_facet_update',
      'job_actions_report_facet_delete',
    ],
  ],
  ['jobs', ['jobs_report_update', 'jobs_report_delete', 'jobs_report_status_update', 'jobs_report_status_delete', 'jobs_report_facet_update', 'jobs_report_facet_delete']],
  ['job_steps', ['job_steps_report_update', 'job_steps_report_delete', 'job_steps_report_status_update', 'job_steps_report_status_delete', 'job_steps_report_facet_update', 'job_steps_report_facet_delete']],
] as const;

type Variant = 'none' | '020' | '022' | '023';
/** The migrations a variant leaves out (recorded as applied, so migrate() skips them). */
const LEFT_OUT: Record<Variant, string[]> = {
  none: [],
  '020': ['022_reports_status_rollups.sql', '023_reports_facet_rollups.sql'],
  '022': ['023_reports_facet_rollups.sql'],
  '023': [],
};

async function database(variant: Variant): Promise<Db> {
  const db = await openPglite(undefined);
  if (LEFT_OUT[variant].length) {
    await db.exec('create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())');
    for (const name of LEFT_OUT[variant]) await db.query('insert into schema_migrations (name) values ($1)', [name]);
  }
  await migrate(db);
  if (variant === 'none') for (const [table, names] of REPORT_TRIGGERS) for (const t of names) await db.exec(`alter table ${table} disable trigger ${t}`);
  return db;
}

/** One job's life; returns this process's CPU time in ms. */
async function lifecycle(db: Db, id: number, n: number): Promise<number> {
  const c = process.cpuUsage();
  const at = new Date(Date.UTC(2026, 0, 1) + id * 61_000).toISOString();
  await db.query(`insert into jobs (id, name, status, created_at) values ($1, $2, 'pending', $3)`, [id, `Job ${id % 7}`, at]);
  await db.query(`insert into job_steps (id, job_id, group_order) values ($1, $1, 0)`, [id]);
  await db.query(
    `insert into job_actions (job_step_id, job_id, position, sim_action_vid, name, action_type, status) select $1, $1, k, 'A' || k, 'x', 'dns', 'pending' from generate_series(1, $2::int) k`,
    [id, n],
  );
  await db.query(`update jobs set status = 'running', started_at = created_at + interval '5 seconds' where id = $1`, [id]);
  const ids = await db.query<{ id: number }>('select id from job_actions where job_id = $1 order by id', [id]);
  for (const [i, r] of ids.entries()) {
    await db.query(`update job_actions set status = 'ran', blocked = $2, events = $3, suspect_events = $4 where id = $1`, [r.id, i % 3 === 0, i % 4, i % 13 === 0 ? 1 : 0]);
  }
  await db.query(`update jobs set status = 'completed' where id = $1`, [id]);
  const u = process.cpuUsage(c);
  return (u.user + u.system) / 1000;
}

async function main(): Promise<void> {
  console.log(`Report trigger cost per job's writes, PGlite in memory, ${JOBS} jobs per size (load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}):`);
  console.log(`${'variant'.padEnd(34)} ${'N'.padStart(3)} ${'cpu/job p50'.padStart(12)} ${'cpu/job action'.padStart(15)} ${'added per job action'.padStart(21)}`);
  const base = new Map<number, number>();
  for (const variant of ['none', '020', '022', '023'] as Variant[]) {
    const db = await database(variant);
    try {
      let id = 1;
      for (const n of [2, 20]) {
        for (let i = 0; i < 10; i++) await lifecycle(db, id++, n);
        const cpu: number[] = [];
        for (let i = 0; i < JOBS; i++) cpu.push(await lifecycle(db, id++, n));
        cpu.sort((a, b) => a - b);
        const p50 = percentile(cpu, 50);
        if (variant === 'none') base.set(n, p50);
        const added = variant === 'none' ? '-' : `${(((p50 - base.get(n)!) / n) * 1000).toFixed(0)} µs`;
        const label = { none: 'no report triggers', '020': 'triggers of 020', '022': 'with 022 (status rollups, before)', '023': 'with 023 (facet rollups)' }[variant];
        console.log(`${label.padEnd(34)} ${String(n).padStart(3)} ${`${p50.toFixed(1)} ms`.padStart(12)} ${`${((p50 / n) * 1000).toFixed(0)} µs`.padStart(15)} ${added.padStart(21)}`);
      }
    } finally {
      await db.close();
    }
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
