import type { FeatureModule } from '@/panes/feature-module';
import { lazyGlobal, lazyPane } from '@/panes/lazy';
import { DASHBOARD_PANE, DASHBOARDS_PANE, MITRE_PANE } from './commands';

/** Reports: dashboards of charts, the Panel Library, the ATT&CK view and the PDF, image and CSV exports (issue 18). */
export const reportsFeature: FeatureModule = {
  id: 'reports',
  panes: [
    { id: DASHBOARDS_PANE, component: lazyPane(() => import('./dashboards-pane'), 'DashboardsPane') },
    // A dashboard's calls start as its pane opens, beside the download of its code (issue 18: first draw).
    // The query definitions come in a small chunk of their own (the pane shares it), so the charts' rules
    // stay out of the first download (e2e/first-load.e2e.ts keeps its budget).
    {
      id: DASHBOARD_PANE,
      component: lazyPane(() => import('./dashboard-pane'), 'DashboardPane'),
      prefetch: (params, qc) => void import('./panel-data').then((m) => m.prefetchDashboard(qc, Number(params.id))).catch(() => undefined),
    },
    { id: MITRE_PANE, component: lazyPane(() => import('./mitre-pane'), 'MitrePane') },
  ],
  globals: [lazyGlobal(() => import('./dialogs'), 'ReportsDialogs')],
};
