-- A job run with force_unlock (the Run All Actions modal unlocked) waits for an offline actor
-- instead of ending its actions errored.
alter table engine_jobs add column force_unlock boolean not null default false;
