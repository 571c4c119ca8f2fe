-- An actor cleaning up after an action (its target work 'reverting') is busy, as one with open work is
-- (server/engine/engine.ts, BUSY): the scheduling pass reads which actors hold work in any of these five
-- statuses. engine_work_open_idx covers four of them, so those reads scanned every work row ever written
-- (two per two-actor action, kept as history); this index holds only the busy rows.
create index engine_work_busy_idx on engine_work (node_id) where status in ('held', 'queued', 'claimed', 'ready', 'reverting');
