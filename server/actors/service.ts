/**
 * The actor API's data (routes/actors.ts, routes/actor-files.ts): who a bearer credential is,
 * registering with a bulk token, heartbeats, claiming work (one piece at a time per actor), a
 * target's readiness releasing its source, and storing a result on the job action.
 *
 * Size: one module for the actor API's data, because the credential, poll, claim and work-call writes
 * share its remembered-credential and write-behind helpers; splitting it would export those helpers.
 */
import type { Readable } from 'node:stream';
import { FileStore } from '../file-library/store';
import type { SharedFiles } from '../storage/shared-files';
import type { Db } from '../db/index';
import { HttpError, notFound, unauthorized } from '../http-errors';
import type * as yup from 'yup';
import type { WorkPayload, registerSchema, resultSchema } from '../../src/api/contracts/engine';
import { hashSecret, newSecret } from '../engine/secrets';
import type { Engine, PollClaim } from '../engine/engine';
import { GroupCommits } from '../engine/group-commit';

export interface ActorNode {
  id: number;
  name: string;
  status: string;
}

/** The actor a credential (`Authorization: Bearer <token>`) belongs to; 401 otherwise. */
export async function actorByCredential(db: Db, authorization: string | undefined): Promise<ActorNode> {
  const m = /^Bearer ([A-Za-z0-9_\-.]{10,200})$/.exec(authorization ?? '');
  if (!m?.[1]) throw unauthorized('An actor credential is required (Authorization: Bearer <token>).');
  const [node] = await db.query<ActorNode>('select id, name, status from nodes where token_hash = $1 and retired_at is null', [hashSecret(m[1])]);
  if (!node) throw unauthorized('Unknown or revoked actor credential, or the actor is retired.');
  return node;
}

export type Registration = yup.InferType<typeof registerSchema>;

/** Registers an actor with a bulk token; answers its node id and its own credential. */
export async function registerActor(db: Db, input: Registration): Promise<{ nodeId: number; token: string }> {
  const [bulk] = await db.query<{ id: number; expired: boolean }>('select id, expires_at < now() as expired from actor_bulk_tokens where token_hash = $1', [hashSecret(input.bulk_token)]);
  if (!bulk) throw unauthorized('Unknown bulk token.');
  if (bulk.expired) throw unauthorized('The bulk token has expired.');
  const token = newSecret('vat');
  const [node] = await db.query<{ id: number }>(
    `insert into nodes (name, node_type, os_base, os, node_version, msi_service_version, deps_installed, status, mgmt_address, sim_address, last_heartbeat_at, token_hash, capabilities, username)
     values ($1, 'endpoint', $2, $3, $4, $4, false, 'online', $5, $5, now(), $6, $7, $8) returning id`,
    [
      input.name,
      /windows/i.test(input.os) ? 'windows' : 'linux',
      input.os,
      input.version,
      input.addresses[0],
      hashSecret(token),
      JSON.stringify({ types: input.capabilities, addresses: input.addresses, bulk_token_id: bulk.id }),
      input.username,
    ],
  );
  if (!node) throw new HttpError(500, 'The actor could not be registered.');
  return { nodeId: node.id, token };
}

/** The hash of a bearer credential (`Authorization: Bearer <token>`); 401 when there is none. */
function credentialHash(authorization: string | undefined): string {
  const m = /^Bearer ([A-Za-z0-9_\-.]{10,200})$/.exec(authorization ?? '');
  if (!m?.[1]) throw unauthorized('An actor credential is required (Authorization: Bearer <token>).');
  return hashSecret(m[1]);
}

/**
 * The actor of a credential the director checked recently (credentialTtlMs), while online, marked alive
 * with the next flush of heartbeats (server/actors/liveness.ts): no statement. Null when the database must say.
 */
export function rememberedActor(engine: Engine, authorization: string | undefined): ActorNode | null {
  const node = engine.liveness.known(credentialHash(authorization));
  if (node) engine.liveness.touchLater(node.id);
  return node;
}

