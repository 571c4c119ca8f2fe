import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as yup from 'yup';
import { requirePermission, requireUser } from '../guards';
import { badRequest, bodyFields, validate } from '../http-errors';
import {
  expectedEventsQuerySchema,
  listQuerySchema,
  monitorBodySchema,
  runsQuerySchema,
  validTimezone,
  type MonitorBody,
  type MonitorValidationContext,
} from '../../src/api/contracts/monitors';
import { checkMonitorBody } from '../monitors/checks';
import { createMonitor, deleteMonitor, duplicateMonitor, runMonitorNow, setPaused, updateMonitor } from '../monitors/service';
import { driftingSteps, getMonitor, listMonitors, monitorGroups, monitorRuns } from '../monitors/queries';
import { draftFromActions, draftFromSimulation, withActionInfo } from '../monitors/draft';
import { monitorStats } from '../monitors/stats';
import { editorOptions } from '../monitors/options';
import { expectedEvents } from '../monitors/expected-events';
import { engineFor } from '../engine/index';

/**
 * The monitor calls (monitors-actors-reporting.md says the editor's calls are not shown, MON-126; ours
 * are documented in docs/api.md "Monitors") and Monitor Stats' GET /monitor/update_data (JOB-093).
 * Reads need a session; writes need monitors.edit, run now jobs.run; every write needs the CSRF token.
 */

type Query = Record<string, unknown>;

function pathId(req: FastifyRequest): number {
  const raw = String((req.params as { id?: string }).id ?? '').replace(/\.json$/, '');
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) throw badRequest(`Monitor id must be a positive whole number, got "${raw}"`);
  return Number(raw);
}

async function validBody(app: FastifyInstance, input: unknown, ctx: MonitorValidationContext = {}): Promise<MonitorBody> {
  const fields = bodyFields(input);
  const body = validate(monitorBodySchema, fields, ctx);
  await checkMonitorBody(app.db, body);
  return body;
}

const draftQuery = yup.object({
  simulation_id: yup.number().typeError('simulation_id must be a whole number').integer().positive(),
  action_ids: yup.array(yup.number().typeError('action_ids must be whole numbers').integer().positive().required()).max(500, 'at most 500 actions'),
  timezone: yup.string().default('UTC').test('tz', 'timezone must be an IANA timezone', (v) => validTimezone(v ?? '')),
});

export async function monitorsRoutes(app: FastifyInstance) {
  const db = app.db;

  app.get('/monitors.json', async (req) => {
    requireUser(req);
    return listMonitors(db, validate(listQuerySchema, req.query ?? {}));
  });

  app.get('/monitor_groups.json', async (req) => {
    requireUser(req);
    return { data: await monitorGroups(db) };
  });

  app.get('/email_profiles.json', async (req) => {
    requireUser(req);
    return { data: await editorOptions(db).then((o) => o.email_profiles) };
  });

  // Everything the editor's pickers offer, in one call.
  app.get('/monitors/options.json', async (req) => {
    requireUser(req);
    return editorOptions(db);
  });

  // Drifting steps across every monitor (the monitors.drift command).
  app.get('/monitors/drift.json', async (req) => {
    requireUser(req);
    return { data: await driftingSteps(db) };
  });

  // The expected events table of one action (MON-014): events earlier runs of the Action reported.
  app.get('/monitors/expected_events.json', async (req) => {
    requireUser(req);
    const q = validate(expectedEventsQuerySchema, req.query ?? {});
    return expectedEvents(db, q.action_id, q.monitor_action_id);
  });

  // A starting body for the editor: from a simulation, or from Action library picks.
  app.get('/monitors/new.json', async (req) => {
    requireUser(req);
    const q = req.query as Query;
    const raw = q['action_ids[]'] ?? q.action_ids;
    const ids = raw === undefined ? undefined : (Array.isArray(raw) ? raw : String(raw).split(',')).map((v) => String(v).trim()).filter(Boolean);
    const input = validate(draftQuery, { simulation_id: q.simulation_id, action_ids: ids, timezone: q.timezone ?? 'UTC' });
    if (input.simulation_id !== undefined) return withActionInfo(db, await draftFromSimulation(db, input.simulation_id, input.timezone));
    if (input.action_ids?.length) return withActionInfo(db, await draftFromActions(db, input.action_ids, input.timezone));
    throw badRequest('Give simulation_id or action_ids.');
  });

  app.get('/monitors/:id', async (req) => {
    requireUser(req);
    return getMonitor(db, pathId(req));
  });

  app.get('/monitors/:id/runs.json', async (req) => {
    requireUser(req);
    const q = validate(runsQuerySchema, req.query ?? {});
    return monitorRuns(db, pathId(req), q.page, q.per_page);
  });

  app.post('/monitors.json', async (req, reply) => {
    const session = requirePermission(req, 'monitors.edit');
    const body = await validBody(app, req.body);
    const id = await createMonitor(db, body, session.user.id);
    reply.code(201);
    return getMonitor(db, id);
  });

  app.put('/monitors/:id', async (req) => {
    requirePermission(req, 'monitors.edit');
    const id = pathId(req);
    const current = await getMonitor(db, id);
    const body = await validBody(app, req.body, { existingRuntime: current.monitor_runtime });
    await updateMonitor(db, id, body);
    return getMonitor(db, id);
  });

  app.delete('/monitors/:id', async (req) => {
    requirePermission(req, 'monitors.edit');
    const id = pathId(req);
    await deleteMonitor(db, id);
    return { id, deleted: true };
  });

  app.post('/monitors/:id/duplicate.json', async (req, reply) => {
    const session = requirePermission(req, 'monitors.edit');
    const copy = await duplicateMonitor(db, pathId(req), session.user.id);
    reply.code(201);
    return getMonitor(db, copy);
  });

  for (const [verb, paused] of [['pause', true], ['resume', false]] as const) {
    app.post(`/monitors/:id/${verb}.json`, async (req) => {
      requirePermission(req, 'monitors.edit');
      const id = pathId(req);
      await setPaused(db, id, paused);
      return getMonitor(db, id);
    });
  }

  app.post('/monitors/:id/run_now.json', async (req, reply) => {
    const session = requirePermission(req, 'jobs.run');
    const jobId = await runMonitorNow(db, pathId(req), session.user.id);
    engineFor(db).kick();
    reply.code(201);
    return { job_id: jobId };
  });

  // Monitor Stats (JOB-028, JOB-045): polled by /monitor and the network map's aeda mode.
  app.get('/monitor/update_data', async (req) => {
    requireUser(req);
    return monitorStats(db);
  });
}
