-- Users, sessions, sign-in throttling, background-process notices and director settings.
create table users (
  id serial primary key,
  email text not null unique,
  first_name text not null default '',
  last_name text not null default '',
  role text not null check (role in ('admin', 'approver', 'operator', 'viewer')),
  password_hash text not null,
  time_zone text not null default 'UTC',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table sessions (
  id text primary key,               -- sha256 of the cookie value; the cookie itself is never stored
  user_id integer not null references users(id) on delete cascade,
  csrf_token text not null,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);
create index sessions_user_idx on sessions(user_id);

create table sign_in_failures (
  id serial primary key,
  email text not null,
  ip text not null,
  at timestamptz not null default now()
);
create index sign_in_failures_email_idx on sign_in_failures(email, at);

create table background_processes (
  id serial primary key,
  user_id integer references users(id) on delete cascade,
  kind text not null,
  status text not null check (status in ('running', 'completed', 'failed')),
  result text not null default '',
  notified boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index background_processes_user_idx on background_processes(user_id, status, notified);

create table settings (
  key text primary key,
  value jsonb not null,
  updated_at timestamptz not null default now()
);
