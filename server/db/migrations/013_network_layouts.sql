-- The network map layout each user saved: the chosen layout mode and the items' positions.
create table network_layouts (
  user_id integer primary key references users(id) on delete cascade,
  mode text not null,
  positions jsonb not null default '{}'::jsonb,
  updated_at timestamptz not null default now()
);