/**
 * Milliseconds since the node's stored heartbeat; null when it has not called in since it registered
 * (registering stores last_heartbeat_at = created_at, and bulk-tokens.ts's PENDING rule reads that:
 * the first call-in must be written at once, never left to the flush).
 */
const HEARTBEAT_AGE = `(case when last_heartbeat_at > created_at then (extract(epoch from (now() - last_heartbeat_at)) * 1000)::float8 end)`;

/**
 * The heartbeat a call writes: now, and always after the registration, so the actor is no longer
 * pending. PGlite's clock counts milliseconds: a call-in in the millisecond of its registration had the
 * same now() as created_at, and the actor stayed pending (a heartbeat just sent, then cleared as pending).
 */
const CALLED_IN = `greatest(now(), created_at + interval '1 microsecond')`;

/**
 * Whether a credential read may leave the heartbeat to the next flush (liveness.ts): the actor is
 * online and its stored heartbeat is under half the offline delay old (twice liveness.staleMs; the
 * flush writes it within a tenth of the delay, long before the actor could look offline). Then the read
 * is a select, not an update of nodes (its row version, WAL and trigger check), the commonest write of
 * 50 polling actors on PostgreSQL (an idle actor's poll comes back every 5 s, after its remembered
 * credential has expired there).
 */
function heardRecently(engine: Engine, row: { status: string; age_ms: number | null }): boolean {
  return row.status === 'online' && row.age_ms !== null && row.age_ms >= 0 && row.age_ms < engine.liveness.staleMs() * 2;
}

/**
 * The actor a credential belongs to, which is alive (a heartbeat or a poll, or a work call): with the
 * engine, read by a select and marked alive with the next flush when its heartbeat is recent
 * (heardRecently), else written at once in the statement that checks the credential.
 */
export async function touchActorByCredential(db: Db, authorization: string | undefined, engine?: Engine): Promise<ActorNode> {
  const hash = credentialHash(authorization);
  const at = Date.now();
  if (engine) {
    const [row] = await db.query<ActorNode & { age_ms: number | null }>(`select id, name, status, ${HEARTBEAT_AGE} as age_ms from nodes where token_hash = $1 and retired_at is null`, [hash], { name: 'actor-by-credential' });
    if (!row) throw unauthorized('Unknown or revoked actor credential, or the actor is retired.');
    const node = { id: row.id, name: row.name, status: row.status };
    if (heardRecently(engine, row)) {
      engine.liveness.remember(hash, node, at, at - (row.age_ms ?? 0));
      engine.liveness.touchLater(node.id);
      return node;
    }
  }
  const [node] = await db.query<ActorNode>(
    `update nodes set last_heartbeat_at = ${CALLED_IN}, status = 'online', status_details = null where token_hash = $1 and retired_at is null returning id, name, status`,
    [hash],
    { name: 'actor-touch-by-credential' },
  );
  if (!node) throw unauthorized('Unknown or revoked actor credential, or the actor is retired.');
  engine?.liveness.remember(hash, node, at);
  return node;
}

/**
 * Who makes a work call (ready, evidence, result): the actor when the director remembers its credential
 * (liveness.ts), else only the credential's hash, which the call's write looks up itself (workNodeSql):
 * a work call reads nothing before its write.
 */
export interface WorkCaller {
  node: ActorNode | null;
  hash: string;
  authorization: string | undefined;
}

export function workCaller(engine: Engine, authorization: string | undefined): WorkCaller {
  return { node: rememberedActor(engine, authorization), hash: credentialHash(authorization), authorization };
}

/** The node id of a work call's actor in its write: $id when remembered, else looked up by the credential hash $hash. */
const workNodeSql = (id: string, hash: string) => `coalesce(${id}::int, (select n.id from nodes n where n.token_hash = ${hash} and n.retired_at is null))`;

