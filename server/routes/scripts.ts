import type { FastifyInstance } from 'fastify';
import { requireUser } from '../guards';
import { badRequest, bodyFields, validate } from '../http-errors';
import { scriptRunSchema, scriptSaveSchema } from '../../src/api/contracts/scripts';
import { createScript, deleteScript, listScriptRuns, listScripts, recordScriptRun, updateScript, visibleScript } from '../scripts/service';

function parseId(raw: string): number {
  const id = Number(raw);
  if (!Number.isInteger(id) || id <= 0 || id > 2 ** 31 - 1) throw badRequest(`"${raw}" is not a script id.`);
  return id;
}

/** Saved scripts: each user's own plus the shared ones; only the owner (or an admin) changes one (SQL in server/scripts/service.ts). */
export async function scriptsRoutes(app: FastifyInstance) {
  app.get('/scripts.json', async (req) => {
    const session = requireUser(req);
    return { data: await listScripts(app.db, session.user.id) };
  });

  app.get<{ Params: { id: string } }>('/scripts/:id.json', async (req) => {
    const session = requireUser(req);
    return { data: await visibleScript(app.db, parseId(req.params.id), session.user.id) };
  });

  app.post('/scripts.json', async (req, reply) => {
    const session = requireUser(req);
    const input = validate(scriptSaveSchema, bodyFields(req.body));
    return reply.status(201).send({ data: await createScript(app.db, session.user.id, input) });
  });

  app.put<{ Params: { id: string } }>('/scripts/:id.json', async (req) => {
    const session = requireUser(req);
    const id = parseId(req.params.id);
    const input = validate(scriptSaveSchema, bodyFields(req.body));
    return { data: await updateScript(app.db, id, session.user, input) };
  });

  app.delete<{ Params: { id: string } }>('/scripts/:id.json', async (req) => {
    const session = requireUser(req);
    const id = parseId(req.params.id);
    await deleteScript(app.db, id, session.user);
    return { deleted: id };
  });

  app.get<{ Params: { id: string } }>('/scripts/:id/runs.json', async (req) => {
    const session = requireUser(req);
    return { data: await listScriptRuns(app.db, parseId(req.params.id), session.user.id) };
  });

  app.post<{ Params: { id: string } }>('/scripts/:id/runs.json', async (req, reply) => {
    const session = requireUser(req);
    const id = parseId(req.params.id);
    const input = validate(scriptRunSchema, bodyFields(req.body));
    return reply.status(201).send({ data: { id: await recordScriptRun(app.db, id, session.user.id, input) } });
  });
}
