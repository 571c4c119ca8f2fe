/**
 * Monitors (monitors-actors-reporting.md sections 2-5, issue 17): the definition, its groups and
 * actions with their expectations, the yup contract the editor and the director both validate with
 * (section 5 "Monitor editor"), and the answers of the monitor calls documented in docs/api.md.
 *
 * Size: mostly declarations (vocabulary, messages, the yup schemas and answer types) of one contract
 * that the director and the editor both import from one place.
 */
import * as yup from 'yup';
import type { ActionUserProfileField, InteractiveSessionField } from './run-as-selection';
import { WEEKDAYS, WEEKDAYS_MESSAGE, isWeekdayList, parseWeekdays } from './weekdays';

export const PERIOD_TYPES = ['minutes', 'hours', 'days', 'weeks', 'months'] as const;
export type PeriodType = (typeof PERIOD_TYPES)[number];
export const PERIOD_TYPE_LABELS: Record<PeriodType, string> = { minutes: 'Minutes', hours: 'Hours', days: 'Days', weeks: 'Weeks', months: 'Months' };


/** The months frequency list (the spec names the select, not its options): which weekday of the month. */
export const MONTHLY_FREQUENCIES = ['first', 'second', 'third', 'fourth', 'last'] as const;
export type MonthlyFrequency = (typeof MONTHLY_FREQUENCIES)[number];
export const MONTHLY_FREQUENCY_LABELS: Record<MonthlyFrequency, string> = { first: 'First', second: 'Second', third: 'Third', fourth: 'Fourth', last: 'Last' };

export const EXPECTATIONS = ['yes', 'no', 'does_not_matter'] as const;
export type Expectation = (typeof EXPECTATIONS)[number];
export const EXPECTATION_LABELS: Record<Expectation, string> = { yes: 'Yes', no: 'No', does_not_matter: 'Does not matter' };

export const RUN_BETWEEN = ['node', 'zone'] as const;
export type RunBetween = (typeof RUN_BETWEEN)[number];

/** MON-096, MON-097: the spec's texts. */
export const BOTH_DO_NOT_MATTER_MESSAGE =
  'You cannot select "Does not matter" for both expected options. At least one must be set to "Yes" or "No" to determine environmental drift between runs.';
export const EXPECTED_EVENTS_HINT = 'Value must be "Yes" to specify events to match in considering a monitor detected.';
export const REPEAT_NUMBER_MESSAGE = 'Repeat period number must be at least 1.';
export const EXTRA_SLEEP_MESSAGE = 'Extra sleep must be between 0 and 300 seconds.';
export const FIRST_RUN_PAST_MESSAGE = 'First run date cannot be before today.';
export const FIRST_RUN_FORMAT_MESSAGE = 'First run must be a date and time as YYYY-MM-DD HH:mm.';
export const PORTS_MESSAGE = 'Ports must be numbers from 1 to 65535 or ranges (a-b), separated by commas.';
export const SPOOFED_FROM_MESSAGE = 'Spoofed From Address works for POP3, IMAP and web-services mailboxes, not for a hosted mail API sender profile.';
export const INTERACTIVE_ZONE_MESSAGE = 'An interactive desktop session needs a zone holding an actor.';

/** MON-176: limits ('YYYY-MM-DD HH:mm' is MONITOR_RUNTIME_RE below). */
export const EXTRA_SLEEP_MAX = 300;
export const STEP_MARKER_WIDTH = 68;
/** MON-176: the progress feedback's transition. */
export const PROGRESS_TRANSITION_MS = 350;
/** MON-083, MON-175: the first-run picker's range ends 29 days after the chosen start. */
export const FIRST_RUN_RANGE_DAYS = 29;
export const NAME_MAX = 255;
/** How long after a run's last action its events still count (the summary's 'Timeout for Monitor Event Detection'). */
export const DETECTION_TIMEOUT_MAX = 3600;
export const DETECTION_TIMEOUT_MESSAGE = `Timeout for Monitor Event Detection must be a whole number of seconds from 0 to ${DETECTION_TIMEOUT_MAX}.`;

