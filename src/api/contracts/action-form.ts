/**
 * Action authoring (actions.md sections 2-8): the Add/Edit Action form's payload, its yup schemas
 * (the same ones the director validates with), the form definition, the file library and the error
 * shapes. Shared by the workbench (src/features/action-form) and the director (server/routes/action-form.ts,
 * server/routes/file-library.ts).
 *
 * The JSON payload mirrors the legacy form's nesting so that server errors come back under the spec's
 * keys: common fields under `sim_action`, the type fields under `{type}_action`, `system_override.vid`,
 * `trees[i].id` (one per dimension, in DIMENSION_TYPES order) and tag lists by hidden field name.
 */
import * as yup from 'yup';
import { ACTION_TYPES, DIMENSION_TYPES, FILE_RESTRICTIONS, type ActionType, type DimensionType, type FileRestriction } from '@/api/fakes/types';
import { hostCliErrorSummary } from './action-form-host-cli';

export { ACTION_TYPES, DIMENSION_TYPES, FILE_RESTRICTIONS };
export type { ActionType, DimensionType, FileRestriction };

// ---------------------------------------------------------------------------------------------
// Texts the spec gives verbatim.

export const MSG = {
  mustBeFilled: 'must be filled',
  cantBeBlank: "can't be blank",
  saveFailed: 'Warning! Validation errors kept this Action from saving successfully. Please see below.',
  selectType: 'Warning! Validation errors kept this Action from saving successfully. Select an Action Type.',
  duplicateAttach: 'Cannot attach a file that is already attached to the Action',
  attached: 'Successfully attached file',
  uploadedAttached: 'Successfully uploaded and attached file',
  unattached: 'Successfully unattached file',
  uploadFailed: 'An error occurred.',
  cloudIneligible: 'This Action is not eligible for approval because it has a file attached that is restricted as malicious.',
  cloudPending: 'A file attached to this action is in a Pending status and requires approval by a user with permission before this action can be run.',
  invalidTag: (tag: string) => `"${tag}" is not a valid tag value.`,
} as const;

// ---------------------------------------------------------------------------------------------
// Labels, options and limits.

export const ACTION_TYPE_LABELS: Record<ActionType, string> = {
  dns: 'DNS Query',
  port_scan: 'Port Scan',
  captive_dns: 'Captive DNS',
  captive_ioc_url: 'Captive IOC URL',
  captive_ioc_pcap: 'Captive IOC PCAP',
  file_transfer: 'Malicious File Transfer',
  email: 'Email',
  socket: 'Socket',
  host_cli: 'Host CLI',
  website: 'Website',
  pcap: 'PCAP',
  web_request: 'Web Request',
  sleep: 'Sleep',
  cloud: 'Cloud',
};

export const DIMENSION_LABELS: Record<DimensionType, string> = {
  attack_vector: 'Attack Vector',
  attacker_location: 'Attacker Location',
  behavior_type: 'Behavior Type',
  covert: 'Covert',
  os_platform: 'OS/Platform',
  stage_of_attack: 'Stage of Attack',
};

export const DNS_QUERY_TYPES = ['A', 'AAAA', 'MX', 'TXT', 'CNAME', 'NS', 'PTR', 'SRV'] as const;
export const MIME_TEXT_TYPES = ['text/plain', 'text/html'] as const;
export const BLOCK_MATCHING_SCHEMES = ['subject', 'attachment', 'subject_and_attachment'] as const;
export const ATTACHMENT_ENCODINGS = ['base64', 'quoted-printable', '7bit'] as const;
export const CONTENT_ENCODINGS = ['zip', 'gzip', 'bzip2', 'tar', 'rar', '7zip'] as const;
export const APP_LAYERS = ['http', 'https', 'ftp', 'scp'] as const;
export const APP_LAYER_PORTS: Record<string, number> = { ftp: 21, http: 80, https: 443, scp: 25 };
export const TUNNEL_PROTOCOLS = ['none', 'icmp', 'ssh', 'dns'] as const;
export const TRANSFER_METHODS = ['GET', 'POST', 'PUT'] as const;
export const SOCKET_COMM_TYPES = ['tcp', 'udp'] as const;
export const SOCKET_DATA_TYPES = ['ascii', 'hex', 'base64'] as const;
export const HTTP_VERSIONS = ['1.0', '1.1', '2'] as const;
export const SHELLS = ['cmd', 'powershell', 'bash', 'sh', 'python'] as const;
export const DELIVERY_FAILED_RESULTS = ['blocked', 'errored', 'success'] as const;
export const DESTINATION_EXISTS_RESULTS = ['overwrite', 'errored', 'use_existing'] as const;
export const FILE_OWNERS = ['match_action', 'system'] as const;
export const WEB_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS'] as const;
export const PASS_FAIL_ERROR = ['pass', 'fail', 'error'] as const;
export const CLOUD_SCRIPT_TYPES = ['setup', 'cleanup'] as const;

