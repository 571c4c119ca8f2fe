-- Reports filtered on the job actions' VIDs or event counts (issue 18): the Action VID filter, the rule
-- builder's job action VID and events rules, and the events filter (present, suspicious, none) keep a
-- job when one of its job actions matches, and then count all its job actions. What those filters ask of
-- a job is a set kept here per finished job, its facet class:
--   f = 1: the distinct VIDs of its job actions (report_vid_sets),
--   f = 2: the distinct (events, suspect_events > 0) pairs of its job actions (report_event_sets).
-- Jobs that run the same Actions share a VID class, and most jobs share a few event classes, so there
-- are few classes. A filter made only of such conditions is evaluated over the classes (each condition
-- over the class's set as over the job's job actions: server/reports/scope.ts), and the counts of the
-- matching classes are summed from report_facet_rollups; the raw job actions at the range's edges and the
-- unfinished jobs (few: they wait or run) are read raw, as for the status rollups of 022.
--
-- Each job is counted once per family (under its VID class and under its event class), when it finishes
-- (as in 022: job action writes of a running job find no finished job and write nothing). A later change
-- to a finished job's job actions subtracts the job's job actions as they were, under the classes it was
-- counted in (report_job_facets), and adds them as they are, under its classes now.
--
-- report_facet_rollups rows count like report_rollups rows (same dims, keys and counters) with f and c,
-- the family and the class, before the bucket; grains as report_status_rollups: dim 0 at hour, day and
-- month, the keyed dims at day and month.
create table report_vid_sets (
  class_id serial primary key,
  vids text[] not null unique
);

create table report_event_sets (
  class_id serial primary key,
  -- Aligned: the distinct pairs (events, suspect_events > 0 as 0/1) in (events, suspect) order.
  events integer[] not null,
  suspects integer[] not null,
  unique (events, suspects)
);

-- The classes a finished job's job actions are counted under now.
create table report_job_facets (
  job_id integer primary key,
  vc integer not null,
  ec integer not null
);

create table report_facet_rollups (
  grain smallint not null,
  dim smallint not null,
  f smallint not null,
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
  primary key (grain, dim, f, c, bucket, k, t)
);

-- One job action of a finished job as these rollups see it (sign +1 added, -1 removed), with its job's classes.
create type vigil_report_facet_fact as (
  sign integer,
  job_time timestamptz,
  simulation_id integer,
  monitor_id integer,
  source_node_id integer,
  destination_node_id integer,
  action_id integer,
  action_type text,
  status text,
  blocked boolean,
  alerted boolean,
  events integer,
  vc integer,
  ec integer
);

-- A job action's columns that the classes and counts read (transition table rows, compared whole).
create type vigil_report_facet_ja as (
  id integer,
  job_id integer,
  job_step_id integer,
  action_id integer,
  action_type text,
  status text,
  blocked boolean,
  alerted boolean,
  events integer,
  suspect_events integer,
  sim_action_vid text
);

-- The sets of jobs as their job actions are now.
create function vigil_report_job_sets(p_jobs integer[]) returns table (job_id integer, vids text[], events integer[], suspects integer[]) language sql stable as $$
  select j.id,
    coalesce((select array_agg(distinct a.sim_action_vid order by a.sim_action_vid) from job_actions a where a.job_id = j.id), '{}'),
    coalesce(ev.events, '{}'), coalesce(ev.suspects, '{}')
  from unnest(p_jobs) j(id)
  cross join lateral (select array_agg(x.e order by x.e, x.s) as events, array_agg(x.s order by x.e, x.s) as suspects
    from (select distinct a.events as e, (a.suspect_events > 0)::int as s from job_actions a where a.job_id = j.id) x) ev
$$;

-- The classes of jobs as their job actions are now (classes new to the database are created; a second
-- statement then reads them, committed by another writer or not).
create function vigil_report_facet_classes(p_jobs integer[]) returns table (job_id integer, vc integer, ec integer) language plpgsql as $$
begin
  insert into report_vid_sets (vids) select distinct s.vids from vigil_report_job_sets(p_jobs) s order by 1 on conflict do nothing;
  insert into report_event_sets (events, suspects) select distinct s.events, s.suspects from vigil_report_job_sets(p_jobs) s order by 1, 2 on conflict do nothing;
  return query select s.job_id, v.class_id, e.class_id from vigil_report_job_sets(p_jobs) s
    join report_vid_sets v on v.vids = s.vids join report_event_sets e on e.events = s.events and e.suspects = s.suspects;
