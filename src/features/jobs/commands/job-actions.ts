import { defineCommand } from '@/commands/registry';
import type { AnyCommand } from '@/commands/types';
import { inMenu } from '@/commands/menus';
import type { JobAction } from '@/api/contracts/jobs';
import { dialogs } from '@/features/jobs/dialogs';
import { cloneActionUrl, cloneBlockedReason, editActionUrl, editBlockedReason, maySeeEvents, suspectEventsUrl } from '@/features/jobs/predicates';
import { PANES, actionArg, focusedAction, inJobsPane, paneOf } from './context';
import { getActionEvidence, jobsKeys } from '@/features/jobs/api';
import { evidenceText } from '@/features/jobs/evidence';
import { flash } from '@/ui/toasts';

const rowArgs = (a: JobAction) => ({ job_action_id: a.id });
const onScreen = (ctx: Parameters<typeof paneOf>[0], id: number) => paneOf(ctx)?.rows.some((r) => r.kind === 'action' && r.action.id === id) ?? false;

/** What a job action row offers: its evidence, its events, its suspicious events, editing and cloning its Action. */

/** A command on one job action applies where it is run: a script names the action, or a Jobs pane shows its rows. */
const onActionHere = (ctx: Parameters<typeof paneOf>[0], a?: { job_action_id?: unknown }) => a?.job_action_id !== undefined || !ctx.dock || inJobsPane(ctx);

const evidenceOpen = (ctx: Parameters<typeof paneOf>[0]) => !!paneOf(ctx)?.evidence;

export const jobActionCommands: AnyCommand[] = [
  defineCommand<{ job_action_id?: number }>({
    id: 'jobs.showEvidence',
    title: 'Show Action Evidence',
    category: 'Jobs',
    keywords: ['blocked', 'reason', 'output', 'not run', 'timings', 'details', 'inspect'],
    hotkey: 'i',
    hotkeyContext: PANES,
    menus: [inMenu<JobAction>('row/job-action', { group: '2_events', order: 0, title: 'Evidence', args: rowArgs })],
    when: inJobsPane,
    args: actionArg,
    run: ({ job_action_id }, ctx) => {
      const a = focusedAction(ctx, job_action_id);
      const s = paneOf(ctx)!;
      s.evidence = { id: a.id, name: a.name };
      s.evidenceFocusTick += 1;
    },
  }),
  defineCommand({
    id: 'jobs.copyEvidence',
    title: 'Copy Action Evidence',
    buttonLabel: 'Copy',
    category: 'Jobs',
    keywords: ['clipboard', 'blocked', 'reason', 'output'],
    hotkey: 'y',
    hotkeyContext: PANES,
    when: evidenceOpen,
    run: async (_a, ctx) => {
      const open = paneOf(ctx)?.evidence;
      if (!open) throw new Error('Open the evidence of a job action first.');
      const answer = ctx.queryClient
        ? await ctx.queryClient.fetchQuery({ queryKey: jobsKeys.evidence(open.id), queryFn: () => getActionEvidence(open.id), staleTime: 5_000 })
        : await getActionEvidence(open.id);
      const text = evidenceText(answer);
      await navigator.clipboard.writeText(text);
      flash('notice', `Copied the evidence of ${open.name}.`);
      return { text };
    },
  }),
  defineCommand({
    id: 'jobs.closeEvidence',
    title: 'Close Action Evidence',
    buttonLabel: 'Close',
    category: 'Jobs',
    hotkey: 'escape',
    hotkeyContext: PANES,
    when: evidenceOpen,
    run: (_a, ctx) => {
      const s = paneOf(ctx);
      if (s) s.evidence = null;
    },
  }),
  defineCommand<{ job_action_id?: number }>({
    id: 'jobs.showEvents',
    title: 'Show Action Events',
    category: 'Jobs',
    keywords: ['detected', 'integration', 'alerts'],
    hotkey: 'v',
    hotkeyContext: PANES,
    menus: [inMenu<JobAction>('row/job-action', { group: '2_events', order: 1, title: 'View Events', args: rowArgs })],
    // A job action is not searchable by name: the command applies to a row on screen or to the id a script gives.
    when: (ctx, a) => maySeeEvents(ctx.permissions) && onActionHere(ctx, a),
    args: actionArg,
    run: ({ job_action_id }, ctx) => {
      // A row on screen becomes the focused one and names the dialog; an id alone (a script) is enough too.
      if (job_action_id !== undefined && !onScreen(ctx, job_action_id)) dialogs.events = { jobActionId: job_action_id, name: `Job action ${job_action_id}` };
      else {
        const a = focusedAction(ctx, job_action_id);
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
    menus: [inMenu<JobAction>('row/job-action', { group: '2_events', order: 2, title: 'Suspicious Events', args: rowArgs, blockedReason: (_ctx, a) => (a.suspect_events === 0 ? 'No suspicious events.' : null) })],
    needsWorkbench: true,
    when: (ctx, a) => maySeeEvents(ctx.permissions) && ctx.dock !== null && onActionHere(ctx, a),
    args: actionArg,
    run: ({ job_action_id }, ctx) => {
      window.open(suspectEventsUrl(job_action_id ?? focusedAction(ctx).id), '_blank', 'noopener');
    },
  }),
  defineCommand<{ job_action_id?: number }>({
    id: 'jobs.editAction',
    // Not 'Edit Action' (the library's command): one title per command in the palette.
    title: 'Edit Action of Job Result',
    category: 'Jobs',
    // Always listed; disabled with the reason when the role or the action does not allow it (section 6).
    menus: [inMenu<JobAction>('row/job-action', { group: '1_action', order: 1, title: 'Edit Action', args: rowArgs, blockedReason: (ctx, a) => editBlockedReason(ctx.permissions, a) })],
    needsWorkbench: true,
    when: (ctx) => ctx.dock !== null && inJobsPane(ctx),
    args: actionArg,
    run: ({ job_action_id }, ctx) => {
      const a = focusedAction(ctx, job_action_id);
      const blocked = editBlockedReason(ctx.permissions, a);
      if (blocked) throw new Error(blocked);
      ctx.dock?.openUrl(editActionUrl(a));
    },
  }),
  defineCommand<{ job_action_id?: number }>({
    id: 'jobs.cloneAction',
    title: 'Clone Action of Job Result',
    category: 'Jobs',
    // Always listed; disabled with the reason when the role or the action does not allow it (section 6).
    menus: [inMenu<JobAction>('row/job-action', { group: '1_action', order: 2, title: 'Clone', args: rowArgs, blockedReason: (ctx, a) => cloneBlockedReason(ctx.permissions, a) })],
    needsWorkbench: true,
    when: (ctx) => ctx.dock !== null && inJobsPane(ctx),
    args: actionArg,
    run: ({ job_action_id }, ctx) => {
      const a = focusedAction(ctx, job_action_id);
      const blocked = cloneBlockedReason(ctx.permissions, a);
      if (blocked) throw new Error(blocked);
      ctx.dock?.openUrl(cloneActionUrl(a));
    },
  }),
];
