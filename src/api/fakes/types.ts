/**
 * Row shapes of the fake data generator. Field names are the database column names of
 * server/db/migrations/002_domain.sql (which follow the specs), so the demo seed inserts them as they
 * are and MSW handlers can serve them. Timestamps are ISO strings.
 */

import { ACTION_TYPES, DIMENSION_TYPES, FILE_RESTRICTIONS, JOB_ACTION_STATUSES, JOB_STATUSES } from '@/api/contracts/vocabulary';
import type { ActionType, DimensionType, FileRestriction, JobActionStatus, JobStatus } from '@/api/contracts/vocabulary';

// The vocabulary is the contracts'; the fakes re-export it for their own modules.
export { ACTION_TYPES, DIMENSION_TYPES, FILE_RESTRICTIONS, JOB_ACTION_STATUSES, JOB_STATUSES };
export type { ActionType, DimensionType, FileRestriction, JobActionStatus, JobStatus };

// The row shapes, one module per domain; this file is their public face.
export * from './rows/action-details';
export * from './rows/action-rows';
export * from './rows/topology-rows';
export * from './rows/job-rows';

import type { ActionDimensionRow, ActionFileRow, ActionRow, ActionTagRow, ActionUserProfileRow, DetectionAlertRow, DimensionDefaultRow, DimensionRow, FakeUser, FileLibraryRow, FileTagRow, SignatureRow, SimulationRow, SimulationStepActionRow, SimulationStepRow, SimulationTagRow, TagRow, TagTacticRow } from './rows/action-rows';
import type { JobActionEventRow, JobActionRow, JobRow, JobStepRow } from './rows/job-rows';
import type { DeviceRow, DeviceZoneRow, IntegrationRow, NodeRow, NodeTagRow, TopologyLinkRow, ZoneRow } from './rows/topology-rows';

export interface DemoData {
  users: FakeUser[];
  tags: TagRow[];
  tag_tactics: TagTacticRow[];
  dimensions: DimensionRow[];
  dimension_defaults: DimensionDefaultRow[];
  action_user_profiles: ActionUserProfileRow[];
  actions: ActionRow[];
  action_tags: ActionTagRow[];
  action_dimensions: ActionDimensionRow[];
  file_library: FileLibraryRow[];
  file_tags: FileTagRow[];
  action_files: ActionFileRow[];
  detection_alerts: DetectionAlertRow[];
  signatures: SignatureRow[];
  simulations: SimulationRow[];
  simulation_steps: SimulationStepRow[];
  simulation_step_actions: SimulationStepActionRow[];
  simulation_tags: SimulationTagRow[];
  zones: ZoneRow[];
  nodes: NodeRow[];
  node_tags: NodeTagRow[];
  devices: DeviceRow[];
  device_zones: DeviceZoneRow[];
  topology_links: TopologyLinkRow[];
  integrations: IntegrationRow[];
  jobs: JobRow[];
  job_steps: JobStepRow[];
  job_actions: JobActionRow[];
  job_action_events: JobActionEventRow[];
}
