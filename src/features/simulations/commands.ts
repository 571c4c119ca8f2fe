import { commands, defineCommand } from '@/commands/registry';
import type { AnyCommand, CommandContext } from '@/commands/types';
import { flash } from '@/ui/toasts';
import { editorCommands } from './editor-commands';
import { headerCommands } from './header-commands';
import { selectNodesCommands } from './select-nodes-commands';
import { SIMULATIONS_PANE, SIM_PANES, dock, refArgs, resolveSimulation, runArgs, type RefArgs } from './resolve';
import { simPaneHandlers, simStore, type CurrentSimulation } from './store';

export { SIMULATION_CLONE_PANE, SIMULATION_EDIT_PANE, SIMULATION_PANE, SIMULATIONS_PANE } from './resolve';


/** The list's keys apply where the Sequences or Evaluations list is focused (or no pane is): hidden on the Start pane. */
const inList = (ctx: CommandContext) => !ctx.activePane || ctx.activePane.kind === SIMULATIONS_PANE;

const moveCommand = (id: string, title: string, hotkey: string, step: 1 | -1) =>
  defineCommand({
    id: `simulations.${id}` as const,
    title,
    category: 'Simulations',
    hotkey,
    hotkeyContext: SIMULATIONS_PANE,
    needsWorkbench: true,
    when: (ctx) => inList(ctx) && simPaneHandlers.move !== null,
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
  extra: Pick<AnyCommand, 'when' | 'needsWorkbench' | 'args' | 'buttonLabel'> = {},
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
    when: (ctx) => inList(ctx) && simPaneHandlers.focusSearch !== null,
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
    // MON-015: the modal 'Run All Actions' is opened by a button with the same label.
  }, { when: (ctx) => ctx.permissions.has('jobs.run'), args: runArgs, buttonLabel: 'Run All Actions' }),
  onSimulation('viewRuns', 'View Runs of Simulation', 'r', ['jobs', 'history', 'runs'], (s, ctx) => {
    simStore.preview = null;
    dock(ctx).openUrl(`/jobs?vid=${encodeURIComponent(s.vid)}`);
  }, { needsWorkbench: true }),
  onSimulation('copyVid', 'Copy Simulation VID', 'y', ['clipboard', 'vid'], async (s) => {
    await navigator.clipboard.writeText(s.vid);
    flash('notice', `Copied ${s.vid}.`);
    return { text: s.vid };
  }),
  ...headerCommands,
  ...editorCommands,
  ...selectNodesCommands,
];
