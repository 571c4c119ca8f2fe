/** What the library's calls answer: list items, filters, the detail of one Action and its history. */
import { type ActionType, type DimensionType } from '../vocabulary';
import type { LibrarySort, SortDirection } from './options';
import type { EditableParam } from './requests';

// ---------------------------------------------------------------------------------------------
// Answers

export type FileRestriction = 'none' | 'pending_approval' | 'restricted_malicious';

export interface LibraryTag {
  id: number;
  name: string;
  /** The group a tag is shown under; 'dimensions' for dimension values. */
  tagType: string;
  /** Dimension tags: the dimension type (attack_vector...). */
  dimension?: DimensionType;
}

export interface LatestJob {
  id: number;
  status: string;
  /** When the job's status last changed (MON-056). */
  updated_at: string;
}

export interface LibraryItem {
  id: number;
  vid: string;
  name: string;
  /** The description's start (the full text is in the detail). */
  desc: string;
  action_type: ActionType;
  approved: boolean;
  tags: LibraryTag[];
  disabled: boolean;
  decommissioned: boolean;
  updated_at: string;
  date_modified: string;
  last_added: string;
  last_run: string | null;
  total_runs: number;
  latest_job: LatestJob | null;
  require_protected: boolean;
  monitor_connections: boolean;
  pending_files: number;
  malicious_files: number;
  vendor: boolean;
}

export interface SimulationLibraryItem {
  id: number;
  vid: string;
  name: string;
  desc: string;
  simulation_type: 'sequence' | 'eval';
  approved: boolean;
  tags: LibraryTag[];
  action_vids: string[];
  group_names: string[];
  sim_actions: string[];
  disabled: boolean;
  decommissioned: boolean;
  updated_at: string;
  last_added: string;
  last_run: string | null;
  total_runs: number;
  latest_job: LatestJob | null;
}

/** GET /manage_sims/v2/actions/library_actions_list and /v2/simulations/library_simulations_list. */
export interface LibraryListAnswer {
  actions: LibraryItem[];
  simulations: SimulationLibraryItem[];
  total_count: number;
  total_pages: number;
  /** Zero-based position of the first item of this page in the filtered list. */
  start: number;
  page_number: number;
  page_size: number;
}

/** POST /manage_sims/library_actions_filter.json: the ids of the Actions under the selected dimension tree nodes. */
export interface TreeFilterAnswer {
  data: number[];
  total_count: number;
}

/** GET /manage_sims/library_actions_list.json?page=&size= (200; 204 while the library is not ready). */
export interface LegacyLibraryPage {
  data: LibraryItem[];
  meta: { total_count: number; total_pages: number; page: number; size: number };
}

export interface FilterOption {
  value: string;
  label: string;
  count: number;
}
export interface TagOption {
  id: number;
  name: string;
  count: number;
}
/** A node of a dimension tree (OS, platform, ...): a row of the dimensions table, read by the director's library and the fakes. */
export interface Dimension {
  id: number;
  type: DimensionType;
  parent_id: number | null;
  name: string;
  param_name: string;
  position: number;
}

export interface TreeNode {
  id: number;
  name: string;
  param_name: string;
  children: TreeNode[];
}

/** GET /manage_sims/v2/actions/filters and /v2/simulations/filters. */
export interface LibraryFiltersAnswer {
  total_count: number;
  sort_options: { value: LibrarySort; label: string; direction: SortDirection }[];
  default_sort: LibrarySort;
  types: FilterOption[];
  statuses: FilterOption[];
  tag_groups: { tag_type: string; label: string; tags: TagOption[] }[];
  tag_modes: ('and' | 'or')[];
  trees: { type: DimensionType; label: string; nodes: TreeNode[] }[];
}

export interface JobSummary {
  id: number;
  name: string;
  created_at: string;
  status: string;
  user: { first_name: string; last_name: string } | null;
}

export interface DetectionAlert {
  source: string;
  message: string;
  source_identifier: string;
}

export interface Signature {
  id: number;
  text: string;
}

export interface SimulationRef {
  id: number;
  vid: string;
  name: string;
  created_at: string;
  simulation_type: 'sequence' | 'eval';
}

export interface AttachedFile {
  id: number;
  orig_file_name: string;
  sha256sum: string;
  file_restrictions: FileRestriction;
  variable_name: string | null;
  details: Record<string, unknown>;
}

export const APPROVAL_EVENTS = ['approved_anywhere', 'approved_protected', 'approved', 'rejected', 'file_approved', 'file_restricted', 'file_removed'] as const;
export type ApprovalEventKind = (typeof APPROVAL_EVENTS)[number];
export const APPROVAL_EVENT_LABELS: Record<ApprovalEventKind, string> = {
  approved_anywhere: 'Approved and allowed anywhere',
  approved_protected: 'Approved and required a Protected Theater',
  approved: 'Approved',
  rejected: 'Rejected',
  file_approved: 'Approved file as safe',
  file_restricted: 'Restricted file as malicious',
  file_removed: 'Removed file from the Action',
};

export interface ApprovalEvent {
  id: number;
  event: ApprovalEventKind;
  action_id: number | null;
  action_vid: string;
  action_version: number;
  file_id: number | null;
  file_name: string | null;
  user_email: string;
  user_name: string;
  created_at: string;
}

export interface LibraryPermissions {
  edit: boolean;
  approve: boolean;
  endpointApproval: boolean;
  cloudApproval: boolean;
}

/** The Action (library) of actions.md section 3, as the detail panel shows it. */
export interface ActionLibraryDetail {
  id: number;
  vid: string;
  name: string;
  description: string;
  orig_description: string;
  notes: string;
  version: number;
  date_created: string;
  date_modified: string;
  action_type: ActionType;
  approved: boolean;
  disabled: boolean;
  decommissioned: boolean;
  require_protected: boolean;
  approve_anywhere: boolean;
  monitor_connections: boolean;
  vendor: boolean;
  vendor_logo: string | null;
  tags: LibraryTag[];
  latest_jobs: JobSummary[];
  total_jobs: number;
  detection_alerts: DetectionAlert[];
  verodin_signatures: Signature[];
  simulations: SimulationRef[];
  files: AttachedFile[];
  history: ApprovalEvent[];
  pending_files: number;
  malicious_files: number;
  eligible_for_approval: boolean;
  ineligible_reason: string | null;
  /** Sent back with in-place edits: proves the edit is based on this version, for this session. */
  auth_token: string;
  brt_license: string;
  userPermissions: LibraryPermissions;
}

export interface LatestJobsAnswer {
  latest_jobs: JobSummary[];
  total_jobs: number;
}

export interface UpdateFromLibraryAnswer {
  data: { id: number; param_name: EditableParam; value: string; version: number; date_modified: string; auth_token: string };
}
