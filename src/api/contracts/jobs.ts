import * as yup from 'yup';
import type { JobActionStatus, JobStatus } from './vocabulary';

/**
 * Jobs: the live jobs list, job results, steps and actions, events, cancel, delete, publish and CSV
 * exports (jobs-simulations-network-map.md sections 2-9; export options in monitors-actors-reporting.md
 * section 7). Shared by the director, which validates with these schemas, and the workbench.
 *
 * Size: the jobs vocabulary (statuses, texts, constants, answers, request schemas, CSV options) is
 * mostly declarations, kept in one contract so the director and the workbench import it from one place.
 */

// ---------------------------------------------------------------------------------------------
// Statuses (section 4)

/** Statuses a job may be cancelled in. */
export const CANCELLABLE_STATUSES: readonly JobStatus[] = ['sleeping', 'pending', 'waiting', 'preparing', 'running'];
/** Finished ("complete") statuses: only these may be deleted or published. */
export const FINISHED_STATUSES: readonly JobStatus[] = ['errored', 'cancelled', 'completed'];

/** Action run statuses that count as complete (spec: errored, cancelled, not run, ran, completed; incompatible is shown as Not Run). */
export const ACTION_COMPLETE_STATUSES: readonly string[] = ['errored', 'cancelled', 'not run', 'incompatible', 'ran', 'completed'];

export const canCancelJob = (status: string): boolean => (CANCELLABLE_STATUSES as readonly string[]).includes(status);
export const isJobFinished = (status: string): boolean => (FINISHED_STATUSES as readonly string[]).includes(status);
export const canDeleteJob = isJobFinished;
export const canPublishJob = isJobFinished;

/** published_status: 0 not published, 1 publishing, 2 published. */
export const PUBLISHED = 2;

/** Job names shown for jobs without a user (ACT-002). */
export const SCHEDULED_PROCESS = 'Scheduled Process';
/** Run-as profile shown when a step has none (JOB-034). */
export const SYSTEM_PROFILE = 'System';

// ---------------------------------------------------------------------------------------------
// Texts (section 8)

export const LOADING_JOB_RESULTS = 'Loading Job Results';
export const NO_JOB_RESULTS = 'No Job results to display.';
export const CANCEL_CONFIRM = 'Are you sure you want to cancel this Job? This cannot be undone.';
export const deleteConfirmText = (n: number) => `Are you sure you want to delete ${n} selected job result(s)? This cannot be undone.`;
/** The buttons of those confirmations name what they do. */
export const CANCEL_CONFIRM_BUTTONS = { confirmLabel: 'Cancel Job', cancelLabel: 'Keep Job' } as const;
export const deleteConfirmButtons = (n: number) => ({ confirmLabel: n === 1 ? 'Delete Job Result' : `Delete ${n} Job Results`, cancelLabel: n === 1 ? 'Keep It' : 'Keep Them' });
export const POLLING_STOPPED = 'The page has stopped polling for new data. Refresh the page to see the latest updates.';
export const LOADING_EVENTS = 'Loading Events';
export const NO_EVENTS = 'No Events Detected...';

// ---------------------------------------------------------------------------------------------
// Constants (section 9)

export const PAGE_SIZES = [10, 20, 30] as const;
export const DEFAULT_PAGE_SIZE = 10;
/** Largest page the list call answers (the footer offers 10, 20 and 30). */
export const MAX_PAGE_SIZE = 100;
export const LIST_POLL_MS = 30_000;
export const LIST_POLL_DONE_MS = 60_000;
export const STEPS_POLL_MS = 30_000;
export const STEPS_POLL_DONE_MS = 60_000;
/** Re-polls before polling stops with the toast (results list: 10). */
export const REPOLL_LIMIT = 10;
/** At most this many ids in one call that takes a list (selected jobs, steps, publish, summary). */
export const MAX_IDS = 1000;
export const MAX_SUMMARY_JOBS = 50;
export const MAX_FILTER_VALUE = 200;

export const SORT_COLUMNS = ['job_id', 'job_name', 'job_status', 'job_user', 'job_time'] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];
export const SORT_LABELS: Record<SortColumn, string> = {
  job_id: 'Job Id',
  job_name: 'Job Name',
  job_status: 'Job Status',
  job_user: 'Ran By',
  job_time: 'Time Started',
};
export type SortDirection = 'asc' | 'desc';
export const DEFAULT_SORT: { by: SortColumn; direction: SortDirection } = { by: 'job_id', direction: 'desc' };

/** The job-action filter by events: actions with events, with suspicious events, or with none. */
export const EVENTS_FILTERS = ['present', 'suspicious', 'none'] as const;
export type EventsFilter = (typeof EVENTS_FILTERS)[number];
export const EVENTS_FILTER_LABELS: Record<EventsFilter, string> = { present: 'Events present', suspicious: 'Suspicious events', none: 'No events' };

