/**
 * Migration 026: the PL/pgSQL functions the writes run (triggers, the functions applying their facts,
 * engine_claim) plan their statements once per connection (plan_cache_mode = force_generic_plan). A
 * later `create or replace function` drops that setting unless it says it again: this names any that lost it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from './template';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await openTestDatabase();
});
afterAll(() => tdb?.dispose());

it('every trigger function, fact-applying function and engine_claim plans its statements once per connection', async () => {
  const functions = await tdb.db.query<{ name: string; config: string[] | null }>(
    `select p.proname as name, p.proconfig as config
       from pg_proc p join pg_language l on l.oid = p.prolang
      where p.pronamespace = current_schema()::regnamespace and l.lanname = 'plpgsql'
        and (p.prorettype in ('trigger'::regtype, 'void'::regtype) or p.proname = 'engine_claim')
      order by 1`,
  );
  // The rollups' triggers and their apply functions, the job counters' and the library log's triggers, the claim.
  expect(functions.map((f) => f.name)).toEqual(expect.arrayContaining(['engine_claim', 'vigil_report_apply', 'vigil_report_job_actions_update', 'vigil_report_jobs_update']));
  expect(functions.length).toBeGreaterThan(20);
  expect(functions.filter((f) => !f.config?.includes('plan_cache_mode=force_generic_plan')).map((f) => f.name)).toEqual([]);
});
