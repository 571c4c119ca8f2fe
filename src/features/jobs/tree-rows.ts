import { useQueries, type QueryClient, type UseQueryResult } from '@tanstack/react-query';
import type { EventsFilter, JobAction, JobDetail, JobListItem } from '@/api/contracts/jobs';
import { getJob, jobsKeys, loadStepActions } from './api';
import { isJobOpen, isStepOpen, useExpanded } from './expanded';
import type { RowRef } from './pane-state';

/**
 * Rows of the jobs tree: jobs (list only), their steps (group rows) and the steps' actions. A job's
 * steps are fetched when the job is expanded, a step's actions only when the step is expanded (JOB-011),
 * once: collapsing and expanding again shows the cached rows; the pane's polling, Refresh and the
 * mutations (which invalidate every query) keep them current.
 */

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

function stepRows(
  jobId: number,
  detail: UseQueryResult<JobDetail> | undefined,
  prefix: string,
  level: number,
  expanded: ReturnType<typeof useExpanded>,
  actions: Map<number, UseQueryResult<JobAction[]>>,
): RowRef[] {
  const out: RowRef[] = [];
  const parentKey = prefix || null;
  const k = (s: string) => (prefix ? `${prefix}>${s}` : s);
  if (!detail || detail.isPending) return [{ kind: 'note', key: k('note:steps'), level, parentKey, text: 'Loading steps…', tone: 'muted' }];
  if (detail.isError && !detail.data) return [{ kind: 'note', key: k('note:steps'), level, parentKey, text: message(detail.error), tone: 'error' }];
  const steps = detail.data?.steps ?? [];
  if (!steps.length) return [{ kind: 'note', key: k('note:steps'), level, parentKey, text: 'This job has no steps.', tone: 'muted' }];
  for (const step of steps) {
    const open = isStepOpen(expanded, jobId, step.id);
    const key = k(`step:${step.id}`);
    out.push({ kind: 'step', key, level, parentKey, jobId, step, expanded: open });
    if (!open) continue;
    const q = actions.get(step.id);
    if (!q || q.isPending) out.push({ kind: 'note', key: `${key}>note:actions`, level: level + 1, parentKey: key, text: 'Loading actions…', tone: 'muted' });
    else if (q.isError && !q.data) out.push({ kind: 'note', key: `${key}>note:actions`, level: level + 1, parentKey: key, text: message(q.error), tone: 'error' });
    else if (!q.data?.length) out.push({ kind: 'note', key: `${key}>note:actions`, level: level + 1, parentKey: key, text: 'No actions to display.', tone: 'muted' });
    else for (const a of q.data) out.push({ kind: 'action', key: `${key}>action:${a.id}`, level: level + 1, parentKey: key, jobId, stepId: step.id, action: a });
  }
  return out;
}

function useStepActions(openSteps: readonly { stepId: number }[], events: EventsFilter | '') {
  const results = useQueries({
    queries: openSteps.map(({ stepId }) => ({ queryKey: jobsKeys.stepActions(stepId, events), queryFn: () => loadStepActions(stepId, events), staleTime: Infinity })),
  });
  return new Map(openSteps.map((s, i) => [s.stepId, results[i]!]));
}

/** The jobs list's rows: each job, and when expanded its steps and their actions. */
export function useListRows(jobs: readonly JobListItem[], events: EventsFilter | '') {
  const expanded = useExpanded();
  const openJobIds = jobs.filter((j) => isJobOpen(expanded, j.id)).map((j) => j.id);
  const details = useQueries({ queries: openJobIds.map((id) => ({ queryKey: jobsKeys.detail(id), queryFn: () => getJob(id), staleTime: Infinity })) });
  const detailById = new Map(openJobIds.map((id, i) => [id, details[i]!]));
  const openSteps = openJobIds.flatMap((jobId) => (detailById.get(jobId)?.data?.steps ?? []).filter((st) => isStepOpen(expanded, jobId, st.id)).map((st) => ({ jobId, stepId: st.id })));
  const actions = useStepActions(openSteps, events);
  const rows: RowRef[] = [];
  for (const job of jobs) {
    const open = isJobOpen(expanded, job.id);
    const key = `job:${job.id}`;
    rows.push({ kind: 'job', key, level: 1, parentKey: null, jobId: job.id, job, expanded: open });
    if (open) rows.push(...stepRows(job.id, detailById.get(job.id), key, 2, expanded, actions));
  }
  return { rows, openJobIds, openSteps };
}

/** A job pane's rows: the job's steps (level 1) and their actions. */
export function useJobRows(jobId: number, detail: UseQueryResult<JobDetail>) {
  const expanded = useExpanded();
  const openSteps = (detail.data?.steps ?? []).filter((st) => isStepOpen(expanded, jobId, st.id)).map((st) => ({ jobId, stepId: st.id }));
  const actions = useStepActions(openSteps, '');
  return { rows: stepRows(jobId, detail, '', 1, expanded, actions), openSteps };
}

/** A background re-poll of the open jobs' steps and of the open steps' actions. */
export async function repollTree(qc: QueryClient, jobIds: readonly number[], steps: readonly { stepId: number }[], events: EventsFilter | ''): Promise<void> {
  await Promise.all([
    ...jobIds.map((id) => qc.fetchQuery({ queryKey: jobsKeys.detail(id), queryFn: () => getJob(id, { background: true }), staleTime: 0 })),
    ...steps.map(({ stepId }) => qc.fetchQuery({ queryKey: jobsKeys.stepActions(stepId, events), queryFn: () => loadStepActions(stepId, events, true), staleTime: 0 })),
  ]);
}