// ---------------------------------------------------------------------------------------------
// Answers

/** A row of the jobs list (results list item, JOB-032, with what the row actions need). */
export interface JobListItem {
  id: number;
  job_id: number;
  job_name: string;
  job_status: JobStatus;
  /** Ran By: the user's name, or 'Scheduled Process'. */
  job_user: string;
  /** Time Started (ISO): when the job started, or was created when it has not started. */
  job_time: string;
  progress: number;
  published_status: number;
  latest_published_time: string | null;
  latest_published_pipeline: string | null;
  assessment_name: string | null;
  simulation: { id: number; vid: string; sim_type: 'sequence' | 'eval' } | null;
  action: { id: number; vid: string } | null;
}

export interface JobListAnswer {
  /** Rows when no filter is active. */
  jobs?: JobListItem[];
  /** Rows when a filter (text, date range, vid, events, rules) is active. */
  filtered_jobs?: JobListItem[];
  /** The newest job id in the whole table (0 when empty): a client can tell when new jobs arrived. */
  max_jobs: number;
  total_filtered_jobs: number;
  /** True when total_filtered_jobs is the planner's estimate (more than EXACT_COUNT_LIMIT matches). */
  total_filtered_estimated: boolean;
  total_jobs: number;
  page: number;
  size: number;
  /** Keyset cursors of the first and last row: pass `after` (next page) or `before` (previous page). */
  page_start: string | null;
  page_end: string | null;
  /** The requested selected_jobs that still exist. */
  selected_jobs: number[];
}

/** Above this many matches a filtered total is estimated instead of counted. */
export const EXACT_COUNT_LIMIT = 1000;

export interface NodeRef {
  id: number;
  label: string;
  /** The simulation address (IP). */
  value: string;
  name: string;
  zone: string | null;
}

export interface JobStep {
  id: number;
  step_id: number | null;
  group_order: number;
  name: string;
  source: NodeRef | null;
  destination: NodeRef | null;
  blocked: number;
  detected: number;
  alerted: number;
  not_run: number;
  action_count: number;
  completed_count: number;
  action_user_profile_name: string | null;
  action_user_profile_friendly_name: string | null;
  /** Fetched on demand (list_page_job_actions); null here. */
  actions: JobAction[] | null;
}

