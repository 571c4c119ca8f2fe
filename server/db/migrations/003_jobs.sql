-- Jobs list and job results (issue 7). Everything here keeps the list calls fast at 1,000,000 jobs on
-- PGlite and PostgreSQL 15 with btree indexes only:
--  * every sortable column of the results list has an index ending in id, so a page is one ordered
--    index range (keyset paging: `(key, id) < ($1, $2) order by key desc, id desc limit n`);
--  * "Ran By" and "Time Started" are stored columns (ran_by kept by triggers, job_time generated);
--  * the total number of jobs is kept per status by statement-level triggers (no count(*) over 1M rows);
--  * partial indexes find the job actions the events filter asks for (present, suspicious, none).

-- Ran By: the user's name, or 'Scheduled Process' for a job without a user (spec).
alter table jobs add column ran_by text not null default 'Scheduled Process';

create function vigil_job_ran_by(uid integer) returns text language sql stable as $$
  select coalesce(
    (select coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.email) from users u where u.id = uid),
    'Scheduled Process')
$$;

create function vigil_jobs_set_ran_by() returns trigger language plpgsql as $$
begin
  new.ran_by := vigil_job_ran_by(new.user_id);
  return new;
end
$$;
create trigger jobs_set_ran_by before insert or update of user_id on jobs
  for each row execute function vigil_jobs_set_ran_by();

create function vigil_users_rename_jobs() returns trigger language plpgsql as $$
begin
  update jobs set ran_by = vigil_job_ran_by(new.id) where user_id = new.id;
  return null;
end
$$;
create trigger users_rename_jobs after update of first_name, last_name, email on users
  for each row execute function vigil_users_rename_jobs();

update jobs set ran_by = vigil_job_ran_by(user_id);

-- Time Started: when the job started, or when it was created while it has not started yet.
alter table jobs add column job_time timestamptz generated always as (coalesce(started_at, created_at)) stored;

-- Sort keys of the results list (Job Id uses the primary key).
create index jobs_sort_name_idx on jobs (lower(name), id);
create index jobs_sort_status_idx on jobs (status, id);
create index jobs_sort_ran_by_idx on jobs (ran_by, id);
create index jobs_sort_time_idx on jobs (job_time, id);

-- Exact totals without counting: one row per status, kept by statement-level triggers.
create table job_status_counts (
  status text primary key,
  n bigint not null default 0
);
insert into job_status_counts (status, n)
  select s, (select count(*) from jobs j where j.status = s)
  from unnest(array['sleeping', 'pending', 'waiting', 'preparing', 'running', 'reverting', 'errored', 'cancelled', 'completed']) as s;

create function vigil_job_counts_insert() returns trigger language plpgsql as $$
begin
  update job_status_counts c set n = c.n + d.k from (select status, count(*) as k from vigil_new_rows group by status) d where c.status = d.status;
  return null;
end
$$;
create function vigil_job_counts_delete() returns trigger language plpgsql as $$
begin
  update job_status_counts c set n = c.n - d.k from (select status, count(*) as k from vigil_old_rows group by status) d where c.status = d.status;
  return null;
end
$$;
create function vigil_job_counts_update() returns trigger language plpgsql as $$
begin
  update job_status_counts c set n = c.n + d.k
    from (
      select status, sum(k) as k from (
        select status, count(*) as k from vigil_new_rows group by status
        union all
        select status, -count(*) as k from vigil_old_rows group by status
      ) x group by status
    ) d
    where c.status = d.status and d.k <> 0;
  return null;
end
$$;
create function vigil_job_counts_truncate() returns trigger language plpgsql as $$
begin
  update job_status_counts set n = 0;
  return null;
end
$$;
create trigger jobs_count_insert after insert on jobs referencing new table as vigil_new_rows
  for each statement execute function vigil_job_counts_insert();
create trigger jobs_count_delete after delete on jobs referencing old table as vigil_old_rows
  for each statement execute function vigil_job_counts_delete();
create trigger jobs_count_update after update on jobs referencing old table as vigil_old_rows new table as vigil_new_rows
  for each statement execute function vigil_job_counts_update();
create trigger jobs_count_truncate after truncate on jobs
  for each statement execute function vigil_job_counts_truncate();

-- The distinct job names (lower case): the filter text box matches them first (a few thousand rows at
-- most), then finds jobs by the exact names through jobs_sort_name_idx, instead of scanning 1M names.
-- Names of deleted jobs stay (they match no job), which costs nothing.
create table job_names (lname text primary key);
insert into job_names (lname) select distinct lower(name) from jobs;

create function vigil_job_names_add() returns trigger language plpgsql as $$
begin
  insert into job_names (lname) select distinct lower(name) from vigil_new_rows on conflict do nothing;
  return null;
end
$$;
create trigger jobs_names_insert after insert on jobs referencing new table as vigil_new_rows
  for each statement execute function vigil_job_names_add();
create trigger jobs_names_update after update on jobs referencing new table as vigil_new_rows
  for each statement execute function vigil_job_names_add();

-- The events filter of the jobs list: job actions with events, with suspicious events, with none.
create index job_actions_events_present_idx on job_actions (job_id, job_step_id) where events > 0;
create index job_actions_events_suspicious_idx on job_actions (job_id, job_step_id) where suspect_events > 0;
create index job_actions_events_none_idx on job_actions (job_id, job_step_id) where events = 0 and suspect_events = 0;

-- The events modal lists a job action's events in time order; suspicious ones on their own.
create index job_action_events_list_idx on job_action_events (job_action_id, suspicious, occurred_at, id);
