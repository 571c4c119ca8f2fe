/**
 * Monitor Stats (jobs-simulations-network-map.md "Monitor stats", JOB-028, JOB-045, JOB-093): from the
 * latest run with judged steps (a run whose actions all failed to run says nothing about the controls)
 * of every active (not paused) monitor:
 * - monitor_count: active monitors; unique_count: distinct Actions they check; alert_count: failing steps;
 * - alert_paths: zone pairs (source zone -> destination zone of the run's steps) with a failing step,
 *   green_paths: pairs whose steps all passed; zone_stats: passed and failed steps per source zone.
 */
import type { Db } from '../db/index';
import type { MonitorPath, MonitorStatsAnswer, ZoneStat } from '../../src/api/contracts/monitors';

interface ResultRow {
  monitor: string;
  outcome: 'pass' | 'fail';
  src_zone_id: number | null;
  src_zone: string | null;
  dst_zone_id: number | null;
  dst_zone: string | null;
}

export async function monitorStats(db: Db): Promise<MonitorStatsAnswer> {
  const [counts] = await db.query<{ monitor_count: number; unique_count: number }>(
    `select (select count(*)::int from monitors where not paused) as monitor_count,
            (select count(distinct ma.action_id)::int from monitor_actions ma join monitors m on m.id = ma.monitor_id where not m.paused) as unique_count`,
  );
  const rows = await db.query<ResultRow>(
    `select m.name as monitor, r.outcome, sz.id as src_zone_id, sz.name as src_zone, dz.id as dst_zone_id, dz.name as dst_zone
       from monitors m
       join lateral (select job_id from monitor_runs x where x.monitor_id = m.id and x.evaluated_at is not null and x.passed + x.failed > 0 order by x.job_id desc limit 1) last on true
       join monitor_step_results r on r.job_id = last.job_id and r.outcome <> 'not_run'
       left join job_actions ja on ja.id = r.job_action_id
       left join job_steps js on js.id = ja.job_step_id
       left join nodes sn on sn.id = js.source_node_id
       left join nodes dn on dn.id = js.destination_node_id
       left join zones sz on sz.id = sn.security_zone_id
       left join zones dz on dz.id = coalesce(dn.security_zone_id, sn.security_zone_id)
      where not m.paused`,
  );
  const paths = new Map<string, MonitorPath & { failed: number }>();
  const zones = new Map<number, ZoneStat>();
  for (const r of rows) {
    const key = `${r.src_zone_id ?? 'none'}>${r.dst_zone_id ?? 'none'}`;
    let p = paths.get(key);
    if (!p) {
      p = { source_zone_id: r.src_zone_id, source_zone: r.src_zone ?? 'No zone', target_zone_id: r.dst_zone_id, target_zone: r.dst_zone ?? 'No zone', count: 0, monitors: [], failed: 0 };
      paths.set(key, p);
    }
    if (r.outcome === 'fail') p.failed++;
    p.count++;
    if (!p.monitors.includes(r.monitor)) p.monitors.push(r.monitor);
    if (r.src_zone_id !== null) {
      const z = zones.get(r.src_zone_id) ?? { zone_id: r.src_zone_id, name: r.src_zone ?? '', passed: 0, failed: 0 };
      if (r.outcome === 'fail') z.failed++;
      else z.passed++;
      zones.set(r.src_zone_id, z);
    }
  }
  const all = [...paths.values()];
  const strip = ({ failed: _f, ...p }: MonitorPath & { failed: number }): MonitorPath => p;
  return {
    map_data: {
      alert_paths: all.filter((p) => p.failed > 0).map((p) => ({ ...strip(p), count: p.failed })),
      green_paths: all.filter((p) => p.failed === 0).map(strip),
      zone_stats: [...zones.values()].sort((a, b) => a.zone_id - b.zone_id),
    },
    stats: {
      monitor_count: counts?.monitor_count ?? 0,
      unique_count: counts?.unique_count ?? 0,
      alert_count: rows.filter((r) => r.outcome === 'fail').length,
    },
  };
}