/** The columns of a poll's state, of the node `node` (a column or $1) holding work ids $2. */
const pollColumns = (node: string) => `
  (select array_agg(id) from engine_work where id = any($2::int[]) and node_id = ${node} and status in ('claimed', 'ready')) as open,
  exists (select 1 from engine_work where node_id = ${node} and status = 'queued') as queued,
  exists (select 1 from engine_work where node_id = ${node} and status = 'reverting' and not (id = any($2::int[]))) as reverted,
  exists (select 1 from actor_tasks where node_id = ${node} and status = 'queued') as tasks`;

interface PollRow {
  open: number[] | null;
  queued: boolean;
  reverted: boolean;
  tasks: boolean;
}

export interface PollState {
  abort: number[];
  queued: boolean;
  tasks: boolean;
  /** A target's work it no longer holds was cleaned up by this read. */
  reverted: boolean;
}

/** The state of an actor with nothing to do, its held work all open (an idle poll's, server/actors/liveness.ts). */
export const IDLE_STATE: PollState = { abort: [], queued: false, tasks: false, reverted: false };

/**
 * Of the work the actor holds, what is no longer open (it must abort it), and whether work (or a
 * task, server/actors/tasks.ts) waits queued for it: one read, so an idle actor's poll costs one statement (a target's reverted work it no
 * longer holds is cleaned up only when there is some, and the claim's transaction runs only when work
 * is queued).
 */
export async function pollState(db: Db, engine: Engine, nodeId: number, holding: readonly number[]): Promise<PollState> {
  const [row] = await db.query<PollRow>(`select ${pollColumns('$1')}`, [nodeId, holding], { name: 'poll-state' });
  return afterPoll(db, engine, nodeId, holding, row);
}

/**
 * A poll's first look: the actor its credential belongs to and its poll state, read in one statement
 * (the commonest call of 50 polling actors); marked alive with the next flush when heard from recently
 * (heardRecently), else written at once (a second statement).
 */
export async function touchAndPollState(db: Db, engine: Engine, authorization: string | undefined, holding: readonly number[]): Promise<{ node: ActorNode; state: PollState }> {
  const hash = credentialHash(authorization);
  const at = Date.now();
  const [row] = await db.query<ActorNode & PollRow & { age_ms: number | null }>(
    `select n.id, n.name, n.status, ${HEARTBEAT_AGE} as age_ms, ${pollColumns('n.id')} from nodes n where n.token_hash = $1 and n.retired_at is null`,
    [hash, holding],
    { name: 'poll-state-by-credential' },
  );
  if (!row) throw unauthorized('Unknown or revoked actor credential, or the actor is retired.');
  const node = { id: row.id, name: row.name, status: 'online' };
  if (heardRecently(engine, row)) {
    engine.liveness.remember(hash, node, at, at - (row.age_ms ?? 0));
    engine.liveness.touchLater(node.id);
  } else {
    await db.query(`update nodes set last_heartbeat_at = ${CALLED_IN}, status = 'online', status_details = null where id = $1`, [row.id], { name: 'actor-touch' });
    engine.liveness.remember(hash, node, at);
  }
  return { node, state: await afterPoll(db, engine, row.id, holding, row) };
}

async function afterPoll(db: Db, engine: Engine, nodeId: number, holding: readonly number[], row: PollRow | undefined): Promise<PollState> {
  if (row?.reverted) {
    // A target's work the actor no longer holds has been cleaned up (its servers are closed).
    const cleaned = await db.query<{ job_id: number }>(
      `update engine_work set status = 'aborted' where node_id = $1 and status = 'reverting' and not (id = any($2::int[])) returning job_id`,
      [nodeId, holding],
    );
    if (cleaned.length) engine.kick(cleaned.map((r) => r.job_id));
  }
  const open = new Set(row?.open ?? []);
  return { abort: holding.filter((id) => !open.has(id)), queued: row?.queued === true, tasks: row?.tasks === true, reverted: row?.reverted === true };
}

