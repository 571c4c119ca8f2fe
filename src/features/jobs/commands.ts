import * as yup from 'yup';
import { sleepUnlessStopped, throwIfStopped } from '@/commands/abort';
import { defineCommand } from '@/commands/registry';
import type { AnyCommand, CommandContext } from '@/commands/types';
import { CANCEL_CONFIRM, CSV_ALL_EVENTS, CSV_DELIVERIES, CSV_QUOTES, CSV_SEPARATORS, EVENTS_FILTERS, FINISHED_STATUSES, JOBS_EXPORT_NAME, JOB_ACTIONS_EXPORT_NAME, PAGE_SIZES, SORT_COLUMNS, canCancelJob, csvFilename, deleteConfirmText, formatFilterRange, type EventsFilter, type JobAction, type SortColumn, type SortDirection } from '@/api/contracts/jobs';
import type { FilterNode } from '@/api/contracts/filters';
import { flash } from '@/ui/toasts';
import { cancelJob, deleteJob, exportCsv, getJob, listParams, publishJobs, serverMessage } from './api';
import { deliverCsv } from './csv-delivery';
import { dialogs } from './dialogs';
import { setJobOpen, setStepOpen } from './expanded';
import { datePresetRange, DATE_PRESETS, type DatePreset } from './date-presets';
import {
  activeRow,
  changeFilter,
  findPaneState,
  goToPage,
  jobStatusOf,
  moveActive,
  rowJobId,
  targetJobs,
  toggleSelectAll,
  toggleSelected,
  type PaneState,
} from './pane-state';
import { cloneActionUrl, cloneBlockedReason, editActionUrl, editBlockedReason, mayCancel, mayDelete, mayPublish, maySeeEvents, simulationUrl, summaryUrl, suspectEventsUrl } from './predicates';
import { splitQualifiers } from './filter-qualifiers';
import { toListRequest } from './stored-filter';
import { type JobStatus } from '@/api/contracts/vocabulary';

const PANES = ['jobs', 'job'];
const inJobsPane = (ctx: CommandContext) => !!ctx.activePane && PANES.includes(ctx.activePane.kind);
const inList = (ctx: CommandContext) => ctx.activePane?.kind === 'jobs';
const paneOf = (ctx: CommandContext): PaneState | null => findPaneState(ctx.activePane);
const listPane = (ctx: CommandContext): PaneState => {
  const s = paneOf(ctx);
  if (!s || s.kind !== 'jobs') throw new Error('Focus the Jobs pane first.');
  return s;
};
/** Mutations refresh every query, on success and on error (JOB-058). */
const refreshAll = (ctx: CommandContext) => ctx.queryClient?.invalidateQueries();
const fail = (e: unknown): never => {
  throw new Error(serverMessage(e));
};

function focusedJob(ctx: CommandContext, id: number | undefined): number {
  if (id !== undefined) return id;
  const s = paneOf(ctx);
  const found = s ? (s.kind === 'job' ? s.jobId : rowJobId(activeRow(s))) : null;
  if (found === null || found === undefined) throw new Error('Focus a job in a Jobs pane first, or give the job id.');
  return found;
}

function jobsOf(ctx: CommandContext, ids: number[] | undefined): number[] {
  if (ids?.length) return [...new Set(ids)];
  const s = paneOf(ctx);
  const found = s ? targetJobs(s) : [];
  if (!found.length) throw new Error('Select job results (or focus one) first, or give their ids.');
  return found;
}

function focusedAction(ctx: CommandContext): JobAction {
  const s = paneOf(ctx);
  const r = s ? activeRow(s) : null;
  if (r?.kind !== 'action') throw new Error('Focus an action row first.');
  return r.action;
}

const idArg = yup.object({ id: yup.number().integer().positive().label('Job id') });
/** Job ids as a list, or in a script as `job_ids=12,14` or one id (`job_ids=$job.id`). */
const jobIdList = yup
  .array(yup.number().typeError('Job ids must be numbers').integer().positive().required())
  .transform((value: unknown, original: unknown) =>
    typeof original === 'string' ? original.split(',').map((x) => x.trim()).filter(Boolean).map(Number) : typeof original === 'number' ? [original] : value,
  )
  .max(1000)
  .label('Job ids');
