-- Reporting rollups (issue 18): the result counts of the job actions, pre-aggregated per time slice and
-- key, kept exact by triggers as job actions are created, finish, change or are deleted, so that every
-- report call reads a few thousand rollup rows instead of scanning up to a million job actions.
--
-- A row holds the counts of the job actions whose job started (jobs.job_time) in [bucket, bucket + grain):
--   grain: 0 = 5 minutes, 1 = hour, 2 = day, 3 = month (UTC, aligned on 2000-01-01 00:00 UTC / calendar months)
--   dim:   0 = all job actions (k = 0, t = '') at every grain;
--          1 = per Action (k = action id, 0 when none; t = the job action's type),
--          2 = per source actor, 3 = per destination actor (k = node id, 0 when none),
--          4 = per simulation, 5 = per monitor (k = id, 0 when none), at day and month grains.
-- Keys that depend on data outside the job actions (an Action's tags, tactics and techniques, an actor's
-- zone, labels) are looked up when a report is read, so relabelling or retagging needs no rebuild.
-- n counts every job action (whatever its status) so that a key with only pending job actions is still
-- a row, exactly as in the raw aggregation; the other counters follow server/reports/scope.ts COUNTS_SQL.
create table report_rollups (
  grain smallint not null,
  dim smallint not null,
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
  primary key (grain, dim, bucket, k, t)
);

-- One job action as the rollups see it, with the sign of its contribution (+1 added, -1 removed).
create type vigil_report_fact as (
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
  events integer
);

-- The start of the slice of `grain` holding instant `at` (UTC whatever the session's time zone).
create function vigil_report_bucket(grain smallint, at timestamptz) returns timestamptz language sql immutable parallel safe as $$
  select case grain
    when 0 then date_bin('5 minutes', at, timestamptz '2000-01-01 00:00:00+00')
    when 1 then date_bin('1 hour', at, timestamptz '2000-01-01 00:00:00+00')
    when 2 then date_bin('1 day', at, timestamptz '2000-01-01 00:00:00+00')
    else (date_trunc('month', at at time zone 'UTC') at time zone 'UTC')
  end
$$;

-- Adds signed facts to the rollups: one upsert per touched row; rows whose every count is back to 0 go.
create function vigil_report_apply(facts vigil_report_fact[]) returns void language plpgsql as $$
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
  cross join lateral (values
    (0::smallint, 0, ''),
    (1::smallint, coalesce(f.action_id, 0), f.action_type),
    (2::smallint, coalesce(f.source_node_id, 0), ''),
    (3::smallint, coalesce(f.destination_node_id, 0), ''),
    (4::smallint, coalesce(f.simulation_id, 0), ''),
    (5::smallint, coalesce(f.monitor_id, 0), '')) d(dim, k, t)
  join (values (0::smallint), (1::smallint), (2::smallint), (3::smallint)) g(grain) on d.dim = 0 or g.grain >= 2
  where f.job_time is not null
  group by 1, 2, 3, 4, 5
  having sum(f.sign) <> 0 or sum(f.sign * c.total) <> 0 or sum(f.sign * c.detected) <> 0 or sum(f.sign * c.prevented) <> 0
    or sum(f.sign * c.alerted) <> 0 or sum(f.sign * c.missed) <> 0 or sum(f.sign * c.not_run) <> 0 or sum(f.sign * c.errored) <> 0
  on conflict (grain, dim, bucket, k, t) do update set
    n = r.n + excluded.n, total = r.total + excluded.total, prevented = r.prevented + excluded.prevented,
    detected = r.detected + excluded.detected, alerted = r.alerted + excluded.alerted, missed = r.missed + excluded.missed,
    not_run = r.not_run + excluded.not_run, errored = r.errored + excluded.errored;
  if exists (select 1 from unnest(facts) f where f.sign < 0) then
    delete from report_rollups r where r.n <= 0 and (r.grain, r.dim, r.bucket, r.k, r.t) in (
      select g.grain, d.dim, vigil_report_bucket(g.grain, f.job_time), d.k, d.t
      from unnest(facts) f
      cross join lateral (values (0::smallint, 0, ''), (1::smallint, coalesce(f.action_id, 0), f.action_type), (2::smallint, coalesce(f.source_node_id, 0), ''),
        (3::smallint, coalesce(f.destination_node_id, 0), ''), (4::smallint, coalesce(f.simulation_id, 0), ''), (5::smallint, coalesce(f.monitor_id, 0), '')) d(dim, k, t)
      join (values (0::smallint), (1::smallint), (2::smallint), (3::smallint)) g(grain) on d.dim = 0 or g.grain >= 2
      where f.sign < 0 and f.job_time is not null);
  end if;
end
$$;

-- Job actions inserted, updated (status, result, Action, step) or deleted. Rows whose job or step is
-- already gone were subtracted by the job's or step's own delete trigger below.
create function vigil_report_job_actions_insert() returns trigger language plpgsql as $$
begin
  perform vigil_report_apply(array(
    select row(1, j.job_time, j.simulation_id, j.monitor_id, s.source_node_id, s.destination_node_id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events)::vigil_report_fact
    from vigil_new_rows a join jobs j on j.id = a.job_id join job_steps s on s.id = a.job_step_id));
  return null;
end
$$;
-- Updates subtract every old version and add every new version of the rows whose counted columns
-- changed (never pairing old and new by id: one statement's foreign-key cascades may update a row twice,
-- and the standard merges both into one transition table, so a row can appear there more than once).
create function vigil_report_job_actions_update() returns trigger language plpgsql as $$
begin
  perform vigil_report_apply(array(
    with changed as (
      select id from (
        (select id, status, blocked, alerted, events, action_id, action_type, job_step_id, job_id from vigil_old_rows
         except all select id, status, blocked, alerted, events, action_id, action_type, job_step_id, job_id from vigil_new_rows)
        union all
        (select id, status, blocked, alerted, events, action_id, action_type, job_step_id, job_id from vigil_new_rows
         except all select id, status, blocked, alerted, events, action_id, action_type, job_step_id, job_id from vigil_old_rows)) d
    )
    select row(x.sign, j.job_time, j.simulation_id, j.monitor_id, s.source_node_id, s.destination_node_id, x.action_id, x.action_type, x.status, x.blocked, x.alerted, x.events)::vigil_report_fact
    from (
      select -1 as sign, o.job_id, o.job_step_id, o.action_id, o.action_type, o.status, o.blocked, o.alerted, o.events from vigil_old_rows o where o.id in (select id from changed)
      union all
      select 1, w.job_id, w.job_step_id, w.action_id, w.action_type, w.status, w.blocked, w.alerted, w.events from vigil_new_rows w where w.id in (select id from changed)
    ) x join jobs j on j.id = x.job_id join job_steps s on s.id = x.job_step_id));
  return null;
end
$$;
create function vigil_report_job_actions_delete() returns trigger language plpgsql as $$
begin
  perform vigil_report_apply(array(
    select row(-1, j.job_time, j.simulation_id, j.monitor_id, s.source_node_id, s.destination_node_id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events)::vigil_report_fact
    from vigil_old_rows a join jobs j on j.id = a.job_id join job_steps s on s.id = a.job_step_id));
  return null;
end
$$;
create trigger job_actions_report_insert after insert on job_actions referencing new table as vigil_new_rows
  for each statement execute function vigil_report_job_actions_insert();
create trigger job_actions_report_update after update on job_actions referencing old table as vigil_old_rows new table as vigil_new_rows
  for each statement execute function vigil_report_job_actions_update();
create trigger job_actions_report_delete after delete on job_actions referencing old table as vigil_old_rows
  for each statement execute function vigil_report_job_actions_delete();

-- A job whose start time, simulation or monitor changes moves its job actions to other rollup rows.
create function vigil_report_jobs_update() returns trigger language plpgsql as $$
begin
  perform vigil_report_apply(array(
    with changed as (
      select id from (
        (select id, job_time, simulation_id, monitor_id from vigil_old_rows except all select id, job_time, simulation_id, monitor_id from vigil_new_rows)
        union all
        (select id, job_time, simulation_id, monitor_id from vigil_new_rows except all select id, job_time, simulation_id, monitor_id from vigil_old_rows)) d
    )
    select row(x.sign, x.job_time, x.simulation_id, x.monitor_id, s.source_node_id, s.destination_node_id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events)::vigil_report_fact
    from (
      select -1 as sign, o.id, o.job_time, o.simulation_id, o.monitor_id from vigil_old_rows o where o.id in (select id from changed)
      union all
      select 1, w.id, w.job_time, w.simulation_id, w.monitor_id from vigil_new_rows w where w.id in (select id from changed)
    ) x join job_actions a on a.job_id = x.id join job_steps s on s.id = a.job_step_id));
  return null;
end
$$;
create trigger jobs_report_update after update on jobs referencing old table as vigil_old_rows new table as vigil_new_rows
  for each statement execute function vigil_report_jobs_update();

-- A step whose actors change (an actor deleted sets them to null) moves its job actions too.
create function vigil_report_job_steps_update() returns trigger language plpgsql as $$
begin
  perform vigil_report_apply(array(
    with changed as (
      select id from (
        (select id, job_id, source_node_id, destination_node_id from vigil_old_rows except all select id, job_id, source_node_id, destination_node_id from vigil_new_rows)
        union all
        (select id, job_id, source_node_id, destination_node_id from vigil_new_rows except all select id, job_id, source_node_id, destination_node_id from vigil_old_rows)) d
    )
    select row(x.sign, j.job_time, j.simulation_id, j.monitor_id, x.source_node_id, x.destination_node_id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events)::vigil_report_fact
    from (
      select -1 as sign, o.id, o.job_id, o.source_node_id, o.destination_node_id from vigil_old_rows o where o.id in (select id from changed)
      union all
      select 1, w.id, w.job_id, w.source_node_id, w.destination_node_id from vigil_new_rows w where w.id in (select id from changed)
    ) x join jobs j on j.id = x.job_id join job_actions a on a.job_step_id = x.id));
  return null;
end
$$;
create trigger job_steps_report_update after update on job_steps referencing old table as vigil_old_rows new table as vigil_new_rows
  for each statement execute function vigil_report_job_steps_update();

-- Deleting a job or a step subtracts its job actions before they cascade away (afterwards the job
-- actions' delete trigger no longer finds their job or step and adds nothing twice).
create function vigil_report_jobs_delete() returns trigger language plpgsql as $$
begin
  perform vigil_report_apply(array(
    select row(-1, old.job_time, old.simulation_id, old.monitor_id, s.source_node_id, s.destination_node_id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events)::vigil_report_fact
    from job_actions a join job_steps s on s.id = a.job_step_id where a.job_id = old.id));
  return old;
end
$$;
create trigger jobs_report_delete before delete on jobs for each row execute function vigil_report_jobs_delete();
create function vigil_report_job_steps_delete() returns trigger language plpgsql as $$
begin
  perform vigil_report_apply(array(
    select row(-1, j.job_time, j.simulation_id, j.monitor_id, old.source_node_id, old.destination_node_id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events)::vigil_report_fact
    from job_actions a join jobs j on j.id = old.job_id where a.job_step_id = old.id));
  return old;
end
$$;
create trigger job_steps_report_delete before delete on job_steps for each row execute function vigil_report_job_steps_delete();

create function vigil_report_truncate() returns trigger language plpgsql as $$
begin
  truncate report_rollups;
  return null;
end
$$;
create trigger job_actions_report_truncate after truncate on job_actions for each statement execute function vigil_report_truncate();

-- Rebuilds every rollup from the job actions (after a bulk load that skipped triggers), a month at a time.
create function vigil_report_rebuild() returns void language plpgsql as $$
declare
  m timestamptz;
begin
  truncate report_rollups;
  for m in select distinct vigil_report_bucket(3::smallint, job_time) from jobs order by 1 loop
    perform vigil_report_apply(array(
      select row(1, j.job_time, j.simulation_id, j.monitor_id, s.source_node_id, s.destination_node_id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events)::vigil_report_fact
      from jobs j join job_actions a on a.job_id = j.id join job_steps s on s.id = a.job_step_id
      where j.job_time >= m and j.job_time < ((m at time zone 'UTC') + interval '1 month') at time zone 'UTC'));
  end loop;
end
$$;

select vigil_report_rebuild();
