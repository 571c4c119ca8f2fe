/** Rows of jobs, their steps, actions and events. */
import type { ActionType, JobActionStatus, JobStatus } from '@/api/contracts/vocabulary';
import type { EventSeverity } from '@/api/contracts/jobs';

export interface JobRow {
  id: number;
  name: string;
  status: JobStatus;
  progress: number;
  simulation_id: number | null;
  action_id: number | null;
  /** null shows as 'Scheduled Process'. */
  user_id: number | null;
  assessment_name: string | null;
  published_status: 0 | 1 | 2;
  latest_published_time: string | null;
  latest_published_pipeline: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  updated_at: string;
}
export interface JobStepRow {
  id: number;
  job_id: number;
  step_id: number | null;
  group_order: number;
  name: string;
  source_node_id: number | null;
  destination_node_id: number | null;
  action_user_profile_name: string | null;
  action_user_profile_friendly_name: string | null;
}
export interface JobActionRow {
  id: number;
  job_step_id: number;
  job_id: number;
  action_id: number | null;
  position: number;
  sim_action_vid: string;
  name: string;
  action_type: ActionType;
  status: JobActionStatus;
  alerted: boolean;
  blocked: boolean | null;
  blocked_msg: string | null;
  detected_msg: string | null;
  events: number;
  suspect_events: number;
  disabled: boolean;
  evidence: Record<string, unknown>;
  started_at: string | null;
  finished_at: string | null;
}
export interface JobActionEventRow {
  id: number;
  job_action_id: number;
  integration_id: number | null;
  description: string;
  raw_event: string;
  suspicious: boolean;
  alert: boolean;
  severity: EventSeverity | null;
  occurred_at: string;
}
