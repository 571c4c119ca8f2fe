/**
 * Run-as user profiles (/action_user_profiles, JOB-005; MON-044 names the fields). The spec shows the
 * pane's link only, not its calls: these are ours (docs/api.md). Listing needs a session (the Action
 * form and the monitor editor pick from it); changes need actors.manage.
 */
import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import { requirePermission, requireUser } from '../guards';
import { bodyFields, validate } from '../http-errors';
import { runAsProfileCreateSchema, runAsProfileUpdateSchema, type RunAsProfile } from '../../src/api/contracts/run-as-profiles';
import { createProfile, deleteProfile, listProfiles, updateProfile } from '../admin/run-as-profiles';

const idParam = yup.object({ id: yup.number().typeError('id must be a number').integer().positive().max(2_147_483_647, 'id is out of range').required() });

export async function runAsProfilesRoutes(app: FastifyInstance) {
  app.get('/action_user_profiles.json', async (req): Promise<{ data: RunAsProfile[] }> => {
    requireUser(req);
    return { data: await listProfiles(app.db) };
  });

  app.post('/action_user_profiles.json', async (req, reply): Promise<{ data: RunAsProfile }> => {
    requirePermission(req, 'actors.manage');
    const input = validate(runAsProfileCreateSchema, bodyFields(req.body));
    reply.status(201);
    return { data: await createProfile(app.db, app.config.dataDir, input) };
  });

  app.patch('/action_user_profiles/:id.json', async (req): Promise<{ data: RunAsProfile }> => {
    requirePermission(req, 'actors.manage');
    const { id } = validate(idParam, req.params);
    const input = validate(runAsProfileUpdateSchema, bodyFields(req.body));
    return { data: await updateProfile(app.db, app.config.dataDir, id, input) };
  });

  app.delete('/action_user_profiles/:id.json', async (req) => {
    requirePermission(req, 'actors.manage');
    const { id } = validate(idParam, req.params);
    return deleteProfile(app.db, id);
  });
}
