-- A job's start moves its job actions in the rollups only when it moves them to another bucket.
-- vigil_report_jobs_update (020) compared job_time itself: a job starting (started_at set, job_time
-- moving from its creation to its start) recounted every job action of the job, minus under the old
-- time and plus under the new, even when both fall in the same 5-minute slice and the sums cancel. For
-- a 1,500-step evaluation that was about 85 ms of PostgreSQL's time inside the first scheduling pass,
-- which every one of the job's first actions waited for. The 5-minute bucket is compared instead: an
-- hour, day or month bucket is a union of 5-minute ones (one origin, UTC: vigil_report_bucket), so an equal 5-minute
-- bucket is an equal bucket at every grain, and the facts' only use of job_time is its bucket.
create or replace function vigil_report_jobs_update() returns trigger language plpgsql as $$
begin
  perform vigil_report_apply(array(
    with changed as (
      select id from (
        (select id, vigil_report_bucket(0::smallint, job_time), simulation_id, monitor_id, lower(name), ran_by, assessment_name, published_status = 2 from vigil_old_rows
         except all select id, vigil_report_bucket(0::smallint, job_time), simulation_id, monitor_id, lower(name), ran_by, assessment_name, published_status = 2 from vigil_new_rows)
        union all
        (select id, vigil_report_bucket(0::smallint, job_time), simulation_id, monitor_id, lower(name), ran_by, assessment_name, published_status = 2 from vigil_new_rows
         except all select id, vigil_report_bucket(0::smallint, job_time), simulation_id, monitor_id, lower(name), ran_by, assessment_name, published_status = 2 from vigil_old_rows)) d
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

-- A job action whose status moves between statuses the rollups count alike (pending, waiting, running,
-- cancelled: counted in n alone; 'not run' and incompatible: both not_run) changes no count: skipped.
-- The engine moves every dispatched job action from pending to running; 020 compared the status
-- itself, and recounted each of them (minus pending, plus running) for sums that cancel.
create function vigil_report_status_class(status text) returns text language sql immutable parallel safe as $$
  select case when status in ('ran', 'errored') then status when status in ('not run', 'incompatible') then 'not run' else '' end
$$;

create or replace function vigil_report_job_actions_update() returns trigger language plpgsql as $$
begin
  perform vigil_report_apply(array(
    with changed as (
      select id from (
        (select id, vigil_report_status_class(status), blocked, alerted, events, action_id, action_type, job_step_id, job_id from vigil_old_rows
         except all select id, vigil_report_status_class(status), blocked, alerted, events, action_id, action_type, job_step_id, job_id from vigil_new_rows)
        union all
        (select id, vigil_report_status_class(status), blocked, alerted, events, action_id, action_type, job_step_id, job_id from vigil_new_rows
         except all select id, vigil_report_status_class(status), blocked, alerted, events, action_id, action_type, job_step_id, job_id from vigil_old_rows)) d
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
