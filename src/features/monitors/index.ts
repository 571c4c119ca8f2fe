import type { FeatureModule } from '@/panes/feature-module';
import { MONITORS_PANE, MONITOR_EDIT_PANE, MONITOR_STATS_PANE, monitorCommands } from './commands';
import { MonitorsPane } from './monitors-pane';
import { MonitorEditorPane } from './monitor-editor-pane';
import { MonitorStatsPane } from './monitor-stats-pane';

/** Monitors: the list, the editor, and Monitor Stats. */
export const monitorsFeature: FeatureModule = {
  id: 'monitors',
  commands: monitorCommands,
  panes: [
    { id: MONITORS_PANE, title: 'Monitors', routes: ['/monitors'], query: ['id'], identity: [], description: 'Scheduled repeating checks', component: MonitorsPane },
    {
      id: MONITOR_EDIT_PANE,
      title: 'Monitor {id}',
      routes: ['/monitors/:id/edit', '/monitors/new'],
      query: ['simulation_id', 'action_ids'],
      identity: ['id', 'simulation_id', 'action_ids'],
      permission: 'monitors.edit',
      listed: false,
      component: MonitorEditorPane,
    },
    { id: MONITOR_STATS_PANE, title: 'Monitor Stats', routes: ['/monitor'], description: 'Active security monitors and alerts on the map', component: MonitorStatsPane },
  ],
};
