-- The Action library (issue 6): content modification time and version bumps, a change log that keeps
-- the director's in-memory library index in step with every writer (and with other directors on the
-- same PostgreSQL), and the approval history. Plain PostgreSQL 15 SQL that PGlite 0.5 also runs.

-- ---------------------------------------------------------------------------------------------
-- modified_at: when the Action's content (what it does or says) last changed. updated_at also moves
-- on approval and tag changes; the library sorts "Last Updated" by updated_at, "Modified" by this.
alter table actions add column modified_at timestamptz;
update actions set modified_at = updated_at;

-- A content change moves modified_at and bumps version (unless the writer already did), so an
-- approver who reviewed an older version can be refused (see PUT /manage_sims/actions/{id}/approve).
create function library_actions_before_write() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    new.modified_at := coalesce(new.modified_at, new.updated_at, now());
  elsif (new.name, new.description, new.notes, new.action_type, new.details, new.event_filter_rules, new.timeout_ms, new.uac, new.monitor_connections)
        is distinct from (old.name, old.description, old.notes, old.action_type, old.details, old.event_filter_rules, old.timeout_ms, old.uac, old.monitor_connections) then
    if new.modified_at is not distinct from old.modified_at then new.modified_at := now(); end if;
    if new.updated_at is not distinct from old.updated_at then new.updated_at := now(); end if;
    if new.version = old.version then new.version := old.version + 1; end if;
  end if;
  return new;
end $$;
create trigger library_actions_before_write before insert or update on actions
  for each row execute function library_actions_before_write();

-- ---------------------------------------------------------------------------------------------
-- Change log: which Actions changed (kind 'action', item_id = action id) or that simulations changed
-- (kind 'simulation'). Statement-level triggers with transition tables keep bulk writes cheap.
create table library_changes (
  seq bigserial primary key,
  kind text not null check (kind in ('action', 'simulation')),
  item_id integer,
  changed_at timestamptz not null default now()
);

create function library_log_new_actions() returns trigger language plpgsql as $$
begin
  insert into library_changes (kind, item_id) select distinct 'action', id from new_rows;
  return null;
end $$;
create function library_log_old_actions() returns trigger language plpgsql as $$
begin
  insert into library_changes (kind, item_id) select distinct 'action', id from old_rows;
  return null;
end $$;
create trigger library_actions_ins after insert on actions referencing new table as new_rows for each statement execute function library_log_new_actions();
create trigger library_actions_upd after update on actions referencing new table as new_rows for each statement execute function library_log_new_actions();
create trigger library_actions_del after delete on actions referencing old table as old_rows for each statement execute function library_log_old_actions();

-- Rows that name an Action in action_id: tags, dimensions, files and runs of an Action.
create function library_log_new_action_ids() returns trigger language plpgsql as $$
begin
  insert into library_changes (kind, item_id) select distinct 'action', action_id from new_rows where action_id is not null;
  return null;
end $$;
create function library_log_old_action_ids() returns trigger language plpgsql as $$
begin
  insert into library_changes (kind, item_id) select distinct 'action', action_id from old_rows where action_id is not null;
  return null;
end $$;
create trigger library_action_tags_ins after insert on action_tags referencing new table as new_rows for each statement execute function library_log_new_action_ids();
create trigger library_action_tags_del after delete on action_tags referencing old table as old_rows for each statement execute function library_log_old_action_ids();
create trigger library_action_dimensions_ins after insert on action_dimensions referencing new table as new_rows for each statement execute function library_log_new_action_ids();
create trigger library_action_dimensions_upd after update on action_dimensions referencing new table as new_rows for each statement execute function library_log_new_action_ids();
create trigger library_action_dimensions_del after delete on action_dimensions referencing old table as old_rows for each statement execute function library_log_old_action_ids();
create trigger library_action_files_ins after insert on action_files referencing new table as new_rows for each statement execute function library_log_new_action_ids();
create trigger library_action_files_del after delete on action_files referencing old table as old_rows for each statement execute function library_log_old_action_ids();
create trigger library_job_actions_ins after insert on job_actions referencing new table as new_rows for each statement execute function library_log_new_action_ids();
create trigger library_job_actions_del after delete on job_actions referencing old table as old_rows for each statement execute function library_log_old_action_ids();

-- A file's restriction changes the pending/malicious counts of every Action it is attached to.
create function library_log_file_actions() returns trigger language plpgsql as $$
begin
  insert into library_changes (kind, item_id)
    select distinct 'action', af.action_id from action_files af join new_rows n on n.id = af.file_id;
  return null;
end $$;
create trigger library_file_library_upd after update on file_library referencing new table as new_rows for each statement execute function library_log_file_actions();

-- A renamed tag changes what the search finds for every Action carrying it.
create function library_log_tag_actions() returns trigger language plpgsql as $$
begin
  insert into library_changes (kind, item_id)
    select distinct 'action', at.action_id from action_tags at join new_rows n on n.id = at.tag_id;
  insert into library_changes (kind, item_id) values ('simulation', null);
  return null;
end $$;
create trigger library_tags_upd after update on tags referencing new table as new_rows for each statement execute function library_log_tag_actions();

-- Simulations are few: any change marks the simulation index stale.
create function library_log_simulations() returns trigger language plpgsql as $$
begin
  insert into library_changes (kind, item_id) values ('simulation', null);
  return null;
end $$;
create trigger library_simulations_chg after insert or update or delete on simulations for each statement execute function library_log_simulations();
create trigger library_simulation_steps_chg after insert or update or delete on simulation_steps for each statement execute function library_log_simulations();
create trigger library_simulation_step_actions_chg after insert or update or delete on simulation_step_actions for each statement execute function library_log_simulations();
create trigger library_simulation_tags_chg after insert or delete on simulation_tags for each statement execute function library_log_simulations();
create trigger library_jobs_chg after insert or delete on jobs for each statement execute function library_log_simulations();

-- ---------------------------------------------------------------------------------------------
-- Approval history: who approved, rejected or decided a file, when, and on which version. Kept when
-- the Action is deleted (a rejection deletes it), so vid and name are copied.
create table action_approval_events (
  id serial primary key,
  action_id integer references actions(id) on delete set null,
  action_vid text not null,
  action_name text not null,
  action_version integer not null,
  event text not null check (event in ('approved_anywhere', 'approved_protected', 'approved', 'rejected', 'file_approved', 'file_restricted', 'file_removed')),
  file_id integer references file_library(id) on delete set null,
  file_name text,
  user_id integer references users(id) on delete set null,
  user_email text not null,
  created_at timestamptz not null default now()
);
create index action_approval_events_action_idx on action_approval_events (action_id, id desc);
create index action_approval_events_vid_idx on action_approval_events (action_vid, id desc);
