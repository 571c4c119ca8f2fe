import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ADMIN_EMAIL, ADMIN_PASSWORD, DEMO_USER_PASSWORD } from '../e2e/director';
import { openPglite, type Db } from '../server/db/index';
import { migrate } from '../server/db/migrate';
import { seedDemo } from '../server/seed/demo';
import { ensureAdmin, ensureDemoUsers } from '../server/seed/users';

/**
 * Seeds a PGlite database for the 1M-row benchmarks (jobs, reports): the demo content, then bulk jobs up
 * to `JOBS` in all over two years before the demo's own, each with a step and two action results
 * (insert ... select from generate_series; secondary indexes rebuilt afterwards).
 */

const time = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
  const t = performance.now();
  const v = await fn();
  return [v, performance.now() - t];
};

/**
 * Runs a benchmark's `body` on a database seeded with `jobs` jobs: in `keep` (a directory kept afterwards,
 * and reused when it already holds a database) or in a temporary directory removed afterwards. Prints
 * the seeding time and the load average first.
 */
export async function withSeededJobs(
  opts: { jobs: number; keep: string | undefined; name: string; detail?: string },
  body: (dataDir: string) => Promise<void>,
): Promise<void> {
  const dataDir = opts.keep ? path.resolve(opts.keep) : fs.mkdtempSync(path.join(os.tmpdir(), `vigil-${opts.name}-bench-`));
  try {
    if (opts.keep && fs.existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'))) {
      console.log(`Reusing the seeded database in ${dataDir}`);
      // A database seeded by an older version gets the newer migrations (the report rollups are built from its job actions).
      const db = await openPglite(dataDir);
      const [applied, t] = await time(async () => {
        const names = await migrate(db);
        // The new tables' statistics, as the seed's own vacuum analyze gives them.
        if (names.length) await db.exec('analyze');
        return names;
      }).finally(() => db.close());
      if (applied.length) console.log(`migrated (${applied.join(', ')}) and analyzed in ${(t / 1000).toFixed(1)} s`);
    } else {
      console.log(`Seeding ${opts.jobs.toLocaleString('en-US')} jobs${opts.detail ?? ''} into ${dataDir} (PGlite)…`);
      const [, t] = await time(() => seedJobs(dataDir, opts.jobs));
      console.log(`seeded in ${(t / 1000).toFixed(0)} s`);
    }
    console.log(`load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);
    await body(dataDir);
  } finally {
    if (!opts.keep) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function seedJobs(dataDir: string, JOBS: number): Promise<void> {
  const db: Db = await openPglite(dataDir);
  try {
    await seedJobsInto(db, JOBS);
  } finally {
    await db.close();
  }
}

/** Seeds `db` (PGlite or PostgreSQL, migrated here) as `seedJobs` does. */
export async function seedJobsInto(db: Db, JOBS: number): Promise<void> {
  await migrate(db);
  await ensureAdmin(db, ADMIN_EMAIL, ADMIN_PASSWORD);
  await ensureDemoUsers(db, DEMO_USER_PASSWORD);
  let [, t] = await time(() => seedDemo(db));
  console.log(`demo content seeded in ${(t / 1000).toFixed(1)} s`);
  const [{ n: existing } = { n: 0 }] = await db.query<{ n: number }>('select count(*)::int as n from jobs');
  const bulk = Math.max(0, JOBS - existing);
  // Secondary indexes are rebuilt after the bulk insert (much faster than maintaining them row by row).
  const indexes = await db.query<{ indexname: string; indexdef: string }>(
    `select indexname, indexdef from pg_indexes where schemaname = current_schema() and tablename in ('jobs', 'job_steps', 'job_actions') and indexdef not like '%UNIQUE INDEX%'`,
  );
  for (const i of indexes) await db.exec(`drop index ${i.indexname}`);
  // Ran By is set here directly; the row trigger would look the user up a million times.
  await db.exec('alter table jobs disable trigger jobs_set_ran_by');
  const users = await db.query<{ id: number; name: string }>(`select id, vigil_job_ran_by(id) as name from users where role <> 'viewer' order by id`);
  const sims = await db.query<{ id: number; name: string }>('select id, name from simulations order by id');
  const actions = await db.query<{ id: number; vid: string; name: string; action_type: string }>('select id, vid, name, action_type from actions where not decommissioned order by id');
  const nodes = await db.query<{ id: number }>(`select id from nodes where status <> 'pending' order by id`);
  const span = 2 * 365 * 86_400; // seconds: two years of history before the demo's own jobs
  [, t] = await time(() =>
    db.query(
      `insert into jobs (id, name, status, progress, simulation_id, action_id, user_id, ran_by, published_status, latest_published_time, latest_published_pipeline, created_at, started_at, finished_at, updated_at)
       select 1000 + g,
         case when g % 5 < 3 then ($2::text[])[1 + g % cardinality($2::text[])] else ($4::text[])[1 + g % cardinality($4::text[])] end,
         s.status, case when s.status = 'completed' then 100 else 40 + g % 50 end,
         case when g % 5 < 3 then ($1::int[])[1 + g % cardinality($1::int[])] end,
         case when g % 5 >= 3 then ($3::int[])[1 + g % cardinality($3::int[])] end,
         case when g % 10 = 0 then null else ($5::int[])[1 + g % cardinality($5::int[])] end,
         case when g % 10 = 0 then 'Scheduled Process' else ($6::text[])[1 + g % cardinality($6::text[])] end,
         case when s.status = 'completed' and g % 2 = 0 then 2 else 0 end,
         case when s.status = 'completed' and g % 2 = 0 then t.at + interval '30 minutes' end,
         case when s.status = 'completed' and g % 2 = 0 then 'Splunk HEC' end,
         t.at, t.at + interval '20 seconds', t.at + interval '10 minutes', t.at + interval '10 minutes'
       from generate_series(1, $7::int) g
       cross join lateral (select (array['completed','completed','completed','completed','completed','completed','completed','completed','errored','cancelled'])[1 + (g * 7) % 10] as status) s
       cross join lateral (select now() - interval '130 days' - ($8::int - g * ($8::int / $7::int)) * interval '1 second' as at) t`,
      [sims.map((s) => s.id), sims.map((s) => s.name), actions.map((a) => a.id), actions.map((a) => a.name), users.map((u) => u.id), users.map((u) => u.name), bulk, span],
    ),
  );
  console.log(`${bulk.toLocaleString('en-US')} jobs inserted in ${(t / 1000).toFixed(1)} s`);
  // Steps and actions reference rows made just above: foreign-key triggers are skipped while they are
  // inserted (session_replication_role, for this transaction's connection); jobs keep their triggers (totals, names).
  await db.transaction(async (tx) => {
    await tx.exec('set local session_replication_role = replica');
    [, t] = await time(() =>
      tx.query(
        `insert into job_steps (job_id, group_order, name, source_node_id, destination_node_id)
         select id, 1, name, ($1::int[])[1 + id % cardinality($1::int[])], ($1::int[])[1 + (id * 3) % cardinality($1::int[])] from jobs where id > 1000`,
        [nodes.map((n) => n.id)],
      ),
    );
    console.log(`${bulk.toLocaleString('en-US')} steps inserted in ${(t / 1000).toFixed(1)} s`);
    [, t] = await time(() =>
      tx.query(
        `insert into job_actions (job_step_id, job_id, action_id, position, sim_action_vid, name, action_type, status, alerted, blocked, events, suspect_events)
         select s.id, s.job_id, ($1::int[])[1 + (s.id * k) % cardinality($1::int[])], k - 1,
           ($2::text[])[1 + (s.id * k) % cardinality($2::text[])], ($3::text[])[1 + (s.id * k) % cardinality($3::text[])], ($4::text[])[1 + (s.id * k) % cardinality($4::text[])],
           'ran', (s.id * k) % 7 = 0, case when (s.id * k) % 3 = 0 then true when (s.id * k) % 3 = 1 then false end, (s.id * k) % 4, case when (s.id * k) % 13 = 0 then 1 else 0 end
         from job_steps s cross join generate_series(1, 2) k where s.job_id > 1000`,
        [actions.map((a) => a.id), actions.map((a) => a.vid), actions.map((a) => a.name), actions.map((a) => a.action_type)],
      ),
    );
    console.log(`${(bulk * 2).toLocaleString('en-US')} action results inserted in ${(t / 1000).toFixed(1)} s`);
  });
  await db.exec('alter table jobs enable trigger jobs_set_ran_by');
  [, t] = await time(async () => {
    for (const i of indexes) await db.exec(i.indexdef);
    await db.exec(`select setval(pg_get_serial_sequence('jobs', 'id'), (select max(id) from jobs))`);
    await db.exec('vacuum analyze');
  });
  console.log(`indexes rebuilt and analyzed in ${(t / 1000).toFixed(1)} s`);
  // The job actions went in without triggers (replica role): the report rollups are rebuilt from them.
  [, t] = await time(async () => {
    await db.exec('select vigil_report_rebuild()');
    await db.exec('vacuum analyze report_rollups');
    await db.exec('vacuum analyze report_class_rollups');
    await db.exec('vacuum analyze report_status_rollups');
    await db.exec('vacuum analyze report_facet_rollups');
  });
  console.log(`report rollups rebuilt in ${(t / 1000).toFixed(1)} s`);
  const [{ n } = { n: 0 }] = await db.query<{ n: number }>('select sum(n)::int as n from job_status_counts');
  const [{ c } = { c: 0 }] = await db.query<{ c: number }>('select count(*)::int as c from jobs');
  console.log(`jobs: ${c.toLocaleString('en-US')} (kept total ${n.toLocaleString('en-US')})`);
}
