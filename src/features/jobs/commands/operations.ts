import * as yup from 'yup';
import { defineCommand } from '@/commands/registry';
import type { AnyCommand } from '@/commands/types';
import { sleepUnlessStopped, throwIfStopped } from '@/commands/abort';
import { CANCEL_CONFIRM, CANCEL_CONFIRM_BUTTONS, FINISHED_STATUSES, canCancelJob, deleteConfirmButtons, deleteConfirmText } from '@/api/contracts/jobs';
import type { JobStatus } from '@/api/contracts/vocabulary';
import { flash } from '@/ui/toasts';
import { cancelJob, deleteJob, getJob, publishJobs, serverMessage } from '@/features/jobs/api';
import { dialogs } from '@/features/jobs/dialogs';
import { inMenu } from '@/commands/menus';
import type { JobRowMenuArgs } from '@/features/jobs/menus';
import { jobStatusOf } from '@/features/jobs/pane-state';
import { cancelAllowed, deleteAllowed, mayCancel, mayDelete, mayPublish, publishAllowed } from '@/features/jobs/predicates';
import { PANES, appliesHere, fail, focusedJob, idArg, jobsOf, paneOf, pickedIdsArg, refreshAll, selectionBlocked } from './context';

/** One job's row menu and the Job pane's toolbar list these with the same label, predicate and reason. */
const onOneJob = (order: number, title: string, args: (j: JobRowMenuArgs) => unknown, allowed: typeof publishAllowed, reason: string) =>
  (['row/job', 'toolbar/job'] as const).map((menu) =>
    inMenu<JobRowMenuArgs>(menu, { group: '2_change', order, title, args, blockedReason: (ctx, j) => (allowed(ctx.permissions, j.job_status) ? null : reason) }),
  );
const jobIds = (j: JobRowMenuArgs) => ({ job_ids: [j.id] });

/** Cancel, wait for, delete and publish jobs. */

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

export const operationCommands: AnyCommand[] = [
  defineCommand<{ id?: number }>({
    id: 'jobs.cancel',
    title: 'Cancel Job',
    category: 'Jobs',
    keywords: ['stop', 'abort'],
    hotkey: 'c',
    hotkeyContext: PANES,
    menus: onOneJob(3, 'Cancel', (j) => ({ id: j.id }), cancelAllowed, 'This job can no longer be cancelled.'),
    when: (ctx, a) => mayCancel(ctx.permissions) && appliesHere(ctx, a),
    args: idArg,
    run: async ({ id }, ctx) => {
      const jobId = focusedJob(ctx, id);
      const s = paneOf(ctx);
      const status = s ? jobStatusOf(s, jobId) : null;
      if (status && !canCancelJob(status)) throw new Error(`Job ${jobId} is ${status} and can no longer be cancelled.`);
      if (!(await ctx.confirm(CANCEL_CONFIRM, CANCEL_CONFIRM_BUTTONS))) return { cancelled: false };
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
    menus: [
      ...onOneJob(4, 'Delete', jobIds, deleteAllowed, 'Only finished jobs can be deleted.').map((p) => (p.menu === 'toolbar/job' ? { ...p, style: 'danger' as const } : p)),
      inMenu('toolbar/jobs-selection', { group: '1_selected', order: 2, title: 'Delete Selected', blockedReason: selectionBlocked }),
    ],
    when: (ctx, a) => mayDelete(ctx.permissions) && appliesHere(ctx, a),
    args: pickedIdsArg,
    run: async ({ job_ids }, ctx) => {
      const ids = jobsOf(ctx, job_ids);
      if (!(await ctx.confirm(deleteConfirmText(ids.length), deleteConfirmButtons(ids.length)))) return { deleted: [] };
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
    menus: [
      ...onOneJob(1, 'Publish Job Result', jobIds, publishAllowed, 'Only finished jobs can be published.'),
      inMenu('toolbar/jobs-selection', { group: '1_selected', order: 1, title: 'Publish Selected', blockedReason: selectionBlocked }),
    ],
    when: (ctx, a) => mayPublish(ctx.permissions) && appliesHere(ctx, a),
    args: pickedIdsArg.shape({ pipeline: yup.string().trim().max(100).label('Pipeline'), multisite_reporting: yup.boolean().label('Multisite reporting') }),
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
];