/** A claim's answer (migration 024's engine_claim): the poll's state columns and the work claimed (none or one). */
interface ClaimRow extends PollRow {
  work: { id: number; payload: Omit<WorkPayload, 'work_id' | 'issued_at'> }[];
}

/**
 * One actor performs one piece of work at a time, whichever director handed it out: the node's row
 * is locked while claiming, and nothing is claimed while the node has work claimed, serving or cleaning up.
 * The lock is `for no key update`: it excludes other claims and ticks, but not the foreign-key checks of
 * rows that merely reference the node (a job being created), which would otherwise deadlock on PostgreSQL.
 * One call of engine_claim (migration 024) locks, reads the poll's state and claims: one round trip where a
 * transaction took four on PostgreSQL.
 */
async function claim(db: Db, nodeId: number, session: string, holding: readonly number[]): Promise<ClaimRow | undefined> {
  const [row] = await db.query<ClaimRow>(
    `select o_open as open, o_queued as queued, o_reverted as reverted, o_tasks as tasks, o_work as work from engine_claim($1, $2, $3::int[])`,
    [nodeId, session, holding],
    { name: 'engine-claim' },
  );
  // A select of a function that writes: caches keyed on this director's writes (WriteSignal) must hear of it.
  if (row?.work.length) db.writes.bump();
  return row;
}

/** Claims the node's next queued work (the poll's state is known already). */
export async function claimNext(db: Db, nodeId: number, session: string) {
  return (await claim(db, nodeId, session, []))?.work ?? [];
}

/**
 * The poll's state and the claim in one call, when the actor was told work is queued for it
 * (engine.notify with queued): the state is read under the node's lock, so the separate read of
 * pollState is saved; the claim runs whatever the state said (it sees what was committed while the lock
 * was awaited).
 */
export async function claimWithState(db: Db, engine: Engine, nodeId: number, session: string, holding: readonly number[]) {
  const row = await claim(db, nodeId, session, holding);
  return { state: await afterPoll(db, engine, nodeId, holding, row), claimed: row?.work ?? [] };
}

export interface OwnWork {
  id: number;
  node_id: number;
  role: string;
  status: string;
  job_id: number;
  job_action_id: number;
  actor_session: string | null;
}

/** Work assigned to this actor and claimed by this process of it; 404 or 409 otherwise. */
export async function ownWork(db: Db, id: number, node: ActorNode, session: string): Promise<OwnWork> {
  const [w] = await db.query<OwnWork>('select id, node_id, role, status, job_id, job_action_id, actor_session from engine_work where id = $1', [id]);
  return checkOwn(w, id, node, session);
}

function checkOwn(w: OwnWork | undefined, id: number, node: ActorNode, session: string): OwnWork {
  if (!w || w.node_id !== node.id) throw notFound(`Work ${id} is not assigned to this actor.`);
  if (w.actor_session !== session) throw new HttpError(409, `Work ${id} was claimed by another process of this actor.`);
  return w;
}

export interface Readiness {
  port_map: Record<string, number>;
  port_failures: Record<string, string>;
  login?: unknown;
}

/**
 * Why a work call matched no open work of the actor: 404 (not its work), 409 (claimed by another
 * process of it), else `otherwise` (its state forbids the call). Read only when the call's write matched nothing.
 */
async function refuseWorkCall(db: Db, id: number, caller: WorkCaller, session: string, otherwise: (w: OwnWork) => string): Promise<never> {
  const w = await ownWork(db, id, caller.node ?? (await actorByCredential(db, caller.authorization)), session);
  throw new HttpError(409, otherwise(w));
}

/**
 * A target is serving: its work is ready and its source is released with the port map (and login).
 * Answers once stored. Readiness arriving while another is written is written together (group commit,
 * as results and evidence): a job's first wave, every target ready at once, was 25 statements queueing
 * for the pool.
 */
export async function markReady(db: Db, engine: Engine, caller: WorkCaller, id: number, session: string, r: Readiness): Promise<void> {
  await readinessWriters.store(db, { id, caller, session, readiness: r }, (items) => writeReadiness(db, engine, items));
}