export const SHELL_LABELS: Record<(typeof SHELLS)[number], string> = { cmd: 'cmd.exe', powershell: 'PowerShell', bash: 'bash', sh: 'sh', python: 'Python' };
export const FILE_RESTRICTION_LABELS: Record<FileRestriction, string> = {
  none: 'None',
  pending_approval: 'Pending Approval',
  restricted_malicious: 'Restricted Malicious',
};

/** Numeric limits: the form definition sends these (min, max, step), and the schemas enforce them. */
export const FORM_LIMITS = {
  timeout_ms: { min: 0, max: 86_400_000, step: 1000 },
  sleep_ms: { min: 1000, max: 86_400_000, step: 1000 },
  captive_ioc_url_timeout_ms: { min: 1000, max: 300_000, step: 1000 },
  server_port: { min: 1, max: 65535, step: 1 },
  resp_code: { min: 100, max: 599, step: 1 },
  condition_code: { min: 0, max: 599, step: 1 },
  delivery_wait_time: { min: 0, max: 3600, step: 1 },
  sleep_timer: { min: 0, max: 60_000, step: 1 },
  script_timeout: { min: 1, max: 86_400, step: 1 },
} as const;
export type Limit = { min: number; max: number; step: number };

/** The app layer's port: ftp 21, http 80, https 443, scp 25, otherwise the value itself. */
export function appLayerPort(appLayer: string): number | null {
  if (Object.hasOwn(APP_LAYER_PORTS, appLayer)) return APP_LAYER_PORTS[appLayer]!;
  return /^\d{1,5}$/.test(appLayer) ? Number(appLayer) : null;
}

/** A known app layer, or a port number (1-65535) standing for itself. */
export function isAppLayer(value: string): boolean {
  if ((APP_LAYERS as readonly string[]).includes(value)) return true;
  return /^\d{1,5}$/.test(value) && Number(value) >= FORM_LIMITS.server_port.min && Number(value) <= FORM_LIMITS.server_port.max;
}

/** Tunnel protocols offered for an app layer (ssh is not offered for scp). */
export function tunnelProtocolsFor(appLayer: string): (typeof TUNNEL_PROTOCOLS)[number][] {
  return TUNNEL_PROTOCOLS.filter((p) => !(appLayer === 'scp' && p === 'ssh'));
}
export const tunnelNeedsCidr = (p: string) => p === 'icmp' || p === 'ssh' || p === 'dns';
export const tunnelNeedsDns = (p: string) => p === 'dns';

// ---------------------------------------------------------------------------------------------
// Small syntaxes.

