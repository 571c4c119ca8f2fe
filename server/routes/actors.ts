/**
 * The actor API (under /api/actor/, bearer credentials, no cookies, so exempt from CSRF). Bulk
 * registration tokens are in bulk-tokens.ts; the data is in actors/service.ts.
 */
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { plainPoll } from '../actors/plain-poll';
import { serveActorChannel, type ActorCall, type ActorRoute } from '../actors/channel';
import * as yup from 'yup';
import { HttpError, validate } from '../http-errors';
import {
  ACTOR_API,
  MAX_POLL_BYTES,
  MAX_RESULT_BYTES,
  heartbeatSchema,
  pollSchema,
  readySchema,
  registerSchema,
  resultSchema,
  targetEvidenceSchema,
  type ActorOkAnswer,
  type PollAnswer,
  type RegisterAnswer,
  type SignedWork,
  type WorkPayload,
} from '../../src/api/contracts/engine';
import { taskResultSchema, type ActorTaskPayload, type SignedTask } from '../../src/api/contracts/actor-dependencies';
import { sign, signingKeys } from '../engine/secrets';
import { claimTasks, failTasksOfOtherSessions, storeTaskResult } from '../actors/tasks';
import { engineFor, type HandedWork } from '../engine/engine';
import { actorByCredential, claimNext, claimWithState, markReady, registerActor, pollState, rememberedActor, storeResult, IDLE_STATE, storeTargetEvidence, touchActorByCredential, touchAndPollState, workCaller, type ActorNode, type PollState, type WorkCaller } from '../actors/service';

/** The actor a request's bearer credential belongs to; 401 otherwise. */
export const actorOf = (app: FastifyInstance, req: FastifyRequest): Promise<ActorNode> => actorByCredential(app.db, req.headers.authorization);

/**
 * A call about one piece of the actor's work: its id and body validated. Who calls (the credential) and
 * whether the work is this actor process's are checked by the call's own write (server/actors/service.ts
 * workCaller): no statement before it. An unknown credential is refused (401) before a malformed call (400).
 */
async function workCall<S extends yup.AnyObjectSchema>(app: FastifyInstance, call: ActorCall, schema: S): Promise<{ input: yup.InferType<S>; id: number; caller: WorkCaller }> {
  const engine = engineFor(app.db);
  let id: number;
  let input: yup.InferType<S>;
  try {
    ({ id } = validate(idParam, call.params));
    input = validate(schema, call.body);
  } catch (e) {
    await actorByCredential(app.db, call.authorization);
    throw e;
  }
  return { input, id, caller: workCaller(engine, call.authorization) };
}

const idParam = yup.object({ id: yup.number().typeError('id must be a number').integer().positive().required() });
/** A report a poll carried that the director refused, with why (4xx). */
type Refusal = { work_id: number; error: string };

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

