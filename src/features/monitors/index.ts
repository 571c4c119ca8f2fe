import type { FeatureModule } from '@/panes/feature-module';
import { MONITORS_PANE, MONITOR_EDIT_PANE, MONITOR_STATS_PANE } from './commands';
import { MonitorsPane } from './monitors-pane';
import { MonitorEditorPane } from './monitor-editor-pane';
import { MonitorStatsPane } from './monitor-stats-pane';

/** Monitors: the list, the editor, and Monitor Stats (routes and titles in src/panes/spec-routes.ts). */
export const monitorsFeature: FeatureModule = {
  id: 'monitors',
  panes: [
    { id: MONITORS_PANE, component: MonitorsPane },
    { id: MONITOR_EDIT_PANE, component: MonitorEditorPane },
    { id: MONITOR_STATS_PANE, component: MonitorStatsPane },
  ],
};