/** Port scan ports: comma-delimited ports and hyphen ranges; '#' marks a port expected unreachable. Null when valid. */
export function portsListError(value: string): string | null {
  const v = value.trim();
  if (!v) return MSG.mustBeFilled;
  for (const raw of v.split(',')) {
    const part = raw.trim();
    if (!part) return 'has an empty entry: use a comma-delimited list such as 1,2,3,5-9,11';
    const m = /^(#?)(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) return `"${part}" is not a port or range: use a comma-delimited list such as 1,2,3,5-9,11 (a # prefix marks a port expected unreachable)`;
    const lo = Number(m[2]);
    const hi = m[3] === undefined ? lo : Number(m[3]);
    if (lo < 1 || hi > 65535 || lo > 65535) return `"${part}" is outside the port range 1-65535`;
    if (hi < lo) return `"${part}" is a range whose end is before its start`;
  }
  return null;
}

/** Content encoding: zip, gzip, bzip2, tar, rar, 7zip, several comma-separated, without a period. Null when valid. */
export function contentEncodingError(value: string): string | null {
  const v = value.trim();
  if (!v) return null;
  if (v.includes('.')) return 'must not contain a period: write zip, not .zip';
  for (const raw of v.split(',')) {
    const part = raw.trim();
    if (!(CONTENT_ENCODINGS as readonly string[]).includes(part)) return `"${part}" is not one of ${CONTENT_ENCODINGS.join(', ')} (separate several with commas)`;
  }
  return null;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
export const isIpv4 = (v: string) => IPV4.test(v);
export function isCidr(v: string): boolean {
  const [ip, bits, ...rest] = v.split('/');
  return rest.length === 0 && !!ip && isIpv4(ip) && bits !== undefined && /^\d{1,2}$/.test(bits) && Number(bits) <= 32;
}
const HOSTNAME = /^(?=.{1,253}$)([A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)(\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?$/;
export const isHostname = (v: string) => HOSTNAME.test(v);
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const VID_PATTERN = /^A\d{3}-\d{3,}$/;

// ---------------------------------------------------------------------------------------------
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

// ---------------------------------------------------------------------------------------------
// Defaults.

export const HOST_FILE_DEFAULTS = { destination_directory: 'C:/users/public/documents/', destination_name: '', file_owner: 'match_action', randomize_file: false } as const;

export const CLOUD_SCRIPT_TEMPLATE = [
  '# Variables: inputs[name] holds each input, outputs[name] receives each output,',
  '# files[variable_name] is the local path of each attached file.',
  'import json',
  '',
  'def run(inputs, outputs, files):',
  '    pass',
  '',
  'run(inputs, outputs, files)',
  '',
].join('\n');

export function defaultTypeFields<T extends ActionType>(type: T): TypeFieldsByType[T] {
  const all: TypeFieldsByType = {
    dns: { query_type: 'A', domain: '', dns_server_id: null },
    captive_dns: { query_type: 'A', query: '', response: '' },
    captive_ioc_url: { urls: [''], timeout_ms: 30000 },
    email: { subject: '', body: '', mime_text_type: 'text/plain', block_matching_scheme: 'subject_and_attachment', files: [] },
    file_transfer: {
      file_transfer_library_id: null,
      compare_transfer: true,
      keep_after_compare: false,
      content_encoding: '',
      user_agent: '',
      method: 'GET',
      app_layer: '',
      target_port: null,
      tunnel_protocol: 'none',
      tunnel_cidr: '',
      dns_domain: '',
      dns_server_ip: '',
    },
    socket: { comm_type: 'tcp', server_port: null, steps: [{ data_type: 'ascii', request: '', response: '' }] },
    website: { server_port: 80, http_ver: '1.1', use_https: false, steps: [{ request: '', req_headers: '', request_body: '', resp_code: 200, resp_headers: '', response: '' }] },
    host_cli: {
      action_user_profile_id: null,
      require_run_as_interactive: false,
      monitor_connections: false,
      delivery_wait_time: 10,
      delivery_failed_result: 'blocked',
      destination_exists_result: 'overwrite',
      require_protected: false,
      approve_anywhere: false,
      shell: 'cmd',
      raw_text: '',
      cleanup_raw_text: '',
      separate_cleanup_shell: false,
      automatic_file_cleanup: true,
      execution_plan: null,
      files: [],
    },
    port_scan: { ports_list: '', sleep_timer: 0, randomize_scan: false },
    cloud: {
      inputs: [],
      outputs: [],
      scripts: [
        { name: 'Setup', script_text: CLOUD_SCRIPT_TEMPLATE, script_type: 'setup', timeout: 300 },
        { name: 'Clean Up', script_text: CLOUD_SCRIPT_TEMPLATE, script_type: 'cleanup', timeout: 300 },
      ],
      files: [],
      approve_anywhere: false,
    },
    web_request: {
      host: '',
      profile: '',
      path: '/',
      http_method: 'GET',
      encode_url: false,
      body: '',
      request: { parameters: [], headers: [], auto_content_length: true, auto_host_header: true },
      conditions: [{ code: 200, response_regex: '', pass_fail_error: 'fail' }],
    },
    pcap: { attacker_ip: '', destination_ip: '', bypass_http_check: false, anonymized_ip: true, anonymized_mac: true, upload: null },
    captive_ioc_pcap: { attacker_ip: '', destination_ip: '', bypass_http_check: false, anonymized_ip: true, anonymized_mac: true, upload: null },
    sleep: {},
  };
  return structuredClone(all[type]);
}

/** Cloud scripts: the first is the Setup script, the last the Clean Up script; the others have no type. */
export function cloudScriptTypeAt(index: number, count: number): CloudScriptInput['script_type'] {
  if (index === 0) return 'setup';
  if (index === count - 1 && count > 1) return 'cleanup';
  return null;
}

// ---------------------------------------------------------------------------------------------
// Schemas. `must be filled` for required fields, `can't be blank` for blank script text.

const filled = () =>
  yup
    .string()
    .defined(MSG.mustBeFilled)
    .test('filled', MSG.mustBeFilled, (v) => typeof v === 'string' && v.trim() !== '');
const text = () => yup.string().defined().default('');
const bool = () => yup.boolean().defined().default(false);
const oneOf = <T extends string>(values: readonly T[]) =>
  yup
    .string()
    .defined(MSG.mustBeFilled)
    .test('filled', MSG.mustBeFilled, (v) => typeof v === 'string' && v !== '')
    .oneOf([...values], `must be one of ${values.join(', ')}`);
const num = (limit: Limit, opts: { integer?: boolean } = {}) => {
  let s = yup
    .number()
    .typeError('must be a number')
    .nullable()
    .defined()
    .test('filled', MSG.mustBeFilled, (v) => v !== null && v !== undefined)
    .min(limit.min, `must be at least ${limit.min}`)
    .max(limit.max, `must be at most ${limit.max}`);
  if (opts.integer !== false) s = s.integer('must be a whole number');
  return s;
};
const id = () => yup.number().typeError('must be a number').integer('must be a whole number').positive('must be a positive id');
const strictObject = <S extends yup.ObjectShape>(shape: S) => yup.object(shape).noUnknown('has unknown fields: ${unknown}');

export const simActionSchema = strictObject({
  name: filled().max(255, 'must be at most 255 characters'),
  desc: filled().max(20000, 'must be at most 20000 characters'),
  action_type: yup
    .string()
    .defined(MSG.mustBeFilled)
    .test('filled', 'Select an Action Type.', (v) => !!v)
    .oneOf([...ACTION_TYPES, ''], `must be one of ${ACTION_TYPES.join(', ')}`),
  timeout_ms: yup
    .number()
    .typeError('must be a number')
    .integer('must be a whole number')
    .min(FORM_LIMITS.timeout_ms.min, `must be at least ${FORM_LIMITS.timeout_ms.min}`)
    .max(FORM_LIMITS.timeout_ms.max, `must be at most ${FORM_LIMITS.timeout_ms.max}`)
    .nullable()
    .default(null),
  uac: bool(),
});

const dnsSchema = strictObject({
  query_type: oneOf(DNS_QUERY_TYPES),
  domain: filled().test('hostname', 'is not a valid domain name', (v) => !v?.trim() || isHostname(v.trim())),
  dns_server_id: id().nullable().default(null),
});

const captiveDnsSchema = strictObject({
  query_type: oneOf(DNS_QUERY_TYPES),
  query: filled().test('hostname', 'is not a valid domain name', (v) => !v?.trim() || isHostname(v.trim())),
  response: filled(),
});

const urlSchema = filled().test('url', 'is not a valid http or https URL', (v) => {
  if (!v?.trim()) return true;
  try {
    const u = new URL(v.trim());
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
});

const captiveIocUrlSchema = strictObject({
  urls: yup.array(urlSchema).defined().min(1, MSG.mustBeFilled),
  timeout_ms: num(FORM_LIMITS.captive_ioc_url_timeout_ms).test('step', `must be a multiple of ${FORM_LIMITS.captive_ioc_url_timeout_ms.step}`, (v) => v == null || v < FORM_LIMITS.captive_ioc_url_timeout_ms.min || v % FORM_LIMITS.captive_ioc_url_timeout_ms.step === 0),
});

const emailSchema = strictObject({
  subject: filled().max(998, 'must be at most 998 characters'),
  body: filled(),
  mime_text_type: oneOf(MIME_TEXT_TYPES),
  block_matching_scheme: oneOf(BLOCK_MATCHING_SCHEMES),
  files: yup
    .array(strictObject({ file_id: id().required(MSG.mustBeFilled), attachment_encoding: oneOf(ATTACHMENT_ENCODINGS), ignore_if_missing: bool() }))
    .defined()
    .default([]),
});

const fileTransferSchema = strictObject({
  file_transfer_library_id: id().nullable().defined().test('filled', MSG.mustBeFilled, (v) => v != null),
  compare_transfer: bool(),
  keep_after_compare: bool(),
  content_encoding: text().test('encoding', (v, ctx) => {
    const e = contentEncodingError(v ?? '');
    return e ? ctx.createError({ message: e }) : true;
  }),
  user_agent: text().max(1000, 'must be at most 1000 characters'),
  method: oneOf(TRANSFER_METHODS),
  app_layer: filled().test('app-layer', `must be one of ${APP_LAYERS.join(', ')} or a port number`, (v) => !v?.trim() || isAppLayer(v.trim())),
  target_port: num(FORM_LIMITS.server_port),
  tunnel_protocol: oneOf(TUNNEL_PROTOCOLS).test('scp-ssh', 'ssh is not offered when the app layer is scp', function (v) {
    return !(v === 'ssh' && (this.parent as { app_layer?: string }).app_layer === 'scp');
  }),
  tunnel_cidr: text().test('cidr', function (v) {
    const p = (this.parent as { tunnel_protocol?: string }).tunnel_protocol ?? 'none';
    if (!tunnelNeedsCidr(p)) return true;
    if (!v?.trim()) return this.createError({ message: MSG.mustBeFilled });
    return isCidr(v.trim()) || this.createError({ message: 'is not a CIDR such as 10.0.0.0/24' });
  }),
  dns_domain: text().test('dns-domain', function (v) {
    const p = (this.parent as { tunnel_protocol?: string }).tunnel_protocol ?? 'none';
    if (!tunnelNeedsDns(p)) return true;
    if (!v?.trim()) return this.createError({ message: MSG.mustBeFilled });
    return isHostname(v.trim()) || this.createError({ message: 'is not a valid domain name' });
  }),
  dns_server_ip: text().test('dns-ip', function (v) {
    const p = (this.parent as { tunnel_protocol?: string }).tunnel_protocol ?? 'none';
    if (!tunnelNeedsDns(p)) return true;
    if (!v?.trim()) return this.createError({ message: MSG.mustBeFilled });
    return isIpv4(v.trim()) || this.createError({ message: 'is not an IPv4 address' });
  }),
});

const HEX = /^(\s*[0-9A-Fa-f]{2})*\s*$/;
const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;
const socketStepSchema = strictObject({
  data_type: oneOf(SOCKET_DATA_TYPES),
  request: filled().test('encoding', function (v) {
    const t = (this.parent as { data_type?: string }).data_type;
    if (t === 'hex' && v && !HEX.test(v)) return this.createError({ message: 'is not hex: use pairs of hex digits' });
    if (t === 'base64' && v && !BASE64.test(v)) return this.createError({ message: 'is not base64' });
    return true;
  }),
  response: text().test('encoding', function (v) {
    const t = (this.parent as { data_type?: string }).data_type;
    if (t === 'hex' && v && !HEX.test(v)) return this.createError({ message: 'is not hex: use pairs of hex digits' });
    if (t === 'base64' && v && !BASE64.test(v)) return this.createError({ message: 'is not base64' });
    return true;
  }),
});
const socketSchema = strictObject({
  comm_type: oneOf(SOCKET_COMM_TYPES),
  server_port: num(FORM_LIMITS.server_port),
  steps: yup.array(socketStepSchema).defined().min(1, 'must have at least one step'),
});

const websiteStepSchema = strictObject({
  request: filled().max(8000, 'must be at most 8000 characters'),
  req_headers: text(),
  request_body: text(),
  resp_code: num(FORM_LIMITS.resp_code),
  resp_headers: text(),
  response: text(),
});
const websiteSchema = strictObject({
  server_port: num(FORM_LIMITS.server_port),
  http_ver: oneOf(HTTP_VERSIONS),
  use_https: bool(),
  steps: yup.array(websiteStepSchema).defined().min(1, 'must have at least one step'),
});

const hostCliScript = (required: boolean) =>
  text().test('syntax', function (v) {
    const shell = (this.parent as { shell?: string }).shell;
    if (!v?.trim()) return required ? this.createError({ message: MSG.cantBeBlank }) : true;
    if (shell === 'python') return true;
    const e = hostCliErrorSummary(v);
    return e ? this.createError({ message: e }) : true;
  });

const hostCliSchema = strictObject({
  action_user_profile_id: id().nullable().default(null),
  require_run_as_interactive: bool(),
  monitor_connections: bool(),
  delivery_wait_time: num(FORM_LIMITS.delivery_wait_time),
  delivery_failed_result: oneOf(DELIVERY_FAILED_RESULTS),
  destination_exists_result: oneOf(DESTINATION_EXISTS_RESULTS),
  require_protected: bool(),
  approve_anywhere: bool().test('exclusive', 'cannot be chosen together with Require Protected Theater', function (v) {
    return !(v && (this.parent as { require_protected?: boolean }).require_protected);
  }),
  shell: oneOf(SHELLS),
  raw_text: hostCliScript(true),
  cleanup_raw_text: hostCliScript(false),
  separate_cleanup_shell: bool(),
  automatic_file_cleanup: bool(),
  execution_plan: yup.string().nullable().default(null),
  files: yup
    .array(
      strictObject({
        file_id: id().required(MSG.mustBeFilled),
        destination_directory: filled().max(1024, 'must be at most 1024 characters'),
        destination_name: text().max(255, 'must be at most 255 characters').test('name', 'must be a file name without a path', (v) => !v || !/[\\/]/.test(v)),
        file_owner: oneOf(FILE_OWNERS),
        randomize_file: bool(),
      }),
    )
    .defined()
    .default([]),
});

const portScanSchema = strictObject({
  ports_list: text().test('ports', (v, ctx) => {
    const e = portsListError(v ?? '');
    return e ? ctx.createError({ message: e }) : true;
  }),
  sleep_timer: num(FORM_LIMITS.sleep_timer),
  randomize_scan: bool(),
});

const cloudSchema = strictObject({
  inputs: yup
    .array(
      strictObject({
        name: filled().matches(VARIABLE_NAME, 'must be a name of letters, digits and _ that does not start with a digit'),
        default_value: text(),
      }),
    )
    .defined()
    .default([])
    .test('unique', 'names must be unique', (list) => new Set((list ?? []).map((i) => i.name)).size === (list ?? []).length),
  outputs: yup
    .array(strictObject({ name: filled().matches(VARIABLE_NAME, 'must be a name of letters, digits and _ that does not start with a digit') }))
    .defined()
    .default([])
    .test('unique', 'names must be unique', (list) => new Set((list ?? []).map((i) => i.name)).size === (list ?? []).length),
  scripts: yup
    .array(
      strictObject({
        name: filled().max(255, 'must be at most 255 characters'),
        script_text: text().test('blank', MSG.cantBeBlank, (v) => !!v?.trim()),
        script_type: yup.string().nullable().oneOf([...CLOUD_SCRIPT_TYPES, null], 'must be setup, cleanup or empty').default(null),
        timeout: num(FORM_LIMITS.script_timeout),
      }),
    )
    .defined()
    .min(1, 'must have at least one script'),
  files: yup
    .array(strictObject({ file_id: id().required(MSG.mustBeFilled), variable_name: filled().matches(VARIABLE_NAME, 'must be a name of letters, digits and _ that does not start with a digit') }))
    .defined()
    .default([])
    .test('unique', 'variable names must be unique', (list) => new Set((list ?? []).map((i) => i.variable_name)).size === (list ?? []).length),
  approve_anywhere: bool(),
});

const keyValue = strictObject({ key: filled(), value: text() });
const webRequestSchema = strictObject({
  host: filled().test('host', 'is not a host name or IP address', (v) => !v?.trim() || isHostname(v.trim().replace(/:\d+$/, ''))),
  profile: text(),
  path: filled().test('path', 'must start with /', (v) => !v?.trim() || v.trim().startsWith('/')),
  http_method: oneOf(WEB_METHODS),
  encode_url: bool(),
  body: text(),
  request: strictObject({
    parameters: yup.array(keyValue).defined().default([]),
    headers: yup.array(keyValue).defined().default([]),
    auto_content_length: bool(),
    auto_host_header: bool(),
  }),
  conditions: yup
    .array(
      strictObject({
        code: num(FORM_LIMITS.condition_code),
        response_regex: text().test('regex', 'is not a valid regular expression', (v) => {
          if (!v) return true;
          try {
            new RegExp(v);
            return true;
          } catch {
            return false;
          }
        }),
        pass_fail_error: oneOf(PASS_FAIL_ERROR),
      }),
    )
    .defined()
    .min(1, 'must have at least one condition'),
});

const pcapSchema = strictObject({
  attacker_ip: filled().test('ip', 'is not an IPv4 address', (v) => !v?.trim() || isIpv4(v.trim())),
  destination_ip: filled().test('ip', 'is not an IPv4 address', (v) => !v?.trim() || isIpv4(v.trim())),
  bypass_http_check: bool(),
  anonymized_ip: bool(),
  anonymized_mac: bool(),
  upload: id().nullable().default(null),
});

export const TYPE_SCHEMAS: Record<ActionType, yup.ObjectSchema<yup.AnyObject>> = {
  dns: dnsSchema,
  captive_dns: captiveDnsSchema,
  captive_ioc_url: captiveIocUrlSchema,
  email: emailSchema,
  file_transfer: fileTransferSchema,
  socket: socketSchema,
  website: websiteSchema,
  host_cli: hostCliSchema,
  port_scan: portScanSchema,
  cloud: cloudSchema,
  web_request: webRequestSchema,
  pcap: pcapSchema,
  captive_ioc_pcap: pcapSchema,
  sleep: strictObject({}),
};

const treesSchema = yup
  .array(strictObject({ id: id().nullable().defined(MSG.mustBeFilled).test('filled', MSG.mustBeFilled, (v) => v != null) }))
  .defined()
  .length(DIMENSION_TYPES.length, `must have one entry per dimension (${DIMENSION_TYPES.join(', ')})`);

const tagList = yup.array(yup.string().defined().test('filled', MSG.mustBeFilled, (v) => !!v?.trim()).max(255)).defined().default([]);

/** The common part (everything but the type fields); `type` selects which `{type}_action` key is required. */
export function actionFormSchema(type: ActionType): yup.ObjectSchema<yup.AnyObject> {
  const shape: yup.ObjectShape = {
    sim_action: simActionSchema.required(MSG.mustBeFilled),
    system_override: strictObject({ vid: yup.string().defined().default('').test('vid', 'must look like A000-1234', (v) => !v || VID_PATTERN.test(v.trim())) }).default(undefined).optional(),
    trees: treesSchema,
    tags: strictObject({ user_tags: tagList, verodin_tags: tagList }).required(MSG.mustBeFilled),
    lock_version: yup.number().integer().min(1).optional(),
    [typeKey(type)]: TYPE_SCHEMAS[type].required(MSG.mustBeFilled),
  };
  return strictObject(shape);
}

/** Sleep Actions require their duration (timeout_ms, the sleep time). */
export function sleepDurationError(payload: Pick<ActionFormPayload, 'sim_action'>): string | null {
  const v = payload.sim_action.timeout_ms;
  if (v === null || v === undefined) return MSG.mustBeFilled;
  if (v < FORM_LIMITS.sleep_ms.min) return `must be at least ${FORM_LIMITS.sleep_ms.min}`;
  return null;
}

// ---------------------------------------------------------------------------------------------
// Error keys: the director answers `{ error, errors }` where errors uses the spec's key shapes.

/** Payload path -> the spec's error key: website/socket steps by index, everything else unchanged. */
export function errorKeyFor(path: string): string {
  if (path === 'system_override.vid') return 'vid';
  return path
    .replace(/^website_action\.steps\[(\d+)\]\.?/, 'web_action_steps.$1.')
    .replace(/^socket_action\.steps\[(\d+)\]\.?/, 'socket_action_steps.$1.')
    .replace(/\[(\d+)\]/g, '.$1')
    .replace(/\.$/, '');
}

/** The spec's error key -> the form's field path (the inverse of errorKeyFor). */
export function fieldPathFor(key: string): string {
  if (key === 'vid') return 'system_override.vid';
  return key
    .replace(/^web_action_steps\.(\d+)/, 'website_action.steps.$1')
    .replace(/^socket_action_steps\.(\d+)/, 'socket_action.steps.$1')
    .replace(/\[(\d+)\]/g, '.$1');
}

// ---------------------------------------------------------------------------------------------
// The form's calls: definition, loaded values, tags, save answers.

export interface DimensionTreeNode {
  id: number;
  name: string;
  param_name: string;
  children: DimensionTreeNode[];
}

export interface DimensionTree {
  type: DimensionType;
  label: string;
  required: boolean;
  tree: DimensionTreeNode;
}

export interface FormDefinition {
  action_types: { value: ActionType; label: string }[];
  dimension_trees: DimensionTree[];
  /** Default dimension node ids per action type, applied when creating. */
  dimension_defaults: Partial<Record<ActionType, Partial<Record<DimensionType, number>>>>;
  dns_servers: { id: number; name: string; address: string }[];
  action_user_profiles: { id: number; friendly_name: string; username: string }[];
  web_request_profiles: string[];
  limits: typeof FORM_LIMITS;
  /** Present when the director supplies an execution plan for host_cli (the text area is shown only then). */
  execution_plan: boolean;
  flags: { brt_auth: boolean; protected_theater: boolean };
  /** Whether the PCAP upload calls exist on this director. */
  pcap_upload: boolean;
}

export interface TagOption {
  id: number;
  name: string;
  class_name: 'user' | 'verodin' | 'mitre_attack';
  tag_type: string;
  code: string | null;
  editable: boolean;
  /** The hidden field the tag is submitted in: user_tags or verodin_tags (verodin and mitre_attack). */
  field: 'user_tags' | 'verodin_tags';
}

export interface TagsAnswer {
  tags: TagOption[];
}

/** Display data of an attached or library file. */
export interface FileDisplay {
  id: number;
  orig_file_name: string;
  sha256sum: string;
  file_restrictions: FileRestriction;
  size: number;
}

export interface LoadedAction {
  id: number;
  vid: string;
  version: number;
  approved: boolean;
  /** Vendor content (VID A1..) cannot be edited, only cloned. */
  vendor: boolean;
  action_type: ActionType;
  updated_at: string;
  created_at: string;
  values: ActionFormPayload;
  /** Display data of every attached file, by id. */
  files: FileDisplay[];
}

export interface SaveAnswer {
  id: number;
  vid: string;
  version: number;
  approved: boolean;
  notice: string;
}

export interface PickerAction {
  id: number;
  vid: string;
  name: string;
  action_type: ActionType;
  vendor: boolean;
}

// ---------------------------------------------------------------------------------------------
// File library.

export interface FileLibraryEntry extends FileDisplay {
  file_notes: string;
  user_tags: string[];
  verodin_tags: string[];
  os_tree_id: number | null;
  created_at: string;
  /** Entries of a zip checked at upload (zipfile_check); null when not checked. */
  zip_entry_count: number | null;
}

export interface ZipEntry {
  name: string;
  size: number;
  sha256sum: string;
  encrypted: boolean;
}

export interface FileUploadAnswer extends FileLibraryEntry {
  zip_entries: ZipEntry[] | null;
}

/** Upload restrictions offered per Action type: file_transfer hides pending_approval, cloud hides restricted_malicious. */
export function uploadRestrictionsFor(type: ActionType | ''): FileRestriction[] {
  if (type === 'file_transfer') return ['none', 'restricted_malicious'];
  if (type === 'cloud') return ['none', 'pending_approval'];
  return [...FILE_RESTRICTIONS];
}

/** The text fields of the upload form (the file itself travels as `file_upload`). */
export const fileUploadFieldsSchema = strictObject({
  file_restrictions: yup
    .string()
    .defined(MSG.cantBeBlank)
    .test('filled', MSG.cantBeBlank, (v) => !!v)
    .oneOf([...FILE_RESTRICTIONS], `must be one of ${FILE_RESTRICTIONS.join(', ')}`),
  file_notes: yup.string().defined().default('').max(2000, 'must be at most 2000 characters'),
  file_attrib_ids: yup.array(id().defined()).defined().default([]),
  os_tree_id: id().nullable().default(null),
  zipfile_check: bool(),
  zipfile_password: yup.string().defined().default(''),
  /** The Action type the upload is for (applies that type's restriction rule). */
  action_type: yup.string().oneOf([...ACTION_TYPES, ''], 'is not an action type').default(''),
});
