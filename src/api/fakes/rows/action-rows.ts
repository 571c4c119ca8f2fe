/** Rows of users, tags, dimensions, Actions, files and simulations (server/db/migrations/002_domain.sql). */
import type { ActionType, DimensionType, FileRestriction } from '@/api/contracts/vocabulary';
import type { ActionLibraryDetail, DetectionAlert, Dimension, Signature, SimulationRef } from '@/api/contracts/library/answers';
import type { SessionUser } from '@/api/contracts/session';
import type { ActionDetailsByType } from './action-details';

export type TagClass = 'user' | 'verodin' | 'mitre_attack';

export type FakeUser = Omit<SessionUser, 'permissions'>;

export interface TagRow {
  id: number;
  name: string;
  class_name: TagClass;
  tag_type: string;
  code: string | null;
  editable: boolean;
}
export interface TagTacticRow {
  tag_id: number;
  tactic_tag_id: number;
}

export type DimensionRow = Dimension;
export interface DimensionDefaultRow {
  action_type: ActionType;
  dimension_type: DimensionType;
  dimension_id: number;
}

export interface ActionUserProfileRow {
  id: number;
  friendly_name: string;
  username: string;
}

type ActionRowBase = Pick<
  ActionLibraryDetail,
  'id' | 'vid' | 'name' | 'description' | 'orig_description' | 'notes' | 'version' | 'approved' | 'disabled' | 'decommissioned' | 'require_protected' | 'approve_anywhere' | 'monitor_connections'
> & {
  timeout_ms: number | null;
  uac: boolean;
  event_filter_rules: EventFilterRule[];
  created_by: number | null;
  created_at: string;
  updated_at: string;
};
/** An Action whose details match its action_type. */
export type ActionRow = { [K in ActionType]: ActionRowBase & { action_type: K; details: ActionDetailsByType[K] } }[ActionType];

export interface EventFilterCondition {
  match_object: string;
  match_field: string;
  operator: 'in' | 'not_in' | 'equals' | 'contains' | 'not_contains' | 'starts_with' | 'ends_with';
  value: string | string[];
}
export interface EventFilterRule {
  operator: 'or';
  conditions: { operator: 'and'; conditions: EventFilterCondition[] }[];
}

export interface ActionTagRow {
  action_id: number;
  tag_id: number;
}
export interface ActionDimensionRow {
  action_id: number;
  dimension_type: DimensionType;
  dimension_id: number;
}

export interface FileLibraryRow {
  id: number;
  orig_file_name: string;
  sha256sum: string;
  sha1sum: string;
  md5sum: string;
  size: number;
  file_notes: string;
  file_restrictions: FileRestriction;
  os_tree_id: number | null;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}
export interface FileTagRow {
  file_id: number;
  tag_id: number;
}
export interface HostCliFileDetails {
  destination_directory: string;
  destination_name: string;
  file_owner: string;
  randomize_file: boolean;
}
export interface EmailFileDetails {
  attachment_encoding: 'base64' | 'quoted-printable' | '7bit';
  ignore_if_missing: boolean;
}
export interface ActionFileRow {
  id: number;
  action_id: number;
  file_id: number;
  position: number;
  variable_name: string | null;
  details: HostCliFileDetails | EmailFileDetails | Record<string, never>;
}

export type DetectionAlertRow = DetectionAlert & { id: number; action_id: number };
export type SignatureRow = Signature & { action_id: number };

export type SimulationRow = Pick<SimulationRef, 'id' | 'vid' | 'name' | 'simulation_type' | 'created_at'> & {
  description: string;
  disabled: boolean;
  decommissioned: boolean;
  created_by: number | null;
  updated_at: string;
};
export interface SimulationStepRow {
  id: number;
  simulation_id: number;
  position: number;
  name: string;
}
export interface SimulationStepActionRow {
  id: number;
  step_id: number;
  action_id: number;
  position: number;
}
export interface SimulationTagRow {
  simulation_id: number;
  tag_id: number;
}
