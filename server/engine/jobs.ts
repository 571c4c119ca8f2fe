/**
 * Creating jobs: an action, a sequence or an evaluation; each step between its own source and
 * destination actor (a step without its own pair uses the step 1 pair).
 */
import type { Db } from '../db/index';
import { HttpError, badRequest, notFound } from '../http-errors';
import { SINGLE_ACTOR_TYPES } from '../../src/api/contracts/engine';
import { dnsUsesDestination } from './peer-dns';
import { presenceSql } from '../actors/presence';

export type JobKind = 'action' | 'sequence' | 'evaluation';

export interface CreateJobInput {
  kind: JobKind;
  id: number;
  /** The actor pair of step n at index n - 1; steps without one run between pairs[0]. */
  pairs: StepPair[];
  userId: number | null;
  /** Unlocked: an actor that is not online is accepted and the job waits for it. */
  forceUnlock?: boolean;
}

export interface StepPair {
  source?: number | undefined;
  target?: number | undefined;
}

interface NodeRow {
  id: number;
  name: string;
  status: string;
  token_hash: string | null;
  retired: boolean;
}

interface ActionRow {
  id: number;
  vid: string;
  name: string;
  action_type: string;
  disabled: boolean;
}

async function actorOf(db: Db, id: number, label: string, forceUnlock: boolean): Promise<NodeRow> {
  const [n] = await db.query<NodeRow>(`select n.id, n.name, ${presenceSql(db).status} as status, n.token_hash, n.retired_at is not null as retired from nodes n where n.id = $1`, [id]);
  if (!n) throw notFound(`${label} ${id} does not exist.`);
  if (n.retired) throw badRequest(`${label} ${n.name} is retired; enable it on its edit page to run actions.`);
  if (!n.token_hash) throw badRequest(`${label} ${n.name} has never connected to this director, so it cannot run actions.`);
  if (n.status !== 'online' && !forceUnlock) throw badRequest(`${label} ${n.name} is ${n.status}. Unlock the actor choice (force_unlock) to run when it comes back.`);
  return n;
}

/** Creates the job, its steps and job actions (status pending); the engine schedules it. */
export async function createJob(db: Db, input: CreateJobInput): Promise<{ job_id: number; name: string; status: string }> {
  const forced = input.forceUnlock === true;
  const known = new Map<number, NodeRow>();
  const actor = async (id: number, label: string) => {
    const n = known.get(id) ?? (await actorOf(db, id, label, forced));
    known.set(id, n);
    return n;
  };
  const first = input.pairs[0];
  if (!first?.source) throw badRequest('Source Actor must be chosen');
  await actor(first.source, 'Source Actor');
  if (first.target) await actor(first.target, 'Destination Actor');

  let name: string;
  let simulationId: number | null = null;
  let actionId: number | null = null;
  const steps: { step_id: number | null; name: string; actions: ActionRow[] }[] = [];
  if (input.kind === 'action') {
    const [a] = await db.query<ActionRow & { decommissioned: boolean }>('select id, vid, name, action_type, disabled, decommissioned from actions where id = $1', [input.id]);
    if (!a) throw notFound(`Action ${input.id} does not exist.`);
    if (a.disabled || a.decommissioned) throw badRequest(`Action ${a.name} is disabled and cannot run.`);
    name = a.name;
    actionId = a.id;
    steps.push({ step_id: null, name: '', actions: [a] });
  } else {
    const [s] = await db.query<{ id: number; name: string; simulation_type: string; disabled: boolean }>(
      'select id, name, simulation_type, disabled from simulations where id = $1',
      [input.id],
    );
    const wanted = input.kind === 'sequence' ? 'sequence' : 'eval';
    if (!s || s.simulation_type !== wanted) throw notFound(`${input.kind === 'sequence' ? 'Sequence' : 'Evaluation'} ${input.id} does not exist.`);
    if (s.disabled) throw badRequest(`${s.name} is disabled and cannot run.`);
    name = s.name;
    simulationId = s.id;
    const rows = await db.query<ActionRow & { step_id: number; step_name: string }>(
      `select st.id as step_id, st.name as step_name, a.id, a.vid, a.name, a.action_type, (a.disabled or a.decommissioned) as disabled
         from simulation_steps st
         join simulation_step_actions sa on sa.step_id = st.id
         join actions a on a.id = sa.action_id
        where st.simulation_id = $1
        order by st.position, sa.position`,
      [s.id],
    );
    for (const r of rows) {
      let step = steps.at(-1);
      if (!step || step.step_id !== r.step_id) steps.push((step = { step_id: r.step_id, name: r.step_name, actions: [] }));
      step.actions.push(r);
    }
  }
  if (!steps.length) throw badRequest(`${name} has no actions to run.`);

  const aimed = await aimSteps(db, steps, input.pairs, name, actor);
  return db.transaction(async (tx) => {
    const [job] = await tx.query<{ id: number }>(
      `insert into jobs (name, status, progress, simulation_id, action_id, user_id) values ($1, 'pending', 0, $2, $3, $4) returning id`,
      [name, simulationId, actionId, input.userId],
    );
    if (!job) throw new HttpError(500, 'The job could not be created.');
    await tx.query(`insert into engine_jobs (job_id, kind, force_unlock) values ($1, $2, $3)`, [job.id, input.kind, forced]);
    // Set-based: two statements whatever the number of steps (a 500-step evaluation was 1,000 round
    // trips in one transaction, during which PGlite answered nothing else).
    const stepRows = await tx.query<{ id: number; group_order: number }>(
      `insert into job_steps (job_id, step_id, group_order, name, source_node_id, destination_node_id)
       select $1, u.step_id, u.group_order, u.name, u.source, u.target
         from unnest($2::int[], $3::int[], $4::text[], $5::int[], $6::int[]) as u(step_id, group_order, name, source, target)
       returning id, group_order`,
      [job.id, steps.map((st) => st.step_id), steps.map((_, i) => i + 1), steps.map((st) => st.name), steps.map((_, i) => aimed[i]?.source ?? null), steps.map((_, i) => aimed[i]?.target ?? null)],
    );
    const stepId = new Map(stepRows.map((r) => [r.group_order, r.id]));
    if (stepId.size !== steps.length) throw new HttpError(500, 'The job steps could not be created.');
    const rows = steps.flatMap((step, i) => step.actions.map((a, p) => ({ step: stepId.get(i + 1) ?? 0, a, pos: p + 1 })));
    await tx.query(
      `insert into job_actions (job_step_id, job_id, action_id, position, sim_action_vid, name, action_type, status, disabled)
       select u.step, $1, u.action_id, u.pos, u.vid, u.name, u.action_type, case when u.disabled then 'not run' else 'pending' end, u.disabled
         from unnest($2::int[], $3::int[], $4::int[], $5::text[], $6::text[], $7::text[], $8::boolean[]) with ordinality as u(step, action_id, pos, vid, name, action_type, disabled, n)
        order by u.n`,
      [
        job.id,
        rows.map((r) => r.step),
        rows.map((r) => r.a.id),
        rows.map((r) => r.pos),
        rows.map((r) => r.a.vid),
        rows.map((r) => r.a.name),
        rows.map((r) => r.a.action_type),
        rows.map((r) => r.a.disabled),
      ],
    );
    return { job_id: job.id, name, status: 'pending' };
  });
}

