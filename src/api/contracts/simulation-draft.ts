import * as yup from 'yup';
import { SIMULATION_TYPES, SIMULATION_TYPE_LABELS, type SimulationType } from './simulations';

/**
 * A simulation draft generated from an Action library selection (jobs-simulations-network-map.md
 * JOB-022, JOB-042, JOB-118) and the call that saves it as a new simulation (POST /simulations.json).
 */
export interface SimulationDraft {
  sim_type: SimulationType;
  sim_name: string;
  sim_desc: string;
  /** One list of action ids per step. */
  steps: number[][];
  step_names: string[];
  unassigned: number[];
  trash: number[];
}

export const DRAFT_NAME_MAX = 255;

/** JOB-118: "Evaluation generated from Action library selection." or the Sequence form. */
export const draftDescription = (type: SimulationType) => `${SIMULATION_TYPE_LABELS[type]} generated from Action library selection.`;

/** JOB-118: "Actions tagged …" from the active tag filter; without tags, a plain name. */
export function draftName(tagNames: readonly string[], count: number): string {
  const name = tagNames.length ? `Actions tagged ${tagNames.join(', ')}` : `Selected Actions (${count})`;
  return name.slice(0, DRAFT_NAME_MAX);
}

export function generateDraft(actions: readonly { id: number; name: string }[], tagNames: readonly string[], type: SimulationType = 'sequence'): SimulationDraft {
  return {
    sim_type: type,
    sim_name: draftName(tagNames, actions.length),
    sim_desc: draftDescription(type),
    steps: actions.map((a) => [a.id]),
    step_names: actions.map((a) => a.name.slice(0, DRAFT_NAME_MAX)),
    unassigned: [],
    trash: [],
  };
}

const actionId = yup.number().typeError('action ids must be whole numbers').integer('action ids must be whole numbers').required();

export const createSimulationBodySchema = yup.object({
  sim_type: yup.string<SimulationType>().oneOf([...SIMULATION_TYPES], 'sim_type must be sequence or eval').required('sim_type is required'),
  sim_name: yup.string().trim().required('sim_name is required').max(DRAFT_NAME_MAX, `sim_name must be at most ${DRAFT_NAME_MAX} characters`),
  sim_desc: yup.string().max(10000, 'sim_desc must be at most 10000 characters').default(''),
  steps: yup.array(yup.array(actionId).required().min(1, 'every step needs at least one action'))
    .required('steps is required').min(1, 'at least one step is required').max(500, 'at most 500 steps'),
  step_names: yup.array(yup.string().max(DRAFT_NAME_MAX, `step names must be at most ${DRAFT_NAME_MAX} characters`).defined()).default([]),
});
export type CreateSimulationBody = yup.InferType<typeof createSimulationBodySchema>;

export interface CreateSimulationAnswer {
  id: number;
  vid: string;
}

/**
 * PUT /simulations/{id}.json (Edit) and POST /simulations/{id}/clone.json (Clone and Edit): the
 * simulation as the editor leaves it, with the `version` the editor opened. A stale version is
 * refused with 409 and SIMULATION_CONFLICT_MESSAGE, nothing is written.
 */
export const editSimulationBodySchema = createSimulationBodySchema.shape({
  version: yup.number().typeError('version must be a whole number').integer('version must be a whole number').positive('version must be positive').required('version is required'),
  /** The simulation's user tags as the editor leaves them (absent: unchanged; a clone then copies the source's). Other tags are kept. */
  user_tags: yup.array(yup.string().trim().required('a tag must not be empty').max(100, 'a tag is at most 100 characters')).max(100, 'at most 100 tags').optional(),
});
export type EditSimulationBody = yup.InferType<typeof editSimulationBodySchema>;

export interface EditSimulationAnswer {
  id: number;
  vid: string;
  version: number;
}

/** The 409 of an edit or clone whose version is stale. */
export const simulationConflictMessage = (vid: string, opened: number, now: number) =>
  `${vid} was changed by someone else since you opened it (your version ${opened}, now ${now}). Nothing was saved: reload it to see their changes (your edits are kept until you do).`;