end
$$;

-- Adds signed facts under both families, in key order (as 018: no deadlock between two writers); rows
-- whose every count is back to 0 go.
create function vigil_report_facet_apply(facts vigil_report_facet_fact[]) returns void language plpgsql as $$
begin
  if facts is null or cardinality(facts) = 0 then return; end if;
  insert into report_facet_rollups as r (grain, dim, f, c, bucket, k, t, n, total, prevented, detected, alerted, missed, not_run, errored)
  select g.grain, d.dim, ff.f, ff.c, vigil_report_bucket(g.grain, x.job_time), d.k, d.t,
    sum(x.sign), sum(x.sign * cn.total), sum(x.sign * cn.prevented), sum(x.sign * cn.detected), sum(x.sign * cn.alerted),
    sum(x.sign * cn.missed), sum(x.sign * cn.not_run), sum(x.sign * cn.errored)
  from unnest(facts) x
  cross join lateral (select
    (x.status = 'ran')::int as total,
    (x.status = 'ran' and coalesce(x.blocked, false))::int as prevented,
    (x.status = 'ran' and (x.events > 0 or x.alerted))::int as detected,
    (x.status = 'ran' and x.alerted)::int as alerted,
    (x.status = 'ran' and not coalesce(x.blocked, false) and x.events = 0 and not x.alerted)::int as missed,
    (x.status in ('not run', 'incompatible'))::int as not_run,
    (x.status = 'errored')::int as errored) cn
  cross join lateral (values (1::smallint, x.vc), (2::smallint, x.ec)) ff(f, c)
  cross join lateral (values (0::smallint, 0, ''), (1::smallint, coalesce(x.action_id, 0), x.action_type), (2::smallint, coalesce(x.source_node_id, 0), ''),
    (3::smallint, coalesce(x.destination_node_id, 0), ''), (4::smallint, coalesce(x.simulation_id, 0), ''), (5::smallint, coalesce(x.monitor_id, 0), '')) d(dim, k, t)
  join (values (1::smallint), (2::smallint), (3::smallint)) g(grain) on (d.dim = 0 or g.grain >= 2)
  where x.job_time is not null
  group by 1, 2, 3, 4, 5, 6, 7
  having sum(x.sign) <> 0 or sum(x.sign * cn.total) <> 0 or sum(x.sign * cn.detected) <> 0 or sum(x.sign * cn.prevented) <> 0
    or sum(x.sign * cn.alerted) <> 0 or sum(x.sign * cn.missed) <> 0 or sum(x.sign * cn.not_run) <> 0 or sum(x.sign * cn.errored) <> 0
  order by 1, 2, 3, 4, 5, 6, 7
  on conflict (grain, dim, f, c, bucket, k, t) do update set
    n = r.n + excluded.n, total = r.total + excluded.total, prevented = r.prevented + excluded.prevented,
    detected = r.detected + excluded.detected, alerted = r.alerted + excluded.alerted, missed = r.missed + excluded.missed,
    not_run = r.not_run + excluded.not_run, errored = r.errored + excluded.errored;
  if exists (select 1 from unnest(facts) x where x.sign < 0) then
    delete from report_facet_rollups r where r.n <= 0 and (r.grain, r.dim, r.f, r.c, r.bucket, r.k, r.t) in (
      select g.grain, d.dim, ff.f, ff.c, vigil_report_bucket(g.grain, x.job_time), d.k, d.t
      from unnest(facts) x cross join lateral (values (1::smallint, x.vc), (2::smallint, x.ec)) ff(f, c)
      cross join lateral (values (0::smallint, 0, ''), (1::smallint, coalesce(x.action_id, 0), x.action_type), (2::smallint, coalesce(x.source_node_id, 0), ''),
        (3::smallint, coalesce(x.destination_node_id, 0), ''), (4::smallint, coalesce(x.simulation_id, 0), ''), (5::smallint, coalesce(x.monitor_id, 0), '')) d(dim, k, t)
      join (values (1::smallint), (2::smallint), (3::smallint)) g(grain) on d.dim = 0 or g.grain >= 2
      where x.sign < 0 and x.job_time is not null);
  end if;
