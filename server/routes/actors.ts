/**
 * The actor API (under /api/actor/, bearer credentials, no cookies, so exempt from CSRF). Bulk
 * registration tokens are in bulk-tokens.ts.
 */
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as yup from 'yup';
import { HttpError, notFound, unauthorized, validate } from '../http-errors';
import {
  ACTOR_API,
  MAX_RESULT_BYTES,
  heartbeatSchema,
  pollSchema,
  readySchema,
  registerSchema,
  resultSchema,
  type PollAnswer,
  type RegisterAnswer,
  type SignedWork,
  type WorkPayload,
} from '../../src/api/contracts/engine';
import { hashSecret, newSecret, sign, signingKeys } from '../engine/secrets';
import { engineFor } from '../engine/engine';

export interface ActorNode {
  id: number;
  name: string;
  status: string;
}

export async function actorOf(app: FastifyInstance, req: FastifyRequest): Promise<ActorNode> {
  const h = req.headers.authorization ?? '';
  const m = /^Bearer ([A-Za-z0-9_\-.]{10,200})$/.exec(h);
  if (!m?.[1]) throw unauthorized('An actor credential is required (Authorization: Bearer <token>).');
  const [node] = await app.db.query<ActorNode>('select id, name, status from nodes where token_hash = $1 and retired_at is null', [hashSecret(m[1])]);
  if (!node) throw unauthorized('Unknown or revoked actor credential, or the actor is retired.');
  return node;
}

const idParam = yup.object({ id: yup.number().typeError('id must be a number').integer().positive().required() });

export async function actorsRoutes(app: FastifyInstance) {
  const engine = engineFor(app.db);
  // Actors keep their connections open (keep-alive long polls); on close they are ended so the director stops at once.
  const actorSockets = new Set<Socket>();
  app.addHook('onRequest', async (req) => {
    const socket = req.raw.socket;
    if (!actorSockets.has(socket)) {
      actorSockets.add(socket);
      socket.once('close', () => actorSockets.delete(socket));
    }
  });
  app.addHook('preClose', async () => {
    await engine.stop();
    await new Promise((r) => setTimeout(r, 20));
    // Injected test requests carry a stand-in socket without destroy().
    for (const s of actorSockets) if (typeof s.destroy === 'function') s.destroy();
  });

  app.post(`${ACTOR_API}/register`, (req): Promise<RegisterAnswer> => engine.track(async () => {
    const input = validate(registerSchema, req.body);
    const [bulk] = await app.db.query<{ id: number; expired: boolean }>('select id, expires_at < now() as expired from actor_bulk_tokens where token_hash = $1', [
      hashSecret(input.bulk_token),
    ]);
    if (!bulk) throw unauthorized('Unknown bulk token.');
    if (bulk.expired) throw unauthorized('The bulk token has expired.');
    const token = newSecret('vat');
    const [node] = await app.db.query<{ id: number }>(
      `insert into nodes (name, node_type, os_base, os, node_version, msi_service_version, deps_installed, status, mgmt_address, sim_address, last_heartbeat_at, token_hash, capabilities)
       values ($1, 'endpoint', $2, $3, $4, $4, true, 'online', $5, $5, now(), $6, $7) returning id`,
      [
        input.name,
        /windows/i.test(input.os) ? 'windows' : 'linux',
        input.os,
        input.version,
        input.addresses[0],
        hashSecret(token),
        JSON.stringify({ types: input.capabilities, addresses: input.addresses, bulk_token_id: bulk.id }),
      ],
    );
    if (!node) throw new HttpError(500, 'The actor could not be registered.');
    const keys = await signingKeys(app.db);
    return { node_id: node.id, token, signing_key: keys.publicPem, heartbeat_ms: engine.opts.heartbeatMs };
  }));

  app.post(`${ACTOR_API}/heartbeat`, (req) => engine.track(async () => {
    const node = await actorOf(app, req);
    validate(heartbeatSchema, req.body);
    await app.db.query(`update nodes set last_heartbeat_at = now(), status = 'online', status_details = null where id = $1`, [node.id]);
    return { ok: true };
  }));

  app.post(`${ACTOR_API}/poll`, (req): Promise<PollAnswer> => engine.track(async () => {
    const node = await actorOf(app, req);
    const input = validate(pollSchema, req.body);
    await app.db.query(`update nodes set last_heartbeat_at = now(), status = 'online', status_details = null where id = $1`, [node.id]);
    // Work claimed by an earlier process of this actor cannot finish: end it with the reason.
    if (engine.sessions.get(node.id) !== input.session) {
      await engine.failOpenWork(
        `node_id = $1 and status in ('claimed', 'ready') and actor_session is distinct from $2`,
        [node.id, input.session],
        `Actor ${node.name} restarted while performing this action.`,
      );
      engine.sessions.set(node.id, input.session);
    }
    const keys = await signingKeys(app.db);
    const deadline = Date.now() + Math.min(input.wait_ms, 20_000);
    for (;;) {
      const since = engine.newsOf(node.id);
      const holding = input.holding ?? [];
      const stillOpen = holding.length
        ? await app.db.query<{ id: number }>(`select id from engine_work where id = any($1::int[]) and node_id = $2 and status in ('claimed', 'ready')`, [holding, node.id])
        : [];
      const open = new Set(stillOpen.map((r) => r.id));
      const abort = holding.filter((id) => !open.has(id));
      // A target's work the actor no longer holds has been cleaned up (its servers are closed).
      const cleaned = await app.db.query(`update engine_work set status = 'aborted' where node_id = $1 and status = 'reverting' and not (id = any($2::int[])) returning id`, [node.id, holding]);
      if (cleaned.length) engine.kick();
      const claimed = await claimNext(app, node.id, input.session);
      const work: SignedWork[] = claimed.map((w) => {
        const payload = JSON.stringify({ ...w.payload, work_id: w.id, issued_at: new Date().toISOString() } satisfies WorkPayload);
        return { id: w.id, payload, signature: sign(keys, payload) };
      });
      if (work.length || abort.length || Date.now() >= deadline || engine.stopped) return { work, abort };
      await engine.waitFor(node.id, Math.min(1000, deadline - Date.now()), since);
    }
  }));

  app.post(`${ACTOR_API}/work/:id/ready`, (req) => engine.track(async () => {
    const node = await actorOf(app, req);
    const { id } = validate(idParam, req.params);
    const input = validate(readySchema, req.body);
    const portMap = checkPortMap(input.port_map);
    const failures = Object.fromEntries(Object.entries(input.port_failures as Record<string, unknown>).slice(0, 256).map(([k, v]) => [k.slice(0, 10), String(v).slice(0, 200)]));
    const w = await ownWork(app, id, node, input.session);
    if (w.role !== 'target' || w.status !== 'claimed') throw new HttpError(409, `Work ${id} is not a target waiting to be ready.`);
    const released = await app.db.transaction(async (tx) => {
      await tx.query(`update engine_work set status = 'ready', ready_at = now(), result = $2 where id = $1`, [id, JSON.stringify({ port_map: portMap, port_failures: failures })]);
      return tx.query<{ node_id: number }>(
        `update engine_work set status = 'queued', payload = payload || $2::jsonb where job_action_id = $1 and role = 'source' and status = 'held' returning node_id`,
        [w.job_action_id, JSON.stringify({ port_map: portMap, port_failures: failures, ...(input.login ? { peer_login: input.login } : {}) })],
      );
    });
    for (const r of released) engine.notify(r.node_id);
    return { ok: true };
  }));

  app.post(`${ACTOR_API}/work/:id/result`, { bodyLimit: MAX_RESULT_BYTES }, (req) => engine.track(async () => {
    const node = await actorOf(app, req);
    const { id } = validate(idParam, req.params);
    const input = validate(resultSchema, req.body);
    const w = await ownWork(app, id, node, input.session);
    if (w.status !== 'claimed' && w.status !== 'ready') throw new HttpError(409, `Work ${id} is no longer open (${w.status}); the result was not stored.`);
    const status = input.outcome === 'ran' ? 'ran' : input.outcome === 'incompatible' ? 'incompatible' : input.outcome === 'aborted' ? 'cancelled' : 'errored';
    const target = w.role === 'target' ? null : await app.db.query<{ result: unknown }>(`select result from engine_work where job_action_id = $1 and role = 'target'`, [w.job_action_id]);
    const evidence = w.role === 'source' ? { source: input.evidence, target: target?.[0]?.result ?? null } : { target: input.evidence };
    await app.db.transaction(async (tx) => {
      await tx.query(`update engine_work set status = $2, result = coalesce(result, '{}'::jsonb) || $3::jsonb, finished_at = now() where id = $1`, [
        id,
        input.outcome === 'ran' ? 'done' : 'errored',
        JSON.stringify({ outcome: input.outcome, message: input.message }),
      ]);
      await tx.query(
        `update job_actions set status = $2, blocked = $3, blocked_msg = $4, evidence = $5, finished_at = now() where id = $1 and status in ('pending', 'running', 'waiting')`,
        [w.job_action_id, status, status === 'ran' ? input.blocked : null, input.message, JSON.stringify(evidence)],
      );
    });
    // The other side (the target's servers) stops at its next poll.
    await engine.endActions([w.job_action_id], status, null);
    await engine.updateProgress([w.job_id]);
    await engine.afterAction(w.job_action_id);
    return { ok: true };
  }));
}

