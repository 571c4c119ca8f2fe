/** The type-specific details of an Action row, by action_type (actions.md section 3, "Type fields (form)"). */

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
