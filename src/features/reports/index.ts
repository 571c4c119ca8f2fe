import type { FeatureModule } from '@/panes/feature-module';
import { reportsCommands } from './commands';
import { DashboardPane } from './dashboard-pane';
import { DashboardsPane } from './dashboards-pane';
import { ReportsDialogs } from './dialogs';
import { MitrePane } from './mitre-pane';

/** Reports: dashboards of charts, the Panel Library, the ATT&CK view and the PDF, image and CSV exports (issue 18). */
export const reportsFeature: FeatureModule = {
  id: 'reports',
  commands: reportsCommands,
  panes: [
    { id: 'dashboards', title: 'Dashboards', routes: ['/dashboards'], component: DashboardsPane },
    { id: 'dashboard', title: 'Dashboard {id}', routes: ['/dashboards/:id'], component: DashboardPane, listed: false },
    { id: 'mitre', title: 'MITRE ATT&CK', routes: ['/analyze/mitre'], query: ['active_tactics', 'start', 'end'], identity: [], component: MitrePane },
  ],
  globals: [ReportsDialogs],
};
