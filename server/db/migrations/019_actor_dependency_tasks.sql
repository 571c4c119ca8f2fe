-- Tasks the director queues for an actor outside jobs (JOB-061, JOB-097): install its dependencies
-- (find the programs its action types need, install the missing ones) or report its version. The
-- actor claims them with its poll and reports what it found; the last install's report is kept here.
create table actor_tasks (
  id serial primary key,
  node_id integer not null references nodes(id) on delete cascade,
  kind text not null check (kind in ('install_dependencies', 'version_check')),
  status text not null default 'queued' check (status in ('queued', 'claimed', 'done', 'failed')),
  requested_by integer references users(id) on delete set null,
  actor_session text,
  message text,
  report jsonb,
  created_at timestamptz not null default now(),
  claimed_at timestamptz,
  finished_at timestamptz
);
create index actor_tasks_node_idx on actor_tasks (node_id, id desc);
create index actor_tasks_open_idx on actor_tasks (node_id) where status in ('queued', 'claimed');
-- One open task of a kind per actor: a second install waits for the first to settle.
create unique index actor_tasks_one_open_idx on actor_tasks (node_id, kind) where status in ('queued', 'claimed');
