import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import { requirePermission } from '../guards';
import { bodyFields, validate } from '../http-errors';
import { cloneSimulation, createSimulation, editSimulation } from '../simulations/write';
import {
  createSimulationBodySchema,
  editSimulationBodySchema,
  type CreateSimulationAnswer,
  type EditSimulationAnswer,
} from '../../src/api/contracts/simulation-draft';

const idParam = yup.object({ id: yup.number().typeError('id must be a number').integer('id must be a whole number').positive('id must be positive').required() });

/**
 * Writing simulations (see docs/api.md): POST /simulations.json saves a draft as a new simulation
 * (JOB-022, JOB-042); PUT /simulations/{id}.json edits one (simulations.edit) and POST
 * /simulations/{id}/clone.json makes a new VID from an edited copy (simulations.clone_edit), both
 * refused with 409 when the version they carry is stale.
 */
export async function simulationCreateRoutes(app: FastifyInstance) {
  app.post('/simulations.json', async (req, reply): Promise<CreateSimulationAnswer> => {
    const session = requirePermission(req, 'simulations.edit');
    const body = validate(createSimulationBodySchema, bodyFields(req.body));
    const answer = await createSimulation(app.db, body, session.user.id);
    reply.code(201);
    return answer;
  });

  app.put('/simulations/:id.json', async (req): Promise<EditSimulationAnswer> => {
    requirePermission(req, 'simulations.edit');
    const { id } = validate(idParam, req.params);
    const body = validate(editSimulationBodySchema, bodyFields(req.body));
    return editSimulation(app.db, id, body);
  });

  app.post('/simulations/:id/clone.json', async (req, reply): Promise<EditSimulationAnswer> => {
    const session = requirePermission(req, 'simulations.clone_edit');
    const { id } = validate(idParam, req.params);
    const body = validate(editSimulationBodySchema, bodyFields(req.body));
    const answer = await cloneSimulation(app.db, id, body, session.user.id);
    reply.code(201);
    return answer;
  });
}