end
$$;

-- Job actions written (removed: the versions a statement took away; added: those it left). For every
-- finished job among theirs: its job actions as they were (now, less the added versions, plus the
-- removed ones) are subtracted under the classes it was counted in, and its job actions now are added
-- under its classes now; what did not change cancels out. Job actions whose step is gone were subtracted
-- by the step's delete trigger below; those whose job is gone by the job's.
create function vigil_report_facet_actions(p_removed vigil_report_facet_ja[], p_added vigil_report_facet_ja[]) returns void language plpgsql as $$
declare
  v_jobs integer[];
  v_vc integer[];
  v_ec integer[];
begin
  select array_agg(j.id order by j.id) into v_jobs from jobs j
  where j.id in (select x.job_id from unnest(p_removed) x union select x.job_id from unnest(p_added) x) and vigil_report_finished(j.status);
  if v_jobs is null then return; end if;
  select array_agg(c.job_id order by c.job_id), array_agg(c.vc order by c.job_id), array_agg(c.ec order by c.job_id) into v_jobs, v_vc, v_ec
  from vigil_report_facet_classes(v_jobs) c;
  perform vigil_report_facet_apply(array(
    with cur as (
      select a.id, a.job_id, a.job_step_id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events, a.suspect_events, a.sim_action_vid
      from job_actions a where a.job_id = any(v_jobs)
    ), was as (
      (select * from cur except all select * from unnest(p_added))
      union all
      select * from unnest(p_removed) r where r.job_id = any(v_jobs)
    ), x as (
      select -1 as sign, o.job_id, o.job_step_id, o.action_id, o.action_type, o.status, o.blocked, o.alerted, o.events, fj.vc, fj.ec
      from was o join report_job_facets fj on fj.job_id = o.job_id
      union all
      select 1, w.job_id, w.job_step_id, w.action_id, w.action_type, w.status, w.blocked, w.alerted, w.events, nc.vc, nc.ec
      from cur w join unnest(v_jobs, v_vc, v_ec) nc(job_id, vc, ec) on nc.job_id = w.job_id
    )
    select row(x.sign, j.job_time, j.simulation_id, j.monitor_id, s.source_node_id, s.destination_node_id, x.action_id, x.action_type, x.status, x.blocked, x.alerted, x.events, x.vc, x.ec)::vigil_report_facet_fact
    from x join jobs j on j.id = x.job_id join job_steps s on s.id = x.job_step_id));
  insert into report_job_facets as fj (job_id, vc, ec) select * from unnest(v_jobs, v_vc, v_ec) order by 1
  on conflict (job_id) do update set vc = excluded.vc, ec = excluded.ec where (fj.vc, fj.ec) is distinct from (excluded.vc, excluded.ec);
end
$$;

create function vigil_report_facet_job_actions_insert() returns trigger language plpgsql as $$
begin
  perform vigil_report_facet_actions('{}', array(
    select row(a.id, a.job_id, a.job_step_id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events, a.suspect_events, a.sim_action_vid)::vigil_report_facet_ja from vigil_new_rows a));
  return null;
end
$$;
-- Only versions that differ count (a statement's foreign-key cascades may update a row twice: both
-- versions are in each transition table, see 017).
create function vigil_report_facet_job_actions_update() returns trigger language plpgsql as $$
begin
  if not exists (select 1 from jobs j where j.id in (select job_id from vigil_old_rows union select job_id from vigil_new_rows) and vigil_report_finished(j.status)) then
    return null;
  end if;
  perform vigil_report_facet_actions(
    array(select row(a.id, a.job_id, a.job_step_id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events, a.suspect_events, a.sim_action_vid)::vigil_report_facet_ja from (
      select id, job_id, job_step_id, action_id, action_type, status, blocked, alerted, events, suspect_events, sim_action_vid from vigil_old_rows
      except all select id, job_id, job_step_id, action_id, action_type, status, blocked, alerted, events, suspect_events, sim_action_vid from vigil_new_rows) a),
    array(select row(a.id, a.job_id, a.job_step_id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events, a.suspect_events, a.sim_action_vid)::vigil_report_facet_ja from (
      select id, job_id, job_step_id, action_id, action_type, status, blocked, alerted, events, suspect_events, sim_action_vid from vigil_new_rows
      except all select id, job_id, job_step_id, action_id, action_type, status, blocked, alerted, events, suspect_events, sim_action_vid from vigil_old_rows) a));
  return null;
