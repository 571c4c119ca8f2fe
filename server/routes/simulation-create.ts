import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { requirePermission } from '../guards';
import { badRequest, bodyFields, validate } from '../http-errors';
import type { Db } from '../db/index';
import { createSimulationBodySchema, type CreateSimulationAnswer, type CreateSimulationBody } from '../../src/api/contracts/simulation-draft';

/** A new VID in the seeded form S123-456, unused so far. */
async function freshVid(db: Db): Promise<string> {
  for (;;) {
    const vid = `S${crypto.randomInt(100, 1000)}-${crypto.randomInt(100, 1000)}`;
    const [used] = await db.query('select 1 from simulations where upper(vid) = $1', [vid]);
    if (!used) return vid;
  }
}

async function checkActions(db: Db, body: CreateSimulationBody): Promise<void> {
  if (body.step_names.length > body.steps.length) throw badRequest('step_names has more names than there are steps');
  const ids = [...new Set(body.steps.flat())];
  const found = await db.query<{ id: number }>('select id from actions where id = any($1::int[])', [ids]);
  const known = new Set(found.map((r) => r.id));
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length) throw badRequest(`These actions do not exist: ${missing.join(', ')}`);
}

/** POST /simulations.json: saves a simulation draft as a new simulation (JOB-022, JOB-042); see docs/api.md. */
export async function simulationCreateRoutes(app: FastifyInstance) {
  app.post('/simulations.json', async (req, reply): Promise<CreateSimulationAnswer> => {
    const session = requirePermission(req, 'simulations.edit');
    const body = validate(createSimulationBodySchema, bodyFields(req.body));
    await checkActions(app.db, body);
    const answer = await app.db.transaction(async (tx) => {
      const vid = await freshVid(tx);
      const [sim] = await tx.query<{ id: number }>(
        'insert into simulations (vid, name, description, simulation_type, created_by) values ($1, $2, $3, $4, $5) returning id',
        [vid, body.sim_name, body.sim_desc, body.sim_type, session.user.id],
      );
      if (!sim) throw new Error('simulation insert returned no row');
      for (const [i, actions] of body.steps.entries()) {
        const [step] = await tx.query<{ id: number }>(
          'insert into simulation_steps (simulation_id, position, name) values ($1, $2, $3) returning id',
          [sim.id, i + 1, body.step_names[i] ?? ''],
        );
        if (!step) throw new Error('step insert returned no row');
        for (const [j, actionId] of actions.entries()) {
          await tx.query('insert into simulation_step_actions (step_id, action_id, position) values ($1, $2, $3)', [step.id, actionId, j + 1]);
        }
      }
      return { id: sim.id, vid };
    });
    reply.code(201);
    return answer;
  });
}
