import type { Db } from '../db/index';
import { DEFAULT_PANEL_OPTIONS, libraryPanel, type DashboardPanel, type GroupKey, type PanelKind, type PanelOptions } from '../../src/api/contracts/reports';
import { DEFAULT_TIME_RANGE } from '../../src/api/contracts/time-range';

/**
 * The demo dashboards over the demo jobs: owned by the first admin and shared with every other user
 * present at seed time. "Monitor drift" reads the runs of the demo monitors (seeded after the demo
 * content, server/seed/demo-monitors.ts): their results by monitor, and the block rate of the jobs the
 * scheduler ran ('Scheduled Process') over time, where a drift shows as a drop.
 */
const p = (uid: string, kind: PanelKind, w: number, h: number, options: Partial<PanelOptions> = {}, title?: string): DashboardPanel => ({
  uid,
  kind,
  title: title ?? libraryPanel(kind).name,
  w,
  h,
  options: { ...DEFAULT_PANEL_OPTIONS, ...options },
});
const by = (group_by: GroupKey) => ({ group_by });

export const DEMO_DASHBOARDS: { name: string; panels: DashboardPanel[] }[] = [
  {
    name: 'Control effectiveness',
    panels: [
      p('bullet', 'bullet', 2, 1),
      p('gauge', 'gauge', 1, 1),
      p('pie', 'pie', 1, 1),
      p('rate', 'block_rate', 2, 1),
      p('line', 'line', 2, 1),
      p('types', 'bar', 2, 1, by('action_type'), 'Results by Action type'),
      p('controls', 'force_field', 2, 1, by('control'), 'Pass/Fail by control'),
      p('tree', 'tree_map', 4, 1, by('action_type'), 'Action types by prevention'),
    ],
  },
  {
    name: 'ATT&CK coverage',
    panels: [
      p('radar', 'radar', 2, 2, { chartMode: 'totals' }),
      p('tactics', 'bar', 2, 2, by('tactic'), 'Results by tactic'),
      p('techniques', 'tree_map', 4, 1, { ...by('technique'), blockThreshold: 50 }, 'Techniques by prevention'),
    ],
  },
  {
    name: 'Actors and zones',
    panels: [
      p('zones', 'force_field', 2, 1, by('zone'), 'Pass/Fail by source zone'),
      p('actors', 'bar', 2, 1, by('actor'), 'Results by source actor'),
      p('dest', 'tree_map', 4, 1, by('destination_zone'), 'Destination zones by prevention'),
    ],
  },
  {
    name: 'Monitor drift',
    panels: [
      p('monitors', 'force_field', 2, 1, by('monitor'), 'Pass/Fail by monitor'),
      p('monitor-results', 'bar', 2, 1, by('monitor'), 'Results by monitor'),
      p('monitor-rate', 'block_rate', 4, 1, { filterVal: 'Scheduled Process' }, 'Block rate of scheduled jobs'),
      p('monitor-tree', 'tree_map', 4, 1, by('monitor'), 'Monitors by prevention'),
    ],
  },
];

export async function seedDemoDashboards(db: Db): Promise<number> {
  const [owner] = await db.query<{ id: number }>(`select id from users where role = 'admin' order by id limit 1`);
  if (!owner) return 0;
  for (const d of DEMO_DASHBOARDS) {
    const [row] = await db.query<{ id: number }>('insert into dashboards (user_id, name, time_range, panels) values ($1, $2, $3::jsonb, $4::jsonb) returning id', [
      owner.id,
      d.name,
      JSON.stringify(DEFAULT_TIME_RANGE),
      JSON.stringify(d.panels),
    ]);
    await db.query('insert into dashboard_shares (dashboard_id, user_id) select $1, id from users where id <> $2', [row!.id, owner.id]);
  }
  return DEMO_DASHBOARDS.length;
}
