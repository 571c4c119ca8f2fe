/**
 * The security lab's calls (`npm run lab` makes them, signed in as an administrator):
 * POST /lab/setups.json records a lab coming up (token, zones, firewall device, links, integration),
 * POST /lab/setups/{prefix}/actors.json puts its registered actors into their zones,
 * DELETE /lab/setups/{prefix}.json removes it. See docs/api.md, "Security lab".
 */
import type { FastifyInstance } from 'fastify';
import { requirePermission } from '../guards';
import { bodyFields, notFound, validate } from '../http-errors';
import { labPrefixParam, labSetupSchema, type LabActor, type LabRemoval, type LabSetupAnswer } from '../../src/api/contracts/lab';
import { attachLabActors, removeLab, setupLab } from './service';

export async function labRoutes(app: FastifyInstance) {
  app.post('/lab/setups.json', async (req, reply): Promise<LabSetupAnswer> => {
    const session = requirePermission(req, 'users.manage');
    const input = validate(labSetupSchema, bodyFields(req.body));
    reply.status(201);
    return setupLab(app.db, input, session.user.id);
  });

  app.post('/lab/setups/:prefix/actors.json', async (req): Promise<{ data: LabActor[] }> => {
    requirePermission(req, 'users.manage');
    const { prefix } = validate(labPrefixParam, req.params);
    const actors = await attachLabActors(app.db, prefix);
    if (!actors) throw notFound(`No lab named ${prefix} is set up.`);
    return { data: actors };
  });

  app.delete('/lab/setups/:prefix.json', async (req): Promise<LabRemoval> => {
    requirePermission(req, 'users.manage');
    const { prefix } = validate(labPrefixParam, req.params);
    return removeLab(app.db, prefix);
  });
}