interface StoredReadiness {
  id: number;
  caller: WorkCaller;
  session: string;
  readiness: Readiness;
  /** Set by the write when the work was not this actor process's claimed target work (the call answers it). */
  refused?: unknown;
}

/**
 * One group commit of targets' readiness per database; on PostgreSQL two batches at once (each target's
 * and its source's work rows are their own, so two batches never wait on each other): a job's first wave
 * readied one target in a slow first batch while the other 24 waited for it.
 */
const readinessWriters = new GroupCommits<Db, StoredReadiness>((db) => (db.kind === 'postgres' ? 2 : 1));

/**
 * One statement checks each work is its actor's (this process's, a target's, claimed), marks it ready
 * and releases its source.
 *
 * When the source's poll waits at this director (Engine.waitingPolls), the same statement claims the
 * source's work for that poll's process, as engine_claim would (migration 024), and the poll is handed it
 * (Engine.handOff): no claim of its own, one statement and one wake-up less per two-actor action. The
 * claim needs no lock of the source's node: its held work reserved the node (dispatch hands a node work
 * only when it has none open), and only work that is queued is claimed elsewhere; a cleanup (reverting)
 * of the node's still makes it wait in the queue. The target's deadline is extended here to outlast the
 * source's (engine_claim does it when the source claims). A poll that woke meanwhile (handOff false)
 * gets the work back in the queue.
 */
async function writeReadiness(db: Db, engine: Engine, items: StoredReadiness[]): Promise<void> {
  const waiting = engine.waitingPolls();
  const rows = items.map(({ id, caller, session, readiness: r }) => ({
    id,
    node_id: caller.node?.id ?? null,
    hash: caller.hash,
    session,
    result: { port_map: r.port_map, port_failures: r.port_failures },
    peer: { port_map: r.port_map, port_failures: r.port_failures, ...(r.login ? { peer_login: r.login } : {}) },
  }));
  const [row] = await db.query<{ matched: number[] | null; released: number[] | null; handed: (PollClaim & { job_id: number; job_status: string })[] | null }>(
    `with ready as (update engine_work w set status = 'ready', ready_at = now(), result = v.result,
                           deadline_at = greatest(w.deadline_at, now() + ((w.payload->>'timeout_ms')::int + 30000) * interval '1 millisecond')
                      from jsonb_to_recordset($1::jsonb) as v(id int, node_id int, hash text, session text, result jsonb, peer jsonb)
                     where w.id = v.id and w.node_id = ${workNodeSql('v.node_id', 'v.hash')} and w.actor_session = v.session and w.role = 'target' and w.status = 'claimed'
                     returning w.id, w.job_action_id, v.peer),
          src as (select s.id, ready.peer,
                         case when not exists (select 1 from engine_work o where o.node_id = s.node_id and o.status in ('claimed', 'ready', 'reverting'))
                              then (select w.session from unnest($2::int[], $3::text[]) as w(node_id, session) where w.node_id = s.node_id) end as session
                    from engine_work s join ready on s.job_action_id = ready.job_action_id
                   where s.role = 'source' and s.status = 'held'),
          released as (update engine_work s set status = case when src.session is null then 'queued' else 'claimed' end,
                              actor_session = coalesce(src.session, s.actor_session),
                              claimed_at = case when src.session is null then s.claimed_at else now() end,
                              deadline_at = case when src.session is null then s.deadline_at else now() + ((s.payload->>'timeout_ms')::int + 15000) * interval '1 millisecond' end,
                              payload = s.payload || src.peer
                         from src where s.id = src.id and s.status = 'held'
                        returning s.id, s.node_id, s.status, s.actor_session, s.job_id, s.payload)
     select (select array_agg(id) from ready) as matched,
            (select array_agg(node_id) from released where status = 'queued') as released,
            (select jsonb_agg(jsonb_build_object('id', r.id, 'node_id', r.node_id, 'session', r.actor_session, 'job_id', r.job_id, 'payload', r.payload, 'job_status', j.status))
               from released r join jobs j on j.id = r.job_id where r.status = 'claimed') as handed`,
    [JSON.stringify(rows), waiting.nodes, waiting.sessions],
    { name: 'work-ready-batch' },
  );
  const matched = new Set(row?.matched ?? []);
  for (const it of items) {
    if (matched.has(it.id)) continue;
    it.refused = await refuseWorkCall(db, it.id, it.caller, it.session, (w) => `Work ${w.id} is not a target waiting to be ready.`).catch((e: unknown) => e);
  }
  for (const n of row?.released ?? []) engine.notify(n, true);
  const handed = row?.handed ?? [];
  await engine.handOver(handed);
  // As a source's claim: its job is running from now on, as the next pass of the job writes (markPerforming).
  // Not here: the update (and its statement triggers) held this readiness lane, and the other lane's
  // update of the same job's row waited for it, while a job's first wave of targets queued behind both.
  const preparing = [...new Set(handed.filter((h) => h.job_status === 'preparing').map((h) => h.job_id))];
  if (preparing.length) engine.kick(preparing);
}

