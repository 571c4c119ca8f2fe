-- Saved filters (issue 8, beyond the spec): a user's named rule trees and page filter values per list
-- (target 'jobs' or 'actions'), offered in the palette as "Apply filter: <name>".
create table saved_filters (
  id serial primary key,
  user_id integer not null references users(id) on delete cascade,
  target text not null check (target in ('jobs', 'actions')),
  name text not null,
  filter jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (user_id, target, name)
);
create index saved_filters_user_idx on saved_filters (user_id, lower(name));
