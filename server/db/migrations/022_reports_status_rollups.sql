-- Reports filtered on the job status (issue 18): the report rollups of 017 once more, per job status,
-- for the finished jobs only (errored, cancelled, completed). A filter made only of job status
-- conditions (the rule builder's job status rules, a filter text that matches only statuses) reads the
-- rows of the finished statuses it keeps from here, the jobs of the unfinished statuses it keeps raw
-- (jobs waiting or running are few at any time: jobs_sort_status_idx finds them), and the raw job
-- actions at the range's edges (server/reports/rollups.ts).
--
-- The job classes of 020 stay as they are (the status would split them, and each status change would
-- move a job's job actions between classes). Here a job's job actions are added once, when it finishes,
-- and job action writes of a running job (the engine's hot path) find no finished job and write nothing.
--
-- report_status_rollups rows count like report_rollups rows (same dims, keys and counters) with s, the
-- job status, before the bucket; grains as report_class_rollups: dim 0 at hour, day and month, the
-- keyed dims at day and month.
create table report_status_rollups (
  grain smallint not null,
  dim smallint not null,
  s text not null,
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
  primary key (grain, dim, s, bucket, k, t)
);

-- One job action of a finished job as these rollups see it (sign +1 added, -1 removed; js: the job's status).
create type vigil_report_status_fact as (
  sign integer,
  js text,
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
  events integer
);

-- The job statuses kept here (src/api/contracts/jobs.ts FINISHED_STATUSES).
create function vigil_report_finished(status text) returns boolean language sql immutable parallel safe as $$
  select status in ('errored', 'cancelled', 'completed')
$$;

-- Adds signed facts (those of finished jobs; the others are skipped) in key order (as 018: no deadlock
-- between two writers); rows whose every count is back to 0 go.
create function vigil_report_status_apply(facts vigil_report_status_fact[]) returns void language plpgsql as $$
begin
  if facts is null or cardinality(facts) = 0 then return; end if;
  insert into report_status_rollups as r (grain, dim, s, bucket, k, t, n, total, prevented, detected, alerted, missed, not_run, errored)
  select g.grain, d.dim, f.js, vigil_report_bucket(g.grain, f.job_time), d.k, d.t,
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
  where f.job_time is not null and vigil_report_finished(f.js)
  group by 1, 2, 3, 4, 5, 6
  having sum(f.sign) <> 0 or sum(f.sign * c.total) <> 0 or sum(f.sign * c.detected) <> 0 or sum(f.sign * c.prevented) <> 0
    or sum(f.sign * c.alerted) <> 0 or sum(f.sign * c.missed) <> 0 or sum(f.sign * c.not_run) <> 0 or sum(f.sign * c.errored) <> 0
  order by 1, 2, 3, 4, 5, 6
  on conflict (grain, dim, s, bucket, k, t) do update set
    n = r.n + excluded.n, total = r.total + excluded.total, prevented = r.prevented + excluded.prevented,
    detected = r.detected + excluded.detected, alerted = r.alerted + excluded.alerted, missed = r.missed + excluded.missed,
    not_run = r.not_run + excluded.not_run, errored = r.errored + excluded.errored;
  if exists (select 1 from unnest(facts) f where f.sign < 0) then
    delete from report_status_rollups r where r.n <= 0 and (r.grain, r.dim, r.s, r.bucket, r.k, r.t) in (
      select g.grain, d.dim, f.js, vigil_report_bucket(g.grain, f.job_time), d.k, d.t
      from unnest(facts) f cross join lateral (values (0::smallint, 0, ''), (1::smallint, coalesce(f.action_id, 0), f.action_type), (2::smallint, coalesce(f.source_node_id, 0), ''),
        (3::smallint, coalesce(f.destination_node_id, 0), ''), (4::smallint, coalesce(f.simulation_id, 0), ''), (5::smallint, coalesce(f.monitor_id, 0), '')) d(dim, k, t)
      join (values (1::smallint), (2::smallint), (3::smallint)) g(grain) on d.dim = 0 or g.grain >= 2
      where f.sign < 0 and f.job_time is not null and vigil_report_finished(f.js));
  end if;
end
$$;

-- Job actions inserted, updated or deleted: only those of finished jobs count (a join on the jobs'
-- primary key finds none while a job runs). Rows whose job or step is already gone were subtracted by
-- the job's or step's delete trigger below.
create function vigil_report_status_job_actions_insert() returns trigger language plpgsql as $$
begin
  perform vigil_report_status_apply(array(
    select row(1, j.status, j.job_time, j.simulation_id, j.monitor_id, s.source_node_id, s.destination_node_id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events)::vigil_report_status_fact
    from vigil_new_rows a join jobs j on j.id = a.job_id and vigil_report_finished(j.status) join job_steps s on s.id = a.job_step_id));
  return null;
end
$$;
create function vigil_report_status_job_actions_update() returns trigger language plpgsql as $$
begin
  if not exists (select 1 from jobs j where j.id in (select job_id from vigil_old_rows union select job_id from vigil_new_rows) and vigil_report_finished(j.status)) then
    return null;
  end if;
  perform vigil_report_status_apply(array(
    with changed as (
      select id from (
        (select id, status, blocked, alerted, events, action_id, action_type, job_step_id, job_id from vigil_old_rows
         except all select id, status, blocked, alerted, events, action_id, action_type, job_step_id, job_id from vigil_new_rows)
        union all
        (select id, status, blocked, alerted, events, action_id, action_type, job_step_id, job_id from vigil_new_rows
         except all select id, status, blocked, alerted, events, action_id, action_type, job_step_id, job_id from vigil_old_rows)) d
    )
    select row(x.sign, j.status, j.job_time, j.simulation_id, j.monitor_id, s.source_node_id, s.destination_node_id, x.action_id, x.action_type, x.status, x.blocked, x.alerted, x.events)::vigil_report_status_fact
    from (
      select -1 as sign, o.job_id, o.job_step_id, o.action_id, o.action_type, o.status, o.blocked, o.alerted, o.events from vigil_old_rows o where o.id in (select id from changed)
      union all
      select 1, w.job_id, w.job_step_id, w.action_id, w.action_type, w.status, w.blocked, w.alerted, w.events from vigil_new_rows w where w.id in (select id from changed)
    ) x join jobs j on j.id = x.job_id and vigil_report_finished(j.status) join job_steps s on s.id = x.job_step_id));
  return null;
end
$$;
create function vigil_report_status_job_actions_delete() returns trigger language plpgsql as $$
begin
  perform vigil_report_status_apply(array(
    select row(-1, j.status, j.job_time, j.simulation_id, j.monitor_id, s.source_node_id, s.destination_node_id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events)::vigil_report_status_fact
    from vigil_old_rows a join jobs j on j.id = a.job_id and vigil_report_finished(j.status) join job_steps s on s.id = a.job_step_id));
  return null;
end
$$;
create trigger job_actions_report_status_insert after insert on job_actions referencing new table as vigil_new_rows
  for each statement execute function vigil_report_status_job_actions_insert();
create trigger job_actions_report_status_update after update on job_actions referencing old table as vigil_old_rows new table as vigil_new_rows
  for each statement execute function vigil_report_status_job_actions_update();
create trigger job_actions_report_status_delete after delete on job_actions referencing old table as vigil_old_rows
  for each statement execute function vigil_report_status_job_actions_delete();

-- A job that finishes adds its job actions; one whose finished status, start time, simulation or monitor
-- changes moves them; one that leaves the finished statuses (run again) subtracts them.
create function vigil_report_status_jobs_update() returns trigger language plpgsql as $$
begin
  perform vigil_report_status_apply(array(
    with changed as (
      select id from (
        (select id, status, job_time, simulation_id, monitor_id from vigil_old_rows where vigil_report_finished(status)
         except all select id, status, job_time, simulation_id, monitor_id from vigil_new_rows where vigil_report_finished(status))
        union all
        (select id, status, job_time, simulation_id, monitor_id from vigil_new_rows where vigil_report_finished(status)
         except all select id, status, job_time, simulation_id, monitor_id from vigil_old_rows where vigil_report_finished(status))) d
    )
    select row(x.sign, x.status, x.job_time, x.simulation_id, x.monitor_id, s.source_node_id, s.destination_node_id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events)::vigil_report_status_fact
    from (
      select -1 as sign, o.id, o.status, o.job_time, o.simulation_id, o.monitor_id from vigil_old_rows o where o.id in (select id from changed) and vigil_report_finished(o.status)
      union all
      select 1, w.id, w.status, w.job_time, w.simulation_id, w.monitor_id from vigil_new_rows w where w.id in (select id from changed) and vigil_report_finished(w.status)
    ) x join job_actions a on a.job_id = x.id join job_steps s on s.id = a.job_step_id));
  return null;
end
$$;
create trigger jobs_report_status_update after update on jobs referencing old table as vigil_old_rows new table as vigil_new_rows
  for each statement execute function vigil_report_status_jobs_update();

-- A step of a finished job whose actors change moves its job actions.
create function vigil_report_status_job_steps_update() returns trigger language plpgsql as $$
begin
  perform vigil_report_status_apply(array(
    with changed as (
      select id from (
        (select id, job_id, source_node_id, destination_node_id from vigil_old_rows except all select id, job_id, source_node_id, destination_node_id from vigil_new_rows)
        union all
        (select id, job_id, source_node_id, destination_node_id from vigil_new_rows except all select id, job_id, source_node_id, destination_node_id from vigil_old_rows)) d
    )
    select row(x.sign, j.status, j.job_time, j.simulation_id, j.monitor_id, x.source_node_id, x.destination_node_id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events)::vigil_report_status_fact
    from (
      select -1 as sign, o.id, o.job_id, o.source_node_id, o.destination_node_id from vigil_old_rows o where o.id in (select id from changed)
      union all
      select 1, w.id, w.job_id, w.source_node_id, w.destination_node_id from vigil_new_rows w where w.id in (select id from changed)
    ) x join jobs j on j.id = x.job_id and vigil_report_finished(j.status) join job_actions a on a.job_step_id = x.id));
  return null;
end
$$;
create trigger job_steps_report_status_update after update on job_steps referencing old table as vigil_old_rows new table as vigil_new_rows
  for each statement execute function vigil_report_status_job_steps_update();

-- Deleting a finished job or one of its steps subtracts its job actions before they cascade away.
create function vigil_report_status_jobs_delete() returns trigger language plpgsql as $$
begin
  if vigil_report_finished(old.status) then
    perform vigil_report_status_apply(array(
      select row(-1, old.status, old.job_time, old.simulation_id, old.monitor_id, s.source_node_id, s.destination_node_id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events)::vigil_report_status_fact
      from job_actions a join job_steps s on s.id = a.job_step_id where a.job_id = old.id));
  end if;
  return old;
end
$$;
create trigger jobs_report_status_delete before delete on jobs for each row execute function vigil_report_status_jobs_delete();
create function vigil_report_status_job_steps_delete() returns trigger language plpgsql as $$
begin
  perform vigil_report_status_apply(array(
    select row(-1, j.status, j.job_time, j.simulation_id, j.monitor_id, old.source_node_id, old.destination_node_id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events)::vigil_report_status_fact
    from job_actions a join jobs j on j.id = old.job_id and vigil_report_finished(j.status) where a.job_step_id = old.id));
  return old;
end
$$;
create trigger job_steps_report_status_delete before delete on job_steps for each row execute function vigil_report_status_job_steps_delete();

create function vigil_report_status_truncate() returns trigger language plpgsql as $$
begin
  truncate report_status_rollups;
  return null;
end
$$;
create trigger job_actions_report_status_truncate after truncate on job_actions for each statement execute function vigil_report_status_truncate();

-- Rebuilds these rollups from the job actions of the finished jobs, a month at a time.
create function vigil_report_status_rebuild() returns void language plpgsql as $$
declare
  m timestamptz;
begin
  truncate report_status_rollups;
  for m in select distinct vigil_report_bucket(3::smallint, job_time) from jobs where job_time is not null order by 1 loop
    perform vigil_report_status_apply(array(
      select row(1, j.status, j.job_time, j.simulation_id, j.monitor_id, s.source_node_id, s.destination_node_id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events)::vigil_report_status_fact
      from jobs j join job_actions a on a.job_id = j.id join job_steps s on s.id = a.job_step_id
      where vigil_report_finished(j.status) and j.job_time >= m and j.job_time < ((m at time zone 'UTC') + interval '1 month') at time zone 'UTC'));
  end loop;
end
$$;

-- vigil_report_rebuild() (after a bulk load that skipped triggers) rebuilds these too: 020's body, then this.
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
end
$$;

-- Job action rules on the Action VID (compiled as lower(coalesce(sim_action_vid, '')), server/filters/compile.ts)
-- find their job actions, and the jobs of those, through this index instead of testing every job of the range.
create index job_actions_lower_vid_idx on job_actions (lower(coalesce(sim_action_vid, '')), job_id);

select vigil_report_status_rebuild();