const portFailures = (raw: unknown) =>
  Object.fromEntries(Object.entries(raw as Record<string, unknown>).slice(0, 256).map(([k, v]) => [k.slice(0, 10), String(v).slice(0, 200)]));

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

  // Registration has no credential yet: HTTP only (the channel needs one).
  app.post(`${ACTOR_API}/register`, (req): Promise<RegisterAnswer> => engine.track(async () => {
    const input = validate(registerSchema, req.body);
    const { nodeId, token } = await registerActor(app.db, input);
    const keys = await signingKeys(app.db);
    return { node_id: nodeId, token, signing_key: keys.publicPem, heartbeat_ms: engine.opts.heartbeatMs };
  }));

  async function heartbeat(call: ActorCall): Promise<ActorOkAnswer> {
    if (!rememberedActor(engine, call.authorization)) await touchActorByCredential(app.db, call.authorization, engine);
    validate(heartbeatSchema, call.body);
    return { ok: true };
  }

  async function poll(call: ActorCall): Promise<PollAnswer> {
    let input: yup.InferType<typeof pollSchema>;
    try {
      // Plainly well-formed bodies (every poll an actor sends) skip yup (plain-poll.ts); yup says what is wrong with the others.
      input = plainPoll(call.body) ?? validate(pollSchema, call.body);
    } catch (e) {
      // An unknown credential is refused (401) before a malformed body (400).
      await touchActorByCredential(app.db, call.authorization);
      throw e;
    }
    const holding = input.holding ?? [];
    // How long a poll sleeps without news before it looks again (Engine.recheckMs).
    const recheckMs = engine.recheckMs;
    // The news number before the actor's state was last read, and when it was read.
    let readAt = engine.lastNews;
    let readTime = Date.now();
    let known: PollState | null;
    // A credential checked recently (liveness.ts): no statement (marked alive with the next flush); an
    // idle actor polling again with no news since its last poll starts from that poll's state (liveness.ts).
    let node = rememberedActor(engine, call.authorization);
    // Readiness, evidence and results carried by the poll are stored before it looks: its state is read afterwards.
    const reports = input.ready.length + input.evidence.length + input.results.length > 0;
    // The state its last poll left (after a claim, or with nothing to do), which the reports may keep.
    let before: ReturnType<typeof engine.liveness.idleStateOf> = null;
    // The reports' writes, started before the credential is read when it is not remembered.
    let stored: Promise<Refusal[]> | null = null;
    if (reports && !node) {
      // Each write checks the credential itself (by its hash, with the work's owner and session): the
      // credential's read goes beside them, not before them. A job's first wave after a pause found every
      // target's credential forgotten, and its readiness waited for that read (12 ms of 55 in a trace).
      // The last poll's state is not kept then (before stays null): the poll reads its state afterwards.
      stored = storeReports(null, call.authorization, input);
      stored.catch(() => undefined);
      node = await touchActorByCredential(app.db, call.authorization, engine);
      known = null;
    } else if (reports && node) {
      // The work whose results it carries was held at its last poll (it no longer holds it: its result
      // ends it, and nothing else changes for the actor); evidence of targets' work its last poll told it
      // to abort must be carried for that poll's state to hold.
      before = engine.liveness.idleStateOf(
        node.id,
        [...holding, ...input.results.map((r) => r.work_id)],
        recheckMs,
        input.evidence.map((e) => e.work_id),
      );
      known = null;
    } else if (node) {
      const idle = engine.liveness.idleStateOf(node.id, holding, recheckMs);
      if (idle) [known, readAt, readTime] = [IDLE_STATE, idle.readAt, idle.at];
      else known = await pollState(app.db, engine, node.id, holding);
    } else {
      // Marked alive and its state read in one statement; read again when news came in meanwhile.
      const first = await touchAndPollState(app.db, engine, call.authorization, holding);
      node = first.node;
      known = first.state;
    }
    engine.liveness.clearIdle(node.id);
    // Work claimed by an earlier process of this actor cannot finish: end it with the reason.
    if (engine.sessions.get(node.id) !== input.session) {
      known = null;
      before = null;
      await engine.failOpenWork(
        `node_id = $1 and status in ('claimed', 'ready') and actor_session is distinct from $2`,
        [node.id, input.session],
        `Actor ${node.name} restarted while performing this action.`,
      );
      await failTasksOfOtherSessions(app.db, node.id, input.session, node.name);
      engine.sessions.set(node.id, input.session);
    }
    const refused = reports ? await (stored ?? storeReports(node, call.authorization, input)) : [];
    // A target's readiness changes nothing its poll reads (its work stays open, nothing is queued for it):
    // with no news of it since its last poll, that poll's state holds (one statement less per action).
    if (before && !refused.length && known === null && engine.newsOf(node.id) <= before.readAt) {
      [known, readAt, readTime] = [IDLE_STATE, before.readAt, before.at];
    }
    const keys = await signingKeys(app.db);
    const deadline = Date.now() + Math.min(input.wait_ms, 20_000);
    // The state the last look found (read, or kept from the last poll), as of readAt.
    let last: PollState | null = null;
    // Work a target's readiness claimed for this poll while it waited (markReady, Engine.handOff).
    let handed: HandedWork[] = [];
    for (;;) {
      const since = engine.newsOf(node.id);
      let state: PollState;
      let claimed: Awaited<ReturnType<typeof claimNext>> = [];
      const ended = last ? engine.endedSince(node.id, readAt) : null;
      if (handed.length && last && since <= readAt) {
        // Woken without news by the hand-off: the last look's state holds (nothing queued: the work was claimed for it).
        state = last;
      } else if (known && since <= readAt) {
        // The first state holds unless news of this actor came in since it was read.
        state = known;
        if (state.queued) claimed = await claimNext(app.db, node.id, input.session);
      } else if (engine.queuedNewsOf(node.id) > readAt) {
        // Told that work was queued for it: the state is read by the claim's transaction (one statement less).
        [readAt, readTime] = [engine.lastNews, Date.now()];
        ({ state, claimed } = await claimWithState(app.db, engine, node.id, input.session, holding));
      } else if (last && ended) {
        // The only news since the last look: work of the actor ended (a result, storeResult). The state
        // follows without a read: that work is no longer open; nothing else changed (a read's time stays).
        readAt = engine.lastNews;
        state = { ...last, abort: holding.filter((id) => ended.includes(id)) };
        if (state.queued) claimed = await claimNext(app.db, node.id, input.session);
      } else {
        [readAt, readTime] = [engine.lastNews, Date.now()];
        state = await pollState(app.db, engine, node.id, holding);
        if (state.queued) claimed = await claimNext(app.db, node.id, input.session);
      }
      known = null;
      last = state;
      claimed = [...handed, ...claimed];
      handed = [];
      const { abort, tasks: tasksQueued } = state;
      const tasks: SignedTask[] = (tasksQueued ? await claimTasks(app.db, node.id, input.session) : []).map((t) => {
        const now = Date.now();
        const payload = JSON.stringify({ task_id: t.id, node_id: node.id, kind: t.kind, issued_at: new Date(now).toISOString(), expires_at: new Date(now + 5 * 60_000).toISOString() } satisfies ActorTaskPayload);
        return { id: t.id, payload, signature: sign(keys, payload) };
      });
      const work: SignedWork[] = claimed.map((w) => {
        // The expiry counts from the signing, not from the dispatch: work that waited queued (a source
        // held until its target was ready, a busy director) is not refused as expired by the actor.
        const now = Date.now();
        const expires = new Date(now + w.payload.timeout_ms + 60_000).toISOString();
        const payload = JSON.stringify({ ...w.payload, work_id: w.id, issued_at: new Date(now).toISOString(), expires_at: expires } satisfies WorkPayload);
        return { id: w.id, payload, signature: sign(keys, payload) };
      });
      if (work.length || abort.length || tasks.length || Date.now() >= deadline || engine.stopped) {
        // What the actor holds once it has let go of the work it is told to abort.
        const kept = holding.filter((id) => !abort.includes(id));
        // Nothing for it, nothing queued or cleaned up: its next poll may start from this state. Told to
        // abort a target's work, it closes the servers and its next poll carries their evidence, which
        // ends the cleanup (until then the work is reverting): the state holds for that poll only.
        if (!work.length && !tasks.length && !state.queued && !state.tasks && !state.reverted) engine.liveness.setIdle(node.id, kept, readAt, readTime, abort);
        // Work claimed: nothing else is open or queued for the actor (the engine hands an actor new work
        // only when it holds none open, across directors: Engine.nodesFree), and none of its work was
        // reverting (the claim waits for a cleanup), so its next poll, holding this work too, starts from
        // this state unless news of it comes in (one statement less per claim).
        else if (work.length && !tasks.length && !state.tasks && !state.reverted) engine.liveness.setIdle(node.id, [...kept, ...work.map((w) => w.id)], readAt, readTime);
        return { work, abort, ...(tasks.length ? { tasks } : {}), ...(refused.length ? { refused } : {}) };
      }
      handed = await engine.waitForWork(node.id, input.session, Math.min(recheckMs, deadline - Date.now()), since);
    }
  }

  /** A poll's evidence, results and readiness, stored as /evidence, /result and /ready would; the refused ones with why (4xx). Without the node (not remembered), each write finds it by the credential's hash. */
  async function storeReports(node: ActorNode | null, authorization: string | undefined, input: yup.InferType<typeof pollSchema>): Promise<Refusal[]> {
    const refused: Refusal[] = [];
    const caller: WorkCaller = node ? { node, hash: '', authorization } : workCaller(engine, authorization);
    const refuse = (workId: number) => (e: unknown) => {
      if (!(e instanceof HttpError) || e.statusCode >= 500) throw e;
      refused.push({ work_id: workId, error: e.message });
    };
    // Together: they join one group commit each (storeTargetEvidence, storeResult).
    await Promise.all(input.evidence.map((r) => storeTargetEvidence(app.db, engine, caller, r.work_id, input.session, r.evidence, false).catch(refuse(r.work_id))));
    await Promise.all(input.results.map(({ work_id, ...r }) => storeResult(app.db, engine, caller, work_id, { ...r, session: input.session }).catch(refuse(work_id))));
    for (const r of input.ready) {
      await Promise.resolve()
        .then(() => markReady(app.db, engine, caller, r.work_id, input.session, { port_map: checkPortMap(r.port_map), port_failures: portFailures(r.port_failures), login: r.login }))
        .catch(refuse(r.work_id));
    }
    return refused;
  }

  async function ready(call: ActorCall): Promise<ActorOkAnswer> {
    const { input, id, caller } = await workCall(app, call, readySchema);
    const portMap = checkPortMap(input.port_map);
    const failures = portFailures(input.port_failures);
    await markReady(app.db, engine, caller, id, input.session, { port_map: portMap, port_failures: failures, login: input.login });
    return { ok: true };
  }

  async function evidence(call: ActorCall): Promise<ActorOkAnswer> {
    const { input, id, caller } = await workCall(app, call, targetEvidenceSchema);
    await storeTargetEvidence(app.db, engine, caller, id, input.session, input.evidence);
    return { ok: true };
  }

  async function result(call: ActorCall): Promise<ActorOkAnswer> {
    const { input, id, caller } = await workCall(app, call, resultSchema);
    await storeResult(app.db, engine, caller, id, input);
    return { ok: true };
  }

  // The report of a task outside jobs (install dependencies, version check; server/actors/tasks.ts).
  async function taskResult(call: ActorCall): Promise<ActorOkAnswer> {
    const node = await actorByCredential(app.db, call.authorization);
    const { id } = validate(idParam, call.params);
    const input = validate(taskResultSchema, call.body);
    await storeTaskResult(app.db, node, id, input);
    return { ok: true };
  }

  // The calls an actor makes with its credential, over HTTP (a POST each) and over its channel.
  const routes: ActorRoute[] = [
    { path: '/heartbeat', bodyLimit: MAX_RESULT_BYTES, handle: heartbeat },
    { path: '/poll', bodyLimit: MAX_POLL_BYTES, handle: poll },
    { path: '/work/:id/ready', bodyLimit: MAX_RESULT_BYTES, handle: ready },
    { path: '/work/:id/evidence', bodyLimit: MAX_RESULT_BYTES, handle: evidence },
    { path: '/work/:id/result', bodyLimit: MAX_RESULT_BYTES, handle: result },
    { path: '/tasks/:id/result', bodyLimit: MAX_RESULT_BYTES, handle: taskResult },
  ];
  for (const r of routes) {
    app.post(`${ACTOR_API}${r.path}`, { bodyLimit: r.bodyLimit }, (req) =>
      engine.track(() => r.handle({ authorization: req.headers.authorization, params: req.params, body: req.body })),
    );
  }
  serveActorChannel(app, engine, routes);
}
