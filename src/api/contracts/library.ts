import * as yup from 'yup';
import { ACTION_TYPES, DIMENSION_TYPES, type ActionType, type DimensionType } from './vocabulary';

/**
 * The Action library: list, filter, detail, preview, in-place edits, approval and rejection
 * (actions.md sections 2-8; jobs-simulations-network-map.md "Library of actions or simulations").
 * Shared by the director (which validates with these schemas) and the workbench.
 */


/** Sort options of the library (jobs-simulations-network-map.md section 2). */
export const LIBRARY_SORTS = ['name', 'vid', 'updated', 'modified', 'added', 'last_run', 'total_runs'] as const;
export type LibrarySort = (typeof LIBRARY_SORTS)[number];
export const SORT_LABELS: Record<LibrarySort, string> = {
  name: 'Name',
  vid: 'VID',
  updated: 'Last Updated',
  modified: 'Modified',
  added: 'Last Added',
  last_run: 'Last Run',
  total_runs: 'Total Runs',
};
export type SortDirection = 'asc' | 'desc';
export const DEFAULT_DIRECTION: Record<LibrarySort, SortDirection> = {
  name: 'asc',
  vid: 'asc',
  updated: 'desc',
  modified: 'desc',
  added: 'desc',
  last_run: 'desc',
  total_runs: 'desc',
};

/** Status filter: 'pending_files' is the spec's "Action Library filtered by Pending Files". */
export const LIBRARY_STATUSES = ['approved', 'unapproved', 'pending_files', 'malicious_files'] as const;
export type LibraryStatus = (typeof LIBRARY_STATUSES)[number];
export const STATUS_LABELS: Record<LibraryStatus, string> = {
  approved: 'Approved',
  unapproved: 'Awaiting Approval',
  pending_files: 'Pending Files',
  malicious_files: 'Restricted Malicious Files',
};

export const TAG_TYPE_LABELS: Record<string, string> = {
  mitre_attack: 'MITRE ATT&CK',
  user: 'User',
  verodin: 'Product',
  os: 'OS',
  src_dst: 'Source/Destination',
  control: 'Control',
  threat_actor: 'Threat Actor',
  malware_family: 'Malware Family',
  file_attachment: 'File Attachment',
  dimensions: 'Dimensions',
};

/** Business constants (jobs-simulations-network-map.md section 9; actions.md section 9). */
export const LIBRARY_LIMITS = {
  /** Default and largest page of the v2 list calls. */
  defaultPageSize: 100,
  maxPageSize: 500,
  /** The legacy paged list: page size 1000 (also its maximum); 204 means not ready, retry after 5 s. */
  legacyPageSize: 1000,
  legacyRetryMs: 5000,
  searchDebounceMs: 500,
  labelMaxChars: 40,
  tileHeightPx: 92,
  jobRefetchMs: 30_000,
  maxSearchChars: 200,
  nameMaxChars: 255,
  descriptionMaxChars: 20_000,
  notesMaxChars: 10_000,
  maxFilterValues: 500,
} as const;

/** Job statuses after which a run no longer changes: latest runs stop refetching when all are in one. */
export const FINISHED_JOB_STATUSES = ['completed', 'errored', 'cancelled'] as const;
export const isFinishedJobStatus = (status: string): boolean => (FINISHED_JOB_STATUSES as readonly string[]).includes(status);

/** The open ruleset: its detection alerts link to the rule's public documentation. */
export const OPEN_RULESET_SOURCE = 'ET Open';
export const ruleDocumentationUrl = (sid: string): string => `https://doc.emergingthreats.net/${encodeURIComponent(sid)}`;

/** Vendor content: its VID starts with A1 and it cannot be edited (only cloned). */
export const isVendorVid = (vid: string): boolean => /^A1/i.test(vid);

/** "a path segment with an a or s prefix followed by digits or dashes identifies the current item". */
export const LIBRARY_VID_PATTERN = /^[as][0-9][0-9-]*$/i;

/** A tree label cut at 40 characters with an ellipsis. */
export function cutLabel(label: string, max: number = LIBRARY_LIMITS.labelMaxChars): string {
  return label.length > max ? `${label.slice(0, max)}…` : label;
}

// ---------------------------------------------------------------------------------------------
// Requests

