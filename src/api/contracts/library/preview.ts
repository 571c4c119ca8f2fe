/** The Action preview: the common part and the detail by type (actions.md section 3 "Preview detail by type"). */
import { type ActionType } from '../vocabulary';
import type { AttachedFile, DetectionAlert, FileRestriction, Signature, SimulationRef } from './answers';

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
