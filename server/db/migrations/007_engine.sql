-- The job engine (issue 9): actor credentials, signed work items handed to actors, security-tool events.
-- Plain PostgreSQL 15 SQL that PGlite also runs.

-- Bulk registration tokens: an actor registers with one and receives its own credential (nodes.token_hash).
create table actor_bulk_tokens (
  id serial primary key,
  name text not null default '',
  token_hash text not null unique,
  expires_at timestamptz not null,
  created_by integer references users(id) on delete set null,
  created_at timestamptz not null default now()
);

-- The director's work-signing key (Ed25519), one row.
create table engine_keys (
  id integer primary key check (id = 1),
  private_pem text not null,
  public_pem text not null
);

-- Why a job ended errored or cancelled (offline actor, restart, timeout).
alter table jobs add column status_reason text;

-- One unit of work for one actor: the source or the target side of a job action.
--  held: waiting for the target side to be ready; queued: may be claimed; claimed: the actor has it;
--  ready: the target serves; done / errored / aborted: finished (aborted = cancel or end of the action).
create table engine_work (
  id serial primary key,
  job_action_id integer not null references job_actions(id) on delete cascade,
  job_id integer not null references jobs(id) on delete cascade,
  node_id integer not null references nodes(id) on delete cascade,
  role text not null check (role in ('source', 'target')),
  status text not null check (status in ('held', 'queued', 'claimed', 'ready', 'done', 'errored', 'aborted')),
  payload jsonb not null default '{}'::jsonb,
  result jsonb,
  error text,
  actor_session text,
  created_at timestamptz not null default now(),
  claimed_at timestamptz,
  ready_at timestamptz,
  finished_at timestamptz,
  deadline_at timestamptz
);
create index engine_work_node_idx on engine_work (node_id, status, id);
create index engine_work_action_idx on engine_work (job_action_id, role);
create index engine_work_open_idx on engine_work (status, id) where status in ('held', 'queued', 'claimed', 'ready');

-- Integrations deliver events with a token (hash stored).
alter table integrations add column events_token_hash text;

-- Events delivered by integrations (webhook or EVE log), kept for matching against job actions.
create table integration_events (
  id serial primary key,
  integration_id integer not null references integrations(id) on delete cascade,
  occurred_at timestamptz not null,
  received_at timestamptz not null default now(),
  src_ip text,
  dest_ip text,
  src_port integer,
  dest_port integer,
  proto text,
  description text not null,
  alert boolean not null default false,
  suspicious boolean not null default false,
  raw_event text not null
);
create index integration_events_time_idx on integration_events (occurred_at);

-- Jobs the engine runs (kind and whether it still has work to schedule): the loop reads only active ones.
create table engine_jobs (
  job_id integer primary key references jobs(id) on delete cascade,
  kind text not null check (kind in ('action', 'sequence', 'evaluation')),
  active boolean not null default true,
  created_at timestamptz not null default now()
);
create index engine_jobs_active_idx on engine_jobs (job_id) where active;
create index engine_work_claimed_idx on engine_work (claimed_at);

-- Which stored event was matched to which job action (an event counts once per job action).
create table engine_event_matches (
  event_id integer not null references integration_events(id) on delete cascade,
  job_action_id integer not null references job_actions(id) on delete cascade,
  primary key (event_id, job_action_id)
);
