-- Shared scripts (issue 24): a run is opened by its runner before its first step ('running', no
-- finished_at) and finished (outcome, transcript) only by that runner.
alter table script_runs drop constraint if exists script_runs_outcome_check;
alter table script_runs add constraint script_runs_outcome_check check (outcome in ('running', 'ok', 'failed', 'stopped'));
alter table script_runs alter column finished_at drop not null;
alter table script_runs alter column finished_at drop default;
