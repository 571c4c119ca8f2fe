import type { TimeRangeConfig } from './time-range';
import type { ReportQuery } from './report-requests';

/**
 * Reporting (issue 18; monitors-actors-reporting.md sections 2, 3, 4, 9): the result data calls of the
 * director (paths are ours, documented in docs/api.md "Reports"), dashboards and their panels, the
 * Panel Library and the chart vocabulary. Shared by the director (validation) and the workbench.
 */

// ---------------------------------------------------------------------------------------------
// Result counts

/**
 * How a job action counts (the Job Summary Report's rules): only actions that ran are evaluated (total);
 * prevented = blocked; detected = events seen or alerted; alerted = an alert was raised; missed = neither
 * prevented nor detected; passed = prevented or detected; failed = total - passed (equal to missed while
 * Actions carry no expectations); notPrevented = total - prevented.
 */
export interface ResultCounts {
  total: number;
  prevented: number;
  detected: number;
  alerted: number;
  missed: number;
  passed: number;
  failed: number;
  notPrevented: number;
  /** Job actions in range that did not run (not run, incompatible) or errored: shown, not evaluated. */
  notRun: number;
  errored: number;
}

export const RESULT_METRICS = ['prevented', 'detected', 'alerted', 'missed', 'passed', 'failed', 'notPrevented'] as const;
export type ResultMetric = (typeof RESULT_METRICS)[number];

/** Percentages (0..100, one decimal) of the total. */
export type ResultPercents = { [K in ResultMetric as `${K}Pct`]: number };

export interface ResultRow extends ResultCounts, ResultPercents {
  key: string;
  label: string;
}

const pct = (n: number, total: number) => (total ? Math.round((n / total) * 1000) / 10 : 0);

/** Adds the percentage variants to counts. */
export function withPercents(key: string, label: string, c: ResultCounts): ResultRow {
  const out = { key, label, ...c } as ResultRow;
  for (const m of RESULT_METRICS) out[`${m}Pct`] = pct(c[m], c.total);
  return out;
}

export const ZERO_COUNTS: ResultCounts = { total: 0, prevented: 0, detected: 0, alerted: 0, missed: 0, passed: 0, failed: 0, notPrevented: 0, notRun: 0, errored: 0 };

// ---------------------------------------------------------------------------------------------
// Grouping keys

export const GROUP_KEYS = ['action_type', 'action', 'tag', 'control', 'tactic', 'technique', 'actor', 'destination_actor', 'zone', 'destination_zone', 'simulation', 'monitor'] as const;
export type GroupKey = (typeof GROUP_KEYS)[number];
export const GROUP_KEY_LABELS: Record<GroupKey, string> = {
  action_type: 'Action type',
  action: 'Action',
  tag: 'Tag',
  control: 'Control',
  tactic: 'ATT&CK tactic',
  technique: 'ATT&CK technique',
  actor: 'Source actor',
  destination_actor: 'Destination actor',
  zone: 'Source zone',
  destination_zone: 'Destination zone',
  simulation: 'Simulation',
  monitor: 'Monitor',
};

// ---------------------------------------------------------------------------------------------
// Calls

export const MAX_REPORT_ROWS = 500;
export const DEFAULT_REPORT_ROWS = 50;
export const MAX_SERIES_POINTS = 1001;
export const MATCH_METRICS = ['prevented', 'detected', 'alerted', 'passed'] as const;
export type MatchMetric = (typeof MATCH_METRICS)[number];

/** Query fields the browser sends (all optional strings on the wire). */
export type ReportParams = Partial<Record<keyof ReportQuery, string | number>>;

export interface ResultsAnswer {
  group_by: GroupKey;
  start: string | null;
  end: string | null;
  rows: ResultRow[];
  /** Every job action in range once (a job action under two tags counts once here). */
  totals: ResultRow;
  /** More keys exist than `limit`. */
  truncated: boolean;
}

export interface TimeSeriesPoint extends ResultRow {
  start: string;
  end: string;
}

export interface TimeSeriesAnswer {
  start: string;
  end: string;
  step_ms: number;
  points: TimeSeriesPoint[];
}

export interface TacticResult {
  tactic: { id: string; name: string };
  results: ResultRow;
}

export interface MitreTaamAnswer {
  start: string | null;
  end: string | null;
  mitre_taam_data: TacticResult[];
}

export interface TreeMapRow {
  key: string;
  name: string;
  total: number;
  matched: number;
  color: string;
}

export interface TreeMapAnswer {
  group_by: GroupKey;
  match: MatchMetric;
  threshold: number;
  rows: TreeMapRow[];
}

/** One technique of the ATT&CK view: the Actions tagged with it and the results of their runs in range. */
export interface TechniqueCell {
  id: string;
  actions: number;
  results: ResultRow;
}

export interface MitreMatrixAnswer {
  start: string | null;
  end: string | null;
  techniques: TechniqueCell[];
}

export interface TechniqueAction {
  id: number;
  vid: string;
  name: string;
  action_type: string;
  latest_runs: { job_id: number; job_action_id: number; status: string; blocked: boolean | null; alerted: boolean; events: number; job_time: string }[];
}

export interface TechniqueActionsAnswer {
  technique: { id: string; name: string };
  actions: TechniqueAction[];
}

/** GET /reports/mitre_untested.json: techniques with Actions but no run in range, and those Actions (for a simulation draft). */
export interface UntestedAnswer {
  start: string | null;
  end: string | null;
  techniques: { id: string; name: string; actions: number }[];
  actions: { id: number; vid: string; name: string; techniques: string[] }[];
}

