import type { FeatureModule } from '@/panes/feature-module';
import { DASHBOARD_PANE, DASHBOARDS_PANE, MITRE_PANE } from './commands';
import { DashboardPane } from './dashboard-pane';
import { DashboardsPane } from './dashboards-pane';
import { ReportsDialogs } from './dialogs';
import { MitrePane } from './mitre-pane';

/** Reports: dashboards of charts, the Panel Library, the ATT&CK view and the PDF, image and CSV exports (issue 18). */
export const reportsFeature: FeatureModule = {
  id: 'reports',
  panes: [
    { id: DASHBOARDS_PANE, component: DashboardsPane },
    { id: DASHBOARD_PANE, component: DashboardPane },
    { id: MITRE_PANE, component: MitrePane },
  ],
  globals: [ReportsDialogs],
};
