-- An actor's claim of its next queued work in one call (server/actors/service.ts claimWithState and
-- claimNext): the node's row locked, the poll's state read, the work claimed and its job marked running.
-- On PostgreSQL that was a transaction of four round trips (begin, lock and state, claim, commit), two of
-- every two-actor action's; a function runs them in one. Each statement of a volatile function takes a
-- fresh snapshot, so the claim sees what was committed while the lock was awaited, as the second
-- statement of the transaction did.
create function engine_claim(p_node int, p_session text, p_holding int[])
returns table (o_open int[], o_queued boolean, o_reverted boolean, o_tasks boolean, o_work jsonb)
language plpgsql as $$
declare
  v_id int;
  v_job int;
  v_role text;
  v_job_status text;
  v_payload jsonb;
begin
  -- The node's row is locked until the claim commits (`for no key update`: claims and dispatch exclude
  -- each other across directors; rows merely referencing the node, a job being created, do not wait).
  -- Of the work the actor holds, what is still open; whether work, a cleanup or a task waits for it.
  select (select array_agg(e.id) from engine_work e where e.id = any(p_holding) and e.node_id = p_node and e.status in ('claimed', 'ready')),
         exists (select 1 from engine_work e where e.node_id = p_node and e.status = 'queued'),
         exists (select 1 from engine_work e where e.node_id = p_node and e.status = 'reverting' and not (e.id = any(p_holding))),
         exists (select 1 from actor_tasks t where t.node_id = p_node and t.status = 'queued')
    into o_open, o_queued, o_reverted, o_tasks
    from nodes n where n.id = p_node for no key update of n;
  -- The claim, and for a source the deadline of the target serving for it (the target waits for the
  -- source's result: its time runs out with the source's, not while the source waited to be claimed).
  with claimed as (
         update engine_work w set status = 'claimed', claimed_at = now(), actor_session = p_session,
                deadline_at = now() + ((w.payload->>'timeout_ms')::int + 15000) * interval '1 millisecond'
          where w.id in (select q.id from engine_work q where q.node_id = p_node and q.status = 'queued'
                            and not exists (select 1 from engine_work r where r.node_id = p_node and r.status in ('claimed', 'ready', 'reverting'))
                          order by q.id limit 1 for update skip locked)
          returning w.id, w.job_id, w.job_action_id, w.role, w.deadline_at, w.payload),
       target as (
         update engine_work t set deadline_at = greatest(t.deadline_at, c.deadline_at + interval '15 seconds')
           from claimed c where c.role = 'source' and t.job_action_id = c.job_action_id and t.role = 'target' and t.status in ('claimed', 'ready'))
  select c.id, c.job_id, c.role, j.status, c.payload into v_id, v_job, v_role, v_job_status, v_payload
    from claimed c join jobs j on j.id = c.job_id;
  -- Its job is running from now on (it was preparing while the actors fetched the work); no update of
  -- jobs otherwise (its statement triggers run even for no row).
  if v_role = 'source' and v_job_status = 'preparing' then
    update jobs set status = 'running', updated_at = now() where id = v_job and status = 'preparing';
  end if;
  o_work := case when v_id is null then '[]'::jsonb else jsonb_build_array(jsonb_build_object('id', v_id, 'payload', v_payload)) end;
  return next;
end
$$;
