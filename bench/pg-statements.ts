import type { Db } from '../server/db/index';

/**
 * A diagnosis aid of the engine bench on PostgreSQL (BENCH_PG_STATEMENTS=1): the server's own time per
 * statement from pg_stat_statements, planning included, nested statements (those a function runs)
 * apart, so a statement's cost inside PostgreSQL is told from the wait of its client. The server must load
 * the extension: VIGIL_TEST_PG_OPTS="-c shared_preload_libraries=pg_stat_statements
 * -c pg_stat_statements.track=all -c pg_stat_statements.track_planning=on" for scripts/with-test-postgres.sh.
 */
export async function pgStatements(db: Db): Promise<{ print: (actions: number) => Promise<void> } | null> {
  if (db.kind !== 'postgres') return null;
  try {
    await db.exec('create extension if not exists pg_stat_statements');
    await db.query('select pg_stat_statements_reset()');
  } catch (e) {
    console.log(`  pg_stat_statements unavailable (${(e as Error).message}): start the server with VIGIL_TEST_PG_OPTS (bench/pg-statements.ts)`);
    return null;
  }
  return {
    async print(actions: number) {
      const rows = await db.query<{ calls: number; ms: number; plan_ms: number; toplevel: boolean; query: string }>(
        `select calls::int, total_exec_time as ms, total_plan_time as plan_ms, toplevel, regexp_replace(query, '\\s+', ' ', 'g') as query
           from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
          order by total_exec_time + total_plan_time desc limit 20`,
      );
      const top = rows.filter((r) => r.toplevel);
      const all = top.reduce((s, r) => s + r.ms + r.plan_ms, 0);
      console.log(`  PostgreSQL's own time (pg_stat_statements, the top statements): ${all.toFixed(0)} ms at the top level, ${(all / actions).toFixed(2)} ms per action`);
      for (const r of rows) {
        const per = (r.ms + r.plan_ms) / actions;
        console.log(`  ${r.toplevel ? '' : '  (nested) '}${String(r.calls).padStart(6)} x ${((r.ms + r.plan_ms) / Math.max(r.calls, 1)).toFixed(3).padStart(7)} ms (plan ${(r.plan_ms / Math.max(r.calls, 1)).toFixed(3)}) = ${per.toFixed(3)} ms/action  ${r.query.slice(0, 110)}`);
      }
    },
  };
}
