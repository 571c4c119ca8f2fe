import * as yup from 'yup';
import { SIMULATION_VID_PATTERN, type SimulationPreview } from '@/api/contracts/simulations';
import type { CommandContext } from '@/commands/types';
import { actorPicks, simulationPicks } from '@/commands/entity-picks';
import { pickFrom, scriptOnly, type PickSource } from '@/commands/pick';
import { fetchSimulationPreview, simKeys } from './api';
import { simStore, type CurrentSimulation } from './store';

export const SIMULATIONS_PANE = 'simulations';
export const SIMULATION_PANE = 'simulation';
/** Keys acting on one simulation work in the list and in the one-simulation pane. */
export const SIM_PANES = [SIMULATIONS_PANE, SIMULATION_PANE];

export interface RefArgs {
  id?: number | undefined;
  vid?: string | undefined;
  /** Run only: both actors run the simulation at once (scripts); without them the Run modal asks. */
  attack_node_id_1?: number | undefined;
  target_node_id_1?: number | undefined;
}
/**
 * The simulation in view, chosen at first in the palette's pick list: the open preview, the one-simulation
 * pane's (once loaded), the list's selection; none elsewhere (the Start pane).
 */
const simulationInView = (ctx: CommandContext) => {
  if (simStore.preview) return simStore.preview;
  const pane = ctx.activePane;
  if (pane?.kind === SIMULATION_PANE && pane.params.vid) {
    const p = ctx.queryClient?.getQueryData<SimulationPreview>(simKeys.preview(pane.params.vid));
    return p ? { id: p.id, vid: p.vid, name: p.name } : null;
  }
  return pane?.kind === SIMULATIONS_PANE ? simStore.current : null;
};
const currentSimulationPicks: PickSource = {
  ...simulationPicks,
  current: (ctx) => {
    const s = simulationInView(ctx);
    return s ? { value: s.id, label: s.name, detail: s.vid } : null;
  },
};

/** The palette picks the simulation from a searchable list; scripts may give its id or VID. */
export const refShape = {
  id: yup.number().integer().positive().label('Simulation').optional().meta(pickFrom(currentSimulationPicks)),
  vid: yup.string().trim().matches(SIMULATION_VID_PATTERN, 'vid is not a valid VID').label('Simulation VID (optional)').optional().meta(scriptOnly()),
};
export const refArgs = yup.object(refShape) as yup.Schema<RefArgs>;
export const runArgs = yup.object({
  ...refShape,
  attack_node_id_1: yup.number().integer().positive().label('Source Actor (optional: the modal asks)').optional().meta(pickFrom(actorPicks)),
  target_node_id_1: yup.number().integer().positive().label('Destination Actor (optional)').optional().meta(pickFrom(actorPicks)),
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

export const SIMULATION_EDIT_PANE = 'simulation-edit';
export const SIMULATION_CLONE_PANE = 'simulation-clone';

export const dock = (ctx: CommandContext) => {
  if (!ctx.dock) throw new Error('This command needs the workbench.');
  return ctx.dock;
};