export type WorkResult = yup.InferType<typeof resultSchema>;

interface StoredResult {
  id: number;
  caller: WorkCaller;
  session: string;
  status: string;
  input: WorkResult;
  /** Set by the write when the work was not this actor's open work (the call answers it). */
  refused?: unknown;
}

/** One group commit of results per database (see server/engine/group-commit.ts). */
const resultWriters = new GroupCommits<Db, StoredResult>();

/**
 * Stores an actor's result: the work is done or errored, the job action gets its status, blocked and
 * evidence; the job moves on. Answers once the result is committed; results arriving meanwhile are
 * written together (group commit): one transaction and one run of each statement trigger for them all.
 * The work's owner (actor, process) and openness are checked by the write itself; a result that matched
 * nothing is refused (404, 409) after a read that says why.
 */
export async function storeResult(db: Db, engine: Engine, caller: WorkCaller, id: number, input: WorkResult): Promise<void> {
  const status = input.outcome === 'ran' ? 'ran' : input.outcome === 'incompatible' ? 'incompatible' : input.outcome === 'aborted' ? 'cancelled' : 'errored';
  await resultWriters.store(db, { id, caller, session: input.session, status, input }, (items) => writeResults(db, engine, items));
}

/**
 * Results in one transaction: the works (of the calling actor's process, still open), their job
 * actions (with the target's result beside the source's evidence; the first result of a job action
 * decides it), the other sides' work (a target's servers close: reverting; anything else open:
 * aborted) and the jobs' progress, each one statement.
 */
