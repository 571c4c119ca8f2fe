import type { JobAction, JobListItem } from '@/api/contracts/jobs';

/** A job row as its ⋯ menu sees it (Jobs list and Job pane). */
export type JobRowMenuArgs = Pick<JobListItem, 'id' | 'job_status' | 'simulation' | 'action'>;

declare module '@/commands/menus' {
  interface MenuArgsMap {
    'row/job': JobRowMenuArgs;
    'row/job-action': JobAction;
    'toolbar/jobs-selection': undefined;
    'toolbar/jobs-export': undefined;
    'toolbar/job': JobRowMenuArgs;
  }
}
