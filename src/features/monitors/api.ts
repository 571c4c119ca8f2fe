import { http } from '@/api/http';
import type {
  DriftItem,
  ExpectedEventsAnswer,
  MonitorBody,
  MonitorDetail,
  MonitorDraftAnswer,
  MonitorEditorOptions,
  MonitorListAnswer,
  MonitorListSort,
  MonitorRunsAnswer,
  RunNowAnswer,
} from '@/api/contracts/monitors';

/** Plain fetchers of the monitor calls (docs/api.md "Monitors"), shared by commands and components. */

export interface MonitorListFilter {
  search: string;
  sort: MonitorListSort;
  dir: 'asc' | 'desc';
}

export const monitorKeys = {
  all: ['monitors'] as const,
  list: (f: MonitorListFilter) => ['monitors', 'list', f] as const,
  one: (id: number) => ['monitors', 'one', id] as const,
  runs: (id: number, page: number) => ['monitors', 'runs', id, page] as const,
  drift: ['monitors', 'drift'] as const,
  draft: (source: string) => ['monitors', 'draft', source] as const,
  options: ['monitors', 'options'] as const,
  expectedEvents: (actionId: number) => ['monitors', 'expected-events', actionId] as const,
};

export const fetchMonitors = (f: MonitorListFilter, signal?: AbortSignal) =>
  http.get<MonitorListAnswer>('/monitors.json', { params: { search: f.search || undefined, sort: f.sort, dir: f.dir }, signal });
export const fetchMonitor = (id: number, signal?: AbortSignal) => http.get<MonitorDetail>(`/monitors/${id}.json`, { signal });
export const fetchMonitorRuns = (id: number, page: number, perPage = 20) => http.get<MonitorRunsAnswer>(`/monitors/${id}/runs.json`, { params: { page, per_page: perPage } });
export const fetchDrift = () => http.get<{ data: DriftItem[] }>('/monitors/drift.json').then((a) => a.data);
export const fetchEditorOptions = () => http.get<MonitorEditorOptions>('/monitors/options.json');
export const fetchExpectedEvents = (actionId: number, signal?: AbortSignal) =>
  http.get<ExpectedEventsAnswer>('/monitors/expected_events.json', { params: { action_id: actionId }, signal });

export const fetchDraft = (source: { simulation_id: number } | { action_ids: number[] }, timezone: string) =>
  http.get<MonitorDraftAnswer>('/monitors/new.json', { params: { ...('simulation_id' in source ? { simulation_id: source.simulation_id } : { 'action_ids[]': source.action_ids }), timezone } });

export const createMonitor = (body: MonitorBody) => http.post<MonitorDetail>('/monitors.json', body);
export const updateMonitor = (id: number, body: MonitorBody) => http.put<MonitorDetail>(`/monitors/${id}.json`, body);
export const deleteMonitor = (id: number) => http.delete<{ id: number; deleted: boolean }>(`/monitors/${id}.json`);
export const duplicateMonitor = (id: number) => http.post<MonitorDetail>(`/monitors/${id}/duplicate.json`);
export const pauseMonitor = (id: number) => http.post<MonitorDetail>(`/monitors/${id}/pause.json`);
export const resumeMonitor = (id: number) => http.post<MonitorDetail>(`/monitors/${id}/resume.json`);
export const runMonitorNow = (id: number) => http.post<RunNowAnswer>(`/monitors/${id}/run_now.json`);