/** Email sender profile kinds; a spoofed From address works with the mailbox kinds only (MON-101). */
export const EMAIL_PROFILE_KINDS = ['pop3', 'imap', 'ews', 'gmail_api', 'graph_api'] as const;
export type EmailProfileKind = (typeof EMAIL_PROFILE_KINDS)[number];
export const HOSTED_MAIL_API_KINDS: readonly EmailProfileKind[] = ['gmail_api', 'graph_api'];

/**
 * MON-036..039: the runtime fields of the typed panels (port_scan, sleep, host_cli and cloud have their
 * own fields and no runtime_* ones); the generic panel of any other type takes any runtime_* field.
 */
export const RUNTIME_FIELDS: Record<string, readonly string[]> = {
  port_scan: [],
  sleep: [],
  host_cli: [],
  cloud: [],
  email: ['runtime_from_address'],
  dns: ['runtime_temporary_dns_server'],
  file_transfer: ['runtime_content_encoding', 'runtime_user_agent', 'runtime_dns_domain', 'runtime_orig_file_name', 'runtime_path', 'runtime_referer', 'runtime_target_port'],
  pcap: ['runtime_target_port', 'runtime_destination_ip', 'runtime_use_https_connection', 'runtime_host_header_update', 'runtime_clear_accept_encoding'],
};
export const RUNTIME_CHECKBOXES = ['runtime_use_https_connection', 'runtime_host_header_update', 'runtime_clear_accept_encoding'];

export const MONITOR_RUNTIME_RE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})$/;
const PORTS_RE = /^\s*\d{1,5}(\s*-\s*\d{1,5})?(\s*,\s*\d{1,5}(\s*-\s*\d{1,5})?)*\s*$/;

/** True for '' or a comma list of ports and ranges within 1..65535, each range ascending. */
export function validPorts(value: string): boolean {
  if (!value.trim()) return true;
  if (!PORTS_RE.test(value)) return false;
  return value.split(',').every((part) => {
    const [a, b] = part.split('-').map((x) => Number(x.trim()));
    if (a === undefined || a < 1 || a > 65535) return false;
    return b === undefined || (b >= a && b <= 65535);
  });
}

export function validTimezone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return tz.length > 0;
  } catch {
    return false;
  }
}

/** The offset of a timezone from UTC at `at`, in minutes (east positive); 0 for an unknown timezone. */
export function zoneOffsetMinutes(tz: string, at: Date): number {
  if (!validTimezone(tz)) return 0;
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' })
      .formatToParts(at)
      .map((x) => [x.type, Number(x.value)]),
  ) as Record<string, number>;
  const asUtc = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!);
  return Math.round((asUtc - Math.floor(at.getTime() / 60_000) * 60_000) / 60_000);
}

/** MON-162: how many minutes the computer's clock zone is ahead of `tz` (negative: behind) at `at`. */
export const computerZoneDifference = (tz: string, at: Date = new Date()): number => -at.getTimezoneOffset() - zoneOffsetMinutes(tz, at);

/**
 * MON-162 "Shows the minute difference between the computer and the profile timezone": the notice for
 * the user's profile time zone `profileTz` (the zone every timestamp is shown in), or null when the
 * computer is in step with it.
 */
export function timezoneMismatchNotice(profileTz: string, at: Date = new Date()): string | null {
  const diff = computerZoneDifference(profileTz, at);
  if (!diff || !validTimezone(profileTz)) return null;
  const n = Math.abs(diff);
  return `Your computer's time zone is ${n} minute${n === 1 ? '' : 's'} ${diff > 0 ? 'ahead of' : 'behind'} your profile's time zone (${profileTz}); times are shown in ${profileTz}.`;
}

/** Today's date (YYYY-MM-DD) in a timezone. */
export function todayIn(tz: string, now: number = Date.now()): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: validTimezone(tz) ? tz : 'UTC', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  return parts.slice(0, 10);
}

/** A real calendar date and time in 'YYYY-MM-DD HH:mm'. */
export function validRuntime(v: string): boolean {
  const m = MONITOR_RUNTIME_RE.exec(v);
  if (!m) return false;
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCMonth() === mo - 1 && date.getUTCDate() === d && h < 24 && mi < 60;
}

const expectation = (label: string) =>
  yup.string<Expectation>().oneOf([...EXPECTATIONS], `${label} must be Yes, No or Does not matter`).required(`${label} is required`);
const ports = (label: string) => yup.string().default('').test('ports', `${label}: ${PORTS_MESSAGE}`, (v) => validPorts(v ?? ''));
const optionalId = yup.number().integer().positive().nullable().default(null);

