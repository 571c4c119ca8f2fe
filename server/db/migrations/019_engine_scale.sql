-- The engine at scale (issue 22): engine_work keeps every piece of work ever handed out, and the engine
-- looks up a job's work (its cleanup, its cancel, whether its source claimed) and the cleanups past
-- their deadline on every pass; without these each was a scan of the whole history.
create index engine_work_job_idx on engine_work (job_id, status);
create index engine_work_reverting_idx on engine_work (deadline_at) where status = 'reverting';
