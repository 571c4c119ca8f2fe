import { defineCommand } from '@/commands/registry';
import type { AnyCommand } from '@/commands/types';
import { inMenu } from '@/commands/menus';
import type { JobRowMenuArgs } from '@/features/jobs/menus';
import { getJob } from '@/features/jobs/api';
import { goToPage } from '@/features/jobs/pane-state';
import { simulationUrl, summaryUrl } from '@/features/jobs/predicates';
import { PANES, fail, focusedJob, idArg, inJobsPane, pickedIdsArg, inList, jobsOf, listPane, paneOf, selectionBlocked } from './context';

const rowId = (j: JobRowMenuArgs) => ({ id: j.id });

/** Opening jobs, their simulations and reports; refreshing and paging the list. */

export const navigationCommands: AnyCommand[] = [
  defineCommand<{ id?: number }>({
    id: 'jobs.view',
    title: 'View Job Result',
    category: 'Jobs',
    keywords: ['open', 'job'],
    menus: [inMenu<JobRowMenuArgs>('row/job', { group: '1_open', order: 1, args: rowId })],
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
    menus: [inMenu<JobRowMenuArgs>('row/job', { group: '1_open', order: 3, title: 'Open in a New Pane Beside', args: rowId })],
    needsWorkbench: true,
    when: (ctx) => ctx.dock !== null && inList(ctx),
    args: idArg,
    run: ({ id }, ctx) => {
      const url = `/jobs/${focusedJob(ctx, id)}`;
      if (ctx.dock?.openBeside) ctx.dock.openBeside(url);
      else ctx.dock?.openUrl(url);
    },
  }),
  defineCommand<{ id?: number }>({
    id: 'jobs.openSimulation',
    title: "Open the Job's Simulation",
    category: 'Jobs',
    keywords: ['sequence', 'evaluation', 'action', 'vid'],
    hotkey: 's',
    hotkeyContext: PANES,
    menus: (['row/job', 'toolbar/job'] as const).map((menu) =>
      inMenu<JobRowMenuArgs>(menu, {
        group: '1_open',
        order: 4,
        title: (j) => (j.simulation ? 'Open Simulation' : 'Open Action'),
        args: rowId,
        when: (_ctx, j) => simulationUrl(j) !== null,
      }),
    ),
    needsWorkbench: true,
    when: (ctx) => ctx.dock !== null && inJobsPane(ctx),
    args: idArg,
    run: async ({ id: given }, ctx) => {
      const s = paneOf(ctx);
      const id = focusedJob(ctx, given);
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
    menus: [
      ...(['row/job', 'toolbar/job'] as const).map((menu) => inMenu<JobRowMenuArgs>(menu, { group: '1_open', order: 2, args: (j) => ({ job_ids: [j.id] }) })),
      inMenu('toolbar/jobs-selection', { group: '1_selected', order: 3, blockedReason: selectionBlocked }),
    ],
    needsWorkbench: true,
    when: (ctx) => ctx.dock !== null,
    // The palette asks which jobs (the selection, or the focused job, chosen at first); scripts give job_ids=12,14.
    args: pickedIdsArg,
    run: ({ job_ids }, ctx) => ctx.dock?.openUrl(summaryUrl(jobsOf(ctx, job_ids))),
  }),
  defineCommand({
    id: 'jobs.refresh',
    title: 'Refresh Jobs',
    buttonLabel: '↻ Refresh',
    category: 'Jobs',
    keywords: ['reload', 'update', 'poll'],
    menus: [inMenu('toolbar/job', { group: '3_refresh', title: '↻', args: () => undefined })],
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
];
