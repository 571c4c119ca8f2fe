-- Filtered reports (issue 18): the report rollups of 017 once more, per job class. A job class is what
-- the report filters may ask of a job without looking at its job actions: its name (lower-cased), Ran
-- By, assessment name, published or not, and simulation. A filter made only of such conditions (the
-- filter text when it matches no job id or status, the rule builder's job name, Ran By, assessment and
-- published rules, a simulation VID) is evaluated over the few classes instead of the jobs, and the
-- counts of the matching classes are summed from report_class_rollups (server/reports/rollups.ts).
--
-- The job status is left out on purpose: every job changes status several times, and each change would
-- move all its job actions between classes. Filters on status, job ids, job action fields and events
-- still read the raw job actions.
--
-- report_class_rollups rows count like report_rollups rows (same dims, keys and counters) with c, the
-- class, before the bucket; grains: dim 0 at hour, day and month, the keyed dims at day and month.
create table report_job_classes (
  class_id serial primary key,
  name text not null,
  ran_by text not null,
  assessment_name text not null,
  published_status integer not null,
  simulation_id integer not null,
  unique (name, ran_by, assessment_name, published_status, simulation_id)
);

create table report_class_rollups (
  grain smallint not null,
  dim smallint not null,
  c integer not null,
  bucket timestamptz not null,
  k integer not null,
  t text not null,
  n integer not null,
  total integer not null,
  prevented integer not null,
  detected integer not null,
  alerted integer not null,
  missed integer not null,
  not_run integer not null,
  errored integer not null,
  primary key (grain, dim, c, bucket, k, t)
);

-- The class of a job's filterable fields (created when new). Null and '' are the same to every filter
-- condition (they compare lower(coalesce(x, ''))), as are published statuses other than 2 (published).
create function vigil_report_class(p_name text, p_ran_by text, p_assessment text, p_published integer, p_simulation integer) returns integer language plpgsql as $$
declare
  v_name text := lower(p_name);
  v_ran_by text := coalesce(p_ran_by, '');
  v_assessment text := coalesce(p_assessment, '');
  v_published integer := case when p_published = 2 then 2 else 0 end;
  v_simulation integer := coalesce(p_simulation, 0);
  v_id integer;
begin
  select c.class_id into v_id from report_job_classes c
  where c.name = v_name and c.ran_by = v_ran_by and c.assessment_name = v_assessment and c.published_status = v_published and c.simulation_id = v_simulation;
  if v_id is null then
    insert into report_job_classes (name, ran_by, assessment_name, published_status, simulation_id)
    values (v_name, v_ran_by, v_assessment, v_published, v_simulation) on conflict do nothing returning class_id into v_id;
    if v_id is null then
      select c.class_id into v_id from report_job_classes c
      where c.name = v_name and c.ran_by = v_ran_by and c.assessment_name = v_assessment and c.published_status = v_published and c.simulation_id = v_simulation;
    end if;
  end if;
  return v_id;
end
$$;

alter type vigil_report_fact add attribute class_id integer;

