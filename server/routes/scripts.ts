import type { FastifyInstance } from 'fastify';
import type { ActiveSession } from '../auth/sessions';
import { requireUser } from '../guards';
import { badRequest, bodyFields, forbidden, validate } from '../http-errors';
import { scriptRunFinishSchema, scriptRunOpenSchema, scriptRunSchema, scriptSaveSchema, type ScriptSaveInput } from '../../src/api/contracts/scripts';
import { createScript, deleteScript, finishScriptRun, listScriptRuns, listScripts, recordScriptRun, updateScript, visibleScript } from '../scripts/service';

/**
 * Sharing a script needs `scripts.share` (operators, approvers, administrators): a shared script runs
 * with the permissions of whoever runs it, so a viewer must not be able to offer one to an administrator.
 */
function requireShareRight(session: ActiveSession, input: ScriptSaveInput): void {
  if (input.shared && !session.user.permissions.includes('scripts.share')) {
    throw forbidden('Sharing a script needs the scripts.share permission (operators, approvers and administrators); save it unshared.');
  }
}

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
    requireShareRight(session, input);
    return reply.status(201).send({ data: await createScript(app.db, session.user.id, input) });
  });

  app.put<{ Params: { id: string } }>('/scripts/:id.json', async (req) => {
    const session = requireUser(req);
    const id = parseId(req.params.id);
    const input = validate(scriptSaveSchema, bodyFields(req.body));
    requireShareRight(session, input);
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
    // With an outcome the whole run at once; without, the run is opened and its runner finishes it with PUT.
    const fields = bodyFields(req.body);
    const whole = !!fields && typeof fields === 'object' && ('outcome' in fields || 'steps' in fields);
    const input = whole ? validate(scriptRunSchema, fields) : validate(scriptRunOpenSchema, fields);
    return reply.status(201).send({ data: { id: await recordScriptRun(app.db, id, session.user.id, input) } });
  });

  app.put<{ Params: { id: string; runId: string } }>('/scripts/:id/runs/:runId.json', async (req) => {
    const session = requireUser(req);
    const id = parseId(req.params.id);
    const runId = parseId(req.params.runId);
    const input = validate(scriptRunFinishSchema, bodyFields(req.body));
    await finishScriptRun(app.db, id, runId, session.user.id, input);
    return { data: { id: runId, outcome: input.outcome } };
  });
}