async function writeResults(db: Db, engine: Engine, items: StoredResult[]): Promise<void> {
  const works = items.map(({ id, caller, session, input }) => ({ id, node_id: caller.node?.id ?? null, hash: caller.hash, session, status: input.outcome === 'ran' ? 'done' : 'errored', result: { outcome: input.outcome, message: input.message } }));
  const { written, peers, actionIds, jobIds } = await db.transaction(async (tx) => {
    const written = await tx.query<{ id: number; job_id: number; job_action_id: number; role: string }>(
      `update engine_work w set status = v.status, result = coalesce(w.result, '{}'::jsonb) || v.result, finished_at = now()
         from jsonb_to_recordset($1::jsonb) as v(id int, node_id int, hash text, session text, status text, result jsonb)
        where w.id = v.id and w.node_id = ${workNodeSql('v.node_id', 'v.hash')} and w.actor_session = v.session and w.status in ('claimed', 'ready')
        returning w.id, w.job_id, w.job_action_id, w.role`,
      [JSON.stringify(works)],
      { name: 'work-results' },
    );
    const byId = new Map(written.map((w) => [w.id, w]));
    const firsts = new Map<number, { item: StoredResult; role: string }>();
    for (const it of items) {
      const w = byId.get(it.id);
      if (w && !firsts.has(w.job_action_id)) firsts.set(w.job_action_id, { item: it, role: w.role });
    }
    const actions = [...firsts].map(([jobActionId, { item: { status, input }, role }]) => ({
      id: jobActionId,
      status,
      blocked: status === 'ran' ? input.blocked : null,
      message: input.message,
      evidence: input.evidence,
      source: role === 'source',
    }));
    const actionIds = [...firsts.keys()];
    if (!actionIds.length) return { written, peers: [], actionIds, jobIds: [] };
    // The job actions and the other sides' work in one statement (the works above are no longer open).
    const ended = await tx.query<{ job_id: number | null; node_id: number | null; work_id: number | null }>(
      `with ended as (
         update job_actions ja set status = v.status, blocked = v.blocked, blocked_msg = v.message, finished_at = now(),
                evidence = case when v.source
                  then jsonb_build_object('source', v.evidence, 'target', (select t.result from engine_work t where t.job_action_id = ja.id and t.role = 'target' order by t.id limit 1))
                  else jsonb_build_object('target', v.evidence) end
           from jsonb_to_recordset($1::jsonb) as v(id int, status text, blocked boolean, message text, evidence jsonb, source boolean)
          where ja.id = v.id and ja.status in ('pending', 'running', 'waiting') returning ja.job_id),
       others as (
         update engine_work set status = case when role = 'target' and status in ('claimed', 'ready') then 'reverting' else 'aborted' end, finished_at = now()
          where job_action_id = any($2::int[]) and status in ('held', 'queued', 'claimed', 'ready') returning node_id, id)
       select job_id, null::int as node_id, null::int as work_id from ended union all select null, node_id, id from others`,
      [JSON.stringify(actions), actionIds],
      { name: 'work-results-end-actions' },
    );
    await engine.updateProgress([...new Set(ended.flatMap((r) => (r.job_id === null ? [] : [r.job_id])))], tx);
    return { written, peers: ended.flatMap((r) => (r.node_id === null || r.work_id === null ? [] : [{ node: r.node_id, work: r.work_id }])), actionIds, jobIds: [...new Set(written.map((w) => w.job_id))] };
  }, { plans: 'generic' });
  // Results that matched no open work of their actor's process: why, for their calls.
  const stored = new Set(written.map((w) => w.id));
  for (const it of items) {
    if (stored.has(it.id)) continue;
    it.refused = await refuseWorkCall(db, it.id, it.caller, it.session, (w) => `Work ${w.id} is no longer open (${w.status}); the result was not stored.`).catch((e: unknown) => e);
  }
  // The other side (the target's servers) hears at once that it is to stop, and what ended: its waiting
  // poll then knows the state without reading it (engine.endedSince).
  const endedOf = new Map<number, number[]>();
  for (const p of peers) endedOf.set(p.node, [...(endedOf.get(p.node) ?? []), p.work]);
  for (const [node, works] of endedOf) engine.notifyEnded(node, works);
  if (actionIds.length) await engine.afterActions(actionIds, jobIds);
}

/**
 * What a target saw while serving (its servers' logs of what arrived), sent as it closes them: kept
 * with its work and merged into the job action's evidence.target. The target's work is still held
 * (reverting) until this is stored, so the job ends with it.
 */
export async function storeTargetEvidence(
  db: Db,
  engine: Engine,
  caller: WorkCaller,
  id: number,
  session: string,
  evidence: Record<string, unknown>,
  /** False when the evidence rides on the actor's poll: that poll looks at the actor's state itself (no news of it needed). */
  notifyActor = true,
): Promise<void> {
  await evidenceWriters.store(db, { id, caller, session, evidence, notifyActor }, (items) => writeEvidence(db, engine, items));
}

interface StoredEvidence {
  id: number;
  caller: WorkCaller;
  session: string;
  evidence: Record<string, unknown>;
  notifyActor: boolean;
  /** Set by the write when the work was not this actor process's open target work (the call answers it). */
  refused?: unknown;
}

