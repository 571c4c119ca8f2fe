import { http } from '@/api/http';
import {
  GROUP_KEYS,
  type Dashboard,
  type DashboardPanel,
  type DashboardsAnswer,
  type MitreMatrixAnswer,
  type PanelLibraryAnswer,
  type ReportParams,
  type ShareableUser,
  type TechniqueActionsAnswer,
  type UntestedAnswer,
} from '@/api/contracts/reports';
import { resolveTimeRange, weekdayQuery, type TimeRangeConfig } from '@/api/contracts/time-range';
import { userTimeZone } from '@/ui/datetime';
import type { PanelRequest, PanelSource, PanelsAnswer } from '@/api/contracts/report-table';

/** Fetchers of the reports calls (docs/api.md "Reports", "Dashboards"); plain functions, so commands and scripts call them too. */

type Params = Record<string, string | number | undefined>;
const clean = (p: ReportParams): Params => Object.fromEntries(Object.entries(p).filter(([, v]) => v !== '' && v !== undefined)) as Params;

export const fetchMatrix = (p: ReportParams) => http.get<MitreMatrixAnswer>('/reports/mitre_matrix.json', { params: clean(p) });
export const fetchUntested = (p: ReportParams) => http.get<UntestedAnswer>('/reports/mitre_untested.json', { params: clean(p) });
/** A panel's query as POST /reports/panels.json takes it (empty fields left out, as in the GET calls). */
export const panelRequest = (source: PanelSource, p: ReportParams): PanelRequest => ({ source, query: clean(p) as PanelRequest['query'] });
/** Every panel of a dashboard in one call (POST /reports/panels.json), answers in the order of the queries. */
export const fetchPanels = (queries: PanelRequest[]) => http.post<PanelsAnswer>('/reports/panels.json', { queries });
export const fetchTechnique = (id: string) => http.get<TechniqueActionsAnswer>('/reports/mitre_technique.json', { params: { id } });

/** The Panel Library (GET {library path}); a non-array answer is treated as an empty list. */
export async function fetchPanelLibrary(path = '/reports/panel_library.json'): Promise<PanelLibraryAnswer> {
  const answer = await http.get<unknown>(path);
  return Array.isArray(answer) ? (answer as PanelLibraryAnswer) : [];
}

export const listDashboards = () => http.get<DashboardsAnswer>('/dashboards.json');
export const getDashboard = (id: number) => http.get<Dashboard>(`/dashboards/${id}`);
export const createDashboard = (name: string, panels: DashboardPanel[] = [], time_range?: TimeRangeConfig) => http.post<Dashboard>('/dashboards.json', { name, panels, ...(time_range ? { time_range } : {}) });
export const patchDashboard = (id: number, patch: Partial<Pick<Dashboard, 'name' | 'panels' | 'time_range'>>) => http.patch<Dashboard>(`/dashboards/${id}`, patch);
export const duplicateDashboard = (id: number, name?: string) => http.post<Dashboard>(`/dashboards/${id}/duplicate.json`, name ? { name } : {});
export const deleteDashboard = (id: number) => http.delete<{ id: number }>(`/dashboards/${id}`);
export const shareDashboard = (id: number, user_ids: number[]) => http.put<Dashboard>(`/dashboards/${id}/shares.json`, { user_ids });
export const shareableUsers = () => http.get<{ users: ShareableUser[] }>('/dashboards/share_users.json');

export const qk = {
  dashboards: ['dashboards'] as const,
  dashboard: (id: number) => ['dashboards', id] as const,
  /** A panel's figures, by the call they come from (results, series, taam, tree) and its query. */
  panel: (source: string, p: ReportParams) => ['reports', source, p] as const,
  /** A dashboard's panels, answered together: by the distinct queries of its panels. */
  panels: (queries: readonly PanelRequest[]) => ['reports', 'panels', queries] as const,
  matrix: (p: ReportParams) => ['reports', 'matrix', p] as const,
  technique: (id: string) => ['reports', 'technique', id] as const,
};

/** The query of a panel: its own time range or the dashboard's, resolved now, and its filter. */
export function panelParams(panel: DashboardPanel, dashboardRange: TimeRangeConfig, now = new Date()): ReportParams {
  const range = panel.options.time_range ?? dashboardRange;
  const { start, end } = resolveTimeRange(range, now);
  const o = panel.options;
  const structured = o.structuredFilter ? { filter: 'adhoc', structuredFilter: o.structuredFilter } : {};
  return {
    start: start.toISOString(),
    end: end.toISOString(),
    ...weekdayQuery(range, userTimeZone),
    group_by: (GROUP_KEYS as readonly string[]).includes(o.group_by) ? o.group_by : 'action_type',
    threshold: o.blockThreshold,
    match: o.chartMode === 'blocked' ? 'prevented' : 'detected',
    filterVal: o.filterVal,
    ...structured,
  };
}