export const expectedEventSchema = yup.object({
  integration_id: yup.number().integer().positive().nullable().default(null),
  description: yup.string().trim().required('An expected event needs a description').max(1000),
  message: yup.string().max(1000).default(''),
});
export type ExpectedEvent = yup.InferType<typeof expectedEventSchema>;

export const monitorActionSchema = yup
  .object({
    action_id: yup.number().typeError('action_id must be a whole number').integer().positive().required('action_id is required'),
    expected_blocked: expectation('Expected blocked'),
    expected_detected: expectation('Expected detected'),
    expected_open_ports: ports('Expected open ports'),
    expected_closed_ports: ports('Expected closed ports'),
    scanned_ports: ports('Scanned ports'),
    runtime: yup
      .object()
      .default({})
      .test('runtime-keys', 'Runtime parameters must be named runtime_*', (v) => Object.keys(v ?? {}).every((k) => /^runtime_[a-z0-9_]+$/.test(k))),
    host_cli_variables: yup
      .object()
      .default({})
      .test('variable-keys', 'Host CLI variables must be named host_cli_variable_*', (v) => Object.keys(v ?? {}).every((k) => /^host_cli_variable_[A-Za-z0-9_]+$/.test(k))),
    runtime_input_values: yup.array(yup.string().defined().max(1000)).default([]),
    cloud_profile_ids: yup.array(yup.number().integer().positive().required()).default([]),
    expected_events: yup.array(expectedEventSchema).default([]),
  })
  .test('both-do-not-matter', BOTH_DO_NOT_MATTER_MESSAGE, function (a) {
    if (a.expected_blocked === 'does_not_matter' && a.expected_detected === 'does_not_matter') {
      return this.createError({ path: `${this.path}.expected_detected`, message: BOTH_DO_NOT_MATTER_MESSAGE });
    }
    return true;
  })
  .test('events-need-yes', EXPECTED_EVENTS_HINT, function (a) {
    if (a.expected_events.length > 0 && a.expected_detected !== 'yes') return this.createError({ path: `${this.path}.expected_events`, message: EXPECTED_EVENTS_HINT });
    return true;
  });
export type MonitorActionBody = yup.InferType<typeof monitorActionSchema>;

/** A new action's configuration: blocked 'Yes', detected 'Does not matter' (the spec shows no defaults), nothing else set. */
export function newActionBody(actionId: number): MonitorActionBody {
  return {
    action_id: actionId,
    expected_blocked: 'yes',
    expected_detected: 'does_not_matter',
    expected_open_ports: '',
    expected_closed_ports: '',
    scanned_ports: '',
    runtime: {},
    host_cli_variables: {},
    runtime_input_values: [],
    cloud_profile_ids: [],
    expected_events: [],
  };
}

export const monitorGroupSchema = yup.object({
  name: yup.string().trim().max(NAME_MAX).default(''),
  run_between: yup.string<RunBetween>().oneOf([...RUN_BETWEEN], 'run_between must be node or zone').default('node'),
  attack_node: optionalId,
  attack_zone: optionalId,
  target_node: optionalId,
  target_zone: optionalId,
  from_email_profile: optionalId,
  to_email_profile: optionalId,
  scan_interfaces: yup.array(yup.string().defined().max(100)).default([]),
  proxy_comm: yup.boolean().default(false),
  use_ip_addresses: yup.boolean().default(false),
  action_user_profile: optionalId,
  interactive_desktop_session: yup.boolean().default(false),
  require_interactive: yup.boolean().default(false),
  actions: yup.array(monitorActionSchema).required().min(1, 'Every group needs at least one action').max(200),
}).test('source', 'Choose a source actor or zone for every group', function (g) {
  const missing = g.run_between === 'zone' ? g.attack_zone === null : g.attack_node === null;
  return missing ? this.createError({ path: `${this.path}.${g.run_between === 'zone' ? 'attack_zone' : 'attack_node'}`, message: `Choose a source ${g.run_between === 'zone' ? 'zone' : 'actor'}` }) : true;
});
export type MonitorGroupBody = yup.InferType<typeof monitorGroupSchema>;

