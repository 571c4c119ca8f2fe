-- The statements of the triggers (the report rollups, the job counters, the library log), of the
-- functions they call to apply facts, and of engine_claim are planned once per connection, not at each
-- call. PL/pgSQL caches a plan per statement, but a statement with parameters (its variables) or
-- transition tables got a custom plan at each call: the plan cache found no generic plan cheaper, so it
-- planned again each time. The rollups' statement of a job action's result was planned at each of them.
-- bench:engine on PostgreSQL, 50 actors, 500 actions, five rounds alternated: PostgreSQL's own time went
-- from 2.7-2.9 to 1.9-2.1 ms per action (pg_stat_statements: 2.24 -> 1.78 ms, the results' rollups
-- 0.60 -> 0.36), 205 -> 225 actions/s on average.
--
-- Functions called once per row (vigil_report_class, for each job a statement writes) are left out: a
-- function's setting is set and restored at each of its calls. A later `create or replace function` of one of these drops the
-- setting unless it says it again (tests/server/db-generic-plans.test.ts checks that none lacks it).
do $$
declare
  f regprocedure;
begin
  for f in
    select p.oid::regprocedure
      from pg_proc p join pg_language l on l.oid = p.prolang
     where p.pronamespace = current_schema()::regnamespace and l.lanname = 'plpgsql'
       and (p.prorettype in ('trigger'::regtype, 'void'::regtype) or p.proname = 'engine_claim')
  loop
    execute format('alter function %s set plan_cache_mode = force_generic_plan', f);
  end loop;
end
$$;
