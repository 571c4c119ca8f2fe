import type { FeatureModule } from '@/panes/feature-module';
import { lazyPane } from '@/panes/lazy';
import { MONITORS_PANE, MONITOR_EDIT_PANE, MONITOR_STATS_PANE } from './commands';

/** Monitors: the list, the editor, and Monitor Stats (routes and titles in src/panes/spec-routes.ts). */
export const monitorsFeature: FeatureModule = {
  id: 'monitors',
  panes: [
    { id: MONITORS_PANE, component: lazyPane(() => import('./monitors-pane'), 'MonitorsPane') },
    { id: MONITOR_EDIT_PANE, component: lazyPane(() => import('./monitor-editor-pane'), 'MonitorEditorPane') },
    { id: MONITOR_STATS_PANE, component: lazyPane(() => import('./monitor-stats-pane'), 'MonitorStatsPane') },
  ],
};
