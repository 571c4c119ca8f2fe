-- 'reverting': a target's work whose action ended, until the actor confirms it closed its servers.
alter table engine_work drop constraint engine_work_status_check;
alter table engine_work add constraint engine_work_status_check check (status in ('held', 'queued', 'claimed', 'ready', 'reverting', 'done', 'errored', 'aborted'));
