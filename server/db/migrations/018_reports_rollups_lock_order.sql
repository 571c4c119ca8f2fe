-- Rollup rows are upserted in key order: two transactions touching the same rows (jobs created while
-- the engine records results) then lock them in the same order and cannot deadlock on them. (Deadlocks
-- elsewhere are still run again by the PostgreSQL handle, server/db/index.ts.)
create or replace function vigil_report_apply(facts vigil_report_fact[]) returns void language plpgsql as $$
begin
  if facts is null or cardinality(facts) = 0 then return; end if;
  insert into report_rollups as r (grain, dim, bucket, k, t, n, total, prevented, detected, alerted, missed, not_run, errored)
  select g.grain, d.dim, vigil_report_bucket(g.grain, f.job_time), d.k, d.t,
    sum(f.sign), sum(f.sign * c.total), sum(f.sign * c.prevented), sum(f.sign * c.detected), sum(f.sign * c.alerted),
    sum(f.sign * c.missed), sum(f.sign * c.not_run), sum(f.sign * c.errored)
  from unnest(facts) f
  cross join lateral (select
    (f.status = 'ran')::int as total,
    (f.status = 'ran' and coalesce(f.blocked, false))::int as prevented,
    (f.status = 'ran' and (f.events > 0 or f.alerted))::int as detected,
    (f.status = 'ran' and f.alerted)::int as alerted,
    (f.status = 'ran' and not coalesce(f.blocked, false) and f.events = 0 and not f.alerted)::int as missed,
    (f.status in ('not run', 'incompatible'))::int as not_run,
    (f.status = 'errored')::int as errored) c
  cross join lateral (values
    (0::smallint, 0, ''),
    (1::smallint, coalesce(f.action_id, 0), f.action_type),
    (2::smallint, coalesce(f.source_node_id, 0), ''),
    (3::smallint, coalesce(f.destination_node_id, 0), ''),
    (4::smallint, coalesce(f.simulation_id, 0), ''),
    (5::smallint, coalesce(f.monitor_id, 0), '')) d(dim, k, t)
  join (values (0::smallint), (1::smallint), (2::smallint), (3::smallint)) g(grain) on d.dim = 0 or g.grain >= 2
  where f.job_time is not null
  group by 1, 2, 3, 4, 5
  having sum(f.sign) <> 0 or sum(f.sign * c.total) <> 0 or sum(f.sign * c.detected) <> 0 or sum(f.sign * c.prevented) <> 0
    or sum(f.sign * c.alerted) <> 0 or sum(f.sign * c.missed) <> 0 or sum(f.sign * c.not_run) <> 0 or sum(f.sign * c.errored) <> 0
  order by 1, 2, 3, 4, 5
  on conflict (grain, dim, bucket, k, t) do update set
    n = r.n + excluded.n, total = r.total + excluded.total, prevented = r.prevented + excluded.prevented,
    detected = r.detected + excluded.detected, alerted = r.alerted + excluded.alerted, missed = r.missed + excluded.missed,
    not_run = r.not_run + excluded.not_run, errored = r.errored + excluded.errored;
  if exists (select 1 from unnest(facts) f where f.sign < 0) then
    delete from report_rollups r where r.n <= 0 and (r.grain, r.dim, r.bucket, r.k, r.t) in (
      select g.grain, d.dim, vigil_report_bucket(g.grain, f.job_time), d.k, d.t
      from unnest(facts) f
      cross join lateral (values (0::smallint, 0, ''), (1::smallint, coalesce(f.action_id, 0), f.action_type), (2::smallint, coalesce(f.source_node_id, 0), ''),
        (3::smallint, coalesce(f.destination_node_id, 0), ''), (4::smallint, coalesce(f.simulation_id, 0), ''), (5::smallint, coalesce(f.monitor_id, 0), '')) d(dim, k, t)
      join (values (0::smallint), (1::smallint), (2::smallint), (3::smallint)) g(grain) on d.dim = 0 or g.grain >= 2
      where f.sign < 0 and f.job_time is not null);
  end if;
end
$$;
