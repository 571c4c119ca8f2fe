import * as yup from 'yup';
import { defineCommand } from '@/commands/registry';
import type { AnyCommand, CommandContext } from '@/commands/types';
import { flash } from '@/ui/toasts';
import { runJob, type RunKind } from './api';
import { runModal } from './store';

interface RunArgs {
  id: number;
  attack_node_id_1?: number | undefined;
  target_node_id_1?: number | undefined;
  force_unlock?: boolean | undefined;
}

const KIND_LABEL: Record<RunKind, string> = { action: 'Action', sequence: 'Sequence', evaluation: 'Evaluation' };

const runArgs = (kind: RunKind) =>
  yup.object({
    id: yup.number().label(`${KIND_LABEL[kind]} id`).typeError('id must be a number').integer().positive().required('id is required'),
    attack_node_id_1: yup.number().label('Source Actor id (optional: the modal asks)').integer().positive().optional(),
    target_node_id_1: yup.number().label('Destination Actor id (optional)').integer().positive().optional(),
    force_unlock: yup.boolean().label('force_unlock (optional)').optional(),
  }) as yup.Schema<RunArgs>;

const canRun = (ctx: CommandContext) => ctx.permissions.has('jobs.run');

/**
 * With both actors given (scripts), the job is created at once; otherwise the Run All Actions modal
 * asks for them.
 */
function runCommand(kind: RunKind, title: string, keywords: string[]) {
  return defineCommand<RunArgs>({
    id: `run.${kind}`,
    title,
    category: 'Run',
    keywords: ['run', 'job', 'execute', 'actors', ...keywords],
    when: canRun,
    args: runArgs(kind),
    run: async (args, ctx) => {
      if (args.attack_node_id_1 && args.target_node_id_1) {
        const job = await runJob(kind, args.id, {
          attack_node_id_1: args.attack_node_id_1,
          target_node_id_1: args.target_node_id_1,
          force_unlock: args.force_unlock ?? false,
        });
        await ctx.queryClient?.invalidateQueries({ queryKey: ['jobs'] });
        ctx.dock?.openUrl(job.url);
        // `id` too, so a script can write `let job = run.sequence …` then `jobs.wait id=$job.id`.
        return { ...job, id: job.job_id };
      }
      if (typeof document === 'undefined') throw new Error('Give attack_node_id_1 and target_node_id_1 to run without the workbench.');
      runModal.target = { kind, id: args.id };
      return null;
    },
  });
}

export const runCommands: AnyCommand[] = [
  runCommand('action', 'Run action…', ['action']),
  runCommand('sequence', 'Run sequence…', ['sequence', 'simulation']),
  runCommand('evaluation', 'Run evaluation…', ['evaluation', 'eval', 'simulation']),
];

export function jobStartedNotice(jobId: number, name: string): void {
  flash('notice', `Job ${jobId} (${name}) was created and is running.`);
}
