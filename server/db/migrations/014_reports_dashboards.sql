-- Reporting (issue 18): dashboards saved per user and shared with others, and the indexes the result
-- aggregations read.

create table dashboards (
  id serial primary key,
  user_id integer not null references users(id) on delete cascade,
  name text not null,
  time_range jsonb not null,
  panels jsonb not null default '[]'::jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index dashboards_user_idx on dashboards (user_id, lower(name), id);

create table dashboard_shares (
  dashboard_id integer not null references dashboards(id) on delete cascade,
  user_id integer not null references users(id) on delete cascade,
  primary key (dashboard_id, user_id)
);
create index dashboard_shares_user_idx on dashboard_shares (user_id, dashboard_id);

-- Result aggregations read the jobs of a time range (jobs_sort_time_idx) and then their job actions:
-- this index holds every column the counts need, so the second step reads the index only.
create index job_actions_report_idx on job_actions (job_id) include (status, blocked, alerted, events, action_id, action_type, job_step_id);
-- Tactic and technique groupings go from a tag to its Actions' job actions.
create index job_actions_action_report_idx on job_actions (action_id, job_id) include (status, blocked, alerted, events);
