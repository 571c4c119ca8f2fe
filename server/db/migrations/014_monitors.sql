-- Monitors (issue 17, monitors-actors-reporting.md sections 2-5): an ordered list of groups of actions
-- run on a schedule, each action with an expected outcome. Plain PostgreSQL 15 SQL that PGlite runs.

-- Email profiles (monitors-actors-reporting.md section 3 "Email profile: id, associated_node_ids"): the
-- mailbox a group's email actions send from or to. kind decides whether a spoofed From address works.
create table email_profiles (
  id serial primary key,
  name text not null unique,
  kind text not null check (kind in ('pop3', 'imap', 'ews', 'gmail_api', 'graph_api')),
  address text not null default '',
  associated_node_ids integer[] not null default '{}'
);

-- The monitor group a monitor belongs to (the definition panel's typeahead can create one).
create table monitor_groups (
  id serial primary key,
  name text not null,
  created_at timestamptz not null default now()
);
create unique index monitor_groups_lower_name_idx on monitor_groups (lower(name));

-- The definition (field names of section 3 "Monitor definition"). monitor_runtime is the first run as
-- 'YYYY-MM-DD HH:mm' in timezone; next_run_at is when the scheduler starts the next run (null while
-- paused); next_job_id is that run's job, waiting in status 'sleeping'.
create table monitors (
  id serial primary key,
  name text not null,
  description text not null default '',
  monitor_group_id integer references monitor_groups(id) on delete set null,
  monitor_runtime text not null,
  timezone text not null default 'UTC',
  repeat_job_period_number integer not null check (repeat_job_period_number >= 1),
  repeat_job_period_type text not null check (repeat_job_period_type in ('minutes', 'hours', 'days', 'weeks', 'months')),
  repeat_week_days text not null default '',
  repeat_monthly_frequency text not null default '',
  repeat_day_of_the_week text not null default '',
  extra_sleep integer not null default 0 check (extra_sleep between 0 and 300),
  detection_timeout_seconds integer not null default 30,
  simulation_id integer references simulations(id) on delete set null,
  paused boolean not null default false,
  next_run_at timestamptz,
  next_job_id integer references jobs(id) on delete set null,
  last_job_id integer references jobs(id) on delete set null,
  created_by integer references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index monitors_due_idx on monitors (next_run_at, id) where not paused and next_run_at is not null;
create index monitors_lower_name_idx on monitors (lower(name), id);

-- A group of the step strip ("Group N: name"): where its actions run (section 3 "Group configuration").
create table monitor_steps (
  id serial primary key,
  monitor_id integer not null references monitors(id) on delete cascade,
  position integer not null,
  name text not null default '',
  config jsonb not null default '{}'::jsonb,
  unique (monitor_id, position)
);

-- One action of a group with its expectations (section 3 "Action configuration"). expected_* are
-- 'yes', 'no' or 'does_not_matter'; config holds the ports, runtime_* and host_cli_variable_* values;
-- expected_events the events that must be matched for the action to count as detected.
create table monitor_actions (
  id serial primary key,
  monitor_id integer not null references monitors(id) on delete cascade,
  monitor_step_id integer not null references monitor_steps(id) on delete cascade,
  position integer not null,
  action_id integer not null references actions(id) on delete cascade,
  expected_blocked text not null check (expected_blocked in ('yes', 'no', 'does_not_matter')),
  expected_detected text not null check (expected_detected in ('yes', 'no', 'does_not_matter')),
  config jsonb not null default '{}'::jsonb,
  expected_events jsonb not null default '[]'::jsonb,
  unique (monitor_step_id, position)
);
create index monitor_actions_monitor_idx on monitor_actions (monitor_id);
create index monitor_actions_action_idx on monitor_actions (action_id);

-- A job started by a monitor (kept when the monitor is deleted), and the monitor action it ran.
alter table jobs add column monitor_id integer references monitors(id) on delete set null;
create index jobs_monitor_idx on jobs (monitor_id, id desc) where monitor_id is not null;
alter table job_actions add column monitor_action_id integer references monitor_actions(id) on delete set null;

-- One run of a monitor: its job, the slot it ran for, and (once judged) its counts.
create table monitor_runs (
  job_id integer primary key references jobs(id) on delete cascade,
  monitor_id integer not null references monitors(id) on delete cascade,
  scheduled_for timestamptz not null,
  started_at timestamptz,
  trigger text not null default 'schedule' check (trigger in ('schedule', 'catch_up', 'run_now')),
  evaluated_at timestamptz,
  passed integer not null default 0,
  failed integer not null default 0,
  not_run integer not null default 0,
  drift integer not null default 0
);
create index monitor_runs_history_idx on monitor_runs (monitor_id, job_id desc);
create index monitor_runs_unjudged_idx on monitor_runs (job_id) where evaluated_at is null and started_at is not null;

-- The outcome of one step (monitor action) in one run: pass/fail against the expectations, or not_run
-- (errored, incompatible, cancelled); drift when a judged outcome differs from the step's previous one.
create table monitor_step_results (
  id serial primary key,
  job_id integer not null references monitor_runs(job_id) on delete cascade,
  monitor_id integer not null references monitors(id) on delete cascade,
  monitor_action_id integer not null references monitor_actions(id) on delete cascade,
  job_action_id integer references job_actions(id) on delete set null,
  outcome text not null check (outcome in ('pass', 'fail', 'not_run')),
  blocked boolean,
  detected boolean,
  previous_outcome text,
  drift boolean not null default false,
  reason text not null default '',
  created_at timestamptz not null default now(),
  unique (job_id, monitor_action_id)
);
create index monitor_step_results_step_idx on monitor_step_results (monitor_action_id, job_id desc);
create index monitor_step_results_drift_idx on monitor_step_results (monitor_id) where drift;
