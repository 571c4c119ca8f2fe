import * as yup from 'yup';
import { jobPicks } from '@/commands/entity-picks';
import { pickFrom, scriptOnly, type PickSource } from '@/commands/pick';
import type { CommandContext } from '@/commands/types';
import type { JobAction } from '@/api/contracts/jobs';
import { serverMessage } from '@/features/jobs/api';
import { activeRow, findPaneState, rowJobId, targetJobs, type PaneState } from '@/features/jobs/pane-state';

/** What every jobs command shares: the panes they act in, the focused pane's rows, and argument schemas. */

export const PANES = ['jobs', 'job'];
export const inJobsPane = (ctx: CommandContext) => !!ctx.activePane && PANES.includes(ctx.activePane.kind);
export const inList = (ctx: CommandContext) => ctx.activePane?.kind === 'jobs';
export const paneOf = (ctx: CommandContext): PaneState | null => findPaneState(ctx.activePane);
export const listPane = (ctx: CommandContext): PaneState => {
  const s = paneOf(ctx);
  if (!s || s.kind !== 'jobs') throw new Error('Focus the Jobs pane first.');
  return s;
};
/** Mutations refresh every query, on success and on error (JOB-058). */
export const refreshAll = (ctx: CommandContext) => ctx.queryClient?.invalidateQueries();
export const fail = (e: unknown): never => {
  throw new Error(serverMessage(e));
};

export function focusedJob(ctx: CommandContext, id: number | undefined): number {
  if (id !== undefined) return id;
  const s = paneOf(ctx);
  const found = s ? (s.kind === 'job' ? s.jobId : rowJobId(activeRow(s))) : null;
  if (found === null || found === undefined) throw new Error('Focus a job in a Jobs pane first, or give the job id.');
  return found;
}

export function jobsOf(ctx: CommandContext, ids: number[] | undefined): number[] {
  if (ids?.length) return [...new Set(ids)];
  const s = paneOf(ctx);
  const found = s ? targetJobs(s) : [];
  if (!found.length) throw new Error('Select job results (or focus one) first, or give their ids.');
  return found;
}

/** The job action of a row on screen: the one with this id (a row menu), else the focused row. */
export function focusedAction(ctx: CommandContext, jobActionId?: number): JobAction {
  const s = paneOf(ctx);
  if (jobActionId !== undefined) {
    const row = s?.rows.find((r) => r.kind === 'action' && r.action.id === jobActionId);
    if (row?.kind === 'action') {
      s!.activeKey = row.key;
      return row.action;
    }
    throw new Error(`Job action ${jobActionId} is not on screen in the focused Jobs pane.`);
  }
  const r = s ? activeRow(s) : null;
  if (r?.kind !== 'action') throw new Error('Focus an action row first.');
  return r.action;
}

/** The job picked by default: the focused job of a Jobs pane. */
const focusedJobPicks: PickSource = {
  ...jobPicks,
  current: (ctx) => {
    const s = paneOf(ctx);
    const id = s ? (s.kind === 'job' ? s.jobId : rowJobId(activeRow(s))) : null;
    return id ? { value: id, label: `Job ${id}` } : null;
  },
};
export const idArg = yup.object({ id: yup.number().integer().positive().label('Job').meta(pickFrom(focusedJobPicks)) });

/**
 * Whether a command on jobs applies where it is run: it names its jobs, or it runs in a terminal (no
 * focused pane to act on), or a Jobs pane is focused. The palette hides it elsewhere (the
 * Start pane has no job to cancel).
 */
export const appliesHere = (ctx: CommandContext, args?: { id?: unknown; job_ids?: unknown }): boolean =>
  args?.id !== undefined || args?.job_ids !== undefined || !ctx.dock || inJobsPane(ctx);
/** Job ids as a list, or in a script as `job_ids=12,14` or one id (`job_ids=$job.id`). */
export const jobIdList = yup
  .array(yup.number().typeError('Job ids must be numbers').integer().positive().required())
  .transform((value: unknown, original: unknown) =>
    typeof original === 'string' ? original.split(',').map((x) => x.trim()).filter(Boolean).map(Number) : typeof original === 'number' ? [original] : value,
  )
  .max(1000)
  .label('Job ids');

/** The jobs picked by default: the Jobs pane's selected jobs, else its focused job (the Job pane's job). */
const targetJobPicks: PickSource = {
  ...jobPicks,
  current: (ctx) => {
    const s = paneOf(ctx);
    return s ? targetJobs(s).map((id) => ({ value: id, label: `Job ${id}` })) : null;
  },
};
/** Jobs a command acts on, asked in the palette with a searchable multiple pick (the selection chosen at first). */
export const pickedIdsArg = yup.object({ job_ids: jobIdList.label('Jobs').meta(pickFrom(targetJobPicks)) });
/**
 * The job action row a command acts on: a row's menu or a script names it (it must be on screen in the
 * focused Jobs pane); the palette acts on the focused row and does not ask.
 */
export const actionArg = yup.object({ job_action_id: yup.number().integer().positive().label('Job action id').meta(scriptOnly()) });

/** The Selected menu's items need a selection (JOB: "Select jobs first."). */
export const selectionBlocked = (ctx: CommandContext): string | null => (paneOf(ctx)?.filter.selected_jobs.length ? null : 'Select jobs first.');

