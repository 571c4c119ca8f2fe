/**
 * Security-tool events: POST /integrations/{id}/events with the integration's token
 * (Authorization: Bearer or X-Integration-Token; no cookie, so exempt from CSRF), JSON events
 * (one object, an array, or {events: [...]}, generic fields or Suricata EVE). The token is made by
 * POST /integrations/{id}/events_token.json (session + CSRF, actors.manage) and shown once.
 */
import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import { requirePermission } from '../guards';
import { HttpError, badRequest, notFound, unauthorized, validate } from '../http-errors';
import { MAX_EVENTS_PER_POST } from '../../src/api/contracts/engine';
import { hashSecret, newSecret } from '../engine/secrets';
import { ingestEvents, normalizeEvent, type NormalEvent } from '../engine/detection';
import { engineFor } from '../engine/engine';

const idParam = yup.object({ id: yup.number().typeError('id must be a number').integer().positive().required() });

export async function integrationsEventsRoutes(app: FastifyInstance) {
  const engine = engineFor(app.db);

  app.post('/integrations/:id/events', { bodyLimit: 4 * 1024 * 1024 }, async (req) => {
    const { id } = validate(idParam, req.params);
    const auth = req.headers.authorization ?? '';
    const token = /^Bearer (.+)$/.exec(auth)?.[1] ?? req.headers['x-integration-token'];
    if (typeof token !== 'string' || !token) throw unauthorized('An integration token is required (Authorization: Bearer <token>).');
    const [integration] = await app.db.query<{ id: number; events_token_hash: string | null; enabled: boolean }>(
      'select id, events_token_hash, enabled from integrations where id = $1',
      [id],
    );
    if (!integration || !integration.events_token_hash || integration.events_token_hash !== hashSecret(token)) throw unauthorized('Unknown integration or wrong token.');
    if (!integration.enabled) throw new HttpError(409, 'This integration is disabled.');
    const body = req.body;
    const list: unknown[] = Array.isArray(body) ? body : body && typeof body === 'object' && Array.isArray((body as { events?: unknown }).events) ? (body as { events: unknown[] }).events : [body];
    if (!list.length) throw badRequest('No events were sent.');
    if (list.length > MAX_EVENTS_PER_POST) throw badRequest(`At most ${MAX_EVENTS_PER_POST} events per call.`);
    const events: NormalEvent[] = [];
    for (const [i, e] of list.entries()) {
      const n = normalizeEvent(e);
      if (!n) throw badRequest(`Event ${i + 1} is not a JSON object.`);
      events.push(n);
    }
    return ingestEvents(app.db, id, events, engine.opts.detectionWindowMs);
  });

  app.post('/integrations/:id/events_token.json', async (req) => {
    requirePermission(req, 'actors.manage');
    const { id } = validate(idParam, req.params);
    const token = newSecret('vit');
    const rows = await app.db.query<{ id: number }>('update integrations set events_token_hash = $2 where id = $1 returning id', [id, hashSecret(token)]);
    if (!rows.length) throw notFound(`Integration ${id} does not exist.`);
    return { id, token, events_url: `/integrations/${id}/events` };
  });
}
