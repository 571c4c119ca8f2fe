/**
 * Actor dependency installs and version checks (JOB-061, JOB-097; the spec leaves the paths unnamed,
 * docs/api.md documents these). Reading needs a session; queueing needs actors.manage (and CSRF, as
 * every session mutation). The actor does the work on its host and reports (routes/actors.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as yup from 'yup';
import { requirePermission, requireUser } from '../guards';
import { validate } from '../http-errors';
import type { ActorTask, ActorTaskKind, DependencyActor } from '../../src/api/contracts/actor-dependencies';
import { dependencyActor, dependencyActors, queueTask } from '../actors/tasks';
import { engineFor } from '../engine/engine';

const idParam = yup.object({ id: yup.number().typeError('id must be a number').integer().positive().max(2_147_483_647, 'id is out of range').required() });

export async function actorDependenciesRoutes(app: FastifyInstance) {
  const engine = engineFor(app.db);

  app.get('/integrations/dependency_actors.json', async (req): Promise<{ data: DependencyActor[] }> => {
    requireUser(req);
    return { data: await dependencyActors(app.db) };
  });

  app.get('/topology/nodes/:id/dependencies.json', async (req): Promise<{ data: DependencyActor }> => {
    requireUser(req);
    const { id } = validate(idParam, req.params);
    return { data: await dependencyActor(app.db, id) };
  });

  const queue = async (req: FastifyRequest, reply: FastifyReply, kind: ActorTaskKind): Promise<{ data: ActorTask }> => {
    const session = requirePermission(req, 'actors.manage');
    const { id } = validate(idParam, req.params);
    const task = await queueTask(app.db, id, kind, session.user.id);
    engine.notify(id); // the actor's waiting poll picks it up at once
    reply.status(201); // the task is created; it settles when the actor reports
    return { data: task };
  };
  app.post('/topology/nodes/:id/install_dependencies.json', (req, reply) => queue(req, reply, 'install_dependencies'));
  app.post('/topology/nodes/:id/version_check.json', (req, reply) => queue(req, reply, 'version_check'));
}
