/**
 * Integrations (jobs-simulations-network-map.md section 7, JOB-089): the list, and creating or
 * removing one of the kinds the director takes events from (src/api/contracts/integrations.ts).
 * Events arrive through server/routes/integrations-events.ts or, for file kinds, the director's tail.
 */
import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import { requirePermission, requireUser } from '../guards';
import { bodyFields, notFound, validate } from '../http-errors';
import { createIntegrationSchema, type IntegrationRow } from '../../src/api/contracts/integrations';
import { createIntegration, deleteIntegration, listIntegrations } from '../integrations/service';

const idParam = yup.object({ id: yup.number().typeError('id must be a number').integer().positive().required() });

export async function integrationsRoutes(app: FastifyInstance) {
  app.get('/integrations.json', async (req): Promise<{ data: IntegrationRow[] }> => {
    requireUser(req);
    return { data: await listIntegrations(app.db) };
  });

  app.post('/integrations.json', async (req, reply): Promise<IntegrationRow> => {
    requirePermission(req, 'actors.manage');
    const input = validate(createIntegrationSchema, bodyFields(req.body));
    reply.status(201);
    return createIntegration(app.db, input);
  });

  app.delete('/integrations/:id.json', async (req) => {
    requirePermission(req, 'actors.manage');
    const { id } = validate(idParam, req.params);
    if (!(await deleteIntegration(app.db, id))) throw notFound(`Integration ${id} does not exist.`);
    return { id, deleted: true };
  });
}