-- As 018's, plus the class rows.
create or replace function vigil_report_apply(facts vigil_report_fact[]) returns void language plpgsql as $$
begin
  if facts is null or cardinality(facts) = 0 then return; end if;
  insert into report_rollups as r (grain, dim, bucket, k, t, n, total, prevented, detected, alerted, missed, not_run, errored)
  select g.grain, d.dim, vigil_report_bucket(g.grain, f.job_time), d.k, d.t,
    sum(f.sign), sum(f.sign * c.total), sum(f.sign * c.prevented), sum(f.sign * c.detected), sum(f.sign * c.alerted),
    sum(f.sign * c.missed), sum(f.sign * c.not_run), sum(f.sign * c.errored)
  from unnest(facts) f
  cross join lateral (select
    (f.status = 'ran')::int as total,
    (f.status = 'ran' and coalesce(f.blocked, false))::int as prevented,
    (f.status = 'ran' and (f.events > 0 or f.alerted))::int as detected,
    (f.status = 'ran' and f.alerted)::int as alerted,
    (f.status = 'ran' and not coalesce(f.blocked, false) and f.events = 0 and not f.alerted)::int as missed,
    (f.status in ('not run', 'incompatible'))::int as not_run,
    (f.status = 'errored')::int as errored) c
  cross join lateral (values (0::smallint, 0, ''), (1::smallint, coalesce(f.action_id, 0), f.action_type), (2::smallint, coalesce(f.source_node_id, 0), ''),
    (3::smallint, coalesce(f.destination_node_id, 0), ''), (4::smallint, coalesce(f.simulation_id, 0), ''), (5::smallint, coalesce(f.monitor_id, 0), '')) d(dim, k, t)
  join (values (0::smallint), (1::smallint), (2::smallint), (3::smallint)) g(grain) on d.dim = 0 or g.grain >= 2
  where f.job_time is not null
  group by 1, 2, 3, 4, 5
  having sum(f.sign) <> 0 or sum(f.sign * c.total) <> 0 or sum(f.sign * c.detected) <> 0 or sum(f.sign * c.prevented) <> 0
    or sum(f.sign * c.alerted) <> 0 or sum(f.sign * c.missed) <> 0 or sum(f.sign * c.not_run) <> 0 or sum(f.sign * c.errored) <> 0
  order by 1, 2, 3, 4, 5
  on conflict (grain, dim, bucket, k, t) do update set
    n = r.n + excluded.n, total = r.total + excluded.total, prevented = r.prevented + excluded.prevented,
    detected = r.detected + excluded.detected, alerted = r.alerted + excluded.alerted, missed = r.missed + excluded.missed,
    not_run = r.not_run + excluded.not_run, errored = r.errored + excluded.errored;
  insert into report_class_rollups as r (grain, dim, c, bucket, k, t, n, total, prevented, detected, alerted, missed, not_run, errored)
  select g.grain, d.dim, f.class_id, vigil_report_bucket(g.grain, f.job_time), d.k, d.t,
    sum(f.sign), sum(f.sign * c.total), sum(f.sign * c.prevented), sum(f.sign * c.detected), sum(f.sign * c.alerted),
    sum(f.sign * c.missed), sum(f.sign * c.not_run), sum(f.sign * c.errored)
  from unnest(facts) f
  cross join lateral (select
    (f.status = 'ran')::int as total,
    (f.status = 'ran' and coalesce(f.blocked, false))::int as prevented,
    (f.status = 'ran' and (f.events > 0 or f.alerted))::int as detected,
    (f.status = 'ran' and f.alerted)::int as alerted,
    (f.status = 'ran' and not coalesce(f.blocked, false) and f.events = 0 and not f.alerted)::int as missed,
    (f.status in ('not run', 'incompatible'))::int as not_run,
    (f.status = 'errored')::int as errored) c
  cross join lateral (values (0::smallint, 0, ''), (1::smallint, coalesce(f.action_id, 0), f.action_type), (2::smallint, coalesce(f.source_node_id, 0), ''),
    (3::smallint, coalesce(f.destination_node_id, 0), ''), (4::smallint, coalesce(f.simulation_id, 0), ''), (5::smallint, coalesce(f.monitor_id, 0), '')) d(dim, k, t)
  join (values (1::smallint), (2::smallint), (3::smallint)) g(grain) on (d.dim = 0 or g.grain >= 2)
  where f.job_time is not null and f.class_id is not null
  group by 1, 2, 3, 4, 5, 6
  having sum(f.sign) <> 0 or sum(f.sign * c.total) <> 0 or sum(f.sign * c.detected) <> 0 or sum(f.sign * c.prevented) <> 0
    or sum(f.sign * c.alerted) <> 0 or sum(f.sign * c.missed) <> 0 or sum(f.sign * c.not_run) <> 0 or sum(f.sign * c.errored) <> 0
  order by 1, 2, 3, 4, 5, 6
  on conflict (grain, dim, c, bucket, k, t) do update set
    n = r.n + excluded.n, total = r.total + excluded.total, prevented = r.prevented + excluded.prevented,
    detected = r.detected + excluded.detected, alerted = r.alerted + excluded.alerted, missed = r.missed + excluded.missed,
    not_run = r.not_run + excluded.not_run, errored = r.errored + excluded.errored;
  if exists (select 1 from unnest(facts) f where f.sign < 0) then
    delete from report_rollups r where r.n <= 0 and (r.grain, r.dim, r.bucket, r.k, r.t) in (
      select g.grain, d.dim, vigil_report_bucket(g.grain, f.job_time), d.k, d.t
      from unnest(facts) f cross join lateral (values (0::smallint, 0, ''), (1::smallint, coalesce(f.action_id, 0), f.action_type), (2::smallint, coalesce(f.source_node_id, 0), ''),
    (3::smallint, coalesce(f.destination_node_id, 0), ''), (4::smallint, coalesce(f.simulation_id, 0), ''), (5::smallint, coalesce(f.monitor_id, 0), '')) d(dim, k, t)
      join (values (0::smallint), (1::smallint), (2::smallint), (3::smallint)) g(grain) on d.dim = 0 or g.grain >= 2
      where f.sign < 0 and f.job_time is not null);
    delete from report_class_rollups r where r.n <= 0 and (r.grain, r.dim, r.c, r.bucket, r.k, r.t) in (
      select g.grain, d.dim, f.class_id, vigil_report_bucket(g.grain, f.job_time), d.k, d.t
      from unnest(facts) f cross join lateral (values (0::smallint, 0, ''), (1::smallint, coalesce(f.action_id, 0), f.action_type), (2::smallint, coalesce(f.source_node_id, 0), ''),
    (3::smallint, coalesce(f.destination_node_id, 0), ''), (4::smallint, coalesce(f.simulation_id, 0), ''), (5::smallint, coalesce(f.monitor_id, 0), '')) d(dim, k, t)
      join (values (1::smallint), (2::smallint), (3::smallint)) g(grain) on d.dim = 0 or g.grain >= 2
      where f.sign < 0 and f.job_time is not null and f.class_id is not null);
  end if;