export interface JobAction {
  id: number;
  job_id: number;
  job_step_id: number;
  position: number;
  name: string;
  sim_action_id: number | null;
  sim_action_vid: string;
  status: JobActionStatus;
  alerted: boolean;
  blocked: boolean | null;
  blocked_msg: string | null;
  detected_msg: string | null;
  /** Why it did not run or ended so (not run, incompatible, errored, cancelled); null otherwise. */
  reason: string | null;
  events: number;
  suspect_events: number;
  disabled: boolean;
  action_type: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface JobDetail {
  id: number;
  name: string;
  status: JobStatus;
  progress: number;
  /** Created at (ISO). */
  timestamp: string;
  started_at: string | null;
  finished_at: string | null;
  job_time: string;
  user: { id: number; name: string; email: string } | null;
  job_user: string;
  assessment: { assessment_name: string | null };
  publish_job_pipeline: { latest_published_time: string | null; latest_published_status: number; latest_published_pipeline: string | null };
  simulation: { id: number; vid: string; sim_type: 'sequence' | 'eval'; name: string } | null;
  action: { id: number; vid: string; name: string } | null;
  steps: JobStep[];
}

/** list_page_job_actions: actions keyed by step id. */
export type StepActionsAnswer = Record<string, JobAction[]>;

/** A security event's severity, as its source rated it (lowest first). */
export const EVENT_SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type EventSeverity = (typeof EVENT_SEVERITIES)[number];
export const EVENT_SEVERITY_LABELS: Record<EventSeverity, string> = { low: 'Low severity', medium: 'Medium severity', high: 'High severity', critical: 'Critical severity' };

export interface JobEvent {
  id: number;
  integration: { id: number; name: string } | null;
  description: string;
  raw_event: string;
  /** Only suspected to belong to the action (listed apart, on the suspicious events page). */
  suspicious: boolean;
  /** The source raised it as an alert. */
  alert: boolean;
  severity: EventSeverity | null;
  occurred_at: string;
}

export interface JobActionEventsAnswer {
  job_action: Pick<JobAction, 'id' | 'job_id' | 'name' | 'sim_action_vid' | 'events' | 'suspect_events' | 'status'>;
  events: JobEvent[];
}
export const MAX_EVENTS = 500;

/** One side's work of a job action (engine_work): which actor did it, how it ended, its output and timings. */
export interface JobActionWork {
  role: 'source' | 'target';
  actor: { id: number; name: string } | null;
  status: string;
  error: string | null;
  /** What the actor answered (its output: commands and their output, ports, responses), as stored. */
  result: unknown;
  created_at: string | null;
  claimed_at: string | null;
  ready_at: string | null;
  finished_at: string | null;
}

/** GET /jobs/job_actions/{id}/evidence.json: everything on record about one job action. */
export interface JobActionEvidenceAnswer {
  job_action: JobAction & {
    step: { id: number; group_order: number; name: string };
    /** The result stored on the job action (per side for actor runs). */
    evidence: Record<string, unknown>;
    /** finished_at - started_at, when both are known. */
    duration_ms: number | null;
  };
  work: JobActionWork[];
  /** Detected and suspicious events; null without the integrationEvents.all permission. */
  events: JobEvent[] | null;
}

export interface SummaryTotals {
  actions: number;
  blocked: number;
  detected: number;
  alerted: number;
  not_run: number;
  /** Blocked among the actions that ran, 0-100 (0 when none ran). */
  percent_blocked: number;
}

export interface SummaryReportAnswer {
  jobs: {
    id: number;
    name: string;
    status: JobStatus;
    job_user: string;
    job_time: string;
    totals: SummaryTotals;
    steps: { id: number; group_order: number; name: string; totals: SummaryTotals }[];
  }[];
}

export interface PublishAnswer {
  published: number[];
  pipeline: string;
  latest_published_time: string;
}

export interface CancelAnswer {
  id: number;
  status: JobStatus;
  /** Job actions stopped by the cancel (pending ones become 'not run', running ones 'cancelled'). */
  stopped_actions: number;
}

// ---------------------------------------------------------------------------------------------
// Requests

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** filterRange on the wire: two ISO 8601 instants joined by a comma ("start,end"); either may be empty. */
export function parseFilterRange(value: string): { start: Date | null; end: Date | null } | string {
  const parts = value.split(',');
  if (parts.length !== 2) return 'filterRange must be two ISO 8601 times joined by a comma (start,end)';
  const [a = '', b = ''] = parts.map((p) => p.trim());
  const at = (s: string) => (s === '' ? null : ISO.test(s) && !Number.isNaN(Date.parse(s)) ? new Date(s) : undefined);
  const start = at(a);
  const end = at(b);
  if (start === undefined || end === undefined) return 'filterRange must be two ISO 8601 times joined by a comma (start,end)';
  if (start && end && start > end) return 'filterRange starts after it ends';
  return { start, end };
}
export const formatFilterRange = (start: Date | null, end: Date | null) => `${start ? start.toISOString() : ''},${end ? end.toISOString() : ''}`;

const VID = /^[AS][0-9A-Za-z-]{1,40}$/;

/** The list call's query once normalised (arrays from `x[]`, numbers from strings). */
export const jobListQuerySchema = yup
  .object({
    size: yup.number().typeError('size must be a number').integer('size must be an integer').min(1, 'size must be at least 1').max(MAX_PAGE_SIZE, `size must be at most ${MAX_PAGE_SIZE}`).default(DEFAULT_PAGE_SIZE),
    page: yup.number().typeError('page must be a number').integer('page must be an integer').min(0, 'page must be 0 or more (pages are zero-based)').max(10_000_000).default(0),
    sortCol: yup.string().oneOf([...SORT_COLUMNS], `sortCol must be one of ${SORT_COLUMNS.join(', ')}`).default('job_id'),
    sortDir: yup.string().oneOf(['asc', 'desc'], 'sortDir must be asc or desc').default('desc'),
    filterVal: yup.string().max(MAX_FILTER_VALUE, `filterVal must be at most ${MAX_FILTER_VALUE} characters`).default(''),
    filterRange: yup
      .string()
      .default('')
      .test('range', (v, ctx) => {
        if (!v) return true;
        const r = parseFilterRange(v);
        return typeof r === 'string' ? ctx.createError({ message: r }) : true;
      }),
    selected_jobs: yup.array(yup.number().typeError('selected_jobs must hold job ids').integer().positive('selected_jobs must hold job ids').required()).max(MAX_IDS).default([]),
    filter: yup.string().oneOf(['adhoc', ''], 'filter must be adhoc').default(''),
    structuredFilter: yup.string().max(20_000, 'structuredFilter is too long').default(''),
    vid: yup.string().matches(VID, { message: 'vid must be an Action or Simulation VID such as A123-456 or S000-123', excludeEmptyString: true }).default(''),
    after: yup.string().max(500).default(''),
    before: yup.string().max(500).default(''),
  })
  .noUnknown('Unknown query parameter: ${unknown}');

export const publishSchema = yup
  .object({
    job_ids: yup
      .array(
        yup
          .number()
          .typeError('job_ids must hold positive whole numbers')
          .integer('job_ids must hold positive whole numbers')
          .positive('job_ids must hold positive whole numbers')
          .required('job_ids must hold positive whole numbers'),
      )
      .typeError('job_ids must be a list of job ids')
      .min(1, 'job_ids needs at least one job')
      .max(MAX_IDS, `job_ids may hold at most ${MAX_IDS} ids`)
      .required('job_ids is required'),
    pipeline: yup.string().trim().max(100).default(''),
    multisite_reporting: yup.boolean().default(false),
  })
  .noUnknown();

/** Pipelines a result can be published to (the publish job results modal). */
export const PUBLISH_PIPELINES = ['Splunk HEC', 'Executive Dashboard', 'ServiceNow SecOps'] as const;

// ---------------------------------------------------------------------------------------------
// CSV exports (monitors-actors-reporting.md section 7)

export const CSV_SEPARATORS = { comma: ',', semicolon: ';', space: ' ', tab: '\t' } as const;
export type CsvSeparator = keyof typeof CSV_SEPARATORS;
export const CSV_DELIVERIES = ['download', 'popup'] as const;
export const CSV_ALL_EVENTS = ['visible', 'all'] as const;
export const CSV_QUOTES = ['double', 'single'] as const;
export const JOBS_EXPORT_NAME = 'jobs';
export const JOB_ACTIONS_EXPORT_NAME = 'job_action_report';

/** The file name forced to end in .csv; empty names fall back to `{export}.csv`. */
export function csvFilename(name: string | undefined, exportName: string): string {
  const base = (name ?? '').trim().replace(/[\\/:*?"<>|\r\n]+/g, '_');
  if (!base) return `${exportName}.csv`;
  return /\.csv$/i.test(base) ? base.replace(/\.csv$/i, '.csv') : `${base.replace(/\.+$/, '')}.csv`;
}

export const exportOptionsSchema = yup
  .object({
    separator: yup.string().oneOf(Object.keys(CSV_SEPARATORS), 'separator must be comma, semicolon, space or tab').default('comma'),
    delivery: yup.string().oneOf([...CSV_DELIVERIES], 'delivery must be popup or download').default('download'),
    all_events: yup.string().oneOf([...CSV_ALL_EVENTS], 'all_events must be visible or all').default('visible'),
    /** Quote replacement: 'double' doubles quotes inside values (RFC 4180); 'single' turns them into single quotes. */
    regex: yup.string().oneOf([...CSV_QUOTES], 'regex (quote replacement) must be single or double').default('double'),
    filename: yup.string().max(200).default(''),
    /** The list filter (the list call's query fields) plus, for visible rows, their job ids. */
    props: yup.object().default({}),
  })
  .noUnknown();
export type ExportOptions = yup.InferType<typeof exportOptionsSchema>;

// ---------------------------------------------------------------------------------------------
// Action result display (section 4)

export type ResultTone = 'pass' | 'fail' | 'neutral';

const capitalise = (s: string) => s.replace(/(^|\s)\S/g, (c) => c.toUpperCase());

/** The result text of a job action and whether it is a pass or a fail (JOB-050..054). */
export function actionResult(a: Pick<JobAction, 'status' | 'alerted' | 'blocked' | 'events'>): { text: string; tone: ResultTone } {
  if (a.status === 'ran') {
    if (a.alerted) return { text: 'Alerted', tone: 'pass' };
    if (a.blocked !== null && a.blocked !== undefined) return a.blocked ? { text: 'Blocked', tone: 'pass' } : { text: 'Not Blocked', tone: 'fail' };
    return a.events > 0 ? { text: `Events (${a.events})`, tone: 'pass' } : { text: 'No Events', tone: 'fail' };
  }
  if (a.status === 'not run' || a.status === 'incompatible') return { text: 'Not Run', tone: 'neutral' };
  return { text: capitalise(a.status), tone: 'neutral' };
}

export const statusLabel = (status: string) => capitalise(status);

/** Edit Action is disabled for disabled actions and vendor content (VID starting with A1); Clone for disabled ones (JOB-078). */
export const canEditAction = (a: Pick<JobAction, 'disabled' | 'sim_action_vid' | 'sim_action_id'>) => !a.disabled && a.sim_action_id !== null && !a.sim_action_vid.startsWith('A1');
export const canCloneAction = (a: Pick<JobAction, 'disabled' | 'sim_action_id'>) => !a.disabled && a.sim_action_id !== null;
