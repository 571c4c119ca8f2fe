import * as yup from 'yup';
import { SIMULATION_VID_PATTERN } from '@/api/contracts/simulations';
import type { CommandContext } from '@/commands/types';
import { fetchSimulationPreview } from './api';
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
export const refShape = {
  id: yup.number().integer().positive().label('Simulation id (optional)').optional(),
  vid: yup.string().trim().matches(SIMULATION_VID_PATTERN, 'vid is not a valid VID').label('Simulation VID (optional)').optional(),
};
export const refArgs = yup.object(refShape) as yup.Schema<RefArgs>;
export const runArgs = yup.object({
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

export const SIMULATION_EDIT_PANE = 'simulation-edit';
export const SIMULATION_CLONE_PANE = 'simulation-clone';

export const dock = (ctx: CommandContext) => {
  if (!ctx.dock) throw new Error('This command needs the workbench.');
  return ctx.dock;
};
