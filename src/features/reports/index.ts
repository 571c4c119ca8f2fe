import type { FeatureModule } from '@/panes/feature-module';
import { lazyGlobal, lazyPane } from '@/panes/lazy';
import { DASHBOARD_PANE, DASHBOARDS_PANE, MITRE_PANE } from './commands';

/** Reports: dashboards of charts, the Panel Library, the ATT&CK view and the PDF, image and CSV exports (issue 18). */
export const reportsFeature: FeatureModule = {
  id: 'reports',
  panes: [
    { id: DASHBOARDS_PANE, component: lazyPane(() => import('./dashboards-pane'), 'DashboardsPane') },
    { id: DASHBOARD_PANE, component: lazyPane(() => import('./dashboard-pane'), 'DashboardPane') },
    { id: MITRE_PANE, component: lazyPane(() => import('./mitre-pane'), 'MitrePane') },
  ],
  globals: [lazyGlobal(() => import('./dialogs'), 'ReportsDialogs')],
};
