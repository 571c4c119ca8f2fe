-- The library answers each Action's latest job with its status from memory. A job whose status
-- changes is logged in library_changes (kind 'job', item_id = job id), so every director's index
-- learns of it in its next poll. New and deleted runs are already logged through job_actions.
alter table library_changes drop constraint library_changes_kind_check;
alter table library_changes add constraint library_changes_kind_check check (kind in ('action', 'simulation', 'job', 'reference'));

create function library_log_job_status() returns trigger language plpgsql as $$
begin
  insert into library_changes (kind, item_id)
    select 'job', n.id from new_rows n join old_rows o on o.id = n.id where n.status is distinct from o.status;
  return null;
end $$;
create trigger library_jobs_status_upd after update on jobs referencing old table as old_rows new table as new_rows
  for each statement execute function library_log_job_status();

-- Tags and dimension trees (names, types, parents) are reference data the index reads in full; a
-- change of them is logged as kind 'reference', so the index reads them only when they changed.
-- One function for every kind logged without an item: the kind is the trigger's argument.
create function library_log_kind() returns trigger language plpgsql as $$
begin insert into library_changes (kind, item_id) values (tg_argv[0], null); return null; end $$;
create trigger library_tags_reference after insert or update or delete on tags for each statement execute function library_log_kind('reference');
create trigger library_dimensions_reference after insert or update or delete on dimensions for each statement execute function library_log_kind('reference');
