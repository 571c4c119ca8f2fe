/** The form's yup schemas (the director validates with the same ones). */
import * as yup from 'yup';
import { hostCliErrorSummary } from '../action-form-host-cli';
import { ACTION_TYPES, DIMENSION_TYPES, type ActionType } from '../vocabulary';
import { MSG } from './texts';
import { APP_LAYERS, ATTACHMENT_ENCODINGS, BLOCK_MATCHING_SCHEMES, CLOUD_SCRIPT_TYPES, DELIVERY_FAILED_RESULTS, DESTINATION_EXISTS_RESULTS, DNS_QUERY_TYPES, FILE_OWNERS, FORM_LIMITS, HTTP_VERSIONS, MIME_TEXT_TYPES, PASS_FAIL_ERROR, SHELLS, SOCKET_COMM_TYPES, SOCKET_DATA_TYPES, TRANSFER_METHODS, TUNNEL_PROTOCOLS, WEB_METHODS, isAppLayer, tunnelNeedsCidr, tunnelNeedsDns } from './options';
import { VARIABLE_NAME, VID_PATTERN, contentEncodingError, isCidr, isHostname, isIpv4, portsListError } from './syntax';
import { typeKey, type ActionFormPayload } from './payload';
import { bool, filled, id, num, oneOf, strictObject, text } from './schema-parts';

// Schemas. `must be filled` for required fields, `can't be blank` for blank script text.

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