end
$$;

-- The triggers of 017 with each fact's class: looked up once per job (jc), from the job's row as it was
-- (old) or is (new).
create or replace function vigil_report_job_actions_insert() returns trigger language plpgsql as $$
begin
  perform vigil_report_apply(array(
    with jc as (select j.id, vigil_report_class(j.name, j.ran_by, j.assessment_name, j.published_status, j.simulation_id) as c from jobs j where j.id in (select job_id from vigil_new_rows))
    select row(1, j.job_time, j.simulation_id, j.monitor_id, s.source_node_id, s.destination_node_id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events, jc.c)::vigil_report_fact
    from vigil_new_rows a join jobs j on j.id = a.job_id join jc on jc.id = a.job_id join job_steps s on s.id = a.job_step_id));
  return null;
end
$$;
create or replace function vigil_report_job_actions_update() returns trigger language plpgsql as $$
begin
  perform vigil_report_apply(array(
    with changed as (
      select id from (
        (select id, status, blocked, alerted, events, action_id, action_type, job_step_id, job_id from vigil_old_rows
         except all select id, status, blocked, alerted, events, action_id, action_type, job_step_id, job_id from vigil_new_rows)
        union all
        (select id, status, blocked, alerted, events, action_id, action_type, job_step_id, job_id from vigil_new_rows
         except all select id, status, blocked, alerted, events, action_id, action_type, job_step_id, job_id from vigil_old_rows)) d
    ), x as (
      select -1 as sign, o.job_id, o.job_step_id, o.action_id, o.action_type, o.status, o.blocked, o.alerted, o.events from vigil_old_rows o where o.id in (select id from changed)
      union all
      select 1, w.job_id, w.job_step_id, w.action_id, w.action_type, w.status, w.blocked, w.alerted, w.events from vigil_new_rows w where w.id in (select id from changed)
    ), jc as (select j.id, vigil_report_class(j.name, j.ran_by, j.assessment_name, j.published_status, j.simulation_id) as c from jobs j where j.id in (select job_id from x))
    select row(x.sign, j.job_time, j.simulation_id, j.monitor_id, s.source_node_id, s.destination_node_id, x.action_id, x.action_type, x.status, x.blocked, x.alerted, x.events, jc.c)::vigil_report_fact
    from x join jobs j on j.id = x.job_id join jc on jc.id = x.job_id join job_steps s on s.id = x.job_step_id));
  return null;
end
$$;
create or replace function vigil_report_job_actions_delete() returns trigger language plpgsql as $$
begin
  perform vigil_report_apply(array(
    with jc as (select j.id, vigil_report_class(j.name, j.ran_by, j.assessment_name, j.published_status, j.simulation_id) as c from jobs j where j.id in (select job_id from vigil_old_rows))
    select row(-1, j.job_time, j.simulation_id, j.monitor_id, s.source_node_id, s.destination_node_id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events, jc.c)::vigil_report_fact
    from vigil_old_rows a join jobs j on j.id = a.job_id join jc on jc.id = a.job_id join job_steps s on s.id = a.job_step_id));
  return null;
end
$$;

-- A job whose start time, simulation, monitor or class fields change moves its job actions.
create or replace function vigil_report_jobs_update() returns trigger language plpgsql as $$
begin
  perform vigil_report_apply(array(
    with changed as (
      select id from (
        (select id, job_time, simulation_id, monitor_id, lower(name), ran_by, assessment_name, published_status = 2 from vigil_old_rows
         except all select id, job_time, simulation_id, monitor_id, lower(name), ran_by, assessment_name, published_status = 2 from vigil_new_rows)
        union all
        (select id, job_time, simulation_id, monitor_id, lower(name), ran_by, assessment_name, published_status = 2 from vigil_new_rows
         except all select id, job_time, simulation_id, monitor_id, lower(name), ran_by, assessment_name, published_status = 2 from vigil_old_rows)) d
    )
    select row(x.sign, x.job_time, x.simulation_id, x.monitor_id, s.source_node_id, s.destination_node_id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events, x.c)::vigil_report_fact
    from (
      select -1 as sign, o.id, o.job_time, o.simulation_id, o.monitor_id, vigil_report_class(o.name, o.ran_by, o.assessment_name, o.published_status, o.simulation_id) as c
      from vigil_old_rows o where o.id in (select id from changed)
      union all
      select 1, w.id, w.job_time, w.simulation_id, w.monitor_id, vigil_report_class(w.name, w.ran_by, w.assessment_name, w.published_status, w.simulation_id)
      from vigil_new_rows w where w.id in (select id from changed)
    ) x join job_actions a on a.job_id = x.id join job_steps s on s.id = a.job_step_id));
  return null;
