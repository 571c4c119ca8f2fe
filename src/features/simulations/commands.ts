import * as yup from 'yup';
import { SIMULATION_VID_PATTERN } from '@/api/contracts/simulations';
import { commands, defineCommand } from '@/commands/registry';
import type { AnyCommand, CommandContext } from '@/commands/types';
import { flash } from '@/ui/toasts';
import { fetchSimulationPreview } from './api';
import { simPaneHandlers, simStore, type CurrentSimulation } from './store';

export const SIMULATIONS_PANE = 'simulations';
export const SIMULATION_PANE = 'simulation';
/** Keys acting on one simulation work in the list and in the one-simulation pane. */
const SIM_PANES = [SIMULATIONS_PANE, SIMULATION_PANE];

interface RefArgs {
  id?: number | undefined;
  vid?: string | undefined;
  /** Run only: both actors run the simulation at once (scripts); without them the Run modal asks. */
  attack_node_id_1?: number | undefined;
  target_node_id_1?: number | undefined;
}
const refShape = {
  id: yup.number().integer().positive().label('Simulation id (optional)').optional(),
  vid: yup.string().trim().matches(SIMULATION_VID_PATTERN, 'vid is not a valid VID').label('Simulation VID (optional)').optional(),
};
const refArgs = yup.object(refShape) as yup.Schema<RefArgs>;
const runArgs = yup.object({
  ...refShape,
  attack_node_id_1: yup.number().integer().positive().label('Source Actor id (optional: the modal asks)').optional(),
  target_node_id_1: yup.number().integer().positive().label('Destination Actor id (optional)').optional(),
}) as yup.Schema<RefArgs>;

/** The simulation a command acts on: its id or VID argument, else the open preview, the one-simulation pane, the list's selection. */
export async function resolveSimulation(args: RefArgs | undefined, ctx: CommandContext): Promise<CurrentSimulation> {
  const known = [simStore.preview, simStore.current].find((s) => s && ((args?.id && s.id === args.id) || (args?.vid && s.vid.toUpperCase() === args.vid.toUpperCase())));
  if (known) return { ...known };
  const ref = args?.id ? { id: args.id } : args?.vid ? { vid: args.vid } : null;
  if (!ref) {
    if (simStore.preview) return { ...simStore.preview };
    if (ctx.activePane?.kind === SIMULATION_PANE && ctx.activePane.params.vid) return resolveSimulation({ vid: ctx.activePane.params.vid }, ctx);
    if (simStore.current) return { ...simStore.current };
    throw new Error('Select a Sequence or Evaluation first.');
  }
  const p = await fetchSimulationPreview(ref);
  return { id: p.id, vid: p.vid, name: p.name, simulation_type: p.simulation_type };
}

const dock = (ctx: CommandContext) => {
  if (!ctx.dock) throw new Error('This command needs the workbench.');
  return ctx.dock;
};

const moveCommand = (id: string, title: string, hotkey: string, step: 1 | -1) =>
  defineCommand({
    id: `simulations.${id}` as const,
    title,
    category: 'Simulations',
    hotkey,
    hotkeyContext: SIMULATIONS_PANE,
    needsWorkbench: true,
    run: () => {
      if (!simPaneHandlers.move) throw new Error('Open the Sequences or Evaluations list first.');
      simPaneHandlers.move(step);
    },
  });

/** A command on one simulation (its id or VID argument, else the one in view), with a key in the Simulations panes. */
function onSimulation(
  verb: string,
  title: string,
  hotkey: string,
  keywords: string[],
  act: (s: CurrentSimulation, ctx: CommandContext, args: RefArgs | undefined) => unknown,
  extra: Pick<AnyCommand, 'when' | 'needsWorkbench' | 'args'> = {},
): AnyCommand {
  return defineCommand<RefArgs>({
    id: `simulations.${verb}`,
    title,
    category: 'Simulations',
    keywords: ['sequence', 'evaluation', 'simulation', ...keywords],
    hotkey,
    hotkeyContext: SIM_PANES,
    args: refArgs,
    ...extra,
    run: async (args, ctx) => act(await resolveSimulation(args, ctx), ctx, args),
  });
}

export const simulationCommands: AnyCommand[] = [
  moveCommand('next', 'Next Simulation', 'j', 1),
  moveCommand('previous', 'Previous Simulation', 'k', -1),
  defineCommand({
    id: 'simulations.focusSearch',
    title: 'Search the Simulations',
    category: 'Simulations',
    keywords: ['find', 'filter', 'search', 'sequences', 'evaluations'],
    hotkey: '/',
    hotkeyContext: SIMULATIONS_PANE,
    needsWorkbench: true,
    run: () => {
      if (!simPaneHandlers.focusSearch) throw new Error('Open the Sequences or Evaluations list first.');
      simPaneHandlers.focusSearch();
    },
  }),
  onSimulation('preview', 'Preview Simulation', 'p', ['details', 'preview', 'steps'], async (s) => {
    simStore.preview = s;
    return { id: s.id, vid: s.vid };
  }),
  // The Run feature's own commands ask for the actors (or run at once in scripts that give them both).
  onSimulation('run', 'Run Simulation…', 'shift+r', ['run', 'job', 'execute'], (s, ctx, args) => {
    simStore.preview = null;
    const actors = args?.attack_node_id_1 && args.target_node_id_1 ? { attack_node_id_1: args.attack_node_id_1, target_node_id_1: args.target_node_id_1 } : {};
    return commands.execute(s.simulation_type === 'eval' ? 'run.evaluation' : 'run.sequence', { id: s.id, ...actors }, ctx.dock ? 'button' : 'script');
  }, { when: (ctx) => ctx.permissions.has('jobs.run'), args: runArgs }),
  onSimulation('viewRuns', 'View Runs of Simulation', 'r', ['jobs', 'history', 'runs'], (s, ctx) => {
    simStore.preview = null;
    dock(ctx).openUrl(`/jobs?vid=${encodeURIComponent(s.vid)}`);
  }, { needsWorkbench: true }),
  onSimulation('copyVid', 'Copy Simulation VID', 'y', ['clipboard', 'vid'], async (s) => {
    await navigator.clipboard.writeText(s.vid);
    flash('notice', `Copied ${s.vid}.`);
    return { text: s.vid };
  }),
];