export interface MonitorValidationContext {
  /** The stored first run of the monitor being updated: keeping it is allowed even once it is past. */
  existingRuntime?: string;
  now?: number;
}

export const monitorBodySchema = yup
  .object({
    name: yup.string().trim().required('Name is required').max(NAME_MAX, `Name must be at most ${NAME_MAX} characters`),
    description: yup.string().max(10_000).default(''),
    monitor_group: optionalId,
    new_monitor_group: yup.string().trim().max(NAME_MAX).default(''),
    monitor_runtime: yup.string().trim().required('First run is required').test('format', FIRST_RUN_FORMAT_MESSAGE, (v) => validRuntime(v ?? '')),
    timezone: yup.string().default('UTC').test('tz', 'Timezone must be an IANA timezone such as Europe/Paris', (v) => validTimezone(v ?? '')),
    repeat_job_period_number: yup.number().typeError(REPEAT_NUMBER_MESSAGE).integer(REPEAT_NUMBER_MESSAGE).min(1, REPEAT_NUMBER_MESSAGE).max(10_000).required(REPEAT_NUMBER_MESSAGE),
    repeat_job_period_type: yup.string<PeriodType>().oneOf([...PERIOD_TYPES], 'Repeat period type must be minutes, hours, days, weeks or months').required(),
    repeat_week_days: yup.string().default('').test('days', WEEKDAYS_MESSAGE, (v) => isWeekdayList(v ?? '')),
    repeat_monthly_frequency: yup.string().default('').oneOf(['', ...MONTHLY_FREQUENCIES], 'Frequency must be first, second, third, fourth or last'),
    repeat_day_of_the_week: yup.string().default('').oneOf(['', ...WEEKDAYS], 'Day of the week must be one of Su, M, T, W, Th, F, S'),
    extra_sleep: yup.number().typeError(EXTRA_SLEEP_MESSAGE).integer(EXTRA_SLEEP_MESSAGE).min(0, EXTRA_SLEEP_MESSAGE).max(EXTRA_SLEEP_MAX, EXTRA_SLEEP_MESSAGE).default(0),
    detection_timeout_seconds: yup
      .number()
      .typeError(DETECTION_TIMEOUT_MESSAGE)
      .integer(DETECTION_TIMEOUT_MESSAGE)
      .min(0, DETECTION_TIMEOUT_MESSAGE)
      .max(DETECTION_TIMEOUT_MAX, DETECTION_TIMEOUT_MESSAGE)
      .default(30),
    simulation_id: optionalId,
    steps: yup.array(monitorGroupSchema).required('A monitor needs at least one group').min(1, 'A monitor needs at least one group').max(200),
  })
  .test('weekdays', 'Choose at least one weekday', function (m) {
    if (m.repeat_job_period_type === 'weeks' && parseWeekdays(m.repeat_week_days).length === 0) return this.createError({ path: 'repeat_week_days', message: 'Choose at least one weekday' });
    return true;
  })
  .test('monthly', 'Choose the frequency and the day of the week', function (m) {
    if (m.repeat_job_period_type !== 'months') return true;
    if (!m.repeat_monthly_frequency) return this.createError({ path: 'repeat_monthly_frequency', message: 'Choose the frequency' });
    if (!m.repeat_day_of_the_week) return this.createError({ path: 'repeat_day_of_the_week', message: 'Choose the day of the week' });
    return true;
  })
  .test('first-run', FIRST_RUN_PAST_MESSAGE, function (m) {
    const ctx = (this.options.context ?? {}) as MonitorValidationContext;
    if (!validRuntime(m.monitor_runtime ?? '') || (ctx.existingRuntime && ctx.existingRuntime === m.monitor_runtime)) return true;
    const today = todayIn(m.timezone, ctx.now);
    return m.monitor_runtime.slice(0, 10) >= today ? true : this.createError({ path: 'monitor_runtime', message: FIRST_RUN_PAST_MESSAGE });
  });
export type MonitorBody = yup.InferType<typeof monitorBodySchema>;

export const runsQuerySchema = yup.object({
  page: yup.number().typeError('page must be a whole number').integer().min(1, 'page must be at least 1').default(1),
  per_page: yup.number().typeError('per_page must be a whole number').integer().min(1).max(100, 'per_page must be at most 100').default(20),
});

