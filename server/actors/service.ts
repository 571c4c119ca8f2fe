/**
 * The actor API's data (routes/actors.ts, routes/actor-files.ts): who a bearer credential is,
 * registering with a bulk token, heartbeats, claiming work (one piece at a time per actor), a
 * target's readiness releasing its source, and storing a result on the job action.
 */
import type { Readable } from 'node:stream';
import { FileStore } from '../file-library/store';
import type { SharedFiles } from '../storage/shared-files';
import type { Db } from '../db/index';
import { HttpError, notFound, unauthorized } from '../http-errors';
import type * as yup from 'yup';
import type { WorkPayload, registerSchema, resultSchema } from '../../src/api/contracts/engine';
import { hashSecret, newSecret } from '../engine/secrets';
import type { Engine } from '../engine/engine';
import { GroupCommit } from '../engine/group-commit';

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
 * The actor a credential belongs to, which is alive (a heartbeat or a poll): one statement for both
 * (actorByCredential, then touchActor), as 50 actors polling make it the director's commonest.
 */
export async function touchActorByCredential(db: Db, authorization: string | undefined, engine?: Engine): Promise<ActorNode> {
  const hash = credentialHash(authorization);
  const at = Date.now();
  const [node] = await db.query<ActorNode>(
    `update nodes set last_heartbeat_at = now(), status = 'online', status_details = null where token_hash = $1 and retired_at is null returning id, name, status`,
    [hash],
  );
  if (!node) throw unauthorized('Unknown or revoked actor credential, or the actor is retired.');
  engine?.liveness.remember(hash, node, at);
  return node;
}

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
  const [row] = await db.query<PollRow>(`select ${pollColumns('$1')}`, [nodeId, holding]);
  return afterPoll(db, engine, nodeId, holding, row);
}

/**
 * A poll's first look: the actor its credential belongs to is marked alive (touchActorByCredential)
 * and its poll state read (pollState) in one statement, the commonest call of 50 polling actors.
 */
