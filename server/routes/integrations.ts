/**
 * Integrations (jobs-simulations-network-map.md sections 2 "Integrations menu" and 7, JOB-029, JOB-089):
 * the list (with the menu's catalogue and the integration service's state when allow_msi=1&include_msi=1,
 * and event counts with events=1), the creation form of a kind (/integrations/new.js), and creating or
 * removing one of the kinds the director takes events from (src/api/contracts/integrations.ts).
 * Events arrive through server/routes/integrations-events.ts or, for file kinds, the director's tail.
 */
import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import { requirePermission, requireUser } from '../guards';
import { badRequest, bodyFields, notFound, validate } from '../http-errors';
import { createIntegrationSchema, integrationNewQuerySchema, integrationsListQuerySchema, type IntegrationNewForm, type IntegrationRow, type IntegrationsAnswer } from '../../src/api/contracts/integrations';
import { createIntegration, deleteIntegration, integrationCatalogue, integrationNewForm, listIntegrations, listIntegrationsWithEvents } from '../integrations/service';
import { integrationServiceState } from '../integrations/file-sources';

const idParam = yup.object({ id: yup.number().typeError('id must be a number').integer().positive().required() });

export async function integrationsRoutes(app: FastifyInstance) {
  app.get('/integrations.json', async (req): Promise<IntegrationsAnswer> => {
    requireUser(req);
    const q = validate(integrationsListQuerySchema, req.query ?? {});
    const data = q.events === '1' ? await listIntegrationsWithEvents(app.db) : await listIntegrations(app.db);
    if (q.allow_msi !== '1' || q.include_msi !== '1') return { data };
    // The menu hides remote-only integrations itself when saas is true (JOB-029).
    return { data, available: integrationCatalogue(), service: integrationServiceState(app.db), actions_disabled: !!app.config.actionsDisabled, saas: !!app.config.saas };
  });

  // The creation modal's content for one kind (JSON: the form's fields, defaults and help).
  app.get('/integrations/new.js', async (req): Promise<IntegrationNewForm> => {
    requirePermission(req, 'actors.manage');
    const q = validate(integrationNewQuerySchema, req.query ?? {});
    const remote = q.remote === 'true' || q.remote === '1';
    if (remote) throw badRequest(`${q.integration_type} cannot run remotely: the director itself takes its events.`);
    const form = await integrationNewForm(app.db, q.integration_type, remote);
    if (!form) throw notFound(`There is no integration type ${q.integration_type}.`);
    return form;
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
