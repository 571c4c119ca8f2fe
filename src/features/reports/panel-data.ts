import type { DashboardPanel, ReportParams } from '@/api/contracts/reports';
import type { TimeRangeConfig } from '@/api/contracts/time-range';
import { fetchResults, fetchTaam, fetchTimeSeries, fetchTreeMap, panelParams } from './api';
import type { TableData } from './charts/chart-frame';
import { reportTable, type ReportAnswer } from '@/api/contracts/report-table';
import { pointsForWidth } from './charts/rules';

/** What each panel kind reads from the director, and its figures as a table (PDF, CSV of a panel). */
export type PanelData = ReportAnswer;

export type PanelSource = PanelData['type'];

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

export async function loadPanelData(panel: DashboardPanel, p: ReportParams): Promise<PanelData> {
  switch (sourceOf(panel.kind)) {
    case 'series':
      return { type: 'series', answer: await fetchTimeSeries(p) };
    case 'taam':
      return { type: 'taam', answer: await fetchTaam(p) };
    case 'tree':
      return { type: 'tree', answer: await fetchTreeMap(p) };
    case 'results':
      return { type: 'results', answer: await fetchResults(p) };
  }
}

export const tableOf = (d: PanelData): TableData => reportTable(d);