const idsArg = yup.object({ job_ids: jobIdList });
const actionArg = yup.object({ job_action_id: yup.number().integer().positive().label('Job action id') });

type ExportArgs = {
  separator?: keyof typeof CSV_SEPARATORS;
  delivery?: 'download' | 'popup';
  all_events?: 'visible' | 'all';
  regex?: 'double' | 'single';
  filename?: string;
  job_action_report?: boolean;
  /** Without a Jobs pane (scripts): the jobs to export, or the list's filter text to export every match of. */
  job_ids?: number[];
  filter?: string;
  /** `format=csv`: the only export format, accepted so scripts can say it. */
  format?: 'csv';
};

/** What jobs.export gives a script: the file's name, its data rows and its text. */
export interface ExportResult {
  filename: string;
  rows: number;
  csv: string;
}

/** Runs an export of a jobs pane's filter: visible rows (or the job pane's job) or all matches. */
type ExportChoice = Required<Omit<ExportArgs, 'filename' | 'job_ids' | 'filter' | 'format'>> & Pick<ExportArgs, 'job_ids' | 'filter'> & { filename: string };

/** An export's filter text as the list's query: free text, and `field:value` qualifiers as one rule (`status:completed`). */
function filterProps(filter: string): Record<string, unknown> {
  const { text, conditions } = splitQualifiers(filter);
  if (!conditions.length) return { filterVal: text };
  const rules: FilterNode[] = [{ operator: 'and', conditions }];
  return { ...(text ? { filterVal: text } : {}), filter: 'adhoc', structuredFilter: JSON.stringify({ rules }) };
}

/** Which rows an export covers: given ids, a filter's every match, the pane's visible rows, or the job pane's job. */
function exportScope(s: PaneState | null, a: ExportChoice): { props: Record<string, unknown>; allEvents: 'visible' | 'all' } {
  if (a.job_ids?.length) return { props: { job_ids: [...new Set(a.job_ids)] }, allEvents: 'visible' };
  if (a.filter !== undefined && s?.kind !== 'jobs') return { props: filterProps(a.filter), allEvents: 'all' };
  if (!s) throw new Error('Focus a Jobs pane, or give job_ids or filter.');
  const props: Record<string, unknown> = s.kind === 'jobs' ? listParams(toListRequest(s.filter, s.vid, null, s.timezoneOffset)) : {};
  for (const k of ['after', 'before', 'selected_jobs[]']) delete props[k];
  for (const [k, v] of Object.entries(props)) if (v === undefined) delete props[k];
  // A job pane exports its own job whatever the rows choice.
  const allEvents = s.kind === 'job' ? 'visible' : a.all_events;
  if (allEvents === 'visible') props.job_ids = s.kind === 'job' ? (s.jobId ? [s.jobId] : []) : s.pageJobs.map((j) => j.id);
  return { props, allEvents };
}

/** Runs an export of given jobs, of a filter, or of a jobs pane's filter: visible rows (or the job pane's job) or all matches. */
export async function runExport(s: PaneState | null, a: ExportChoice): Promise<ExportResult> {
  const { props, allEvents } = exportScope(s, a);
  const filename = csvFilename(a.filename, a.job_action_report ? JOB_ACTIONS_EXPORT_NAME : JOBS_EXPORT_NAME);
  const csv = await exportCsv({ separator: a.separator, delivery: a.delivery, all_events: allEvents, regex: a.regex, filename, props, job_action_report: a.job_action_report }).catch(fail);
  deliverCsv(csv, filename, a.delivery);
  return { filename, rows: csvRowCount(csv), csv };
}

/** Data rows of a CSV text: records after the header, counting quoted line breaks as part of their field. */
export function csvRowCount(csv: string): number {
  let records = 0;
  let quoted = false;
  for (let i = 0; i < csv.length; i++) {
    const c = csv[i];
    if (c === '"') quoted = !quoted;
    else if (c === '\n' && !quoted) records++;
  }
  if (csv.length && !csv.endsWith('\n')) records++;
  return Math.max(0, records - 1);
}

