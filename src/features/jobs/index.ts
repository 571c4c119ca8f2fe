import type { FeatureModule } from '@/panes/feature-module';
import { lazyGlobal, lazyPane } from '@/panes/lazy';

/** Jobs: the live jobs list, job results, steps and actions, events, cancel, delete, publish and CSV. */
export const jobsFeature: FeatureModule = {
  id: 'jobs',
  panes: [
    { id: 'jobs', component: lazyPane(() => import('./components/jobs-pane'), 'JobsPane') },
    { id: 'job', component: lazyPane(() => import('./components/job-pane'), 'JobPane') },
    { id: 'job-summary-report', component: lazyPane(() => import('./components/report-panes'), 'SummaryReportPane') },
    { id: 'suspect-events', component: lazyPane(() => import('./components/report-panes'), 'SuspectEventsPane') },
  ],
  globals: [lazyGlobal(() => import('./components/dialogs'), 'JobsDialogs')],
};
