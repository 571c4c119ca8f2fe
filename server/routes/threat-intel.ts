/**
 * Threat-intel sources (the integrations menu's threat-intel integrations, JOB-029). The spec names
 * only /threat_intel_integrations/new.js?integration_type={name}; the kinds, fields and the other
 * calls are Vigil's design (docs/api.md, "Threat-intel sources"). Listing needs a session; the form
 * and changes need actors.manage (like integrations). The API key is write-only.
 */
import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import { requirePermission, requireUser } from '../guards';
import { bodyFields, notFound, validate } from '../http-errors';
import { threatIntelCreateSchema, threatIntelNewQuerySchema, threatIntelUpdateSchema, type ThreatIntelAnswer, type ThreatIntelNewForm, type ThreatIntelSource } from '../../src/api/contracts/threat-intel';
import { createThreatIntel, deleteThreatIntel, listThreatIntel, threatIntelCatalogue, threatIntelNewForm, updateThreatIntel } from '../integrations/threat-intel';

const idParam = yup.object({ id: yup.number().typeError('id must be a number').integer().positive().max(2_147_483_647, 'id is out of range').required() });

export async function threatIntelRoutes(app: FastifyInstance) {
  app.get('/threat_intel_integrations.json', async (req): Promise<ThreatIntelAnswer> => {
    requireUser(req);
    return { data: await listThreatIntel(app.db), available: threatIntelCatalogue() };
  });

  app.get('/threat_intel_integrations/new.js', async (req): Promise<ThreatIntelNewForm> => {
    requirePermission(req, 'actors.manage');
    const q = validate(threatIntelNewQuerySchema, req.query ?? {});
    const form = await threatIntelNewForm(app.db, q.integration_type);
    if (!form) throw notFound(`There is no threat-intel integration type ${q.integration_type}.`);
    return form;
  });

  app.post('/threat_intel_integrations.json', async (req, reply): Promise<{ data: ThreatIntelSource }> => {
    requirePermission(req, 'actors.manage');
    const input = validate(threatIntelCreateSchema, bodyFields(req.body));
    reply.status(201);
    return { data: await createThreatIntel(app.db, app.config.dataDir, input) };
  });

  app.patch('/threat_intel_integrations/:id.json', async (req): Promise<{ data: ThreatIntelSource }> => {
    requirePermission(req, 'actors.manage');
    const { id } = validate(idParam, req.params);
    const input = validate(threatIntelUpdateSchema, bodyFields(req.body));
    return { data: await updateThreatIntel(app.db, app.config.dataDir, id, input) };
  });

  app.delete('/threat_intel_integrations/:id.json', async (req) => {
    requirePermission(req, 'actors.manage');
    const { id } = validate(idParam, req.params);
    return deleteThreatIntel(app.db, id);
  });
}
