-- The report rollups of 017/020 (report_rollups, report_class_rollups) are written behind: the triggers
-- queue their facts (report_fact_queue), and vigil_report_flush() adds them to the rollups, by the
-- director about once a second (server/reports/rollup-flusher.ts). A read adds the queued facts to the
-- rollups it reads in the same snapshot (vigil_report_queued, server/reports/rollups.ts), so every report
-- stays exact whether or not they have been flushed.
--
-- Why: a job action's result added its facts to 27 rollup rows (4 grains of the whole, 2 of each key,
-- in both tables), each an upsert, and then looked for rows counting nothing; the engine's results
-- statement spent most of its time there. bench:engine on PGlite (500 actions, 50 actors): that
-- statement, the most PGlite's thread spent on any, took 4.4-4.6 ms instead of 6.4-8.5 per group
-- commit of about 3.5 results, and a flush takes 10.5-20.3 ms once a second (about 8% less of that
-- thread's time per job); on PostgreSQL, its CPU per action fell from 2.9-4.0 to 2.3-3.5 ms. A flush
-- adds a second's results at once: the rows they share (the whole, a job's simulation, its actions) are
-- written once instead of at every result.
--
-- The status and facet rollups (022, 023) are left as they are: they count only finished jobs, and a
-- running job's writes add nothing to them.

-- The queued facts, in the order they came (no key: a flush takes them all).
-- A later `alter type vigil_report_fact` needs `cascade` for this table.
create table report_fact_queue of vigil_report_fact;

-- What every trigger of 017/020/025 calls with its facts: queued (the rollups' upserts are
-- vigil_report_apply_now below, run by a flush and by a rebuild).
create or replace function vigil_report_apply(facts vigil_report_fact[]) returns void language plpgsql
set plan_cache_mode = force_generic_plan as $$
begin
  if facts is null or cardinality(facts) = 0 then return; end if;
  insert into report_fact_queue select * from unnest(facts);
end
$$;

-- What one fact adds to each counter of its rollup rows, times its sign (as 020's vigil_report_apply
-- counted them). A SQL function of one select: the planner inlines it where it is called.
create function vigil_report_counts(status text, blocked boolean, events integer, alerted boolean)
returns table (total integer, prevented integer, detected integer, alerted integer, missed integer, not_run integer, errored integer)
language sql immutable as $$
  select (status = 'ran')::int, (status = 'ran' and coalesce(blocked, false))::int, (status = 'ran' and (events > 0 or alerted))::int,
    (status = 'ran' and alerted)::int, (status = 'ran' and not coalesce(blocked, false) and events = 0 and not alerted)::int,
    (status in ('not run', 'incompatible'))::int, (status = 'errored')::int
$$;

