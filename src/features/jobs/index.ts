import type { FeatureModule } from '@/panes/feature-module';
import { jobsCommands } from './commands';
import { JobsDialogs } from './components/dialogs';
import { JobPane } from './components/job-pane';
import { JobsPane } from './components/jobs-pane';
import { SummaryReportPane, SuspectEventsPane } from './components/report-panes';

/** Jobs: the live jobs list, job results, steps and actions, events, cancel, delete, publish and CSV. */
export const jobsFeature: FeatureModule = {
  id: 'jobs',
  commands: jobsCommands,
  panes: [
    { id: 'jobs', title: 'Jobs', routes: ['/jobs'], query: ['vid'], identity: ['vid'], component: JobsPane },
    { id: 'job', title: 'Job {id}', routes: ['/jobs/:id'], component: JobPane, listed: false },
    { id: 'job-summary-report', title: 'Job Summary Report', routes: ['/reports/summary'], query: ['job_ids'], identity: ['job_ids'], component: SummaryReportPane },
    { id: 'suspect-events', title: 'Suspicious Events', routes: ['/suspect_events'], query: ['job_action_id'], identity: ['job_action_id'], component: SuspectEventsPane, listed: false },
  ],
  globals: [JobsDialogs],
};
