import type { Db } from '../db/index';
import { jobSummaries } from '../library/job-summaries';
import { loadActorOptions } from './reachability';
import type { LibraryTag } from '../../src/api/contracts/library';
import type { SimulationPreview, SimulationStep } from '../../src/api/contracts/simulations';
import { type ActionType } from '../../src/api/contracts/vocabulary';

/** How many of a simulation's latest jobs the preview lists. */
export const LATEST_SIMULATION_JOBS = 5;
/** Action types that make a step run on a single actor. */
const SINGLE_ACTOR = { dns: 'dns_found', host_cli: 'host_cli_found', cloud: 'cloud_validation_found' } as const;

type SimRow = Pick<SimulationPreview, 'id' | 'vid' | 'name' | 'description' | 'simulation_type' | 'disabled' | 'version'>;
interface StepActionRow {
  step_id: number;
  step_name: string;
  id: number | null;
  vid: string | null;
  name: string | null;
  action_type: ActionType | null;
  disabled: boolean | null;
}

/** Groups the step/action rows (ordered by step then action position) into steps with their flags. */
export function buildSteps(rows: readonly StepActionRow[]): SimulationStep[] {
  const steps = new Map<number, SimulationStep>();
  for (const r of rows) {
    let step = steps.get(r.step_id);
    if (!step) {
      step = { id: r.step_id, name: r.step_name, actions: [], dns_found: false, host_cli_found: false, cloud_validation_found: false, can_run: false };
      steps.set(r.step_id, step);
    }
    if (r.id === null || r.vid === null || r.name === null || r.action_type === null) continue;
    const disabled = r.disabled === true;
    step.actions.push({ id: r.id, vid: r.vid, name: r.name, action_type: r.action_type, disabled });
    const flag = SINGLE_ACTOR[r.action_type as keyof typeof SINGLE_ACTOR] as keyof Pick<SimulationStep, 'dns_found' | 'host_cli_found' | 'cloud_validation_found'> | undefined;
    if (flag) step[flag] = true;
    if (!disabled) step.can_run = true;
  }
  return [...steps.values()];
}

/** The simulation's preview (MON-127 preview_props), or null when no simulation has this id or VID. */
export async function loadSimulationPreview(db: Db, ref: { id?: number | undefined; vid?: string | undefined }, canEdit: boolean): Promise<SimulationPreview | null> {
  if (ref.id !== undefined && !Number.isSafeInteger(ref.id)) return null;
  const [sim] = ref.id !== undefined
    ? await db.query<SimRow>('select id, vid, name, description, simulation_type, disabled, version from simulations where id = $1', [ref.id])
    : await db.query<SimRow>('select id, vid, name, description, simulation_type, disabled, version from simulations where upper(vid) = upper($1)', [ref.vid]);
  if (!sim) return null;
  const [stepRows, tags, jobs, [count], actors] = await Promise.all([
    db.query<StepActionRow>(
      `select st.id as step_id, st.name as step_name, a.id, a.vid, a.name, a.action_type, (a.disabled or a.decommissioned) as disabled
         from simulation_steps st
         left join simulation_step_actions ssa on ssa.step_id = st.id
         left join actions a on a.id = ssa.action_id
        where st.simulation_id = $1
        order by st.position, ssa.position`,
      [sim.id],
    ),
    db.query<LibraryTag>('select t.id, t.name, t.tag_type as "tagType" from simulation_tags st join tags t on t.id = st.tag_id where st.simulation_id = $1 order by t.name', [sim.id]),
    jobSummaries(db, 'j.simulation_id = $1', [sim.id], LATEST_SIMULATION_JOBS),
    db.query<{ n: number }>('select count(*)::int as n from jobs where simulation_id = $1', [sim.id]),
    loadActorOptions(db),
  ]);
  const steps = buildSteps(stepRows);
  return {
    ...sim,
    steps,
    tags,
    options: { empty_steps: steps.filter((s) => s.actions.length === 0).length, ...actors },
    latest_jobs: jobs,
    total_jobs: count?.n ?? 0,
    can_edit: canEdit,
    simType: sim.simulation_type,
    title: sim.name,
  };
}
