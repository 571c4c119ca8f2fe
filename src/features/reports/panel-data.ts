import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { Dashboard, DashboardPanel, ReportParams, ResultMetric } from '@/api/contracts/reports';
import type { FilterNode } from '@/api/contracts/filters';
import type { TimeRangeConfig } from '@/api/contracts/time-range';
import { fetchPanels, getDashboard, panelParams, panelRequest, qk } from './api';
import type { ChartSelection, TableData } from './charts/chart-frame';
import { reportTable, type PanelAnswer, type PanelRequest, type PanelSource, type ReportAnswer } from '@/api/contracts/report-table';
import { pointsForWidth } from './charts/rules';

/** What each panel kind reads from the director, and its figures as a table (PDF, CSV of a panel). */
export type PanelData = ReportAnswer;

export const sourceOf = (kind: DashboardPanel['kind']): PanelSource => {
  switch (kind) {
    case 'line':
    case 'block_rate':
      return 'series';
    case 'radar':
      return 'taam';
    case 'tree_map':
      return 'tree';
    default:
      return 'results';
  }
};

/** Relative ranges resolve per minute, so the panels, their refetches and the exports share query keys. */
export const panelClock = (now = new Date()) => new Date(Math.floor(now.getTime() / 60_000) * 60_000);

/**
 * The minute of the figures each open dashboard shows (its pane notes it on render and forgets it on
 * close). An export reads the figures on screen, so one that starts after the minute turned still costs
 * no call and shows what the operator saw; a dashboard that is not open resolves its ranges at `now`.
 */
const shownClocks = new Map<number, number>();
/** Notes the minute (panelClock's time in ms) dashboard `id` shows; answers the clean-up that forgets it. */
export function noteShownClock(id: number, minute: number): () => void {
  shownClocks.set(id, minute);
  return () => {
    if (shownClocks.get(id) === minute) shownClocks.delete(id);
  };
}
export const shownClock = (id: number, now = new Date()) => {
  const shown = shownClocks.get(id);
  return shown === undefined ? panelClock(now) : new Date(shown);
};

/**
 * A panel's query holds only what its answer depends on, so panels that show the same figures (a bullet,
 * a gauge and a pie over the same range) share one query key: one call to the director for all of them.
 */
export function panelQuery(panel: DashboardPanel, range: TimeRangeConfig, now = new Date()): ReportParams {
  const { threshold, match, group_by, ...p } = panelParams(panel, range, now);
  switch (sourceOf(panel.kind)) {
    case 'series':
      return { ...p, points: pointsForWidth(panel.w) };
    case 'taam':
      return p;
    case 'tree':
      return { ...p, group_by, threshold, match };
    case 'results':
      return { ...p, group_by };
  }
}

/** The key of a panel query among a dashboard's answers. */
export const requestKey = (r: PanelRequest) => JSON.stringify([r.source, r.query]);

/** A dashboard's distinct panel queries at `now` (panels that show the same figures ask once) and each panel's key. */
export function dashboardRequests(d: Pick<Dashboard, 'panels' | 'time_range'>, now: Date): { queries: PanelRequest[]; keyOf: Record<string, string> } {
  const queries = new Map<string, PanelRequest>();
  const keyOf: Record<string, string> = {};
  for (const p of d.panels) {
    const r = panelRequest(sourceOf(p.kind), panelQuery(p, d.time_range, now));
    const key = requestKey(r);
    queries.set(key, r);
    keyOf[p.uid] = key;
  }
  return { queries: [...queries.values()], keyOf };
}

/**
 * Every panel of a dashboard in one call (POST /reports/panels.json), by request key. Each answer also
 * fills the panel's own cache entry (qk.panel), so an export right after reads it without a call.
 */
export async function loadPanels(queries: PanelRequest[], qc?: QueryClient): Promise<Record<string, PanelAnswer>> {
  if (!queries.length) return {};
  const { answers } = await fetchPanels(queries);
  const out: Record<string, PanelAnswer> = {};
  queries.forEach((r, i) => {
    const a = answers[i];
    if (!a) return;
    out[requestKey(r)] = a;
    if (!('error' in a)) qc?.setQueryData(qk.panel(r.source, r.query), a);
  });
  return out;
}

/**
 * A dashboard pane's two queries (its definition, then every panel's figures in one call). The pane and
 * the prefetch that starts them when the pane opens use these, so they share keys, and the figures
 * fetched ahead count as fresh when the pane renders (one call, not two).
 */
const FRESH_MS = 30_000;
export const dashboardQuery = (id: number) => queryOptions({ queryKey: qk.dashboard(id), queryFn: () => getDashboard(id), staleTime: FRESH_MS });
export const panelsQuery = (queries: PanelRequest[], qc: QueryClient) => queryOptions({ queryKey: qk.panels(queries), queryFn: () => loadPanels(queries, qc), staleTime: FRESH_MS });

/**
 * Starts a dashboard's calls ahead (the pane opening, a hover over it in the list): its definition, then
 * at once its panels' figures, while the pane's code downloads and the pane renders.
 */
export async function prefetchDashboard(qc: QueryClient, id: number): Promise<void> {
  if (!(id > 0)) return;
  try {
    const d = await qc.fetchQuery(dashboardQuery(id));
    await qc.prefetchQuery(panelsQuery(dashboardRequests(d, panelClock()).queries, qc));
  } catch {
    // The pane asks again and shows the error.
  }
}

export const tableOf = (d: PanelData): TableData => reportTable(d);

/** Job action conditions the jobs filter can express for a clicked key or metric (values as the fields' selectors hold them: a dropdown's is one text). */
export function rulesFor(panel: DashboardPanel, s: ChartSelection): FilterNode[] {
  const conds: FilterNode[] = [];
  if (s.key && panel.options.group_by === 'action_type') conds.push({ match_object: 'job_action', match_field: 'action_type', operator: 'in', value: s.key });
  if (s.key && panel.options.group_by === 'action' && s.label) conds.push({ match_object: 'job_action', match_field: 'name', operator: 'equals', value: s.label });
  const missed: (ResultMetric | 'total' | undefined)[] = ['missed', 'failed'];
  if (missed.includes(s.metric)) conds.push({ match_object: 'job_action', match_field: 'events', operator: 'in', value: '0' });
  return conds.length ? [{ operator: 'or', conditions: [{ operator: 'and', conditions: conds }] }] : [];
}