end
$$;

create or replace function vigil_report_job_steps_update() returns trigger language plpgsql as $$
begin
  perform vigil_report_apply(array(
    with changed as (
      select id from (
        (select id, job_id, source_node_id, destination_node_id from vigil_old_rows except all select id, job_id, source_node_id, destination_node_id from vigil_new_rows)
        union all
        (select id, job_id, source_node_id, destination_node_id from vigil_new_rows except all select id, job_id, source_node_id, destination_node_id from vigil_old_rows)) d
    ), x as (
      select -1 as sign, o.id, o.job_id, o.source_node_id, o.destination_node_id from vigil_old_rows o where o.id in (select id from changed)
      union all
      select 1, w.id, w.job_id, w.source_node_id, w.destination_node_id from vigil_new_rows w where w.id in (select id from changed)
    ), jc as (select j.id, vigil_report_class(j.name, j.ran_by, j.assessment_name, j.published_status, j.simulation_id) as c from jobs j where j.id in (select job_id from x))
    select row(x.sign, j.job_time, j.simulation_id, j.monitor_id, x.source_node_id, x.destination_node_id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events, jc.c)::vigil_report_fact
    from x join jobs j on j.id = x.job_id join jc on jc.id = x.job_id join job_actions a on a.job_step_id = x.id));
  return null;
end
$$;

create or replace function vigil_report_jobs_delete() returns trigger language plpgsql as $$
declare
  v_class integer := vigil_report_class(old.name, old.ran_by, old.assessment_name, old.published_status, old.simulation_id);
begin
  perform vigil_report_apply(array(
    select row(-1, old.job_time, old.simulation_id, old.monitor_id, s.source_node_id, s.destination_node_id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events, v_class)::vigil_report_fact
    from job_actions a join job_steps s on s.id = a.job_step_id where a.job_id = old.id));
  return old;
end
$$;
create or replace function vigil_report_job_steps_delete() returns trigger language plpgsql as $$
begin
  perform vigil_report_apply(array(
    select row(-1, j.job_time, j.simulation_id, j.monitor_id, old.source_node_id, old.destination_node_id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events,
      vigil_report_class(j.name, j.ran_by, j.assessment_name, j.published_status, j.simulation_id))::vigil_report_fact
    from job_actions a join jobs j on j.id = old.job_id where a.job_step_id = old.id));
  return old;
end
$$;

create or replace function vigil_report_truncate() returns trigger language plpgsql as $$
begin
  truncate report_rollups;
  truncate report_class_rollups;
  return null;
end
$$;

-- Rebuilds every rollup from the job actions, a month at a time; the classes are made in one pass first.
create or replace function vigil_report_rebuild() returns void language plpgsql as $$
declare
  m timestamptz;
begin
  truncate report_rollups;
  truncate report_class_rollups;
  insert into report_job_classes (name, ran_by, assessment_name, published_status, simulation_id)
  select distinct lower(name), coalesce(ran_by, ''), coalesce(assessment_name, ''), case when published_status = 2 then 2 else 0 end, coalesce(simulation_id, 0) from jobs
  on conflict do nothing;
  for m in select distinct vigil_report_bucket(3::smallint, job_time) from jobs order by 1 loop
    perform vigil_report_apply(array(
      select row(1, j.job_time, j.simulation_id, j.monitor_id, s.source_node_id, s.destination_node_id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events, c.class_id)::vigil_report_fact
      from jobs j join job_actions a on a.job_id = j.id join job_steps s on s.id = a.job_step_id
      join report_job_classes c on c.name = lower(j.name) and c.ran_by = coalesce(j.ran_by, '') and c.assessment_name = coalesce(j.assessment_name, '')
        and c.published_status = case when j.published_status = 2 then 2 else 0 end and c.simulation_id = coalesce(j.simulation_id, 0)
      where j.job_time >= m and j.job_time < ((m at time zone 'UTC') + interval '1 month') at time zone 'UTC'));
  end loop;
end
$$;

select vigil_report_rebuild();