const intList = (label: string) =>
  yup
    .array(yup.number().typeError(`${label} must hold whole numbers`).integer(`${label} must hold whole numbers`).positive(`${label} must hold positive numbers`).required())
    .max(LIBRARY_LIMITS.maxFilterValues, `${label} may hold at most ${LIBRARY_LIMITS.maxFilterValues} values`)
    .default([]);

const pageNumber = (name: string) =>
  yup.number().typeError(`${name} must be a whole number`).integer(`${name} must be a whole number`).min(1, `${name} must be at least 1`);

/** Filters shared by the v2 list calls and quick_action_ids (no paging there). */
export const libraryFilterShape = {
  search: yup.string().max(LIBRARY_LIMITS.maxSearchChars, `search must be at most ${LIBRARY_LIMITS.maxSearchChars} characters`).default(''),
  tags: intList('tags'),
  tag_mode: yup.string<'and' | 'or'>().oneOf(['and', 'or'], 'tag_mode must be and or or').default('or'),
  action_types: yup
    .array(yup.string<ActionType>().oneOf([...ACTION_TYPES], 'action_types holds an unknown action type').required())
    .max(ACTION_TYPES.length)
    .default([]),
  status: yup.string<LibraryStatus | ''>().oneOf([...LIBRARY_STATUSES, ''], `status must be one of ${LIBRARY_STATUSES.join(', ')}`).default(''),
  dimensions: intList('dimensions'),
  content_uuids: yup
    .array(yup.string().max(64).required())
    .max(LIBRARY_LIMITS.maxFilterValues, `content_uuids may hold at most ${LIBRARY_LIMITS.maxFilterValues} values`)
    .default([]),
  include_disabled: yup.boolean().typeError('include_disabled must be true or false').default(false),
  sort: yup.string<LibrarySort>().oneOf([...LIBRARY_SORTS], `sort must be one of ${LIBRARY_SORTS.join(', ')}`).default('name'),
  direction: yup.string<SortDirection>().oneOf(['asc', 'desc'], 'direction must be asc or desc').optional(),
};

export const libraryListQuerySchema = yup
  .object({
    ...libraryFilterShape,
    page_number: pageNumber('page_number').default(1),
    page_size: pageNumber('page_size')
      .max(LIBRARY_LIMITS.maxPageSize, `page_size must be at most ${LIBRARY_LIMITS.maxPageSize}`)
      .default(LIBRARY_LIMITS.defaultPageSize),
  })
  .noUnknown('Unknown parameter: ${unknown}');

export const simulationListQuerySchema = libraryListQuerySchema.shape({
  simulation_type: yup.string<'sequence' | 'eval'>().oneOf(['sequence', 'eval'], 'simulation_type must be sequence or eval').required('simulation_type is required'),
});

export const quickActionIdsSchema = yup.object(libraryFilterShape).noUnknown('Unknown parameter: ${unknown}');

export const legacyListQuerySchema = yup
  .object({
    page: pageNumber('page').default(1),
    size: pageNumber('size')
      .max(LIBRARY_LIMITS.legacyPageSize, `size must be at most ${LIBRARY_LIMITS.legacyPageSize}`)
      .default(LIBRARY_LIMITS.legacyPageSize),
  })
  .noUnknown('Unknown parameter: ${unknown}');

/** POST /manage_sims/library_actions_filter.json: one array of selected tree node ids per dimension tree. */
export const treeFilterSchema = yup
  .object({
    utf8: yup.string().optional(),
    ...Object.fromEntries(DIMENSION_TYPES.map((t) => [t, intList(t)])),
  })
  .noUnknown('Unknown parameter: ${unknown}');

const idField = yup.number().typeError('id must be a whole number').integer('id must be a whole number').positive('id must be positive');

export const previewQuerySchema = yup
  .object({
    id: idField.required('id is required'),
    include_disabled: yup.boolean().typeError('include_disabled must be true or false').default(false),
  })
  .noUnknown('Unknown parameter: ${unknown}');

export const detailQuerySchema = yup
  .object({
    id: idField.optional(),
    vid: yup.string().max(64).matches(LIBRARY_VID_PATTERN, 'vid must be an a or s followed by digits or dashes').optional(),
  })
  .noUnknown('Unknown parameter: ${unknown}')
  .test('id-or-vid', 'id or vid is required', (v) => v.id !== undefined || v.vid !== undefined);

