import * as yup from 'yup';
import { DEFAULT_TIME_RANGE, timeRangeSchema } from './time-range';
import { WEEKDAYS_MESSAGE, isWeekdayList } from './weekdays';
import { validTimezone } from './monitors';
import { CHART_MODES, DEFAULT_REPORT_ROWS, GRID_COLUMNS, GROUP_KEYS, MATCH_METRICS, MAX_PANEL_ROWS, MAX_PANELS, MAX_REPORT_ROWS, MAX_SERIES_POINTS, PANEL_KINDS, PANEL_SOURCES } from './reports';

/**
 * What the director accepts on the report and dashboard calls (docs/api.md "Reports"): the schemas it
 * validates with, apart from reports.ts so the workbench, which builds these requests but never
 * validates them, does not carry them in its first download.
 */

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})$/;
const instant = (name: string) => yup.string().default('').matches(ISO, { message: `${name} must be an ISO 8601 time such as 2026-01-31T00:00:00Z`, excludeEmptyString: true });

/** The query every result call accepts: a time range over the jobs' start times plus the jobs list's filter fields. */
export const reportQuerySchema = yup.object({
  start: instant('start'),
  end: instant('end').test('order', 'start must not be after end', function (end) {
    const { start } = this.parent as { start: string };
    return !start || !end || Date.parse(start) <= Date.parse(end);
  }),
  /** MON-051: only the jobs that started on these days of the week (a comma list of Su..S), local to tz; empty, every day. */
  week_days: yup.string().default('').test('days', `week_days: ${WEEKDAYS_MESSAGE}`, (v) => isWeekdayList(v ?? '')),
  tz: yup
    .string()
    .default('')
    .max(64, 'tz must be an IANA time zone such as Europe/Paris')
    .test('zone', 'tz must be an IANA time zone such as Europe/Paris', (v) => !v || validTimezone(v))
    .when('week_days', { is: (d: string) => !!d, then: (s) => s.required('tz is required with week_days (the time zone whose local days they are)') }),
  group_by: yup.string().oneOf([...GROUP_KEYS], `group_by must be one of ${GROUP_KEYS.join(', ')}`).default('action_type'),
  limit: yup.number().typeError('limit must be a number').integer('limit must be a whole number').min(1, 'limit must be at least 1').max(MAX_REPORT_ROWS, `limit must be at most ${MAX_REPORT_ROWS}`).default(DEFAULT_REPORT_ROWS),
  points: yup.number().typeError('points must be a number').integer('points must be a whole number').min(2, 'points must be at least 2').max(MAX_SERIES_POINTS, `points must be at most ${MAX_SERIES_POINTS}`).default(121),
  match: yup.string().oneOf([...MATCH_METRICS], `match must be one of ${MATCH_METRICS.join(', ')}`).default('prevented'),
  threshold: yup.number().typeError('threshold must be a number').min(0, 'threshold must be between 0 and 100').max(100, 'threshold must be between 0 and 100').default(85),
  /** The jobs list's filter fields (see /jobs/list_page_data.json): text, VID, structured filter. */
  filterVal: yup.string().default(''),
  vid: yup.string().default(''),
  filter: yup.string().default(''),
  structuredFilter: yup.string().default(''),
});
export type ReportQuery = yup.InferType<typeof reportQuerySchema>;

const panelOptionsSchema = yup.object({
  chartMode: yup.string().oneOf([...CHART_MODES], 'chartMode must be blocked or totals').required(),
  blockThreshold: yup.number().typeError('blockThreshold must be a number').min(0, 'blockThreshold must be between 0 and 100').max(100, 'blockThreshold must be between 0 and 100').required(),
  group_by: yup.string().oneOf([...GROUP_KEYS], `group_by must be one of ${GROUP_KEYS.join(', ')}`).required(),
  time_range: timeRangeSchema.nullable().default(null),
  filterVal: yup.string().max(200).default(''),
  structuredFilter: yup.string().max(20_000).default(''),
});

export const dashboardPanelSchema = yup.object({
  uid: yup.string().matches(/^[A-Za-z0-9_-]{1,40}$/, 'panel uid must be 1 to 40 letters, digits, - or _').required(),
  kind: yup.string().oneOf([...PANEL_KINDS], `kind must be one of ${PANEL_KINDS.join(', ')}`).required(),
  title: yup.string().trim().max(120, 'A panel title must be at most 120 characters').required('A panel needs a title'),
  w: yup.number().integer().min(1, 'w must be 1 to 4').max(GRID_COLUMNS, 'w must be 1 to 4').required(),
  h: yup.number().integer().min(1, 'h must be 1 to 3').max(MAX_PANEL_ROWS, 'h must be 1 to 3').required(),
  options: panelOptionsSchema.required(),
});

export const dashboardNameSchema = yup.string().trim().required('Name is required').max(120, 'Name must be at most 120 characters');

const panelsSchema = () =>
  yup
    .array(dashboardPanelSchema.required())
    .max(MAX_PANELS, `A dashboard holds at most ${MAX_PANELS} panels`)
    .test('unique', 'Panel uids must be unique', (ps) => new Set((ps ?? []).map((p) => p.uid)).size === (ps ?? []).length);

export const dashboardWriteSchema = yup.object({
  name: dashboardNameSchema,
  time_range: timeRangeSchema.default(DEFAULT_TIME_RANGE),
  panels: panelsSchema().default([]),
});
export type DashboardWrite = yup.InferType<typeof dashboardWriteSchema>;

export const dashboardPatchSchema = yup.object({
  name: dashboardNameSchema.optional().default(undefined),
  time_range: timeRangeSchema.optional().default(undefined),
  panels: panelsSchema().optional().default(undefined),
});

/** POST /reports/panels.json: every panel's query of a dashboard, answered in one call. */
export const panelsRequestSchema = yup.object({
  queries: yup
    .array(
      yup
        .object({
          source: yup.string().oneOf([...PANEL_SOURCES], `source must be one of ${PANEL_SOURCES.join(', ')}`).required('source is required'),
          query: yup.object().typeError('query must be an object').default({}),
        })
        .required(),
    )
    .typeError('queries must be a list')
    .min(1, 'queries must hold at least one query')
    .max(MAX_PANELS, `queries holds at most ${MAX_PANELS} queries (a dashboard's panels)`)
    .required('queries is required'),
});

export const dashboardSharesSchema = yup.object({
  user_ids: yup.array(yup.number().typeError('user_ids must hold user ids').integer().positive().required()).max(1000).required('user_ids is required'),
});

