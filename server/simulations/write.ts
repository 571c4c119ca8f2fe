import crypto from 'node:crypto';
import type { Db } from '../db/index';
import { HttpError, badRequest, notFound } from '../http-errors';
import {
  simulationConflictMessage,
  type CreateSimulationAnswer,
  type CreateSimulationBody,
  type EditSimulationAnswer,
  type EditSimulationBody,
} from '../../src/api/contracts/simulation-draft';

/**
 * Writing simulations: create (from a draft), edit in place and clone (a new VID), each in one
 * transaction. Edits and clones carry the version their editor opened; a stale one is refused (409).
 */

/** A new VID in the seeded form S123-456, unused so far. */
async function freshVid(db: Db): Promise<string> {
  for (;;) {
    const vid = `S${crypto.randomInt(100, 1000)}-${crypto.randomInt(100, 1000)}`;
    const [used] = await db.query('select 1 from simulations where upper(vid) = $1', [vid]);
    if (!used) return vid;
  }
}

/** 400 when names outnumber steps or an Action does not exist. */
export async function checkSteps(db: Db, body: CreateSimulationBody): Promise<void> {
  if (body.step_names.length > body.steps.length) throw badRequest('step_names has more names than there are steps');
  const ids = [...new Set(body.steps.flat())];
  const found = await db.query<{ id: number }>('select id from actions where id = any($1::int[])', [ids]);
  const known = new Set(found.map((r) => r.id));
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length) throw badRequest(`These actions do not exist: ${missing.join(', ')}`);
}

async function insertSteps(tx: Db, simulationId: number, body: CreateSimulationBody): Promise<void> {
  for (const [i, actions] of body.steps.entries()) {
    const [step] = await tx.query<{ id: number }>(
      'insert into simulation_steps (simulation_id, position, name) values ($1, $2, $3) returning id',
      [simulationId, i + 1, body.step_names[i] ?? ''],
    );
    if (!step) throw new Error('step insert returned no row');
    for (const [j, actionId] of actions.entries()) {
      await tx.query('insert into simulation_step_actions (step_id, action_id, position) values ($1, $2, $3)', [step.id, actionId, j + 1]);
    }
  }
}

async function insertSimulation(tx: Db, body: CreateSimulationBody, userId: number): Promise<CreateSimulationAnswer> {
  const vid = await freshVid(tx);
  const [sim] = await tx.query<{ id: number }>(
    'insert into simulations (vid, name, description, simulation_type, created_by) values ($1, $2, $3, $4, $5) returning id',
    [vid, body.sim_name, body.sim_desc, body.sim_type, userId],
  );
  if (!sim) throw new Error('simulation insert returned no row');
  await insertSteps(tx, sim.id, body);
  return { id: sim.id, vid };
}

/** POST /simulations.json: a draft saved as a new simulation. */
export async function createSimulation(db: Db, body: CreateSimulationBody, userId: number): Promise<CreateSimulationAnswer> {
  await checkSteps(db, body);
  return db.transaction((tx) => insertSimulation(tx, body, userId));
}

/** The simulation row locked for this transaction, 404 when missing, 409 when the editor's version is stale. */
async function lockCurrent(tx: Db, id: number, version: number): Promise<{ vid: string; version: number }> {
  const [row] = await tx.query<{ vid: string; version: number }>('select vid, version from simulations where id = $1 for update', [id]);
  if (!row) throw notFound(`Simulation ${id} was not found.`);
  if (row.version !== version) throw new HttpError(409, simulationConflictMessage(row.vid, version, row.version), { version: row.version });
  return row;
}

/** Replaces the simulation's user tags with `names` (made when new; every role that edits simulations has tags.edit); its other tags stay. */
async function writeUserTags(tx: Db, simulationId: number, names: readonly string[]): Promise<void> {
  await tx.query("delete from simulation_tags where simulation_id = $1 and tag_id in (select id from tags where class_name = 'user')", [simulationId]);
  for (const name of new Set(names)) {
    await tx.query("insert into tags (name, class_name, tag_type) select $1, 'user', 'user' where not exists (select 1 from tags where class_name = 'user' and lower(name) = lower($1))", [name]);
    await tx.query("insert into simulation_tags (simulation_id, tag_id) select $1, id from tags where class_name = 'user' and lower(name) = lower($2) on conflict do nothing", [simulationId, name]);
  }
}

/** PUT /simulations/{id}.json: replaces name, description, type, steps and (when sent) user tags; answers the new version. */
export async function editSimulation(db: Db, id: number, body: EditSimulationBody): Promise<EditSimulationAnswer> {
  await checkSteps(db, body);
  return db.transaction(async (tx) => {
    const current = await lockCurrent(tx, id, body.version);
    if (body.user_tags) await writeUserTags(tx, id, body.user_tags);
    // Job steps keep their own copy of the step name; their link to the old step is set to null.
    await tx.query('delete from simulation_steps where simulation_id = $1', [id]);
    await insertSteps(tx, id, body);
    const [row] = await tx.query<{ version: number }>(
      'update simulations set name = $2, description = $3, simulation_type = $4, version = version + 1, updated_at = now() where id = $1 returning version',
      [id, body.sim_name, body.sim_desc, body.sim_type],
    );
    return { id, vid: current.vid, version: row?.version ?? current.version + 1 };
  });
}

/** POST /simulations/{id}/clone.json: a new simulation (new VID) from the edited copy, with the source's tags (its user tags as edited, when sent). */
export async function cloneSimulation(db: Db, sourceId: number, body: EditSimulationBody, userId: number): Promise<EditSimulationAnswer> {
  await checkSteps(db, body);
  return db.transaction(async (tx) => {
    await lockCurrent(tx, sourceId, body.version);
    const made = await insertSimulation(tx, body, userId);
    await tx.query('insert into simulation_tags (simulation_id, tag_id) select $1, tag_id from simulation_tags where simulation_id = $2', [made.id, sourceId]);
    if (body.user_tags) await writeUserTags(tx, made.id, body.user_tags);
    return { ...made, version: 1 };
  });
}