/**
 * One group commit of targets' evidence per database, as for results: each update of job_actions runs
 * its statement triggers (the reports' rollups), which cost a target's evidence more than its own write
 * (0.47 of 0.58 ms inside PostgreSQL per action, bench:engine:pg); written together, N cost one run.
 */
const evidenceWriters = new GroupCommits<Db, StoredEvidence>();

/**
 * One statement checks each work is its actor process's open target work and stores the evidence with
 * its job action (atomic, without a transaction's two round trips). Sent as the target closes its
 * servers: once stored, a cleanup (reverting) is done.
 */
async function writeEvidence(db: Db, engine: Engine, items: StoredEvidence[]): Promise<void> {
  const rows = items.map(({ id, caller, session, evidence }) => ({ id, node_id: caller.node?.id ?? null, hash: caller.hash, session, evidence }));
  const written = await db.query<{ id: number; job_id: number; node_id: number; cleaned: boolean }>(
    `with work as (update engine_work w set result = coalesce(w.result, '{}'::jsonb) || jsonb_build_object('seen', v.evidence),
                          status = case when w.status = 'reverting' then 'aborted' else w.status end
                     from jsonb_to_recordset($1::jsonb) as v(id int, node_id int, hash text, session text, evidence jsonb)
                    where w.id = v.id and w.node_id = ${workNodeSql('v.node_id', 'v.hash')} and w.actor_session = v.session and w.role = 'target' and w.status in ('claimed', 'ready', 'reverting')
                    returning w.id, w.job_id, w.node_id, w.job_action_id, w.status = 'aborted' as cleaned, v.evidence),
          action as (update job_actions ja set evidence = jsonb_set(coalesce(ja.evidence, '{}'::jsonb), '{target}', coalesce(nullif(ja.evidence->'target', 'null'::jsonb), '{}'::jsonb) || work.evidence)
                       from work where ja.id = work.job_action_id returning ja.id)
     select id, job_id, node_id, cleaned from work`,
    [JSON.stringify(rows)],
    { name: 'work-evidence' },
  );
  const byId = new Map(written.map((w) => [w.id, w]));
  for (const it of items) {
    const row = byId.get(it.id);
    if (!row) {
      it.refused = await refuseWorkCall(db, it.id, it.caller, it.session, (w) =>
        w.role !== 'target' ? `Work ${w.id} is not a target's work.` : `Work ${w.id} is no longer open (${w.status}); the evidence was not stored.`,
      ).catch((e: unknown) => e);
      continue;
    }
    if (row.cleaned) {
      // The actor may take its next work (a poll of it waiting hears so), and a job waiting for the cleanup goes on.
      if (it.notifyActor) engine.notify(row.node_id);
      engine.kick([row.job_id]);
    }
  }
}

/**
 * The bytes of a file-library entry named by an actor's open work (routes/actor-files.ts): a stream of
 * the stored upload (FileStore), or the bytes kept in the database for entries stored before.
 */
export async function workFileContent(db: Db, files: SharedFiles, workId: number, fileId: number): Promise<{ size: number; body: Buffer | Readable }> {
  const [row] = await db.query<{ payload: Pick<WorkPayload, 'files'> }>('select payload from engine_work where id = $1', [workId]);
  if (!row?.payload.files?.some((f) => f.id === fileId && !f.missing)) throw notFound(`File ${fileId} is not part of work ${workId}.`);
  const [file] = await db.query<{ content: Uint8Array | null; content_file: string | null }>('select content, content_file from file_library where id = $1', [fileId]);
  if (file?.content_file) {
    const stored = await new FileStore(files).open(file.content_file);
    if (!stored) throw notFound(`File ${fileId} is missing from the file library's storage.`);
    return stored;
  }
  if (!file?.content) throw notFound(`File ${fileId} has no content in the file library.`);
  return { size: file.content.byteLength, body: Buffer.from(file.content) };
}
