-- Saved command scripts (per user, optionally shared) and the history of their runs.
create table scripts (
  id serial primary key,
  user_id integer not null references users(id) on delete cascade,
  name text not null,
  body text not null default '',
  shared boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (user_id, name)
);
create index scripts_shared_idx on scripts(shared) where shared;

create table script_runs (
  id serial primary key,
  script_id integer not null references scripts(id) on delete cascade,
  user_id integer references users(id) on delete set null,
  source text not null check (source in ('workbench', 'terminal')),
  outcome text not null check (outcome in ('ok', 'failed', 'stopped')),
  dry_run boolean not null default false,
  steps_total integer not null default 0,
  steps_failed integer not null default 0,
  transcript jsonb not null default '[]'::jsonb,
  started_at timestamptz not null,
  finished_at timestamptz not null default now()
);
create index script_runs_script_idx on script_runs(script_id, id desc);
