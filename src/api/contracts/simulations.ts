import * as yup from 'yup';
import type { JobSummary, LibraryTag } from './library';
import type { ActionType } from './vocabulary';

/**
 * Simulations (sequences and evaluations): the preview call and the vid/id lookups
 * (jobs-simulations-network-map.md JOB-043, JOB-092; monitors-actors-reporting.md MON-127).
 */

export type SimulationType = 'sequence' | 'eval';
export const SIMULATION_TYPES: readonly SimulationType[] = ['sequence', 'eval'];
export const SIMULATION_TYPE_LABELS: Record<SimulationType, string> = { sequence: 'Sequence', eval: 'Evaluation' };
/** A simulation VID: S followed by digits and dashes (the library's own VIDs start with A). */
export const SIMULATION_VID_PATTERN = /^[A-Za-z][0-9A-Za-z-]{0,99}$/;

export interface SimulationStepAction {
  id: number;
  vid: string;
  name: string;
  action_type: ActionType;
  disabled: boolean;
}

export interface SimulationStep {
  id: number;
  name: string;
  actions: SimulationStepAction[];
  /** The step holds a DNS, host CLI or cloud action, so it runs on a single actor. */
  dns_found: boolean;
  host_cli_found: boolean;
  cloud_validation_found: boolean;
  /** The step has at least one enabled action. */
  can_run: boolean;
}

/** An actor as the sequence assignment lists it (JOB-043 cttn_* options). */
export interface CttnActor {
  id: number;
  name: string;
  status: string;
  sim_address: string;
  zone_name: string | null;
}

/** Who may attack, who may be a target, and which targets each attacker reaches (by actor id). */
export interface SimulationActorOptions {
  cttn_attackers: CttnActor[];
  cttn_targets: CttnActor[];
  cttn_authorized_actors: Record<string, number[]>;
}

/** A step holding a DNS, host CLI or cloud validation Action runs on a single actor (JOB-060). */
export const isSingleActorStep = (s: Pick<SimulationStep, 'dns_found' | 'host_cli_found' | 'cloud_validation_found'>) => s.dns_found || s.host_cli_found || s.cloud_validation_found;

/** data.preview_props of GET /library/simulations.json. */
export interface SimulationPreview {
  id: number;
  vid: string;
  name: string;
  description: string;
  simulation_type: SimulationType;
  disabled: boolean;
  steps: SimulationStep[];
  tags: LibraryTag[];
  options: { empty_steps: number } & SimulationActorOptions;
  latest_jobs: JobSummary[];
  total_jobs: number;
  /** MON-120: the preview is opened with edit rights for simulations. */
  can_edit: boolean;
  /** Raised by every edit; the editor sends it back so a stale edit is refused (issue 19). */
  version: number;
  /** MON-047: preview_props carry simType and title (the same as simulation_type and name). */
  simType: SimulationType;
  title: string;
}

export interface SimulationPreviewAnswer {
  data: { preview_props: SimulationPreview };
}

const idField = yup.number().typeError('id must be a number').integer('id must be a whole number').positive('id must be positive');
const vidField = yup.string().trim().matches(SIMULATION_VID_PATTERN, { message: 'vid is not a valid VID', excludeEmptyString: true });

/** GET /library/simulations.json?id= (or ?vid=). */
export const simulationPreviewQuerySchema = yup
  .object({ id: idField.optional(), vid: vidField.optional() })
  .noUnknown('Unknown parameter: ${unknown}')
  .test('one', 'id or vid is required', (v) => v.id !== undefined || !!v.vid);

/** POST /simulations/vid_and_id and /manage_sims/actions/vid_and_id: payload id and type. */
export const vidAndIdBodySchema = yup
  .object({
    id: yup.mixed<string | number>().required('id is required').test('id', 'id must be an id number or a VID', (v) => (typeof v === 'number' ? Number.isInteger(v) && v > 0 : typeof v === 'string' && (/^\d+$/.test(v.trim()) || SIMULATION_VID_PATTERN.test(v.trim())))),
    type: yup.string().trim().required('type is required').oneOf(['id', 'vid'], 'type must be id or vid'),
  })
  .noUnknown('Unknown field: ${unknown}');

export interface VidAndIdAnswer {
  vid: string;
  id: number;
}