-- Adds facts to the rollups at once (020's vigil_report_apply, rewritten): the facts are summed per
-- job time and key first (a result's two facts, the job action before and after, fall together), then
-- spread over the grains and dimensions. 020's spread every fact: a second of a job's results, 300
-- facts, became about 8,400 rows to sum, 42-60 ms on PGlite; summed first, 10.5-20.3 ms. Rollup rows
-- left counting nothing (a job deleted, or moved to another slice) are deleted by key, as 020 did.
create function vigil_report_apply_now(facts vigil_report_fact[]) returns void language plpgsql
set plan_cache_mode = force_generic_plan as $$
declare
  dead jsonb;
  dead_classes jsonb;
begin
  if facts is null or cardinality(facts) = 0 then return; end if;
  with f as (
    select q.job_time, q.simulation_id, q.monitor_id, q.source_node_id, q.destination_node_id, q.action_id, q.action_type, q.class_id,
      sum(q.sign) as n, sum(q.sign * c.total) as total, sum(q.sign * c.prevented) as prevented, sum(q.sign * c.detected) as detected,
      sum(q.sign * c.alerted) as alerted, sum(q.sign * c.missed) as missed, sum(q.sign * c.not_run) as not_run, sum(q.sign * c.errored) as errored
    from unnest(facts) q cross join lateral vigil_report_counts(q.status, q.blocked, q.events, q.alerted) c
    where q.job_time is not null
    group by 1, 2, 3, 4, 5, 6, 7, 8),
  spread as (
    select g.grain, d.dim, f.class_id, vigil_report_bucket(g.grain, f.job_time) as bucket, d.k, d.t,
      f.n, f.total, f.prevented, f.detected, f.alerted, f.missed, f.not_run, f.errored
    from f cross join lateral (values (0::smallint, 0, ''), (1::smallint, coalesce(f.action_id, 0), f.action_type), (2::smallint, coalesce(f.source_node_id, 0), ''),
      (3::smallint, coalesce(f.destination_node_id, 0), ''), (4::smallint, coalesce(f.simulation_id, 0), ''), (5::smallint, coalesce(f.monitor_id, 0), '')) d(dim, k, t)
    join (values (0::smallint), (1::smallint), (2::smallint), (3::smallint)) g(grain) on d.dim = 0 or g.grain >= 2),
  whole as (
    insert into report_rollups as r (grain, dim, bucket, k, t, n, total, prevented, detected, alerted, missed, not_run, errored)
    select grain, dim, bucket, k, t, sum(n), sum(total), sum(prevented), sum(detected), sum(alerted), sum(missed), sum(not_run), sum(errored)
    from spread group by 1, 2, 3, 4, 5
    having sum(n) <> 0 or sum(total) <> 0 or sum(detected) <> 0 or sum(prevented) <> 0 or sum(alerted) <> 0 or sum(missed) <> 0 or sum(not_run) <> 0 or sum(errored) <> 0
    order by 1, 2, 3, 4, 5
    on conflict (grain, dim, bucket, k, t) do update set
      n = r.n + excluded.n, total = r.total + excluded.total, prevented = r.prevented + excluded.prevented,
      detected = r.detected + excluded.detected, alerted = r.alerted + excluded.alerted, missed = r.missed + excluded.missed,
      not_run = r.not_run + excluded.not_run, errored = r.errored + excluded.errored
    returning r.grain, r.dim, r.bucket, r.k, r.t, r.n),
  by_class as (
    insert into report_class_rollups as r (grain, dim, c, bucket, k, t, n, total, prevented, detected, alerted, missed, not_run, errored)
    select grain, dim, class_id, bucket, k, t, sum(n), sum(total), sum(prevented), sum(detected), sum(alerted), sum(missed), sum(not_run), sum(errored)
    from spread where class_id is not null and grain >= 1 group by 1, 2, 3, 4, 5, 6
    having sum(n) <> 0 or sum(total) <> 0 or sum(detected) <> 0 or sum(prevented) <> 0 or sum(alerted) <> 0 or sum(missed) <> 0 or sum(not_run) <> 0 or sum(errored) <> 0
    order by 1, 2, 3, 4, 5, 6
    on conflict (grain, dim, c, bucket, k, t) do update set
      n = r.n + excluded.n, total = r.total + excluded.total, prevented = r.prevented + excluded.prevented,
      detected = r.detected + excluded.detected, alerted = r.alerted + excluded.alerted, missed = r.missed + excluded.missed,
      not_run = r.not_run + excluded.not_run, errored = r.errored + excluded.errored
    returning r.grain, r.dim, r.c, r.bucket, r.k, r.t, r.n)
  select (select jsonb_agg(jsonb_build_array(grain, dim, bucket, k, t)) from whole where n <= 0),
         (select jsonb_agg(jsonb_build_array(grain, dim, c, bucket, k, t)) from by_class where n <= 0)
    into dead, dead_classes;
  if dead is not null then
    delete from report_rollups r using jsonb_array_elements(dead) d(e)
     where r.grain = (d.e->>0)::smallint and r.dim = (d.e->>1)::smallint and r.bucket = (d.e->>2)::timestamptz and r.k = (d.e->>3)::int and r.t = d.e->>4 and r.n <= 0;
  end if;
  if dead_classes is not null then
    delete from report_class_rollups r using jsonb_array_elements(dead_classes) d(e)
     where r.grain = (d.e->>0)::smallint and r.dim = (d.e->>1)::smallint and r.c = (d.e->>2)::int and r.bucket = (d.e->>3)::timestamptz
       and r.k = (d.e->>4)::int and r.t = d.e->>5 and r.n <= 0;
  end if;
end
$$;

-- Adds the queued facts to the rollups and takes them off the queue, in one transaction; answers how
-- many. Two flushes at once each take the rows the other did not (a deleted row is skipped).
create function vigil_report_flush() returns integer language plpgsql
set plan_cache_mode = force_generic_plan as $$
declare
  facts vigil_report_fact[];
begin
  with q as (delete from report_fact_queue returning *) select array_agg(row(q.*)::vigil_report_fact) into facts from q;
  perform vigil_report_apply_now(facts);
  return coalesce(cardinality(facts), 0);
end
$$;

-- The queued facts as rows of report_rollups (p_classes null) or of report_class_rollups for the
-- classes p_classes, at dimension p_dim: per grain, bucket and key, with the grains each table holds
-- (the whole at every grain, a key at day and month; the class rollups from the hour).
create function vigil_report_queued(p_dim smallint, p_classes integer[])
returns table (grain smallint, bucket timestamptz, k integer, t text, n integer, total integer, prevented integer, detected integer, alerted integer, missed integer, not_run integer, errored integer)
language sql stable as $$
  select g.grain, vigil_report_bucket(g.grain, f.job_time), d.k, d.t,
    sum(f.sign)::int, sum(f.sign * c.total)::int, sum(f.sign * c.prevented)::int, sum(f.sign * c.detected)::int, sum(f.sign * c.alerted)::int,
    sum(f.sign * c.missed)::int, sum(f.sign * c.not_run)::int, sum(f.sign * c.errored)::int
  from report_fact_queue f
  cross join lateral vigil_report_counts(f.status, f.blocked, f.events, f.alerted) c
  cross join lateral (select
    case p_dim when 0 then 0 when 1 then coalesce(f.action_id, 0) when 2 then coalesce(f.source_node_id, 0)
      when 3 then coalesce(f.destination_node_id, 0) when 4 then coalesce(f.simulation_id, 0) else coalesce(f.monitor_id, 0) end as k,
    case when p_dim = 1 then f.action_type else '' end as t) d
  cross join (values (0::smallint), (1::smallint), (2::smallint), (3::smallint)) g(grain)
  where f.job_time is not null and (p_dim = 0 or g.grain >= 2)
    and (p_classes is null or (g.grain >= 1 and f.class_id = any(p_classes)))
  group by 1, 2, 3, 4
$$;

-- As 023's, with the upserts run at once and the queue emptied (the rebuild counts everything anew).
create or replace function vigil_report_rebuild() returns void language plpgsql
set plan_cache_mode = force_generic_plan as $$
declare
  m timestamptz;
begin
  delete from report_fact_queue;
  truncate report_rollups;
  truncate report_class_rollups;
  insert into report_job_classes (name, ran_by, assessment_name, published_status, simulation_id)
  select distinct lower(name), coalesce(ran_by, ''), coalesce(assessment_name, ''), case when published_status = 2 then 2 else 0 end, coalesce(simulation_id, 0) from jobs
  on conflict do nothing;
  for m in select distinct vigil_report_bucket(3::smallint, job_time) from jobs order by 1 loop
    perform vigil_report_apply_now(array(
      select row(1, j.job_time, j.simulation_id, j.monitor_id, s.source_node_id, s.destination_node_id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events, c.class_id)::vigil_report_fact
      from jobs j join job_actions a on a.job_id = j.id join job_steps s on s.id = a.job_step_id
      join report_job_classes c on c.name = lower(j.name) and c.ran_by = coalesce(j.ran_by, '') and c.assessment_name = coalesce(j.assessment_name, '')
        and c.published_status = case when j.published_status = 2 then 2 else 0 end and c.simulation_id = coalesce(j.simulation_id, 0)
      where j.job_time >= m and j.job_time < ((m at time zone 'UTC') + interval '1 month') at time zone 'UTC'));
  end loop;
  perform vigil_report_status_rebuild();
  perform vigil_report_facet_rebuild();
end
$$;
