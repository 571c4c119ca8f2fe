-- Quick open (GET /search.json) keeps the small kinds it finds by name (actors, monitors, saved
-- filters, scripts, dashboards) in memory, like the Actions, so a keystroke reads no table. A change
-- of what it shows of them is logged in library_changes as kind 'search' (no item), so every
-- director reads them again at its next poll. Simulations are logged as kind 'simulation' already
-- (migration 005). Only changes of the shown columns are logged: an actor's heartbeat, a monitor's or
-- a script's run, leave the log alone.
alter table library_changes drop constraint library_changes_kind_check;
alter table library_changes add constraint library_changes_kind_check check (kind in ('action', 'simulation', 'job', 'reference', 'search'));

create trigger search_nodes_ins_del after insert or delete on nodes for each statement execute function library_log_kind('search');
create trigger search_nodes_upd after update on nodes for each row
  when (old.name is distinct from new.name or old.sim_address is distinct from new.sim_address or old.status is distinct from new.status)
  execute function library_log_kind('search');
create trigger search_monitors_chg after insert or delete or update of name, repeat_job_period_number, repeat_job_period_type on monitors
  for each statement execute function library_log_kind('search');
create trigger search_saved_filters_chg after insert or delete or update of name, target, user_id on saved_filters
  for each statement execute function library_log_kind('search');
create trigger search_scripts_chg after insert or delete or update of name, shared, user_id on scripts
  for each statement execute function library_log_kind('search');
create trigger search_dashboards_chg after insert or delete or update of name, user_id on dashboards
  for each statement execute function library_log_kind('search');
create trigger search_dashboard_shares_chg after insert or delete or update on dashboard_shares
  for each statement execute function library_log_kind('search');