// ---------------------------------------------------------------------------------------------
// Colours and chart rules (section 4 "Charts", section 9)

export const PASS_COLOR = '#00ffc0';
export const FAIL_COLOR = '#d32223';
export const DEFAULT_BLOCK_THRESHOLD = 85;

export const CHART_MODES = ['blocked', 'totals'] as const;
export type ChartMode = (typeof CHART_MODES)[number];

// ---------------------------------------------------------------------------------------------
// Panels and the Panel Library (section 2 "Panel Library modal", section 3 "Panel (library)")

export const PANEL_KINDS = ['bullet', 'force_field', 'gauge', 'bar', 'pie', 'radar', 'line', 'block_rate', 'tree_map'] as const;
export type PanelKind = (typeof PANEL_KINDS)[number];

/** A panel of the library: key, id (number), name, description, logo. */
export interface LibraryPanel {
  key: PanelKind;
  id: number;
  name: string;
  description: string;
  logo: string;
}

export interface LibraryGroup {
  name: string;
  panels: LibraryPanel[];
}

/** The library answer: a list of panels or a list of groups. */
export type PanelLibraryAnswer = LibraryPanel[] | LibraryGroup[];

export const PANEL_LIBRARY_TITLE = 'Panel Library';
export const ADD_TO_DASHBOARD = 'Add to Dashboard';
export const PANELS_DISABLED_NOTE = 'Some panels shown with a disabled button below are not available to add in this location.';

export interface PanelOptions {
  chartMode: ChartMode;
  blockThreshold: number;
  group_by: GroupKey;
  /** Null: the dashboard's time range. */
  time_range: TimeRangeConfig | null;
  /** The jobs list's filter text and structured filter, applied to this panel only. */
  filterVal: string;
  structuredFilter: string;
}

export interface DashboardPanel {
  uid: string;
  kind: PanelKind;
  title: string;
  /** Columns of a 4-column grid (1..4) and rows (1..3). */
  w: number;
  h: number;
  options: PanelOptions;
}

export const DEFAULT_PANEL_OPTIONS: PanelOptions = { chartMode: 'blocked', blockThreshold: DEFAULT_BLOCK_THRESHOLD, group_by: 'action_type', time_range: null, filterVal: '', structuredFilter: '' };
export const GRID_COLUMNS = 4;
export const MAX_PANEL_ROWS = 3;
export const MAX_PANELS = 40;

/** The result calls a panel reads, by the `type` of their answer (report-table.ts ReportAnswer). */
export const PANEL_SOURCES = ['results', 'series', 'taam', 'tree'] as const;

export interface DashboardSummary {
  id: number;
  name: string;
  owner: { id: number; name: string };
  /** Signed-in user owns it (may rename, change, share, delete). */
  editable: boolean;
  shared_with: { id: number; name: string }[];
  panel_count: number;
  updated_at: string;
}

export interface Dashboard extends DashboardSummary {
  time_range: TimeRangeConfig;
  panels: DashboardPanel[];
}

export interface DashboardsAnswer {
  dashboards: DashboardSummary[];
}

export interface ShareableUser {
  id: number;
  name: string;
  email: string;
}

/** The library of panels, in groups (ids are stable numbers; the logo names the panel's icon). */
export const PANEL_LIBRARY: LibraryGroup[] = [
  {
    name: 'Summary',
    panels: [
      { key: 'bullet', id: 1, name: 'Results Summary', description: 'Prevented, Detected, Alerts and Total as bullet bars against the block threshold.', logo: 'bullet' },
      { key: 'gauge', id: 3, name: 'Prevention Gauge', description: 'The share of evaluated actions that were prevented (or detected, in totals mode).', logo: 'gauge' },
      { key: 'pie', id: 5, name: 'Result Share', description: 'A donut of prevented, detected only and missed actions.', logo: 'pie' },
    ],
  },
  {
    name: 'Breakdown',
    panels: [
      { key: 'bar', id: 4, name: 'Results by Group', description: 'Prevented, detected and missed per action type, tag, tactic, actor, zone or simulation.', logo: 'bar' },
      { key: 'force_field', id: 2, name: 'Pass/Fail Force Field', description: 'Passed against failed per group, centred on zero.', logo: 'force_field' },
      { key: 'tree_map', id: 9, name: 'Tree Map', description: 'Groups sized by actions run, coloured pass or fail by the threshold.', logo: 'tree_map' },
    ],
  },
  {
    name: 'Over time',
    panels: [
      { key: 'line', id: 7, name: 'Results Over Time', description: 'Prevented, detected and missed over the time range.', logo: 'line' },
      { key: 'block_rate', id: 8, name: 'Block Rate', description: 'The percent blocked over time, points coloured above or below the threshold.', logo: 'block_rate' },
    ],
  },
  {
    name: 'ATT&CK',
    panels: [{ key: 'radar', id: 6, name: 'Tactic Radar', description: 'Results per ATT&CK tactic; links to the ATT&CK view.', logo: 'radar' }],
  },
];

export const libraryPanel = (kind: PanelKind): LibraryPanel => PANEL_LIBRARY.flatMap((g) => g.panels).find((p) => p.key === kind)!;

/** Panels offered where the library is opened from the ATT&CK view (the others are shown disabled). */
export const ATTACK_LOCATION_PANEL_IDS: readonly number[] = [6, 9, 4];
