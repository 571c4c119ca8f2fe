-- The engine at scale (issue 22): engine_work keeps every piece of work ever handed out, and the engine
-- looks up a job's work (its cleanup, its cancel, whether its source claimed) and the cleanups past
-- their deadline on every pass; without these each was a scan of the whole history.
create index engine_work_job_idx on engine_work (job_id, status);
create index engine_work_reverting_idx on engine_work (deadline_at) where status = 'reverting';
-- A job's unfinished actions: each pass of the engine over a job reads them, not its finished ones.
create index job_actions_open_idx on job_actions (job_id) where status in ('pending', 'running');
