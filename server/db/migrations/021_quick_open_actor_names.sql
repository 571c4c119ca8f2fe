-- Quick open finds an actor by the friendly name the Actors pane shows first ("Finance workstation 1")
-- as well as by its name (WIN10-FIN-WS01): a change of the friendly name is logged too, so every
-- director reads the small kinds again (migration 020).
drop trigger search_nodes_upd on nodes;
create trigger search_nodes_upd after update on nodes for each row
  when (old.name is distinct from new.name or old.friendly_name is distinct from new.friendly_name or old.sim_address is distinct from new.sim_address or old.status is distinct from new.status)
  execute function library_log_kind('search');
