import type { FeatureModule } from '@/panes/feature-module';
import { lazyGlobal, lazyPane } from '@/panes/lazy';
import { DASHBOARD_PANE, DASHBOARDS_PANE, MITRE_PANE } from './commands';
import { prefetchDashboard } from './panel-data';

/** Reports: dashboards of charts, the Panel Library, the ATT&CK view and the PDF, image and CSV exports (issue 18). */
export const reportsFeature: FeatureModule = {
  id: 'reports',
  panes: [
    { id: DASHBOARDS_PANE, component: lazyPane(() => import('./dashboards-pane'), 'DashboardsPane') },
    // A dashboard's calls start as its pane opens, beside the download of its code (issue 18: first draw).
    { id: DASHBOARD_PANE, component: lazyPane(() => import('./dashboard-pane'), 'DashboardPane'), prefetch: (params, qc) => void prefetchDashboard(qc, Number(params.id)) },
    { id: MITRE_PANE, component: lazyPane(() => import('./mitre-pane'), 'MitrePane') },
  ],
  globals: [lazyGlobal(() => import('./dialogs'), 'ReportsDialogs')],
};