/**
 * One actor performs one piece of work at a time, whichever director handed it out: the node's row
 * is locked while claiming, and nothing is claimed while the node has work claimed, serving or cleaning up.
 */
function claimNext(app: FastifyInstance, nodeId: number, session: string) {
  return app.db.transaction(async (tx) => {
    await tx.query('select id from nodes where id = $1 for update', [nodeId]);
    return tx.query<{ id: number; payload: Omit<WorkPayload, 'work_id' | 'issued_at'> }>(
      `update engine_work set status = 'claimed', claimed_at = now(), actor_session = $2,
              deadline_at = now() + ((payload->>'timeout_ms')::int + 15000) * interval '1 millisecond'
        where id in (select id from engine_work where node_id = $1 and status = 'queued'
                        and not exists (select 1 from engine_work r where r.node_id = $1 and r.status in ('claimed', 'ready', 'reverting'))
                      order by id limit 1 for update skip locked)
        returning id, payload`,
      [nodeId, session],
    );
  });
}

export async function ownWork(app: FastifyInstance, id: number, node: ActorNode, session: string) {
  const [w] = await app.db.query<{ id: number; node_id: number; role: string; status: string; job_id: number; job_action_id: number; actor_session: string | null }>(
    'select id, node_id, role, status, job_id, job_action_id, actor_session from engine_work where id = $1',
    [id],
  );
  if (!w || w.node_id !== node.id) throw notFound(`Work ${id} is not assigned to this actor.`);
  if (w.actor_session !== session) throw new HttpError(409, `Work ${id} was claimed by another process of this actor.`);
  return w;
}

function checkPortMap(raw: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  const entries = Object.entries((raw ?? {}) as Record<string, unknown>);
  if (entries.length > 256) throw new HttpError(400, 'port_map names too many ports.');
  for (const [k, v] of entries) {
    if (!/^\d{1,5}$/.test(k) || typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 65535) throw new HttpError(400, `port_map entry ${k} is not a valid port.`);
    out[k] = v;
  }
  return out;
}