export const LIST_SORTS = ['name', 'next_run_at', 'last_run', 'failed', 'drift', 'monitor_group'] as const;
export type MonitorListSort = (typeof LIST_SORTS)[number];
export const listQuerySchema = yup.object({
  search: yup.string().max(200).default(''),
  sort: yup.string<MonitorListSort>().oneOf([...LIST_SORTS], `sort must be one of ${LIST_SORTS.join(', ')}`).default('name'),
  dir: yup.string<'asc' | 'desc'>().oneOf(['asc', 'desc'], 'dir must be asc or desc').default('asc'),
});

/** A job status, or 'never' (shown as Never Ran). */
export type RunStatus = 'never' | 'sleeping' | 'pending' | 'waiting' | 'preparing' | 'running' | 'reverting' | 'errored' | 'cancelled' | 'completed';

export interface MonitorListItem {
  id: number;
  name: string;
  description: string;
  monitor_group: string | null;
  schedule: string;
  timezone: string;
  paused: boolean;
  next_run_at: string | null;
  last_run_at: string | null;
  last_run_status: RunStatus;
  last_job_id: number | null;
  step_count: number;
  passed: number;
  failed: number;
  drift: number;
}
export interface MonitorListAnswer {
  data: MonitorListItem[];
  meta: { total_count: number };
}

export interface MonitorActionDetail extends MonitorActionBody {
  id: number;
  name: string;
  action_type: string;
  vid: string;
  require_protected: boolean;
  last_outcome: StepOutcome | null;
  /** The job action of the latest judged run (null before the first run). */
  last_job_action_id: number | null;
  drift: boolean;
}
export interface MonitorGroupDetail extends Omit<MonitorGroupBody, 'actions'> {
  id: number;
  actions: MonitorActionDetail[];
  /** MON-044: the group's run-as select and Interactive Session objects. */
  action_user_profile_field: ActionUserProfileField;
  interactive_session_field: InteractiveSessionField;
}
export interface MonitorDetail extends Omit<MonitorBody, 'steps'> {
  id: number;
  monitor_group_name: string | null;
  paused: boolean;
  next_run_at: string | null;
  next_job_id: number | null;
  last_job_id: number | null;
  schedule: string;
  steps: MonitorGroupDetail[];
  fields: FieldObject[];
}

/** MON-033: every definition field object carries these. */
export interface FieldObject {
  label: string;
  param_name: string;
  value: string | number | boolean | null;
  options: { name: string; value: string }[];
  required: boolean;
  errors: string[];
  hidden: boolean;
  locked: boolean;
}

export type StepOutcome = 'pass' | 'fail' | 'not_run';

/**
 * MON-040: one entry of the monitor summary (section 3 "Action summary entry"): the step's Action, whether
 * it is the active step, whether it has an error, its index, the saved monitor action and the job action
 * of its latest run (null when new or never run), and its selected expected events.
 */
export interface ActionSummaryEntry {
  actionId: number;
  actionName: string;
  action_type: string;
  active: boolean;
  hasError: boolean;
  id: number;
  monitor_action_id: number | null;
  job_action_id: number | null;
  events: ExpectedEvent[];
}
export interface StepResult {
  monitor_action_id: number;
  job_action_id: number | null;
  name: string;
  outcome: StepOutcome;
  blocked: boolean | null;
  detected: boolean | null;
  previous_outcome: StepOutcome | null;
  drift: boolean;
  reason: string;
}
export interface MonitorRun {
  job_id: number;
  status: RunStatus;
  /** The job's progress, 0..100. */
  progress: number;
  scheduled_for: string;
  started_at: string | null;
  trigger: 'schedule' | 'catch_up' | 'run_now';
  evaluated: boolean;
  passed: number;
  failed: number;
  not_run: number;
  drift: number;
  steps: StepResult[];
}
export interface MonitorRunsAnswer {
  data: MonitorRun[];
  meta: { total_count: number; total_pages: number; page: number; per_page: number };
}

export interface DriftItem {
  monitor_id: number;
  monitor_name: string;
  monitor_action_id: number;
  step: number;
  action_name: string;
  job_id: number;
  outcome: StepOutcome;
  previous_outcome: StepOutcome;
  at: string;
}

