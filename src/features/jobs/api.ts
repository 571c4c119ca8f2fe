import { ApiError, http } from '@/api/http';
import {
  type CancelAnswer,
  type EventsFilter,
  type ExportOptions,
  type JobAction,
  type JobActionEventsAnswer,
  type JobActionEvidenceAnswer,
  type JobDetail,
  type JobListAnswer,
  type PublishAnswer,
  type StepActionsAnswer,
  type SummaryReportAnswer,
} from '@/api/contracts/jobs';
import type { ListRequest } from './stored-filter';

/** Plain fetchers (commands and scripts call these) and the query options built on them. */

export const jobsKeys = {
  all: ['jobs'] as const,
  list: (req: ListRequest) => ['jobs', 'list', req] as const,
  detail: (id: number) => ['jobs', 'detail', id] as const,
  stepActions: (stepId: number, events: EventsFilter | '') => ['jobs', 'step-actions', stepId, events] as const,
  events: (jobActionId: number, kind: 'detected' | 'suspicious') => ['jobs', 'events', jobActionId, kind] as const,
  evidence: (jobActionId: number) => ['jobs', 'evidence', jobActionId] as const,
  summary: (ids: readonly number[]) => ['jobs', 'summary', ids.join(',')] as const,
};

export const getJobs = (req: ListRequest, opts: { background?: boolean; signal?: AbortSignal } = {}) =>
  http.get<JobListAnswer>('/jobs/list_page_data.json', { params: listParams(req), ...opts });

/** The list call's query from a list request (arrays as `name[]`). */
export function listParams(req: ListRequest): Record<string, string | number | (string | number)[] | undefined> {
  const structured =
    req.events || req.rules ? JSON.stringify({ ...(req.events ? { events: req.events } : {}), ...(req.rules ? { rules: JSON.parse(req.rules) as unknown } : {}) }) : '';
  return {
    size: req.size,
    page: req.page,
    sortCol: req.sortCol,
    sortDir: req.sortDir,
    filterVal: req.filterVal || undefined,
    filterRange: req.filterRange || undefined,
    vid: req.vid || undefined,
    filter: structured ? 'adhoc' : undefined,
    structuredFilter: structured || undefined,
    after: req.after || undefined,
    before: req.before || undefined,
    'selected_jobs[]': req.selected.length ? req.selected : undefined,
  };
}

export const getJob = (id: number, opts: { background?: boolean; signal?: AbortSignal } = {}) => http.get<JobDetail>(`/jobs/${id}.json`, opts);

export const getStepActions = (stepIds: readonly number[], events: EventsFilter | '' = '', opts: { background?: boolean } = {}) =>
  http.get<StepActionsAnswer>('/jobs/list_page_job_actions', { params: { 'job_step_ids[]': [...stepIds], events: events || undefined }, ...opts });

/**
 * The actions of one step, batched: steps asked for in the same tick (a job whose remembered steps
 * open together) share one list_page_job_actions call.
 */
const pending = new Map<string, { ids: Set<number>; waiters: { stepId: number; resolve: (a: JobAction[]) => void; reject: (e: unknown) => void }[] }>();
export function loadStepActions(stepId: number, events: EventsFilter | '', background = false): Promise<JobAction[]> {
  const key = `${events}|${background ? 'bg' : 'fg'}`;
  let batch = pending.get(key);
  if (!batch) {
    const created = { ids: new Set<number>(), waiters: [] as { stepId: number; resolve: (a: JobAction[]) => void; reject: (e: unknown) => void }[] };
    batch = created;
    pending.set(key, created);
    queueMicrotask(() => {
      pending.delete(key);
      getStepActions([...created.ids], events, { background }).then(
        (answer) => created.waiters.forEach((w) => w.resolve(answer[String(w.stepId)] ?? [])),
        (e: unknown) => created.waiters.forEach((w) => w.reject(e)),
      );
    });
  }
  batch.ids.add(stepId);
  return new Promise((resolve, reject) => batch.waiters.push({ stepId, resolve, reject }));
}

export const cancelJob = (id: number) => http.get<CancelAnswer>(`/jobs/${id}/cancel.json`, { csrf: true });
export const deleteJob = (id: number) => http.delete<{ id: number; deleted: boolean }>(`/jobs/${id}`);
export const publishJobs = (jobIds: readonly number[], pipeline: string, multisite: boolean) =>
  http.post<PublishAnswer & { multisite_reporting: boolean }>('/jobs/publish.json', { job_ids: [...jobIds], pipeline, multisite_reporting: multisite });

export const getActionEvents = (jobActionId: number, kind: 'detected' | 'suspicious') =>
  http.get<JobActionEventsAnswer>(`/jobs/job_actions/${jobActionId}/events.json`, { params: { kind } });

export const getActionEvidence = (jobActionId: number) => http.get<JobActionEvidenceAnswer>(`/jobs/job_actions/${jobActionId}/evidence.json`);

export const getSummary = (ids: readonly number[]) => http.get<SummaryReportAnswer>('/reports/summary.json', { params: { 'job_ids[]': [...ids] } });

export type ExportRequest = Omit<ExportOptions, 'props'> & { props: Record<string, unknown>; job_action_report: boolean };
export const exportCsv = ({ job_action_report, ...body }: ExportRequest) =>
  http.post<string>(job_action_report ? '/jobs/job_actions_data.csv' : '/jobs/list_page_data.csv', body, { parse: 'text' });

/** The server's message for a failed call, else 'Error' (spec: cancel and delete failures). */
export function serverMessage(e: unknown): string {
  if (e instanceof ApiError && e.body && typeof e.body === 'object') {
    const m = (e.body as { error?: unknown }).error;
    if (typeof m === 'string' && m) return m;
  }
  return 'Error';
}