export async function touchAndPollState(db: Db, engine: Engine, authorization: string | undefined, holding: readonly number[]): Promise<{ node: ActorNode; state: PollState }> {
  const hash = credentialHash(authorization);
  const at = Date.now();
  const [row] = await db.query<ActorNode & PollRow>(
    `with n as (update nodes set last_heartbeat_at = now(), status = 'online', status_details = null where token_hash = $1 and retired_at is null returning id, name, status)
     select n.id, n.name, n.status, ${pollColumns('n.id')} from n`,
    [hash, holding],
  );
  if (!row) throw unauthorized('Unknown or revoked actor credential, or the actor is retired.');
  engine.liveness.remember(hash, { id: row.id, name: row.name, status: row.status }, at);
  return { node: { id: row.id, name: row.name, status: row.status }, state: await afterPoll(db, engine, row.id, holding, row) };
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

/**
 * One actor performs one piece of work at a time, whichever director handed it out: the node's row
 * is locked while claiming, and nothing is claimed while the node has work claimed, serving or cleaning up.
 * The lock is `for no key update`: it excludes other claims and ticks, but not the foreign-key checks of
 * rows that merely reference the node (a job being created), which would otherwise deadlock on PostgreSQL.
 */
export function claimNext(db: Db, nodeId: number, session: string) {
  // PGlite lives inside this director's process (no other director shares it) and runs one statement at
  // a time: the claim's one statement needs neither the node's lock nor a transaction (3 round trips less).
  if (db.kind === 'pglite') return claimLocked(db, nodeId, session);
  return db.transaction(async (tx) => {
    await tx.query('select id from nodes where id = $1 for no key update', [nodeId]);
    return claimLocked(tx, nodeId, session);
  });
}

/**
 * The poll's state and the claim in one transaction, when the actor was told work is queued for it
 * (engine.notify with queued): the node's row is locked by the statement reading the state, so the
 * separate read of pollState is saved; the claim runs whatever the state said (its own statement sees
 * what was committed while the lock was awaited).
 */
export async function claimWithState(db: Db, engine: Engine, nodeId: number, session: string, holding: readonly number[]) {
  if (db.kind === 'pglite') {
    // One director, one statement at a time (see claimNext): the state and the claim, no lock, no transaction.
    const [row] = await db.query<PollRow>(`select ${pollColumns('$1')}`, [nodeId, holding]);
    const claimed = await claimLocked(db, nodeId, session);
    return { state: await afterPoll(db, engine, nodeId, holding, row), claimed };
  }
  const { row, claimed } = await db.transaction(async (tx) => {
    const [row] = await tx.query<PollRow>(`select ${pollColumns('n.id')} from nodes n where n.id = $1 for no key update of n`, [nodeId, holding]);
    return { row, claimed: await claimLocked(tx, nodeId, session) };
  });
  return { state: await afterPoll(db, engine, nodeId, holding, row), claimed };
}

/** Claims the node's next queued work; its row is locked by the caller's transaction. */
async function claimLocked(tx: Db, nodeId: number, session: string) {
  // One statement: the claim, and for a source, the deadline of the target serving for it (the target
  // waits for the source's result: its time runs out with the source's, not while the source waited to
  // be claimed by a busy director or actor); it answers the job's status too.
  const claimed = await tx.query<{ id: number; job_id: number; role: string; job_status: string; payload: Omit<WorkPayload, 'work_id' | 'issued_at'> }>(
    `with claimed as (
       update engine_work set status = 'claimed', claimed_at = now(), actor_session = $2,
              deadline_at = now() + ((payload->>'timeout_ms')::int + 15000) * interval '1 millisecond'
        where id in (select id from engine_work where node_id = $1 and status = 'queued'
                        and not exists (select 1 from engine_work r where r.node_id = $1 and r.status in ('claimed', 'ready', 'reverting'))
                      order by id limit 1 for update skip locked)
        returning id, job_id, job_action_id, role, deadline_at, payload),
     target as (
       update engine_work t set deadline_at = greatest(t.deadline_at, c.deadline_at + interval '15 seconds')
         from claimed c where c.role = 'source' and t.job_action_id = c.job_action_id and t.role = 'target' and t.status in ('claimed', 'ready'))
     select c.id, c.job_id, c.role, j.status as job_status, c.payload from claimed c join jobs j on j.id = c.job_id`,
    [nodeId, session],
  );
  // Its job is running from now on (it was preparing while the actors fetched the work); no update of
  // jobs otherwise (its statement triggers run even for no row).
  const source = claimed.find((w) => w.role === 'source');
  if (source?.job_status === 'preparing') await tx.query(`update jobs set status = 'running', updated_at = now() where id = $1 and status = 'preparing'`, [source.job_id]);
  return claimed.map(({ id, payload }) => ({ id, payload }));
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

/**
 * The actor of a credential (actorByCredential) and its work `id` claimed by this process of it
 * (ownWork), in one statement: a target's ready and evidence calls and every result make three per action.
 */
export async function ownWorkByCredential(db: Db, authorization: string | undefined, id: number, session: string): Promise<{ node: ActorNode; work: OwnWork }> {
  const m = /^Bearer ([A-Za-z0-9_\-.]{10,200})$/.exec(authorization ?? '');
  if (!m?.[1]) throw unauthorized('An actor credential is required (Authorization: Bearer <token>).');
  const [row] = await db.query<{ n_id: number; n_name: string; n_status: string } & { [K in keyof OwnWork]: OwnWork[K] | null }>(
    `select n.id as n_id, n.name as n_name, n.status as n_status, w.id, w.node_id, w.role, w.status, w.job_id, w.job_action_id, w.actor_session
       from nodes n left join engine_work w on w.id = $2 where n.token_hash = $1 and n.retired_at is null`,
    [hashSecret(m[1]), id],
  );
  if (!row) throw unauthorized('Unknown or revoked actor credential, or the actor is retired.');
  const node = { id: row.n_id, name: row.n_name, status: row.n_status };
  return { node, work: checkOwn(row.id === null ? undefined : (row as OwnWork), id, node, session) };
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

/** A target is serving: its work is ready and its source is released with the port map (and login). */
export async function markReady(db: Db, engine: Engine, w: OwnWork, r: Readiness): Promise<void> {
  if (w.role !== 'target' || w.status !== 'claimed') throw new HttpError(409, `Work ${w.id} is not a target waiting to be ready.`);
  // One statement (atomic as a transaction would be, without its begin and commit round trips).
  const released = await db.query<{ node_id: number }>(
    `with ready as (update engine_work set status = 'ready', ready_at = now(), result = $3 where id = $1)
     update engine_work set status = 'queued', payload = payload || $2::jsonb where job_action_id = $4 and role = 'source' and status = 'held' returning node_id`,
    [w.id, JSON.stringify({ port_map: r.port_map, port_failures: r.port_failures, ...(r.login ? { peer_login: r.login } : {}) }), JSON.stringify({ port_map: r.port_map, port_failures: r.port_failures }), w.job_action_id],
  );
  for (const row of released) engine.notify(row.node_id, true);
}

export type WorkResult = yup.InferType<typeof resultSchema>;

interface StoredResult {
  w: OwnWork;
  status: string;
  input: WorkResult;
}

/** One group commit of results per database (see server/engine/group-commit.ts). */
const resultWriters = new WeakMap<Db, GroupCommit<StoredResult>>();

/**
 * Stores an actor's result: the work is done or errored, the job action gets its status, blocked and
 * evidence; the job moves on. Answers once the result is committed; results arriving meanwhile are
 * written together (group commit): one transaction and one run of each statement trigger for them all.
 */
export async function storeResult(db: Db, engine: Engine, w: OwnWork, input: WorkResult): Promise<void> {
  if (w.status !== 'claimed' && w.status !== 'ready') throw new HttpError(409, `Work ${w.id} is no longer open (${w.status}); the result was not stored.`);
  const status = input.outcome === 'ran' ? 'ran' : input.outcome === 'incompatible' ? 'incompatible' : input.outcome === 'aborted' ? 'cancelled' : 'errored';
  let writer = resultWriters.get(db);
  if (!writer) resultWriters.set(db, (writer = new GroupCommit((items) => writeResults(db, engine, items))));
  await writer.add({ w, status, input });
}

/**
 * Results in one transaction: the works, their job actions (with the target's result beside the
 * source's evidence; the first result of a job action decides it), the other sides' work (a target's
 * servers close: reverting; anything else open: aborted) and the jobs' progress, each one statement.
 */
async function writeResults(db: Db, engine: Engine, items: StoredResult[]): Promise<void> {
  const works = items.map(({ w, input }) => ({ id: w.id, status: input.outcome === 'ran' ? 'done' : 'errored', result: { outcome: input.outcome, message: input.message } }));
  const firsts = new Map<number, StoredResult>();
  for (const it of items) if (!firsts.has(it.w.job_action_id)) firsts.set(it.w.job_action_id, it);
  const actions = [...firsts.values()].map(({ w, status, input }) => ({
    id: w.job_action_id,
    status,
    blocked: status === 'ran' ? input.blocked : null,
    message: input.message,
    evidence: input.evidence,
    source: w.role === 'source',
  }));
  const actionIds = [...firsts.keys()];
  const peers = await db.transaction(async (tx) => {
    await tx.query(
      `update engine_work w set status = v.status, result = coalesce(w.result, '{}'::jsonb) || v.result, finished_at = now()
         from jsonb_to_recordset($1::jsonb) as v(id int, status text, result jsonb) where w.id = v.id`,
      [JSON.stringify(works)],
    );
    // The job actions and the other sides' work in one statement (the works above are no longer open).
    const ended = await tx.query<{ job_id: number | null; node_id: number | null }>(
      `with ended as (
         update job_actions ja set status = v.status, blocked = v.blocked, blocked_msg = v.message, finished_at = now(),
                evidence = case when v.source
                  then jsonb_build_object('source', v.evidence, 'target', (select t.result from engine_work t where t.job_action_id = ja.id and t.role = 'target' order by t.id limit 1))
                  else jsonb_build_object('target', v.evidence) end
           from jsonb_to_recordset($1::jsonb) as v(id int, status text, blocked boolean, message text, evidence jsonb, source boolean)
          where ja.id = v.id and ja.status in ('pending', 'running', 'waiting') returning ja.job_id),
       others as (
         update engine_work set status = case when role = 'target' and status in ('claimed', 'ready') then 'reverting' else 'aborted' end, finished_at = now()
          where job_action_id = any($2::int[]) and status in ('held', 'queued', 'claimed', 'ready') returning node_id)
       select job_id, null::int as node_id from ended union all select null, node_id from others`,
      [JSON.stringify(actions), actionIds],
    );
    await engine.updateProgress([...new Set(ended.flatMap((r) => (r.job_id === null ? [] : [r.job_id])))], tx);
    return ended.flatMap((r) => (r.node_id === null ? [] : [{ node_id: r.node_id }]));
  });
  // The other side (the target's servers) hears at once that it is to stop.
  for (const p of peers) engine.notify(p.node_id);
  await engine.afterActions(
    actionIds,
    items.map((it) => it.w.job_id),
  );
}

/**
 * What a target saw while serving (its servers' logs of what arrived), sent as it closes them: kept
 * with its work and merged into the job action's evidence.target. The target's work is still held
 * (reverting) until this is stored, so the job ends with it.
 */
export async function storeTargetEvidence(db: Db, engine: Engine, w: OwnWork, evidence: Record<string, unknown>): Promise<void> {
  if (w.role !== 'target') throw new HttpError(409, `Work ${w.id} is not a target's work.`);
  if (!['claimed', 'ready', 'reverting'].includes(w.status)) throw new HttpError(409, `Work ${w.id} is no longer open (${w.status}); the evidence was not stored.`);
  const json = JSON.stringify(evidence);
  // One statement for the work and its job action (atomic, without a transaction's two round trips).
  // Sent as the target closes its servers: once stored, a cleanup (reverting) is done.
  const work = await db.query(
    `with work as (update engine_work set result = coalesce(result, '{}'::jsonb) || jsonb_build_object('seen', $2::jsonb),
                          status = case when status = 'reverting' then 'aborted' else status end where id = $1 returning status)
     update job_actions set evidence = jsonb_set(coalesce(evidence, '{}'::jsonb), '{target}', coalesce(nullif(evidence->'target', 'null'::jsonb), '{}'::jsonb) || $2::jsonb)
      where id = $3 and exists (select 1 from work) returning id`,
    [w.id, json, w.job_action_id],
  );
  const cleaned = w.status === 'reverting' && work.length > 0;
  if (cleaned) {
    // The actor may take its next work, and a job waiting for the cleanup goes on.
    engine.notify(w.node_id);
    engine.kick([w.job_id]);
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
