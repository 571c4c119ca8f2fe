/**
 * Row shapes of the fake data generator. Field names are the database column names of
 * server/db/migrations/002_domain.sql (which follow the specs), so the demo seed inserts them as they
 * are and MSW handlers can serve them. Timestamps are ISO strings.
 */

import { ACTION_TYPES, DIMENSION_TYPES, FILE_RESTRICTIONS, JOB_ACTION_STATUSES, JOB_STATUSES } from '@/api/contracts/vocabulary';
import type { ActionType, DimensionType, FileRestriction, JobActionStatus, JobStatus } from '@/api/contracts/vocabulary';
import type { EventSeverity } from '@/api/contracts/jobs';

// The vocabulary is the contracts'; the fakes re-export it for their own modules.
export { ACTION_TYPES, DIMENSION_TYPES, FILE_RESTRICTIONS, JOB_ACTION_STATUSES, JOB_STATUSES };
export type { ActionType, DimensionType, FileRestriction, JobActionStatus, JobStatus };

export type TagClass = 'user' | 'verodin' | 'mitre_attack';

// ---- type-specific Action details (actions.md section 3, "Type fields (form)") ----

export type DnsQueryType = 'A' | 'AAAA' | 'MX' | 'TXT' | 'CNAME' | 'NS' | 'PTR' | 'SRV';
export interface DnsDetails {
  query_type: DnsQueryType;
  domain: string;
  /** null means 'Default': the Actor's local DNS server. */
  dns_server_id: number | null;
}
export interface CaptiveDnsDetails {
  query_type: DnsQueryType;
  query: string;
  response: string;
}
export interface CaptiveIocUrlDetails {
  urls: string[];
}
export interface EmailDetails {
  subject: string;
  body: string;
  mime_text_type: 'text/plain' | 'text/html';
  block_matching_scheme: 'subject' | 'attachment' | 'subject_and_attachment';
}
export type AppLayer = 'http' | 'https' | 'ftp' | 'scp';
export type TunnelProtocol = 'none' | 'icmp' | 'ssh' | 'dns';
export interface FileTransferDetails {
  file_transfer_library_id: number;
  compare_transfer: boolean;
  keep_after_compare: boolean;
  /** Comma-separated list from zip, gzip, bzip2, tar, rar, 7zip; empty for none. */
  content_encoding: string;
  user_agent: string;
  method: 'GET' | 'POST' | 'PUT';
  app_layer: AppLayer;
  target_port: number;
  tunnel_cidr: string | null;
  tunnel_protocol: TunnelProtocol;
  dns_domain: string | null;
  dns_server_ip: string | null;
}
export interface SocketStep {
  data_type: 'ascii' | 'hex' | 'base64';
  request: string;
  response: string;
}
export interface SocketDetails {
  comm_type: 'tcp' | 'udp';
  server_port: number;
  steps: SocketStep[];
}
export interface WebsiteStep {
  request: string;
  req_headers: string;
  request_body: string;
  resp_code: number;
  resp_headers: string;
  response: string;
}
export interface WebsiteDetails {
  server_port: number;
  http_ver: '1.0' | '1.1' | '2';
  use_https: boolean;
  steps: WebsiteStep[];
}
export type Shell = 'cmd' | 'powershell' | 'bash' | 'sh' | 'python';
export interface HostCliDetails {
  action_user_profile_id: number | null;
  require_run_as_interactive: boolean;
  delivery_wait_time: number;
  delivery_failed_result: 'blocked' | 'errored' | 'success';
  destination_exists_result: 'overwrite' | 'errored' | 'use_existing';
  shell: Shell;
  /** Commands in the host_cli syntax (command line, indented prompt/sleep/logs/timeout line, conditions). */
  raw_text: string;
  /** The separate cleanup script; empty when there is none. */
  cleanup_raw_text: string;
  separate_cleanup_shell: boolean;
  automatic_file_cleanup: boolean;
  execution_plan: string | null;
}
export interface PortScanDetails {
  ports_list: string;
  sleep_timer: number;
  randomize_scan: boolean;
}
export interface CloudDetails {
  inputs: { name: string; default_value: string }[];
  outputs: { name: string }[];
  scripts: { name: string; script_text: string; script_type: 'setup' | 'cleanup' | null; timeout: number }[];
}
export interface PcapDetails {
  upload: number | null;
  attacker_ip: string;
  destination_ip: string;
  bypass_http_check: boolean;
  anonymized_ip: boolean;
  anonymized_mac: boolean;
  file: string;
}
export interface KeyValue {
  key: string;
  value: string;
}
export interface WebRequestDetails {
  host: string;
  profile: string;
  path: string;
  http_method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD' | 'OPTIONS';
  encode_url: boolean;
  /** May hold three parts split by ':v:'; the third is the value shown. */
  body: string;
  request: { parameters: KeyValue[]; headers: KeyValue[]; auto_content_length: boolean; auto_host_header: boolean };
  conditions: { code: number; response_regex: string; pass_fail_error: 'pass' | 'fail' | 'error' }[];
}
export type SleepDetails = Record<string, never>;