export const EDITABLE_PARAMS = ['name', 'description', 'notes'] as const;
export type EditableParam = (typeof EDITABLE_PARAMS)[number];

/** POST /manage_sims/actions/update_from_library.json (ACT-102, ACT-088). */
export const updateFromLibrarySchema = yup
  .object({
    id: idField.required('id is required'),
    param_name: yup.string<EditableParam>().oneOf([...EDITABLE_PARAMS], 'param_name must be name, description or notes').required('param_name is required'),
    new_value: yup.string().defined('new_value is required').max(LIBRARY_LIMITS.descriptionMaxChars, `new_value must be at most ${LIBRARY_LIMITS.descriptionMaxChars} characters`),
    brt_license: yup.string().required('brt_license is required'),
    auth_token: yup.string().required('auth_token is required'),
  })
  .noUnknown('Unknown parameter: ${unknown}');

export const approveQuerySchema = yup
  .object({
    required: yup.boolean().typeError('required must be true or false').required('required is required (true or false)'),
    /** The version the approver reviewed; a newer version refuses the approval. */
    version: yup
      .number()
      .typeError('version must be a whole number')
      .integer('version must be a whole number')
      .positive('version must be positive')
      .required('version is required (the version of the Action you reviewed)'),
  })
  .noUnknown('Unknown parameter: ${unknown}');

export const actionIdParamSchema = yup.object({ id: idField.required('id is required') });
export const fileParamSchema = yup.object({
  id: idField.required('id is required'),
  file_id: yup.number().typeError('file_id must be a whole number').integer('file_id must be a whole number').positive('file_id must be positive').required(),
});

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

// ---- Preview detail by type (actions.md section 3 "Preview detail by type") ----

export interface PreviewFile {
  id: number;
  orig_file_name: string;
  sha256sum: string;
  file_restrictions: FileRestriction;
}
export interface HostCommand {
  command: string;
  prompt: string | null;
  sleep_seconds: number | null;
  check_logs: boolean | null;
  max_timeout_seconds: number | null;
  conditions: string[];
}
export interface FileCleanupResult {
  filename: string;
  removed: boolean;
  result: string;
}
export interface WebRequestPreview {
  host?: string | null;
  profile?: string | null;
  path?: string | null;
  http_method?: string | null;
  encode_url?: boolean | null;
  body?: string | null;
  request?: {
    parameters?: { key: string; value: string }[];
    headers?: { key: string; value: string }[];
    auto_content_length?: boolean | null;
    auto_host_header?: boolean | null;
  } | null;
  conditions?: { code?: number | null; response_regex?: string | null; pass_fail_error?: string | null }[] | null;
}

export interface PreviewDetailByType {
  captive_dns: { query: string; query_type: string; response: string };
  captive_ioc_url: { urls: string[] };
  dns: { query_type: string; domain: string; domain_server: string };
  email: { subject: string; body: string; mime_text_type: string; file_attachments: (PreviewFile & { attachment_encoding: string | null; ignore_if_missing: boolean | null })[] };
  file_transfer: {
    file: PreviewFile | null;
    direction: string;
    request_domain: string | null;
    forward_DNS: string | null;
    cidr: string | null;
    encoding: string;
    md5sum: string | null;
    sha1sum: string | null;
    sha256sum: string | null;
    method: string;
    app_layer: string;
    target_port: number | null;
    tunnel_protocol: string;
    user_agent: string;
  };
  host_cli: {
    commands: { shell_type: string; commands: HostCommand[]; cleanup: HostCommand[]; raw_text: string; cleanup_raw_text: string };
    files: {
      file_list: (PreviewFile & { destination_directory: string; destination_name: string; file_owner: string })[];
      automatic_file_cleanup: boolean;
      delivery_wait_time: number | null;
      delivery_failed_result: string | null;
      destination_exists_result: string | null;
    };
    file_cleanup: FileCleanupResult[];
    run_as: string | null;
  };
  pcap: PcapPreview;
  captive_ioc_pcap: PcapPreview;
  port_scan: { ports_list: string; sleep_timer: number; randomize_scan: boolean };
  socket: { comm_type: string; server_port: number; steps: { data_type: string; request: string; response: string }[] };
  website: {
    use_https: boolean;
    server_port: number;
    http_ver: string;
    steps: { request: string; req_headers: string; request_body: string; resp_code: number; resp_headers: string; response: string }[];
  };
  web_request: WebRequestPreview;
  cloud: {
    inputs: { name: string; default_value: string }[];
    outputs: { name: string }[];
    files: { file_list: (PreviewFile & { variable_name: string | null })[] };
    scripts: { id: number; name: string; script_text: string; script_type: string | null; timeout: number | null }[];
    /** The latest run's logs: a list or a string; anything else shows 'Log output unavailable'. */
    logs: unknown;
  };
  sleep: Record<string, never>;
}
export interface PcapPreview {
  file: { sim_id: number; name: string; preview_link: string | null; stored: boolean };
  has_hex: boolean;
  has_http_traffic: boolean;
  attacker_ip: string;
  destination_ip: string;
  anonymized_ip: boolean;
  anonymized_mac: boolean;
}