/**
 * The actor pair each step runs between: its own attack/target pair, else the step 1 pair. Steps
 * holding a DNS, host CLI or cloud action run on a single actor (sequence assignment rule) and keep
 * no destination; two-actor steps need one, different from the source.
 */
async function aimSteps(
  db: Db,
  steps: { actions: ActionRow[] }[],
  pairs: StepPair[],
  name: string,
  actor: (id: number, label: string) => Promise<NodeRow>,
): Promise<{ source: number; target: number | null }[]> {
  if (pairs.length > steps.length) {
    throw badRequest(`Step ${pairs.length} does not exist: ${name} has ${steps.length} step${steps.length === 1 ? '' : 's'}.`);
  }
  const aimed: { source: number; target: number | null }[] = [];
  for (const [i, step] of steps.entries()) {
    const n = i + 1;
    const prefix = n === 1 ? '' : `Step ${n}: `;
    const own = pairs[i];
    if (own && own.source === undefined && own.target !== undefined) throw badRequest(`${prefix}Source Actor must be chosen`);
    const pair = own?.source !== undefined ? own : pairs[0];
    const source = await actor(pair?.source ?? 0, `${prefix}Source Actor`);
    const target = pair?.target !== undefined ? await actor(pair.target, `${prefix}Destination Actor`) : null;
    // A dns action answered by the destination actor keeps its step on two actors.
    const twoActorDns = new Set<number>();
    for (const a of step.actions) if (a.action_type === 'dns' && target && (await dnsUsesDestination(db, a.id, target.id))) twoActorDns.add(a.id);
    const single = step.actions.some((a) => SINGLE_ACTOR_TYPES.includes(a.action_type) && a.action_type !== 'sleep' && !twoActorDns.has(a.id));
    if (single) {
      aimed.push({ source: source.id, target: null });
      continue;
    }
    const needsTarget = step.actions.some((a) => !SINGLE_ACTOR_TYPES.includes(a.action_type));
    if (needsTarget && !target) throw badRequest(`${prefix}Destination Actor must be chosen`);
    if (target && target.id === source.id) throw badRequest(`${prefix}Source Actor and Destination Actor must be different actors.`);
    aimed.push({ source: source.id, target: target?.id ?? null });
  }
  return aimed;
}