export interface ActionDetailsByType {
  dns: DnsDetails;
  port_scan: PortScanDetails;
  captive_dns: CaptiveDnsDetails;
  captive_ioc_url: CaptiveIocUrlDetails;
  captive_ioc_pcap: PcapDetails;
  file_transfer: FileTransferDetails;
  email: EmailDetails;
  socket: SocketDetails;
  host_cli: HostCliDetails;
  website: WebsiteDetails;
  pcap: PcapDetails;
  web_request: WebRequestDetails;
  sleep: SleepDetails;
  cloud: CloudDetails;
}

// ---- rows ----

export interface FakeUser {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  role: 'admin' | 'approver' | 'operator' | 'viewer';
}

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

export interface DimensionRow {
  id: number;
  type: DimensionType;
  parent_id: number | null;
  name: string;
  param_name: string;
  position: number;
}
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

interface ActionRowBase {
  id: number;
  vid: string;
  name: string;
  description: string;
  orig_description: string;
  notes: string;
  version: number;
  approved: boolean;
  disabled: boolean;
  decommissioned: boolean;
  require_protected: boolean;
  approve_anywhere: boolean;
  monitor_connections: boolean;
  timeout_ms: number | null;
  uac: boolean;
  event_filter_rules: EventFilterRule[];
  created_by: number | null;
  created_at: string;
  updated_at: string;
}
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

export interface DetectionAlertRow {
  id: number;
  action_id: number;
  source: string;
  message: string;
  source_identifier: string;
}
export interface SignatureRow {
  id: number;
  action_id: number;
  text: string;
}

export interface SimulationRow {
  id: number;
  vid: string;
  name: string;
  description: string;
  simulation_type: 'sequence' | 'eval';
  disabled: boolean;
  decommissioned: boolean;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}
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

export interface ZoneRow {
  id: number;
  name: string;
  description: string;
  cidr: string;
}
export type NodeType = 'endpoint' | 'protected' | 'network' | 'cloud' | 'email';
export interface NodeRow {
  id: number;
  name: string;
  friendly_name: string;
  node_type: NodeType;
  os_base: 'windows' | 'linux' | 'macos';
  os: string;
  node_version: string;
  msi_service_version: string | null;
  deps_installed: boolean;
  status: 'online' | 'offline' | 'pending';
  status_details: string | null;
  security_zone_id: number;
  mgmt_address: string;
  sim_address: string;
  monitor_address: string;
  sandbox_node_id: number | null;
  username: string;
  last_heartbeat_at: string | null;
  capabilities: { action_types: ActionType[]; run_as_user: boolean };
  created_at: string;
  updated_at: string;
}
export interface NodeTagRow {
  node_id: number;
  tag_id: number;
}
export interface DeviceInterface {
  name: string;
  ip_address: string;
  zone_id: number;
}
export interface DeviceRow {
  id: number;
  name: string;
  description: string;
  device_type: 'firewall' | 'ips' | 'ids' | 'proxy' | 'waf' | 'email_gateway' | 'router';
  prevention_enabled: boolean;
  interfaces: DeviceInterface[];
}
export interface DeviceZoneRow {
  device_id: number;
  zone_id: number;
}
export interface TopologyLinkRow {
  id: number;
  id1: string;
  id2: string;
  compliment_id: number | null;
}
export interface IntegrationRow {
  id: number;
  name: string;
  brand_name: string;
  type: 'siem' | 'edr' | 'firewall' | 'ids' | 'email' | 'proxy' | 'threat_intel';
  remote: boolean;
  host: string;
  logo_path: string;
  enabled: boolean;
}

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
