import * as yup from 'yup';
import { defineCommand } from '@/commands/registry';
import { actionPicks, actorPicks, currentActionPane, evaluationPicks, oneRef, refGiven, resolveEntity, sequencePicks, type EntityRef } from '@/commands/entity-picks';
import { inMenu } from '@/commands/menus';
import { pickFrom, scriptOnly, type PickSource } from '@/commands/pick';
import type { AnyCommand, CommandContext } from '@/commands/types';
import { FORCE_UNLOCK_LABEL } from '@/api/contracts/engine';
import type { SearchResult } from '@/api/contracts/search';
import { flash } from '@/ui/toasts';
import { runJob, type RunKind } from './api';
import { runModal } from './store';

interface RunArgs {
  id?: number | undefined;
  vid?: string | undefined;
  name?: string | undefined;
  attack_node_id_1?: number | undefined;
  target_node_id_1?: number | undefined;
  force_unlock?: boolean | undefined;
}

const KIND_LABEL: Record<RunKind, string> = { action: 'Action', sequence: 'Sequence', evaluation: 'Evaluation' };
const PICKS: Record<RunKind, PickSource> = { action: actionPicks, sequence: sequencePicks, evaluation: evaluationPicks };
/** Sequences and evaluations are both simulations: a run of one kind finds only that kind. */
const KEEP: Record<RunKind, (r: SearchResult) => boolean> = { action: () => true, sequence: (r) => r.subtype === 'sequence', evaluation: (r) => r.subtype === 'eval' };

const runArgs = (kind: RunKind) =>
  yup
    .object({
      id: yup.number().label(KIND_LABEL[kind]).typeError('id must be a number').integer().positive().optional().meta(pickFrom(PICKS[kind])),
      vid: yup.string().trim().label('VID').optional().meta(scriptOnly()),
      name: yup.string().trim().label('Name').optional().meta(scriptOnly()),
      attack_node_id_1: yup.number().label('Source Actor (optional: the modal asks)').integer().positive().optional().meta(pickFrom(actorPicks)),
      target_node_id_1: yup.number().label('Destination Actor (optional)').integer().positive().optional().meta(pickFrom(actorPicks)),
      force_unlock: yup.boolean().label(FORCE_UNLOCK_LABEL).optional(),
    })
    .test('one-ref', '', oneRef(KIND_LABEL[kind])) as yup.Schema<RunArgs>;

const canRun = (ctx: CommandContext) => ctx.permissions.has('jobs.run');

/** What a run names: its id, vid or name argument, else (an Action) the one the focused pane shows. */
function refOf(kind: RunKind, args: RunArgs | undefined, ctx: CommandContext): EntityRef {
  if (refGiven(args)) return args!;
  const current = kind === 'action' ? ctx.pane(currentActionPane)?.current() : null;
  if (current) return { id: current.value };
  throw new Error(`Choose the ${KIND_LABEL[kind]}: give id, vid or name.`);
}

/** The Action library's panes, where Run Action's hotkey runs the Action shown or selected. */
const ACTION_PANES = ['actions', 'action-preview'];

/**
 * `run.action id=12`, `run.action vid=A000-1000` or `run.action name="DNS Query"` (likewise sequences
 * and evaluations): the director checks the name first. With both actors given (scripts), the job is
 * created at once; otherwise the Run All Actions modal asks for them, titled with the content's name.
 */
function runCommand(kind: RunKind, title: string, keywords: string[], extra: Partial<AnyCommand> = {}) {
  return defineCommand<RunArgs>({
    id: `run.${kind}`,
    title,
    category: 'Run',
    keywords: ['run', 'job', 'execute', 'actors', ...keywords],
    ...extra,
    when: canRun,
    args: runArgs(kind),
    run: async (args, ctx) => {
      const target = await resolveEntity(kind === 'action' ? 'action' : 'simulation', refOf(kind, args, ctx), KEEP[kind], KIND_LABEL[kind]);
      if (args.attack_node_id_1 && args.target_node_id_1) {
        const job = await runJob(kind, target.id, {
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
      runModal.target = { kind, id: target.id, name: target.label, vid: target.vid };
      return null;
    },
  });
}

export const runCommands: AnyCommand[] = [
  runCommand('action', 'Run Action…', ['action', 'vid'], {
    hotkey: 'x',
    hotkeyContext: ACTION_PANES,
    buttonLabel: 'Run',
    // The Action detail's button after Preview (the library's detail panel).
    menus: [inMenu<{ id: number }>('toolbar/action-detail', { order: 0.5, title: 'Run', args: (a) => ({ id: a.id }) })],
  }),
  runCommand('sequence', 'Run Sequence…', ['sequence', 'simulation']),
  runCommand('evaluation', 'Run Evaluation…', ['evaluation', 'eval', 'simulation']),
];

export function jobStartedNotice(jobId: number, name: string): void {
  flash('notice', `Job ${jobId} (${name}) was created and is running.`);
}
