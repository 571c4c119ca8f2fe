/** The Add/Edit Action payload: `sim_action`, the type fields under `{type}_action`, trees and tags. */
import { type ActionType } from '../vocabulary';

// Payload types.

export interface SimActionFields {
  name: string;
  desc: string;
  action_type: ActionType | '';
  timeout_ms: number | null;
  uac: boolean;
}

export interface DnsFields {
  query_type: string;
  domain: string;
  /** null: 'Default' (the Actor's local DNS server). */
  dns_server_id: number | null;
}
export interface CaptiveDnsFields {
  query_type: string;
  query: string;
  response: string;
}
export interface CaptiveIocUrlFields {
  urls: string[];
  timeout_ms: number | null;
}
export interface EmailFileInput {
  file_id: number;
  attachment_encoding: string;
  ignore_if_missing: boolean;
}
export interface EmailFields {
  subject: string;
  body: string;
  mime_text_type: string;
  block_matching_scheme: string;
  files: EmailFileInput[];
}
export interface FileTransferFields {
  file_transfer_library_id: number | null;
  compare_transfer: boolean;
  keep_after_compare: boolean;
  content_encoding: string;
  user_agent: string;
  method: string;
  app_layer: string;
  target_port: number | null;
  tunnel_protocol: string;
  tunnel_cidr: string;
  dns_domain: string;
  dns_server_ip: string;
}
export interface SocketStepInput {
  data_type: string;
  request: string;
  response: string;
}
export interface SocketFields {
  comm_type: string;
  server_port: number | null;
  steps: SocketStepInput[];
}
export interface WebsiteStepInput {
  request: string;
  req_headers: string;
  request_body: string;
  resp_code: number | null;
  resp_headers: string;
  response: string;
}
export interface WebsiteFields {
  server_port: number | null;
  http_ver: string;
  use_https: boolean;
  steps: WebsiteStepInput[];
}
export interface HostCliFileInput {
  file_id: number;
  destination_directory: string;
  destination_name: string;
  file_owner: string;
  randomize_file: boolean;
}
export interface HostCliFields {
  action_user_profile_id: number | null;
  require_run_as_interactive: boolean;
  monitor_connections: boolean;
  delivery_wait_time: number | null;
  delivery_failed_result: string;
  destination_exists_result: string;
  require_protected: boolean;
  approve_anywhere: boolean;
  shell: string;
  raw_text: string;
  cleanup_raw_text: string;
  separate_cleanup_shell: boolean;
  automatic_file_cleanup: boolean;
  execution_plan: string | null;
  files: HostCliFileInput[];
}
export interface PortScanFields {
  ports_list: string;
  sleep_timer: number | null;
  randomize_scan: boolean;
}
export interface CloudFileInput {
  file_id: number;
  variable_name: string;
}
export interface CloudScriptInput {
  name: string;
  script_text: string;
  script_type: 'setup' | 'cleanup' | null;
  timeout: number | null;
}
export interface CloudFields {
  inputs: { name: string; default_value: string }[];
  outputs: { name: string }[];
  scripts: CloudScriptInput[];
  files: CloudFileInput[];
  /** Approve Now: set by a user with approve permission from the save confirmation. */
  approve_anywhere: boolean;
}
export interface KeyValueInput {
  key: string;
  value: string;
}
export interface WebRequestFields {
  host: string;
  profile: string;
  path: string;
  http_method: string;
  encode_url: boolean;
  body: string;
  request: { parameters: KeyValueInput[]; headers: KeyValueInput[]; auto_content_length: boolean; auto_host_header: boolean };
  conditions: { code: number | null; response_regex: string; pass_fail_error: string }[];
}
export interface PcapFields {
  attacker_ip: string;
  destination_ip: string;
  bypass_http_check: boolean;
  anonymized_ip: boolean;
  anonymized_mac: boolean;
  /** The upload (PCAP upload flow) a new PCAP Action is made from; read-only once created. */
  upload: number | null;
}
export type SleepFields = Record<string, never>;

export interface TypeFieldsByType {
  dns: DnsFields;
  port_scan: PortScanFields;
  captive_dns: CaptiveDnsFields;
  captive_ioc_url: CaptiveIocUrlFields;
  captive_ioc_pcap: PcapFields;
  file_transfer: FileTransferFields;
  email: EmailFields;
  socket: SocketFields;
  host_cli: HostCliFields;
  website: WebsiteFields;
  pcap: PcapFields;
  web_request: WebRequestFields;
  sleep: SleepFields;
  cloud: CloudFields;
}

export type TypeKey<T extends ActionType = ActionType> = `${T}_action`;
export const typeKey = <T extends ActionType>(t: T): TypeKey<T> => `${t}_action`;

export type TypeFieldsPayload = { [K in ActionType as TypeKey<K>]?: TypeFieldsByType[K] };

/** The body of POST /manage_sims/actions.json and PUT /manage_sims/actions/{id}.json. */
export type ActionFormPayload = {
  sim_action: SimActionFields;
  /** brt_auth only: a VID chosen instead of the server's. */
  system_override?: { vid: string };
  /** The selected tree node per dimension, in DIMENSION_TYPES order. */
  trees: { id: number | null }[];
  /** Tag names by hidden field name; verodin_tags holds verodin and mitre_attack tags. */
  tags: { user_tags: string[]; verodin_tags: string[] };
  /** Update only: the version the form was loaded at (a newer one on the server answers 409). */
  lock_version?: number;
} & TypeFieldsPayload;