/** What jobs.wait gives a script once the job has finished. */
export interface JobOutcome {
  id: number;
  name: string;
  status: JobStatus;
  progress: number;
  finished_at: string | null;
}

const WAIT_POLL_MS = 2000;

/** Polls a job until it is errored, cancelled or completed; fails when the timeout passes first, stops when the signal aborts. */
export async function waitForJob(id: number, timeoutMs: number, signal?: AbortSignal, pollMs = WAIT_POLL_MS): Promise<JobOutcome> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await getJob(id, { background: true, signal }).catch((e: unknown) => {
      throwIfStopped(signal);
      return fail(e);
    });
    if (FINISHED_STATUSES.includes(job.status)) return { id: job.id, name: job.name, status: job.status, progress: job.progress, finished_at: job.finished_at };
    if (Date.now() + pollMs > deadline) throw new Error(`Job ${id} is still ${job.status} (${job.progress}%) after ${Math.round(timeoutMs / 1000)} s.`);
    await sleepUnlessStopped(pollMs, signal);
  }
}

export const jobsCommands: AnyCommand[] = [
  // Rows
  defineCommand({ id: 'jobs.nextRow', title: 'Next Row', category: 'Jobs', keywords: ['down', 'move'], hotkey: 'j', hotkeyContext: PANES, when: inJobsPane, run: (_a, ctx) => void (paneOf(ctx) && moveActive(paneOf(ctx)!, 1)) }),
  defineCommand({ id: 'jobs.previousRow', title: 'Previous Row', category: 'Jobs', keywords: ['up', 'move'], hotkey: 'k', hotkeyContext: PANES, when: inJobsPane, run: (_a, ctx) => void (paneOf(ctx) && moveActive(paneOf(ctx)!, -1)) }),
  defineCommand({
    id: 'jobs.expand',
    title: 'Expand Row',
    category: 'Jobs',
    keywords: ['open', 'step', 'group', 'actions'],
    hotkey: 'l',
    hotkeyContext: PANES,
    when: inJobsPane,
    run: (_a, ctx) => {
      const s = paneOf(ctx);
      const r = s ? activeRow(s) : null;
      if (r?.kind === 'job') setJobOpen(r.jobId, true);
      else if (r?.kind === 'step') setStepOpen(r.jobId, r.step.id, true);
    },
  }),
  defineCommand({
    id: 'jobs.collapse',
    title: 'Collapse Row',
    category: 'Jobs',
    keywords: ['close', 'step', 'group'],
    hotkey: 'h',
    hotkeyContext: PANES,
    when: inJobsPane,
    run: (_a, ctx) => {
      const s = paneOf(ctx);
      const r = s ? activeRow(s) : null;
      if (!s || !r) return;
      if (r.kind === 'job' && r.expanded) setJobOpen(r.jobId, false);
      else if (r.kind === 'step' && r.expanded) setStepOpen(r.jobId, r.step.id, false);
      else if (r.parentKey) s.activeKey = r.parentKey;
    },
  }),
  defineCommand({
    id: 'jobs.toggleSelect',
    title: 'Select Job',
    category: 'Jobs',
    keywords: ['check', 'mark', 'selection'],
    hotkey: 'x',
    hotkeyContext: 'jobs',
    when: inList,
    run: (_a, ctx) => {
      const s = listPane(ctx);
      const id = rowJobId(activeRow(s));
      if (id !== null) toggleSelected(s, id);
      return [...s.filter.selected_jobs];
    },
  }),
  defineCommand({
    id: 'jobs.selectAll',
    title: 'Select All Jobs on the Page',
    category: 'Jobs',
    keywords: ['check', 'selection', 'all'],
    hotkey: 'shift+x',
    hotkeyContext: 'jobs',
    when: inList,
    run: (_a, ctx) => {
      const s = listPane(ctx);
      toggleSelectAll(s);
      return [...s.filter.selected_jobs];
    },
  }),
  defineCommand({
    id: 'jobs.clearSelection',
    title: 'Clear Job Selection',
    category: 'Jobs',
    keywords: ['unselect', 'none'],
    when: inList,
    run: (_a, ctx) => {
      listPane(ctx).filter.selected_jobs = [];
    },
  }),

  // Operations
  defineCommand<{ id?: number }>({
    id: 'jobs.cancel',
    title: 'Cancel Job',
    category: 'Jobs',
    keywords: ['stop', 'abort'],
    hotkey: 'c',
    hotkeyContext: PANES,
    menus: ['row/job'],
    when: (ctx) => mayCancel(ctx.permissions),
    args: idArg,
    run: async ({ id }, ctx) => {
      const jobId = focusedJob(ctx, id);
      const s = paneOf(ctx);
      const status = s ? jobStatusOf(s, jobId) : null;
      if (status && !canCancelJob(status)) throw new Error(`Job ${jobId} is ${status} and can no longer be cancelled.`);
      if (!(await ctx.confirm(CANCEL_CONFIRM))) return { cancelled: false };
      try {
        const answer = await cancelJob(jobId).catch(fail);
        flash('notice', `Job ${jobId} was cancelled.`);
        return answer;
      } finally {
        await refreshAll(ctx);
      }
    },
  }),
  defineCommand<{ id?: number; timeout_s?: number }>({
    id: 'jobs.wait',
    title: 'Wait for Job to Finish',
    category: 'Jobs',
    keywords: ['await', 'until', 'complete', 'script'],
    args: idArg.shape({ timeout_s: yup.number().integer().min(1).max(86_400).label('Timeout (seconds, default 900)') }),
    run: async ({ id, timeout_s }, ctx) => waitForJob(focusedJob(ctx, id), (timeout_s ?? 900) * 1000, ctx.signal),
  }),
  defineCommand<{ job_ids?: number[] }>({
    id: 'jobs.delete',
    title: 'Delete Job Results',
    category: 'Jobs',
    keywords: ['remove', 'destroy', 'selected'],
    hotkey: 'delete',
    hotkeyContext: PANES,
    menus: ['row/job'],
    when: (ctx) => mayDelete(ctx.permissions),
    args: idsArg,
    run: async ({ job_ids }, ctx) => {
      const ids = jobsOf(ctx, job_ids);
      if (!(await ctx.confirm(deleteConfirmText(ids.length)))) return { deleted: [] };
      const deleted: number[] = [];
      const failures: string[] = [];
      try {
        // One call per selected id (spec), one after the other so the director is not flooded.
        for (const id of ids) {
          try {
            await deleteJob(id);
            deleted.push(id);
          } catch (e) {
            failures.push(serverMessage(e));
          }
        }
        const s = paneOf(ctx);
        if (s?.kind === 'jobs') s.filter.selected_jobs = s.filter.selected_jobs.filter((x) => !deleted.includes(x));
        if (s?.kind === 'job' && s.jobId !== null && deleted.includes(s.jobId)) ctx.dock?.closeActive();
      } finally {
        await refreshAll(ctx);
      }
      if (failures.length) throw new Error([...new Set(failures)].join(' '));
      flash('notice', `${deleted.length} job result(s) deleted.`);
      return { deleted };
    },
  }),
  defineCommand<{ job_ids?: number[]; pipeline?: string; multisite_reporting?: boolean }>({
    id: 'jobs.publish',
    title: 'Publish Job Results',
    category: 'Jobs',
    keywords: ['report', 'pipeline', 'selected'],
    hotkey: 'p',
    hotkeyContext: PANES,
    menus: ['row/job'],
    when: (ctx) => mayPublish(ctx.permissions),
    args: idsArg.shape({ pipeline: yup.string().trim().max(100).label('Pipeline'), multisite_reporting: yup.boolean().label('Multisite reporting') }),
    run: async ({ job_ids, pipeline, multisite_reporting }, ctx) => {
      const ids = jobsOf(ctx, job_ids);
      if (pipeline === undefined && ctx.dock) {
        // Interactive: the publish job results modal asks for the pipeline.
        dialogs.publish = { jobIds: ids };
        return { dialog: true };
      }
      try {
        const answer = await publishJobs(ids, pipeline ?? '', multisite_reporting ?? ctx.licensedFeatures.has('multisite_reporting')).catch(fail);
        flash('notice', `${answer.published.length} job result(s) published to ${answer.pipeline}.`);
        return answer;
      } finally {
        await refreshAll(ctx);
      }
    },
  }),
  defineCommand<ExportArgs>({
    id: 'jobs.export',
    title: 'Export Jobs to CSV',
    category: 'Jobs',
    keywords: ['csv', 'download', 'spreadsheet', 'job action report'],
    hotkey: 'e',
    hotkeyContext: PANES,
    args: yup.object({
      job_ids: jobIdList,
      filter: yup.string().max(500).label('Filter text (exports every matching job; status:completed, ran_by:…, published:yes narrow it)'),
      separator: yup.string<keyof typeof CSV_SEPARATORS>().oneOf(Object.keys(CSV_SEPARATORS) as (keyof typeof CSV_SEPARATORS)[]).label('Separator'),
      delivery: yup.string<'download' | 'popup'>().oneOf([...CSV_DELIVERIES]).label('Delivery'),
      all_events: yup.string<'visible' | 'all'>().oneOf([...CSV_ALL_EVENTS]).label('Rows'),
      regex: yup.string<'double' | 'single'>().oneOf([...CSV_QUOTES]).label('Quote replacement'),
      filename: yup.string().max(200).label('File name'),
      job_action_report: yup.boolean().label('Job Action Report'),
      format: yup.string<'csv'>().oneOf(['csv'], 'format must be csv (the only export format)').label('Format (csv)'),
    }) as yup.Schema<ExportArgs>,
    run: async (a, ctx) => {
      const s = paneOf(ctx);
      const given = Object.values(a ?? {}).some((v) => v !== undefined);
      if (!given && ctx.dock && s) {
        dialogs.export = { paneKey: s.key, jobActionReport: false };
        return { dialog: true };
      }
      return runExport(s, {
        job_ids: a?.job_ids,
        filter: a?.filter,
        separator: a?.separator ?? 'comma',
        delivery: a?.delivery ?? 'download',
        all_events: a?.all_events ?? 'visible',
        regex: a?.regex ?? 'double',
        filename: a?.filename ?? '',
        job_action_report: a?.job_action_report ?? false,
      });
    },
  }),

  // Navigation
  defineCommand<{ id?: number }>({
    id: 'jobs.view',
    title: 'View Job Result',
    category: 'Jobs',
    keywords: ['open', 'job'],
    menus: ['row/job'],
    needsWorkbench: true,
    when: (ctx) => ctx.dock !== null,
    args: idArg,
    run: ({ id }, ctx) => ctx.dock?.openUrl(`/jobs/${focusedJob(ctx, id)}`),
  }),
  defineCommand<{ id?: number }>({
    id: 'jobs.openBeside',
    title: 'Open Job in a New Pane Beside',
    category: 'Jobs',
    keywords: ['split', 'side by side', 'view'],
    hotkey: 'o',
    hotkeyContext: 'jobs',
    needsWorkbench: true,
    when: (ctx) => ctx.dock !== null && inList(ctx),
    args: idArg,
    run: ({ id }, ctx) => {
      const url = `/jobs/${focusedJob(ctx, id)}`;
      if (ctx.dock?.openBeside) ctx.dock.openBeside(url);
      else ctx.dock?.openUrl(url);
    },
  }),
  defineCommand({
    id: 'jobs.openSimulation',
    title: "Open the Job's Simulation",
    category: 'Jobs',
    keywords: ['sequence', 'evaluation', 'action', 'vid'],
    hotkey: 's',
    hotkeyContext: PANES,
    needsWorkbench: true,
    when: (ctx) => ctx.dock !== null && inJobsPane(ctx),
    run: async (_a, ctx) => {
      const s = paneOf(ctx);
      const id = focusedJob(ctx, undefined);
      // A job pane that has not loaded its job yet: ask the director.
      const job = (s?.job?.id === id ? s.job : s?.pageJobs.find((j) => j.id === id)) ?? (await getJob(id).catch(fail));
      const url = simulationUrl(job);
      if (!url) throw new Error(`Job ${id} has no simulation or action to open.`);
      ctx.dock?.openUrl(url);
    },
  }),
  defineCommand<{ job_ids?: number[] }>({
    id: 'jobs.summaryReport',
    title: 'Job Summary Report',
    category: 'Jobs',
    keywords: ['report', 'blocked', 'detected', 'print'],
    hotkey: 'shift+s',
    hotkeyContext: PANES,
    menus: ['row/job'],
    needsWorkbench: true,
    when: (ctx) => ctx.dock !== null,
    args: idsArg,
    run: ({ job_ids }, ctx) => ctx.dock?.openUrl(summaryUrl(jobsOf(ctx, job_ids))),
  }),
  defineCommand({
    id: 'jobs.refresh',
    title: 'Refresh Jobs',
    category: 'Jobs',
    keywords: ['reload', 'update', 'poll'],
    hotkey: 'r',
    hotkeyContext: PANES,
    when: inJobsPane,
    run: async (_a, ctx) => {
      const s = paneOf(ctx);
      if (s) s.refreshTick += 1;
      await ctx.queryClient?.invalidateQueries({ queryKey: ['jobs'] });
    },
  }),
  defineCommand({
    id: 'jobs.focusFilter',
    title: 'Focus the Jobs Filter',
    category: 'Jobs',
    keywords: ['search', 'find', 'text'],
    hotkey: '/',
    hotkeyContext: 'jobs',
    when: inList,
    run: (_a, ctx) => {
      listPane(ctx).focusFilterTick += 1;
    },
  }),
  defineCommand({ id: 'jobs.nextPage', title: 'Next Page of Jobs', category: 'Jobs', hotkey: ']', hotkeyContext: 'jobs', when: inList, run: (_a, ctx) => goToPage(listPane(ctx), listPane(ctx).filter.page_number + 1) }),
  defineCommand({ id: 'jobs.previousPage', title: 'Previous Page of Jobs', category: 'Jobs', hotkey: '[', hotkeyContext: 'jobs', when: inList, run: (_a, ctx) => goToPage(listPane(ctx), listPane(ctx).filter.page_number - 1) }),
  defineCommand<{ by: SortColumn; direction?: SortDirection }>({
    id: 'jobs.sort',
    title: 'Sort Jobs',
    category: 'Jobs',
    keywords: ['order', 'column'],
    when: inList,
    args: yup.object({
      by: yup.string<SortColumn>().oneOf([...SORT_COLUMNS]).required('by is required').label('Sort by'),
      direction: yup.string<SortDirection>().oneOf(['asc', 'desc']).label('Direction'),
    }) as yup.Schema<{ by: SortColumn; direction?: SortDirection }>,
    run: ({ by, direction }, ctx) =>
      changeFilter(listPane(ctx), (f) => {
        f.sort = { by, direction: direction ?? (f.sort.by === by && f.sort.direction === 'desc' ? 'asc' : 'desc') };
      }),
  }),
  defineCommand<{ size: number }>({
    id: 'jobs.pageSize',
    title: 'Jobs per Page',
    category: 'Jobs',
    when: inList,
    args: yup.object({ size: yup.number().oneOf([...PAGE_SIZES]).required('size is required').label('Rows per page (10, 20 or 30)') }) as yup.Schema<{ size: number }>,
    run: ({ size }, ctx) => changeFilter(listPane(ctx), (f) => void (f.page_size = size)),
  }),
  defineCommand<{ text?: string }>({
    id: 'jobs.filterText',
    title: 'Filter Jobs by Text',
    category: 'Jobs',
    keywords: ['search', 'find'],
    when: inList,
    args: yup.object({ text: yup.string().max(200).label('Text') }),
    run: ({ text }, ctx) => changeFilter(listPane(ctx), (f) => void (f.filter_value = text ?? '')),
  }),
  defineCommand<{ events?: EventsFilter | '' }>({
    id: 'jobs.eventsFilter',
    title: 'Filter Jobs by Events',
    category: 'Jobs',
    keywords: ['present', 'suspicious', 'none', 'detected'],
    when: inList,
    args: yup.object({ events: yup.string<EventsFilter | ''>().oneOf(['', ...EVENTS_FILTERS]).label('Events (present, suspicious, none)') }) as yup.Schema<{ events?: EventsFilter | '' }>,
    run: ({ events }, ctx) => changeFilter(listPane(ctx), (f) => void (f.structured_filter.events = events ?? '')),
  }),
  defineCommand<{ preset?: DatePreset }>({
    id: 'jobs.dateRange',
    title: 'Filter Jobs by Date',
    category: 'Jobs',
    keywords: ['today', 'yesterday', 'last 7 days', 'last 30 days', 'this month', 'last month', 'time started'],
    when: inList,
    args: yup.object({ preset: yup.string<DatePreset>().oneOf([...DATE_PRESETS]).label('Range') }) as yup.Schema<{ preset?: DatePreset }>,
    run: ({ preset }, ctx) =>
      changeFilter(listPane(ctx), (f) => {
        const r = preset ? datePresetRange(preset, new Date()) : null;
        f.filter_range = r ? formatFilterRange(r.start, r.end) : '';
      }),
  }),

  // Job actions
  defineCommand<{ job_action_id?: number }>({
    id: 'jobs.showEvents',
    title: 'Show Action Events',
    category: 'Jobs',
    keywords: ['detected', 'integration', 'alerts'],
    hotkey: 'v',
    hotkeyContext: PANES,
    menus: ['row/job-action'],
    when: (ctx) => maySeeEvents(ctx.permissions),
    args: actionArg,
    run: ({ job_action_id }, ctx) => {
      if (job_action_id !== undefined) dialogs.events = { jobActionId: job_action_id, name: `Job action ${job_action_id}` };
      else {
        const a = focusedAction(ctx);
        dialogs.events = { jobActionId: a.id, name: a.name };
      }
    },
  }),
  defineCommand<{ job_action_id?: number }>({
    id: 'jobs.suspectEvents',
    title: 'Show Suspicious Events in a New Window',
    category: 'Jobs',
    keywords: ['suspect', 'suspicious', 'events'],
    hotkey: 'shift+v',
    hotkeyContext: PANES,
    menus: ['row/job-action'],
    needsWorkbench: true,
    when: (ctx) => maySeeEvents(ctx.permissions) && ctx.dock !== null,
    args: actionArg,
    run: ({ job_action_id }, ctx) => {
      window.open(suspectEventsUrl(job_action_id ?? focusedAction(ctx).id), '_blank', 'noopener');
    },
  }),
  defineCommand({
    id: 'jobs.editAction',
    title: 'Edit Action',
    category: 'Jobs',
    menus: ['row/job-action'],
    needsWorkbench: true,
    when: (ctx) => ctx.dock !== null && inJobsPane(ctx),
    run: (_a, ctx) => {
      const a = focusedAction(ctx);
      const blocked = editBlockedReason(ctx.permissions, a);
      if (blocked) throw new Error(blocked);
      ctx.dock?.openUrl(editActionUrl(a));
    },
  }),
  defineCommand({
    id: 'jobs.cloneAction',
    title: 'Clone Action',
    category: 'Jobs',
    menus: ['row/job-action'],
    needsWorkbench: true,
    when: (ctx) => ctx.dock !== null && inJobsPane(ctx),
    run: (_a, ctx) => {
      const a = focusedAction(ctx);
      const blocked = cloneBlockedReason(ctx.permissions, a);
      if (blocked) throw new Error(blocked);
      ctx.dock?.openUrl(cloneActionUrl(a));
    },
  }),
];