end
$$;
create function vigil_report_facet_job_actions_delete() returns trigger language plpgsql as $$
begin
  perform vigil_report_facet_actions(array(
    select row(a.id, a.job_id, a.job_step_id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events, a.suspect_events, a.sim_action_vid)::vigil_report_facet_ja from vigil_old_rows a), '{}');
  return null;
end
$$;
create trigger job_actions_report_facet_insert after insert on job_actions referencing new table as vigil_new_rows
  for each statement execute function vigil_report_facet_job_actions_insert();
create trigger job_actions_report_facet_update after update on job_actions referencing old table as vigil_old_rows new table as vigil_new_rows
  for each statement execute function vigil_report_facet_job_actions_update();
create trigger job_actions_report_facet_delete after delete on job_actions referencing old table as vigil_old_rows
  for each statement execute function vigil_report_facet_job_actions_delete();

-- A job that finishes adds its job actions under its classes; one whose start time, simulation or
-- monitor changes while finished moves them; one that leaves the finished statuses (run again)
-- subtracts them. A change between finished statuses changes nothing here.
create function vigil_report_facet_jobs_update() returns trigger language plpgsql as $$
declare
  v_changed integer[];
  v_jobs integer[];
  v_vc integer[];
  v_ec integer[];
begin
  select array_agg(distinct d.id) into v_changed from (
    (select id, job_time, simulation_id, monitor_id from vigil_old_rows where vigil_report_finished(status)
     except all select id, job_time, simulation_id, monitor_id from vigil_new_rows where vigil_report_finished(status))
    union all
    (select id, job_time, simulation_id, monitor_id from vigil_new_rows where vigil_report_finished(status)
     except all select id, job_time, simulation_id, monitor_id from vigil_old_rows where vigil_report_finished(status))) d;
  if v_changed is null then return null; end if;
  select array_agg(c.job_id order by c.job_id), array_agg(c.vc order by c.job_id), array_agg(c.ec order by c.job_id) into v_jobs, v_vc, v_ec
  from vigil_report_facet_classes(array(select w.id from vigil_new_rows w where w.id = any(v_changed) and vigil_report_finished(w.status))) c;
  perform vigil_report_facet_apply(array(
    with x as (
      select -1 as sign, o.id, o.job_time, o.simulation_id, o.monitor_id, fj.vc, fj.ec
      from vigil_old_rows o join report_job_facets fj on fj.job_id = o.id where o.id = any(v_changed) and vigil_report_finished(o.status)
      union all
      select 1, w.id, w.job_time, w.simulation_id, w.monitor_id, nc.vc, nc.ec
      from vigil_new_rows w join unnest(v_jobs, v_vc, v_ec) nc(job_id, vc, ec) on nc.job_id = w.id
    )
    select row(x.sign, x.job_time, x.simulation_id, x.monitor_id, s.source_node_id, s.destination_node_id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events, x.vc, x.ec)::vigil_report_facet_fact
    from x join job_actions a on a.job_id = x.id join job_steps s on s.id = a.job_step_id));
  delete from report_job_facets where job_id = any(v_changed) and not (job_id = any(coalesce(v_jobs, '{}')));
  insert into report_job_facets as fj (job_id, vc, ec) select * from unnest(v_jobs, v_vc, v_ec) order by 1
  on conflict (job_id) do update set vc = excluded.vc, ec = excluded.ec;
  return null;
end
$$;
create trigger jobs_report_facet_update after update on jobs referencing old table as vigil_old_rows new table as vigil_new_rows
  for each statement execute function vigil_report_facet_jobs_update();

-- A step whose actors change moves the job actions of the finished jobs on it (their classes stay).
create function vigil_report_facet_job_steps_update() returns trigger language plpgsql as $$
begin
  perform vigil_report_facet_apply(array(
    with changed as (
      select id from (
        (select id, source_node_id, destination_node_id from vigil_old_rows except all select id, source_node_id, destination_node_id from vigil_new_rows)
        union all
        (select id, source_node_id, destination_node_id from vigil_new_rows except all select id, source_node_id, destination_node_id from vigil_old_rows)) d
    ), x as (
      select -1 as sign, o.id, o.source_node_id, o.destination_node_id from vigil_old_rows o where o.id in (select id from changed)
      union all
      select 1, w.id, w.source_node_id, w.destination_node_id from vigil_new_rows w where w.id in (select id from changed)
    )
    select row(x.sign, j.job_time, j.simulation_id, j.monitor_id, x.source_node_id, x.destination_node_id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events, fj.vc, fj.ec)::vigil_report_facet_fact
    from x join job_actions a on a.job_step_id = x.id join jobs j on j.id = a.job_id and vigil_report_finished(j.status) join report_job_facets fj on fj.job_id = a.job_id));
  return null;
