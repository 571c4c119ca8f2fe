/** Rows of jobs, their steps, actions and events: the fields the answers show come from the contracts. */
import type { ActionType } from '@/api/contracts/vocabulary';
import type { JobAction, JobDetail, JobEvent, JobListItem, JobStep } from '@/api/contracts/jobs';

export type JobRow = Pick<JobDetail, 'id' | 'name' | 'status' | 'progress' | 'started_at' | 'finished_at'> &
  Pick<JobListItem, 'assessment_name' | 'latest_published_time' | 'latest_published_pipeline'> & {
    simulation_id: number | null;
    action_id: number | null;
    /** null shows as 'Scheduled Process'. */
    user_id: number | null;
    published_status: 0 | 1 | 2;
    created_at: string;
    updated_at: string;
  };
export type JobStepRow = Pick<JobStep, 'id' | 'step_id' | 'group_order' | 'name' | 'action_user_profile_name' | 'action_user_profile_friendly_name'> & {
  job_id: number;
  source_node_id: number | null;
  destination_node_id: number | null;
};
export type JobActionRow = Omit<JobAction, 'sim_action_id' | 'action_type'> & {
  action_id: number | null;
  action_type: ActionType;
  evidence: Record<string, unknown>;
};
export type JobActionEventRow = Omit<JobEvent, 'integration'> & {
  job_action_id: number;
  integration_id: number | null;
};