export type PreviewDetail = { [K in ActionType]: { action_type: K; detail: PreviewDetailByType[K] } }[ActionType];

export interface PreviewCommon {
  id: number;
  vid: string;
  sim_name: string;
  description: string;
  approved: boolean;
  version: number;
  disabled: boolean;
  decommissioned: boolean;
  require_protected: boolean;
  approve_anywhere: boolean;
  monitor_connections: boolean;
  vendor: boolean;
  timeout_ms: number | null;
  date_created: string;
  date_modified: string;
  event_filter_rules: unknown[];
  detection_alerts: DetectionAlert[];
  simulations: SimulationRef[];
  verodin_signatures: Signature[];
  files: AttachedFile[];
  pending_files: number;
  malicious_files: number;
  /** False with a reason when approval must wait (pending files) or is impossible (malicious file on a cloud Action). */
  eligible_for_approval: boolean;
  ineligible_reason: string | null;
  userPermissions: { approve: boolean; endpointApproval: boolean; cloudApproval: boolean };
}

/** GET /library/actions.json?id= answers { data: { preview_props } }. */
export type PreviewProps = PreviewCommon & PreviewDetail;

export interface PreviewAnswer {
  data: { preview_props: PreviewProps };
}

// ---- Messages the director and the workbench share ----

export const LIBRARY_MESSAGES = {
  staleVersion: (seen: number, now: number) =>
    `This Action changed since you opened it (you reviewed version ${seen}; it is now version ${now}). Review the new version before approving it.`,
  staleEdit: 'This Action was changed by someone else since you opened it. Reload it, then make your change again.',
  alreadyApproved: 'This Action is already approved.',
  maliciousIneligible: 'This Action is not eligible for approval because it has a file attached that is restricted as malicious.',
  pendingFile: 'A file attached to this action is in a Pending status and requires approval by a user with permission before this action can be run.',
  requiresProtected: 'This Action requires a Protected Theater actor, so it cannot be approved to run anywhere.',
  cloudRequired: 'Cloud Actions are approved with required=false.',
  rejectApproved: 'Only Actions awaiting approval can be rejected.',
  vendorEdit: 'Vendor Actions cannot be renamed or re-described; their notes can be edited.',
  rejectConfirm: 'Are you sure you want to reject this Action?',
  noPreviewSleep: 'No preview available for Sleep Actions.',
  logUnavailable: 'Log output unavailable',
  fileNotPending: 'Only files pending approval can be decided here.',
} as const;

/** Which approve buttons a user sees for an Action (actions.md sections 4 and 5). */
export function approvalVariants(
  p: Pick<PreviewCommon, 'approved' | 'require_protected' | 'eligible_for_approval' | 'userPermissions'> & { action_type: ActionType },
): ('anywhere' | 'protected' | 'cloud')[] {
  const perms = p.userPermissions;
  const cloud = p.action_type === 'cloud';
  if (p.approved || !perms.approve || !(cloud ? perms.cloudApproval : perms.endpointApproval)) return [];
  if (cloud) return ['cloud'];
  return p.require_protected ? ['protected'] : ['anywhere', 'protected'];
}

export const APPROVE_LABELS = {
  anywhere: 'Approve and Allow Anywhere',
  protected: 'Approve and Require Protected Theater',
  cloud: 'Approve',
} as const;
