-- Sign-in attempt counters (issue 24, item 3): one row per key ("pair:<ip>|<email>", "addr:<ip>"),
-- incremented atomically by an upsert before the password is checked, so concurrent guesses cannot race
-- past the limit. A window restarts once it is older than the throttle window.
create table sign_in_counters (
  key text primary key,
  n integer not null,
  window_start timestamptz not null default now()
);