/** GET /monitors/options.json: the editor's pickers. */
export interface MonitorEditorOptions {
  nodes: { id: number; name: string; node_type: string; os_base: string; status: string; zone_id: number | null; node_version: string; sandbox_node_id: number | null; user_tags: string[] }[];
  zones: { id: number; name: string; node_count: number }[];
  email_profiles: { id: number; name: string; kind: EmailProfileKind; address: string; associated_node_ids: number[] }[];
  action_user_profiles: { id: number; friendly_name: string; username: string }[];
  groups: MonitorGroupOption[];
}

/** A starting body (GET /monitors/new.json) with the name, type and VID of each Action. */
export interface MonitorDraftAnswer extends MonitorBody {
  action_info: Record<string, ActionInfo>;
}
export interface ActionInfo {
  name: string;
  action_type: string;
  vid: string;
  /** A protected action (require_protected): the run-as rules force its Interactive Session (MON-065). */
  require_protected: boolean;
}

export interface MonitorGroupOption {
  id: number;
  name: string;
}

/** JOB-045, JOB-093: GET /monitor/update_data. */
export interface MonitorPath {
  source_zone_id: number | null;
  source_zone: string;
  target_zone_id: number | null;
  target_zone: string;
  count: number;
  monitors: string[];
}
export interface ZoneStat {
  zone_id: number;
  name: string;
  passed: number;
  failed: number;
}
export interface MonitorStatsAnswer {
  map_data: { alert_paths: MonitorPath[]; green_paths: MonitorPath[]; zone_stats: ZoneStat[] };
  stats: { monitor_count: number; unique_count: number; alert_count: number };
}
export const MONITOR_STATS_REFRESH_MS = 30_000;
/** JOB-093: the refresh intervals Monitor Stats and the map's aeda mode offer, in seconds (the URL's `refresh`). */
export const MONITOR_STATS_REFRESH_CHOICES = [10, 30, 60, 300] as const;
/** The polling interval the URL gives (`refresh` in seconds, one of the choices), else the default. */
export function monitorStatsRefreshMs(refresh: string | undefined): number {
  const s = Number(refresh);
  return (MONITOR_STATS_REFRESH_CHOICES as readonly number[]).includes(s) ? s * 1000 : MONITOR_STATS_REFRESH_MS;
}
/** MON-094: pass and fail colours (green paths and alert paths). */
export const PASS_COLOUR = '#00ffc0';
export const FAIL_COLOUR = '#d32223';

export interface RunNowAnswer {
  job_id: number;
}

/**
 * MON-014, MON-041: GET /monitors/expected_events.json?action_id=&monitor_action_id= — the events the
 * integrations reported for earlier runs of an Action, grouped by integration id or 'endpoint' (events
 * no integration reported), each marked is_selected when the saved monitor action expects it.
 */
export const EXPECTED_EVENTS_ENDPOINT = 'endpoint';
export const EXPECTED_EVENTS_LOADING_TEXT = 'Requesting event data';
export const EXPECTED_EVENTS_KEEP_TEXT = 'No changes made to expected events.';
/** MON-176: the raw event cell's maximum width. */
export const RAW_EVENT_MAX_WIDTH = 500;
/** The table's content states (section 2): LOADING while requested, KEEP_EXISTING before the user asks to see them. */
export type ExpectedEventsState = 'LOADING' | 'KEEP_EXISTING' | 'READY' | 'ERROR';

export interface ExpectedEventRow {
  description: string;
  is_selected: boolean;
  raw_event: string;
  security_technology_id: string | null;
  integration_id: number | null;
  message: string;
}
export interface ExpectedEventsIntegration {
  id: number;
  host: string;
  name: string;
  logo_path_for_web: string;
}
export interface ExpectedEventsGroup {
  /** The integration id, or 'endpoint'. */
  key: string;
  integration: ExpectedEventsIntegration | null;
  events: ExpectedEventRow[];
}
export interface ExpectedEventsAnswer {
  groups: ExpectedEventsGroup[];
  security_technologies: { id: string; logo_path_for_web: string }[];
}
export const expectedEventsQuerySchema = yup.object({
  action_id: yup.number().typeError('action_id must be a whole number').integer('action_id must be a whole number').positive('action_id must be positive').required('action_id is required'),
  monitor_action_id: yup.number().typeError('monitor_action_id must be a whole number').integer('monitor_action_id must be a whole number').positive('monitor_action_id must be positive').optional(),
});