end
$$;
create trigger job_steps_report_facet_update after update on job_steps referencing old table as vigil_old_rows new table as vigil_new_rows
  for each statement execute function vigil_report_facet_job_steps_update();

-- Deleting a finished job subtracts its job actions before they cascade away; deleting a step subtracts
-- the step's job actions (the job actions' delete trigger then moves the job's others if its classes change).
create function vigil_report_facet_jobs_delete() returns trigger language plpgsql as $$
begin
  perform vigil_report_facet_apply(array(
    select row(-1, old.job_time, old.simulation_id, old.monitor_id, s.source_node_id, s.destination_node_id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events, fj.vc, fj.ec)::vigil_report_facet_fact
    from report_job_facets fj join job_actions a on a.job_id = fj.job_id join job_steps s on s.id = a.job_step_id
    where fj.job_id = old.id and vigil_report_finished(old.status)));
  delete from report_job_facets where job_id = old.id;
  return old;
end
$$;
create trigger jobs_report_facet_delete before delete on jobs for each row execute function vigil_report_facet_jobs_delete();
create function vigil_report_facet_job_steps_delete() returns trigger language plpgsql as $$
begin
  perform vigil_report_facet_apply(array(
    select row(-1, j.job_time, j.simulation_id, j.monitor_id, old.source_node_id, old.destination_node_id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events, fj.vc, fj.ec)::vigil_report_facet_fact
    from job_actions a join jobs j on j.id = a.job_id and vigil_report_finished(j.status) join report_job_facets fj on fj.job_id = a.job_id where a.job_step_id = old.id));
  return old;
end
$$;
create trigger job_steps_report_facet_delete before delete on job_steps for each row execute function vigil_report_facet_job_steps_delete();

create function vigil_report_facet_truncate() returns trigger language plpgsql as $$
begin
  truncate report_facet_rollups;
  truncate report_job_facets;
  return null;
end
$$;
create trigger job_actions_report_facet_truncate after truncate on job_actions for each statement execute function vigil_report_facet_truncate();

-- Rebuilds these rollups from the finished jobs' job actions, a month at a time.
create function vigil_report_facet_rebuild() returns void language plpgsql as $$
declare
  m timestamptz;
  v_jobs integer[];
  v_vc integer[];
  v_ec integer[];
begin
  truncate report_facet_rollups;
  truncate report_job_facets;
  for m in select distinct vigil_report_bucket(3::smallint, job_time) from jobs where job_time is not null and vigil_report_finished(status) order by 1 loop
    select array_agg(c.job_id order by c.job_id), array_agg(c.vc order by c.job_id), array_agg(c.ec order by c.job_id) into v_jobs, v_vc, v_ec
    from vigil_report_facet_classes(array(
      select id from jobs where vigil_report_finished(status) and job_time >= m and job_time < ((m at time zone 'UTC') + interval '1 month') at time zone 'UTC')) c;
    insert into report_job_facets (job_id, vc, ec) select * from unnest(v_jobs, v_vc, v_ec);
    perform vigil_report_facet_apply(array(
      select row(1, j.job_time, j.simulation_id, j.monitor_id, s.source_node_id, s.destination_node_id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events, fj.vc, fj.ec)::vigil_report_facet_fact
      from unnest(v_jobs, v_vc, v_ec) fj(job_id, vc, ec) join jobs j on j.id = fj.job_id join job_actions a on a.job_id = j.id join job_steps s on s.id = a.job_step_id));
  end loop;
end
$$;

-- vigil_report_rebuild() (after a bulk load that skipped triggers) rebuilds these too: 022's body, then this.
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
  perform vigil_report_status_rebuild();
  perform vigil_report_facet_rebuild();
end
$$;

select vigil_report_facet_rebuild();
