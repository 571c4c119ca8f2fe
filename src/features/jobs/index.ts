import type { FeatureModule } from '@/panes/feature-module';
import { JobsDialogs } from './components/dialogs';
import { JobPane } from './components/job-pane';
import { JobsPane } from './components/jobs-pane';
import { SummaryReportPane, SuspectEventsPane } from './components/report-panes';

/** Jobs: the live jobs list, job results, steps and actions, events, cancel, delete, publish and CSV. */
export const jobsFeature: FeatureModule = {
  id: 'jobs',
  panes: [
    { id: 'jobs', component: JobsPane },
    { id: 'job', component: JobPane },
    { id: 'job-summary-report', component: SummaryReportPane },
    { id: 'suspect-events', component: SuspectEventsPane },
  ],
  globals: [JobsDialogs],
};
