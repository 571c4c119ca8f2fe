-- Simulation versions (issue 19): every edit of a simulation raises its version; an edit or a clone
-- carries the version its editor opened, and a stale one is refused (409) instead of overwriting.
alter table simulations add column version integer not null default 1;
