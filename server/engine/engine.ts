/**
 * The job engine: a loop with timers inside the director. Its state lives in the database
 * (engine_jobs, engine_work), so a restarted director resumes, and work is claimed with
 * `for update skip locked` so two directors on one PostgreSQL never hand out the same work twice, and an
 * actor's node row is locked while work is dispatched to it, so it never gets work of two jobs at once.
 *
 * Size: over 400 lines on purpose: the loop, dispatch, progress and ending of work share the Engine's
 * in-memory state (timers, per-actor news counters, actor sessions, tracked calls) and its
 * transactions; the parts without that state are already apart (jobs.ts, detection.ts, work-files.ts,
 * peer-dns.ts, replay-script.ts).
 */
import { EventEmitter } from 'node:events';
import type { Db } from '../db/index';
import { SINGLE_ACTOR_TYPES, type WorkPayload } from '../../src/api/contracts/engine';
import { matchEventsForActions, windowOf } from './detection';
import { temporaryDnsServer, withMonitorSettings } from '../monitors/work-settings';
import { workFiles } from './work-files';
import { dnsServerWork, dnsUsesDestination } from './peer-dns';
import { CaptureMissingError } from './replay-script';
import { presenceSqlOf } from '../actors/presence-sql';
import { livenessOf, type Liveness } from '../actors/liveness';
import { JobProgress } from './job-progress';
import { warmUpEngineConnections } from './warm-up';

export interface EngineOptions {
  tickMs: number;
  /** An actor without a heartbeat for this long is offline and its work errored. */
  offlineAfterMs: number;
  heartbeatMs: number;
  /** How long after an action events still count for it. */
  detectionWindowMs: number;
  /** Default action timeout when the action has none. */
  defaultTimeoutMs: number;
  /** A job's progress is written at most this often (default 1000; job-progress.ts). */
  progressEveryMs?: number;
}

export function engineOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): EngineOptions {
  const n = (k: string, d: number) => (env[k] && Number(env[k]) > 0 ? Number(env[k]) : d);
  return {
    tickMs: n('ENGINE_TICK_MS', 250),
    offlineAfterMs: n('ENGINE_OFFLINE_AFTER_MS', 20_000),
    heartbeatMs: n('ENGINE_HEARTBEAT_MS', 5_000),
    detectionWindowMs: n('DETECTION_WINDOW_MS', 30_000),
    defaultTimeoutMs: n('ENGINE_ACTION_TIMEOUT_MS', 60_000),
    progressEveryMs: n('ENGINE_PROGRESS_MS', 1000),
  };
}

const OPEN = `('held', 'queued', 'claimed', 'ready')`;
/**
 * Work that keeps its actor busy: open work, and a target's cleanup (reverting: closing its servers,
 * until its evidence is stored). A node with any is not handed new work; the cleanup's end kicks the job.
 */
export const BUSY = `('held', 'queued', 'claimed', 'ready', 'reverting')`;
/** A job's statuses once it has ended (a pass only closes its open work). */
const ENDED = ['cancelled', 'errored', 'completed'];
/** The nodes' rows locked for a pass (freeNodes, nodesFree): one text, as its prepared statement's name ('engine-nodes-lock') needs. */
const LOCK_NODES = `select id from nodes where id = any($1::int[]) order by id for no key update skip locked`;

/** Work claimed for an actor's process outside its poll (markReady, dispatch), handed to that poll (Engine.handOff). */
export interface HandedWork {
  id: number;
  payload: Omit<WorkPayload, 'work_id' | 'issued_at'>;
}

/** Work claimed for the waiting poll of the node's process `session`, to hand over once committed (Engine.handOver). */
export type PollClaim = HandedWork & { node_id: number; session: string };
/** The timer's pass over every active job, at most this often (see Engine.timedPass). */
const FULL_PASS_MS = 1000;
/** A kicked pass starts at least this long after the last one started (see Engine.kick). */
const PASS_GAP_MS = 20;

interface ActionState {
  id: number;
  job_step_id: number;
  group_order: number;
  position: number;
  status: string;
  action_type: string;
  name: string;
  action_id: number | null;
  source_node_id: number | null;
  destination_node_id: number | null;
  blocked_msg: string | null;
  /** The monitor action a monitor's run performs (null: no monitor settings to apply). */
  monitor_action_id: number | null;
  /** The Action's details and timeout (null when the Action no longer exists). */
  details: Record<string, unknown> | null;
  timeout_ms: number | null;
  action_exists: boolean;
}

interface ActiveJob {
  job_id: number;
  kind: string;
  status: string;
  force_unlock: boolean;
}

interface NodeState {
  id: number;
  name: string;
  /** From the heartbeat: 'offline' when it is older than the offline delay. */
  status: string;
  /**
   * Online as stored and heard from within the offline delay of the last heartbeat any actor sent
   * before this director started (about when the previous director process died: kill -9, restart).
   */
  up_before_start: boolean;
  sim_address: string;
  capabilities: { types?: string[]; addresses?: string[] };
}

/** An evaluation's work dispatched in a pass, written in one statement (Engine.writeWork). */
interface WorkBatch {
  /** `session`: the target's poll waiting at this director, to be handed the work (Engine.writeWork). */
  items: { actionId: number; rows: { node_id: number; role: string; status: string; payload: unknown; session?: string }[] }[];
  /** Nodes this pass's transaction found free (and, on PostgreSQL, locked): no nodesFree for them. */
  free: Set<number>;
}

export class Engine {
  /**
   * Per action type: completes an action's details for its work (e.g. the pcap replay script), inside
   * the scheduling transaction; a thrown error ends the job action errored with its message
   * (incompatible when the director keeps no capture for it: CaptureMissingError).
   */
  readonly preparers = new Map<string, (tx: Db, details: Record<string, unknown>) => Promise<Record<string, unknown>>>();
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private ticking: Promise<void> | null = null;
  private again = false;
  /**
   * Jobs with news since the last pass (a result, a cleanup, a new job): a kick naming jobs schedules
   * only those; a kick without jobs, and the timer, schedule every active job (the timer also catches
   * what another director changed). With 25 busy jobs, a result no longer costs 25 transactions.
   */
  private readonly dirty = new Set<number>();
  private everyJob = false;
  private readonly events = new EventEmitter();
  stopped = false;

  /** Credentials, heartbeats written behind and idle polls' states (server/actors/liveness.ts). */
  readonly liveness: Liveness;
  private readonly progress: JobProgress;

  /**
   * Whether other directors may change the database behind this one (PostgreSQL); a PGlite database
   * lives inside this process (tests running two engines on one PGlite set it).
   */
  sharesDatabase: boolean;

  /**
   * How long an actor's poll sleeps without news before it looks again, and an idle poll's state is
   * believed: one director hears of every change to an actor's work (notify), so 20 s; directors
   * sharing a database do not hear each other's news, so a second.
   */
  get recheckMs(): number {
    return this.sharesDatabase ? 1000 : 20_000;
  }

  constructor(
    readonly db: Db,
    readonly opts: EngineOptions,
  ) {
    this.events.setMaxListeners(0);
    this.liveness = livenessOf(db);
    this.progress = new JobProgress(db, opts.progressEveryMs ?? 1000);
    this.sharesDatabase = db.kind !== 'pglite';
    this.liveness.flushMs = () => Math.max(100, Math.min(1000, this.opts.offlineAfterMs / 10));
    this.liveness.staleMs = () => this.opts.offlineAfterMs / 4;
  }

  /** When this engine started: actors had no director to send heartbeats to before it. */
  private startedAt = 0;

  /** The database connections' warm-up at start (warm-up.ts); stop() waits for it. */
  private warming: Promise<void> = Promise.resolve();

  start(): void {
    if (this.running) return;
    this.running = true;
    this.startedAt = Date.now();
    this.stopped = false;
    this.warming = warmUpEngineConnections(this.db).catch((e: Error) => console.error(`engine warm-up failed: ${e.message}`));
    const loop = () => {
      if (!this.running) return;
      this.timer = setTimeout(() => void this.timedPass().finally(loop), this.opts.tickMs);
    };
    void this.tick().finally(loop);
  }

  private stopHooks: (() => void)[] = [];

  /** Runs when the engine stops (the director closes), e.g. to end local actor processes. */
  onStop(fn: () => void): void {
    this.stopHooks.push(fn);
  }

  private inflight = 0;

  /** Runs an actor call's handler so that stop() waits for it (a handler may outlive its client's connection). */
  async track<T>(fn: () => Promise<T>): Promise<T> {
    this.inflight++;
    try {
      return await fn();
    } finally {
      this.inflight--;
    }
  }

  async stop(): Promise<void> {
    for (const fn of this.stopHooks.splice(0)) fn();
    this.running = false;
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.kickTimer) clearTimeout(this.kickTimer);
    this.kickTimer = null;
    for (const t of this.windowTimers.values()) clearTimeout(t);
    this.windowTimers.clear();
    this.progress.stop();
    this.events.emit('wake-all');
    await this.ticking?.catch(() => {});
    await this.warming;
    await this.liveness.stop();
    for (let i = 0; i < 500 && this.inflight > 0; i++) {
      this.events.emit('wake-all');
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** Runs a tick soon (after results or new jobs): of the given jobs only, or of every active job. */
  kick(jobIds?: Iterable<number>): void {
    this.mark(jobIds);
    if (!this.running) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    // Kicks within PASS_GAP_MS of the last pass wait for its end plus the gap: their results and cleanups
    // are scheduled by one pass (one transaction) together; under load one pass dispatches many actions.
    const wait = this.lastPassAt + PASS_GAP_MS - Date.now();
    if (wait > 0) {
      this.kickTimer ??= setTimeout(() => {
        this.kickTimer = null;
        if (this.running) void this.pass();
      }, wait);
      return;
    }
    void this.pass();
  }

  private kickTimer: NodeJS.Timeout | null = null;
  private lastPassAt = 0;

  private readonly news = new Map<number, number>();
  private lastSweep = 0;
  /** Nodes to notify once the pass's transaction commits: true when work was queued for them. */
  private readonly pendingNews = new Map<number, boolean>();

  private later(nodeId: number, queued = false): void {
    this.pendingNews.set(nodeId, queued || this.pendingNews.get(nodeId) === true);
  }
  /** The last actor process (session) seen per node, so a restart is noticed once. */
  readonly sessions = new Map<number, string>();

  /** The last news number handed out: a node's news counter is the number of its latest news. */
  private newsSeq = 0;

  /** The news number now: news of a node after it has a higher number (see newsOf). */
  get lastNews(): number {
    return this.newsSeq;
  }

  /** The number of each node's latest news that work was queued for it (see queuedNewsOf). */
  private readonly queuedNews = new Map<number, number>();

  /** News for the node; `queued`: work was queued for it (its poll may claim at once, see claimWithState). */
  notify(nodeId: number, queued = false): void {
    this.news.set(nodeId, ++this.newsSeq);
    if (queued) this.queuedNews.set(nodeId, this.newsSeq);
    this.events.emit(`node:${nodeId}`);
  }

  /** Per node, its latest news when that said only that work of it ended (notifyEnded): its number, the one before, the work. */
  private readonly endedNews = new Map<number, { seq: number; prev: number; ids: number[] }>();

  /** News for the node that its work `ids` is no longer open (a result ended it), and nothing else changed for it. */
  notifyEnded(nodeId: number, ids: number[]): void {
    const prev = this.newsOf(nodeId);
    this.notify(nodeId);
    this.endedNews.set(nodeId, { seq: this.newsOf(nodeId), prev, ids });
  }

  /**
   * The work of the node that ended since news number `since`, when that was its only news since
   * (a waiting poll then knows its state without reading it); null when there was other news, or none.
   */
  endedSince(nodeId: number, since: number): number[] | null {
    const e = this.endedNews.get(nodeId);
    return e && e.seq === this.newsOf(nodeId) && e.prev <= since ? e.ids : null;
  }

  /** The number of the node's latest news that work was queued for it (0: none). */
  queuedNewsOf(nodeId: number): number {
    return this.queuedNews.get(nodeId) ?? 0;
  }

  /** A counter of the node's news: pass it to waitFor so news in between is not missed. */
  newsOf(nodeId: number): number {
    return this.news.get(nodeId) ?? 0;
  }

  /** Per node, its poll waiting at this director now: the actor process (session), and the work handed to it (handOff). */
  private readonly waiters = new Map<number, { session: string; handed: HandedWork[] }>();

  /**
   * The polls waiting at this director now, by node and session (markReady hands a released source its
   * work): only of each actor's latest process (a poll of a process since restarted may still wait).
   */
  waitingPolls(): { nodes: number[]; sessions: string[] } {
    const latest = [...this.waiters.keys()].flatMap((node) => {
      const session = this.waitingSession(node);
      return session ? [{ node, session }] : [];
    });
    return { nodes: latest.map((w) => w.node), sessions: latest.map((w) => w.session) };
  }

  /**
   * A poll's wait (waitFor), answering the work a target's readiness claimed for it meanwhile (handOff):
   * none when it woke for news or its time.
   */
  async waitForWork(nodeId: number, session: string, ms: number, since: number): Promise<HandedWork[]> {
    const waiter = { session, handed: [] as HandedWork[] };
    this.waiters.set(nodeId, waiter);
    try {
      await this.waitFor(nodeId, ms, since);
    } finally {
      if (this.waiters.get(nodeId) === waiter) this.waiters.delete(nodeId);
    }
    return waiter.handed;
  }

  /** The process (session) of the node's poll waiting at this director now, if it is the actor's latest; else null. */
  private waitingSession(nodeId: number): string | null {
    const w = this.waiters.get(nodeId);
    return w && this.sessions.get(nodeId) === w.session ? w.session : null;
  }

  /**
   * Gives work claimed for the node's process `session` to its waiting poll, and wakes it without news
   * (its state holds: nothing else changed for it). False when no poll of that process waits here any more
   * (it woke meanwhile): the caller puts the work back in the queue.
   */
  handOff(nodeId: number, session: string, work: HandedWork): boolean {
    const waiter = this.waiters.get(nodeId);
    if (!waiter || waiter.session !== session) return false;
    waiter.handed.push(work);
    this.waiters.delete(nodeId);
    this.events.emit(`node:${nodeId}`);
    return true;
  }

  /** Resolves when there may be news for the node (since `since`), or after ms. */
  waitFor(nodeId: number, ms: number, since?: number): Promise<void> {
    if (since !== undefined && this.newsOf(nodeId) !== since) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(t);
        this.events.off(`node:${nodeId}`, done);
        this.events.off('wake-all', done);
        resolve();
      };
      const t = setTimeout(done, ms);
      this.events.once(`node:${nodeId}`, done);
      this.events.once('wake-all', done);
    });
  }

  private readonly windowTimers = new Map<number, NodeJS.Timeout>();

  /** Kicks a job when its detection window closes (it completes then, not at the timer's next full pass). */
  private readonly kickAt = (jobId: number, at: Date): void => {
    if (this.windowTimers.has(jobId) || !this.running) return;
    const t = setTimeout(() => {
      this.windowTimers.delete(jobId);
      this.kick([jobId]);
    }, Math.max(0, at.getTime() - Date.now()) + 20);
    t.unref();
    this.windowTimers.set(jobId, t);
  };

  /** Notes jobs to schedule at the next pass (every active job when none are given). */
  private mark(jobIds?: Iterable<number>): void {
    if (jobIds === undefined) this.everyJob = true;
    else for (const id of jobIds) this.dirty.add(id);
  }

  /** One pass over every active job: offline actors, timed-out work, cancelled jobs, scheduling. */
  tick(): Promise<void> {
    this.everyJob = true;
    this.lastFull = Date.now();
    return this.pass();
  }

  private lastFull = 0;

  /**
   * The timer's pass. Results, cleanups, new jobs and monitor runs kick their jobs at once, so the timer
   * only catches what nothing kicks (a detection window that closed, a cancel, another director's
   * changes): a pass over every active job at most every FULL_PASS_MS (or tickMs when longer), the
   * sweeps when due. With 50 actors, a pass over every job each 100 ms was a third of the director's reads.
   */
  private timedPass(): Promise<void> {
    if (Date.now() - this.lastFull >= Math.max(this.opts.tickMs, FULL_PASS_MS)) return this.tick();
    return this.pass();
  }

  /** Between sweeps for offline actors and past deadlines: a quarter of the offline delay, 1 to 5 s. */
  private get sweepMs(): number {
    return Math.max(1000, Math.min(5000, this.opts.offlineAfterMs / 4));
  }

  /** One pass over the jobs marked (every active job after tick() or a kick without jobs). Never overlaps itself. */
  private pass(): Promise<void> {
    if (this.ticking) {
      this.again = true;
      return this.ticking;
    }
    this.ticking = (async () => {
      do {
        this.again = false;
        this.lastPassAt = Date.now();
        try {
          if (Date.now() - this.lastSweep >= this.sweepMs) {
            this.lastSweep = Date.now();
            // A restarted director first gives actors the offline delay to reach it again.
            if (Date.now() - this.startedAt >= this.opts.offlineAfterMs) await this.sweepOffline();
            await this.sweepDeadlines();
          }
          const only = this.everyJob ? null : [...this.dirty];
          this.everyJob = false;
          this.dirty.clear();
          if (only === null || only.length) await this.schedule(only);
        } catch (e) {
          if (!this.stopped) console.error('engine tick failed:', e);
        }
      } while (this.again && this.running);
    })().finally(() => {
      this.ticking = null;
    });
    return this.ticking;
  }

  private async sweepOffline(): Promise<void> {
    // Heartbeats noted but not yet written (liveness.ts) count.
    await this.liveness.flush();
    const gone = await this.db.query<{ id: number; name: string }>(
      `update nodes set status = 'offline', status_details = 'No heartbeat since ' || last_heartbeat_at::text, updated_at = now()
        where status = 'online' and token_hash is not null and last_heartbeat_at < now() - ($1::text || ' milliseconds')::interval
        returning id, name`,
      [String(this.opts.offlineAfterMs)],
    );
    // Their next call writes them online at once (not with the next flush of heartbeats).
    this.liveness.forgetNodes(gone.map((n) => n.id));
    for (const n of gone) {
      await this.db.query(`update engine_work set status = 'aborted' where node_id = $1 and status = 'reverting'`, [n.id]);
      await this.failOpenWork(`node_id = $1`, [n.id], `Actor ${n.name} went offline (no heartbeat for ${Math.round(this.opts.offlineAfterMs / 1000)} s).`);
    }
  }

  private async sweepDeadlines(): Promise<void> {
    const late = await this.db.query<{ job_id: number; node_id: number }>(
      `update engine_work set status = 'aborted', error = coalesce(error, 'The actor did not confirm the cleanup in time.') where status = 'reverting' and deadline_at < now() returning job_id, node_id`,
    );
    if (late.length) this.kick(late.map((r) => r.job_id));
    // Their actors may claim again: news for their polls (an idle poll's remembered state is stale).
    for (const id of new Set(late.map((r) => r.node_id))) this.notify(id);
    await this.failOpenWork(`status in ('claimed', 'ready') and deadline_at < now()`, [], 'The actor did not report a result in time (timed out).');
  }

  /** Ends open work matching `where` as errored, with its job action errored with the reason. */
  async failOpenWork(where: string, params: unknown[], reason: string): Promise<void> {
    const rows = await this.db.query<{ job_action_id: number; node_id: number }>(
      `update engine_work set status = 'errored', error = $${params.length + 1}, finished_at = now() where status in ${OPEN} and ${where} returning job_action_id, node_id`,
      [...params, reason],
    );
    // The actors holding it hear at once that it ended (their poll sleeps until news).
    for (const id of new Set(rows.map((r) => r.node_id))) this.notify(id);
    const ids = [...new Set(rows.map((r) => r.job_action_id))];
    if (!ids.length) return;
    await this.endActions(ids, 'errored', reason);
  }

  /** Sets job actions finished (only those still pending/running) and aborts their other open work. */
  async endActions(ids: number[], status: string, reason: string | null): Promise<void> {
    const peers = await this.db.query<{ node_id: number }>(
      `update engine_work set status = case when role = 'target' and status in ('claimed', 'ready') then 'reverting' else 'aborted' end,
              finished_at = now(), error = coalesce(error, $2) where job_action_id = any($1::int[]) and status in ${OPEN} returning node_id`,
      [ids, reason],
    );
    const jobs = await this.db.query<{ job_id: number }>(
      `update job_actions set status = $2, blocked_msg = coalesce($3, blocked_msg), finished_at = now()
        where id = any($1::int[]) and status in ('pending', 'running', 'waiting') returning job_id`,
      [ids, status, reason],
    );
    for (const p of peers) this.notify(p.node_id);
    const jobIds = [...new Set(jobs.map((j) => j.job_id))];
    await this.updateProgress(jobIds);
    this.kick(jobIds);
  }

  /** The jobs' progress, written at most once a second per job (job-progress.ts). */
  async updateProgress(jobIds: number[], tx: Db = this.db): Promise<void> {
    if (jobIds.length) await this.progress.update(jobIds, tx);
  }

  /** Schedules the active jobs (`only`: those of them). */
  private async schedule(only: number[] | null): Promise<void> {
    // A job whose action is running has nothing to schedule until it ends (unless it ended from outside,
    // or is an evaluation with actions still pending: its other steps may run meanwhile;
    // a preparing job becomes running when its source claims the work, actors/service.ts claimNext), nor
    // a reverting job while its target cleans up (the cleanup's end kicks it): left out, so a tick over
    // many busy jobs stays one read.
    // With the actors busy (open work or a cleanup; an uncorrelated subquery: computed once, one statement less per pass).
    const active = await this.db.query<ActiveJob & { busy: number[] | null }>(
      `select e.job_id, e.kind, e.force_unlock, j.status, (select array_agg(distinct node_id) from engine_work where status in ${BUSY}) as busy
         from engine_jobs e join jobs j on j.id = e.job_id
        where e.active ${only ? 'and e.job_id = any($1::int[])' : ''}
          and (j.status in ('cancelled', 'errored', 'completed')
               or (e.kind = 'evaluation' and exists (select 1 from job_actions ja where ja.job_id = e.job_id and ja.status = 'pending'))
               or (not exists (select 1 from job_actions ja where ja.job_id = e.job_id and ja.status = 'running')
                   and not (j.status = 'reverting' and exists (select 1 from engine_work w where w.job_id = e.job_id and w.status = 'reverting'))))
        order by e.job_id limit 500`,
      only ? [only] : [],
      { name: only ? 'engine-active-jobs-of' : 'engine-active-jobs' },
    );
    if (!active.length) return;
    const busy = new Set(active[0]?.busy ?? []);
    const nodeCache = new Map<number, NodeState | null>();
    // The status from the heartbeat, not the stored one: the sweep writes 'offline' only after the
    // offline delay from the director's start, and a stale actor must not get work before that.
    // The cutoff, and the director's start while it is younger than the offline delay (else null), as
    // parameters: the statement's text stays the same, so it is parsed and planned once (named).
    const cutoff = new Date(Date.now() - this.opts.offlineAfterMs).toISOString();
    const startedRecently = Date.now() - this.startedAt < this.opts.offlineAfterMs ? new Date(this.startedAt).toISOString() : null;
    // The nodes a pass needs, read together (readNodes: one statement for every step a pass may start).
    const readNodes = async (tx: Db, ids: Iterable<number | null>): Promise<void> => {
      const missing = [...new Set([...ids].filter((id): id is number => id !== null && !nodeCache.has(id)))];
      if (!missing.length) return;
      const rows = await tx.query<NodeState>(
        `select n.id, n.name, ${presenceSqlOf('$2::timestamptz', 'n').status} as status,
                coalesce($3::timestamptz is not null and n.status = 'online'
                  and n.last_heartbeat_at >= (select max(last_heartbeat_at) from nodes where last_heartbeat_at < $3::timestamptz) - $4::int * interval '1 millisecond', false) as up_before_start,
                n.sim_address, n.capabilities
           from nodes n where n.id = any($1::int[])`,
        [missing, cutoff, startedRecently, this.opts.offlineAfterMs],
        { name: 'engine-pass-nodes' },
      );
      for (const id of missing) nodeCache.set(id, null);
      for (const n of rows) nodeCache.set(n.id, n);
    };
    const node = async (tx: Db, id: number | null): Promise<NodeState | null> => {
      if (id === null) return null;
      if (!nodeCache.has(id)) await readNodes(tx, [id]);
      return nodeCache.get(id) ?? null;
    };
    for (const job of active) {
      if (this.stopped) return;
      await this.db.transaction(async (tx) => {
        // Another director may be scheduling this job, or a cancel be changing it: skip it rather than
        // wait. The job's row is locked too and its status read again: a cancel committed since the list
        // above was read must not be overwritten by a stale status (on PostgreSQL it can land in between).
        const lock = tx.query<{ job_id: number; status: string }>(
          `select e.job_id, j.status from engine_jobs e join jobs j on j.id = e.job_id where e.job_id = $1 and e.active for update of e, j skip locked`,
          [job.job_id],
          { name: 'engine-job-lock' },
        );
        // Its unfinished actions are read in the same round trip (on PostgreSQL the statements travel
        // together, and the read runs once the lock is held); unused when the job is skipped or has ended.
        const actions = ENDED.includes(job.status) ? null : this.unfinishedActions(tx, job, busy);
        actions?.catch(() => undefined);
        const [locked] = await lock;
        this.handing = [];
        if (!locked) return;
        await this.scheduleJob(tx, { ...job, status: locked.status }, busy, node, readNodes, actions);
      }, { plans: 'generic' });
      // Actors hear of new work only once it is committed, and the waiting polls are handed theirs.
      for (const [id, queued] of this.pendingNews) this.notify(id, queued);
      this.pendingNews.clear();
      await this.handOver(this.handing.splice(0));
    }
  }

  /** Work writeWork claimed for targets' waiting polls in the pass's transaction, handed once it committed. */
  private handing: PollClaim[] = [];

  /**
   * Hands each work claimed for a waiting poll (a target's at dispatch, a source's at its target's
   * readiness: markReady) to the poll it was claimed for, once the claim is committed; a poll that woke
   * meanwhile gets it back in the queue, and claims it.
   */
  async handOver(handed: PollClaim[]): Promise<void> {
    if (handed.length) this.db.writes.bump();
    for (const h of handed) {
      if (this.handOff(h.node_id, h.session, { id: h.id, payload: h.payload })) continue;
      await this.db.query(`update engine_work set status = 'queued', claimed_at = null, deadline_at = null where id = $1 and status = 'claimed' and actor_session = $2`, [h.id, h.session]);
      this.notify(h.node_id, true);
    }
  }

  private async scheduleJob(
    tx: Db,
    job: ActiveJob,
    busy: Set<number>,
    node: (tx: Db, id: number | null) => Promise<NodeState | null>,
    readNodes: (tx: Db, ids: Iterable<number | null>) => Promise<void>,
    unfinished: Promise<ActionState[]> | null,
  ): Promise<void> {
    const jobId = job.job_id;
    if (ENDED.includes(job.status)) {
      // Cancelled from the Jobs pane (or ended elsewhere): abort open work, the actors stop it at their next poll.
      const aborted = await tx.query<{ node_id: number }>(
        `update engine_work set status = 'aborted', error = 'The job was cancelled.', finished_at = now() where job_id = $1 and status in ${OPEN} returning node_id`,
        [jobId],
      );
      for (const a of aborted) {
        busy.delete(a.node_id);
        this.later(a.node_id);
      }
      await tx.query(`update job_actions set status = 'cancelled', finished_at = now() where job_id = $1 and status in ('pending', 'running', 'waiting')`, [jobId]);
      await tx.query(`update jobs set finished_at = coalesce(finished_at, now()), updated_at = now() where id = $1`, [jobId]);
      await tx.query(`update engine_jobs set active = false where job_id = $1`, [jobId]);
      return;
    }
    // An evaluation runs its steps side by side, each step's actions in order, as far as their actors
    // are free (an actor performs one action at a time); a sequence runs one action at a time, in order.
    const parallel = job.kind === 'evaluation';
    const actions = await (unfinished ?? this.unfinishedActions(tx, job, busy));
    const firstError = async () =>
      (
        await tx.query<{ group_order: number; blocked_msg: string | null; name: string }>(
          `select s.group_order, ja.blocked_msg, ja.name from job_actions ja join job_steps s on s.id = ja.job_step_id
            where ja.job_id = $1 and ja.status = 'errored' order by s.group_order, ja.position, ja.id limit 1`,
          [jobId],
        )
      )[0];
    const running = actions.filter((a) => a.status === 'running');
    if (running.length) {
      if (job.status === 'preparing') await markPerforming(tx, jobId);
      if (!parallel) return;
    }
    const busySteps = new Set(running.map((a) => a.job_step_id));
    let started = false;
    // An evaluation may start many steps in one pass: their actors are read, locked and checked free
    // together (3 statements, not 3 per step), and their work written in one statement at the end (batch).
    const batch: WorkBatch | null = parallel ? { items: [], free: new Set() } : null;
    if (batch) {
      const firsts = new Map<number, ActionState>();
      for (const a of actions) if (a.status === 'pending' && !busySteps.has(a.job_step_id) && !firsts.has(a.job_step_id)) firsts.set(a.job_step_id, a);
      if (firsts.size > 1) {
        const ids = [...firsts.values()].flatMap((a) => [a.source_node_id, a.destination_node_id]);
        const candidates = [...new Set(ids.filter((id): id is number => id !== null && !busy.has(id)))];
        // Read, locked and checked in one round trip on PostgreSQL (the statements travel together).
        const [, free] = await Promise.all([readNodes(tx, ids), this.freeNodes(tx, candidates)]);
        for (const id of free) batch.free.add(id);
        for (const id of candidates) if (!batch.free.has(id)) busy.add(id);
      }
    }
    // A sequence: the first errored step so far (it stops there).
    const failed = job.kind === 'sequence' && actions.some((a) => a.status === 'pending') ? await firstError() : undefined;
    // An actor still cleaning up (its target work reverting) is busy: the pair's next action is dispatched
    // once the cleanup's evidence is stored, which kicks the job (writeEvidence). Dispatched before it, the
    // action's time from scheduled to running held the whole cleanup (bench:engine, 50 actors: the slowest
    // 1% waited 20-80 ms for their target). The job is reverting only at its end.
    // An evaluation's read holds one step per pair of actors (unfinishedActions): when one ends here, the
    // pair's next step is read and tried in this pass too (the actors the pass took are left out of it).
    for (let queue = actions; queue.length; ) {
      let ended = false;
      for (const a of queue) {
        if (a.status !== 'pending' || busySteps.has(a.job_step_id)) continue;
        // Sequences stop at the first errored step; evaluations run every step.
        if (job.kind === 'sequence') {
          const stop = failed && failed.group_order < a.group_order ? failed : actions.find((x) => x.status === 'errored' && x.group_order < a.group_order);
          if (stop) {
            await tx.query(`update job_actions set status = 'not run', finished_at = now() where job_id = $1 and status = 'pending'`, [jobId]);
            if (await reverting(tx, job)) return;
            if (await collectingEvents(tx, jobId, this.opts.detectionWindowMs, this.kickAt)) return;
            await this.finishJob(tx, jobId, 'errored', `Step ${stop.group_order} errored: ${stop.blocked_msg ?? stop.name}`);
            return;
          }
        }
        const verdict = await this.dispatch(tx, job, a, busy, node, batch);
        if (verdict === 'dispatched' || verdict === 'wait') {
          started ||= verdict === 'dispatched';
          if (parallel) {
            busySteps.add(a.job_step_id);
            continue;
          }
          if (verdict === 'wait' && job.status === 'pending') await tx.query(`update jobs set status = 'waiting', updated_at = now() where id = $1`, [jobId]);
          return;
        }
        a.status = verdict;
        ended = true;
      }
      queue = parallel && ended ? (await this.unfinishedActions(tx, job, busy)).filter((a) => a.status === 'pending' && !busySteps.has(a.job_step_id)) : [];
    }
    if (batch?.items.length && tx.commitBehind) {
      // The job now waits for the steps started here (waiting, below): the work is the pass's last
      // statement, and on PostgreSQL the commit travels with it (one round trip less before the actors hear).
      tx.commitBehind(this.writeWork(tx, job, batch));
      return;
    }
    if (batch) await this.writeWork(tx, job, batch);
    // An evaluation with steps running or waiting for their actors (left out of the read above when busy).
    const waiting = busySteps.size > 0 || (parallel && (await tx.query(`select 1 from job_actions where job_id = $1 and status = 'pending' limit 1`, [jobId], { name: 'engine-job-pending' })).length > 0);
    if (waiting) {
      if (!started && !running.length && job.status === 'pending') await tx.query(`update jobs set status = 'waiting', updated_at = now() where id = $1`, [jobId]);
      return;
    }
    if (await reverting(tx, job)) return;
    if (await collectingEvents(tx, jobId, this.opts.detectionWindowMs, this.kickAt)) return;
    // (Actions ended in this pass are in the transaction already.)
    const errored = job.kind === 'sequence' ? await firstError() : undefined;
    const status = errored ? 'errored' : 'completed';
    await this.finishJob(tx, jobId, status, errored ? `Step ${errored.group_order} errored: ${errored.blocked_msg ?? ''}` : null);
  }

  /**
   * A job's unfinished actions (finished ones decide nothing but the outcome, read at the end).
   *
   * Of an evaluation's pending ones, only those whose actors are free now, and of the steps between the
   * same two actors only the first (its pending actions, in order). A later step of that pair would wait
   * in this pass for the first one's actors, which the first takes or waits for, unless the first ends
   * here (incompatible, errored): then scheduleJob reads again and tries the pair's next step in the same
   * pass. A pass over a 1,500-step evaluation between 25 pairs read 300-800 rows early on, one per
   * pending step of its free pairs; it now reads one step per free pair.
   */
  private unfinishedActions(tx: Db, job: ActiveJob, busy: Set<number>): Promise<ActionState[]> {
    const columns = `ja.id, ja.job_step_id, s.group_order, ja.position, ja.status, ja.action_type, ja.name, ja.action_id, s.source_node_id, s.destination_node_id, ja.blocked_msg,
              ja.monitor_action_id, a.details, a.timeout_ms, a.id is not null as action_exists`;
    if (job.kind !== 'evaluation') {
      return tx.query<ActionState>(
        `select ${columns}
           from job_actions ja join job_steps s on s.id = ja.job_step_id left join actions a on a.id = ja.action_id
          where ja.job_id = $1 and ja.status in ('pending', 'running')
          order by s.group_order, ja.position, ja.id`,
        [job.job_id],
        { name: 'engine-job-actions' },
      );
    }
    // The first step of each pair of actors is the step of its first pending action in the pass's order.
    return tx.query<ActionState>(
      `with firsts as (
         select distinct on (coalesce(s.source_node_id, 0), coalesce(s.destination_node_id, 0)) ja.job_step_id
           from job_actions ja join job_steps s on s.id = ja.job_step_id
          where ja.job_id = $1 and ja.status = 'pending'
            and not (coalesce(s.source_node_id, 0) = any($2::int[]) or coalesce(s.destination_node_id, 0) = any($2::int[]))
          order by coalesce(s.source_node_id, 0), coalesce(s.destination_node_id, 0), s.group_order, ja.position, ja.id)
       select ${columns}
         from job_actions ja join job_steps s on s.id = ja.job_step_id left join actions a on a.id = ja.action_id
        where ja.job_id = $1 and ja.status in ('pending', 'running')
          and (ja.status = 'running' or ja.job_step_id in (select job_step_id from firsts))
        order by s.group_order, ja.position, ja.id`,
      [job.job_id, [...busy]],
      { name: 'engine-evaluation-actions' },
    );
  }

  private async finishJob(tx: Db, jobId: number, status: string, reason: string | null): Promise<void> {
    await tx.query(
      `update jobs set status = $2, status_reason = $3, progress = 100, started_at = coalesce(started_at, now()), finished_at = now(), updated_at = now() where id = $1`,
      [jobId, status, reason],
    );
    await tx.query(`update engine_jobs set active = false where job_id = $1`, [jobId]);
  }

  /** Creates the work of one job action, or ends it (incompatible, errored), or says to wait. */
  private async dispatch(
    tx: Db,
    job: ActiveJob,
    a: ActionState,
    busy: Set<number>,
    node: (tx: Db, id: number | null) => Promise<NodeState | null>,
    batch: WorkBatch | null,
  ): Promise<'dispatched' | 'wait' | 'incompatible' | 'errored'> {
    const jobId = job.job_id;
    const end = async (status: 'incompatible' | 'errored', reason: string) => {
      // The work batched so far is written first: the job's status moves in the order of the steps.
      if (batch) await this.writeWork(tx, job, batch);
      await tx.query(`update job_actions set status = $2, blocked_msg = $3, started_at = coalesce(started_at, now()), finished_at = now() where id = $1`, [a.id, status, reason]);
      await tx.query(`update jobs set status = 'running', started_at = coalesce(started_at, now()), updated_at = now() where id = $1 and status in ('pending', 'waiting')`, [jobId]);
      await this.updateProgressTx(tx, jobId);
      return status;
    };
    // A monitor's runtime_temporary_dns_server replaces the dns action's own server for its run.
    const temporaryDns = a.action_type === 'dns' && a.monitor_action_id !== null ? await temporaryDnsServer(tx, a.id) : null;
    const two = !SINGLE_ACTOR_TYPES.includes(a.action_type) || (a.action_type === 'dns' && (await dnsUsesDestination(tx, a.action_id, a.destination_node_id, temporaryDns)));
    const src = await node(tx, a.source_node_id);
    const dst = two ? await node(tx, a.destination_node_id) : null;
    if (!src) return end('errored', 'The source actor no longer exists.');
    if (two && !dst) return end('incompatible', `${a.action_type} needs a destination actor, and this step has none.`);
    for (const n of [src, dst]) {
      if (!n) continue;
      if (!(n.capabilities.types ?? []).includes(a.action_type)) return end('incompatible', `Actor ${n.name} cannot perform ${a.action_type} actions.`);
      if (n.status !== 'online') {
        // Just started (a restart after kill -9): an actor that was up when the previous process died has
        // had no chance to heartbeat to this one yet. Its job waits until it does, or until the offline
        // delay from the start says it is gone. An actor stale for longer is offline at once.
        if (n.up_before_start && Date.now() - this.startedAt < this.opts.offlineAfterMs) return 'wait';
        if (!job.force_unlock) return end('errored', `Actor ${n.name} is ${n.status}.`);
        if (batch) await this.writeWork(tx, job, batch);
        return waitForActor(tx, jobId, n.name);
      }
    }
    if (busy.has(src.id) || (dst && busy.has(dst.id))) return 'wait';
    // Read with the job's unfinished actions (one statement per pass, not one per dispatch).
    if (!a.action_exists || !a.details) return end('errored', 'The action no longer exists.');
    const action = { details: a.details, timeout_ms: a.timeout_ms };
    // Checked before preparing: a busy actor would make the (file-reading) preparation be redone every tick.
    const ids = dst ? [src.id, dst.id] : [src.id];
    if (!(batch && ids.every((id) => batch.free.has(id))) && !(await this.nodesFree(tx, ids))) {
      for (const id of ids) busy.add(id);
      return 'wait';
    }
    // A job action no monitor started has no monitor settings: no statement for it.
    if (a.monitor_action_id !== null) {
      try {
        action.details = await withMonitorSettings(tx, a.id, a.action_type, action.details, src.id);
      } catch (e) {
        return end('errored', (e as Error).message);
      }
    }
    const prepare = this.preparers.get(a.action_type);
    if (prepare) {
      try {
        action.details = await prepare(tx, action.details);
      } catch (e) {
        return end(e instanceof CaptureMissingError ? 'incompatible' : 'errored', (e as Error).message);
      }
    }
    if (a.action_type === 'dns') {
      const server = await dnsServerWork(tx, a.action_id, src, dst, temporaryDns);
      if (typeof server === 'string') return end('incompatible', server);
      action.details = { ...action.details, ...server };
    }
    const timeout = Math.min(Math.max(action.timeout_ms ?? this.opts.defaultTimeoutMs, 5_000), 300_000);
    const needed = await workFiles(tx, a.action_id ?? 0, a.action_type, action.details);
    // A metadata-only library entry (no bytes kept) or an oversized one: this install cannot perform the action.
    if ('error' in needed) return end('incompatible', needed.error);
    const base = {
      job_id: jobId,
      job_action_id: a.id,
      action_type: a.action_type,
      name: a.name,
      details: action.details,
      timeout_ms: timeout,
      ...(needed.files.length ? { files: needed.files } : {}),
    };
    const expires = new Date(Date.now() + timeout + 60_000).toISOString();
    const payload = (n: NodeState, role: 'source' | 'target', peer: NodeState | null): Omit<WorkPayload, 'work_id' | 'issued_at'> => ({
      ...base,
      node_id: n.id,
      role,
      local_address: n.sim_address,
      ...(peer ? { peer_address: peer.sim_address, peer_addresses: peer.capabilities.addresses ?? [] } : {}),
      expires_at: expires,
    });
    // The work (a target's queued and its source held until the target is ready, or a source's alone),
    // written by writeWork: at once, or with the pass's other steps (batch).
    // A target whose poll waits at this director is handed its work (claimed for that poll by writeWork):
    // no claim of its own, one statement and one wake-up less per two-actor action.
    const session = dst ? this.waitingSession(dst.id) : null;
    const rows = dst
      ? [
          { node_id: dst.id, role: 'target', status: 'queued', payload: payload(dst, 'target', src), ...(session ? { session } : {}) },
          { node_id: src.id, role: 'source', status: 'held', payload: payload(src, 'source', dst) },
        ]
      : [{ node_id: src.id, role: 'source', status: 'queued', payload: payload(src, 'source', null) }];
    for (const r of rows) busy.add(r.node_id);
    // Only the first to act hears of it now: the target (a source held waits for its readiness), unless it
    // is handed its work (writeWork says which were not, and they hear of it then).
    if (!session) this.later(rows[0]!.node_id, true);
    if (batch) batch.items.push({ actionId: a.id, rows });
    else await this.writeWork(tx, job, { items: [{ actionId: a.id, rows }], free: new Set() });
    return 'dispatched';
  }

  /**
   * The work of the job actions dispatched (a target's queued and its source held until the target is
   * ready, or a source's alone), the job actions running and the job preparing (while the actors fetch
   * the work and the target readies its servers; running once a source claims it), in one statement
   * for all of them. Empties the batch.
   */
  private async writeWork(tx: Db, job: ActiveJob, batch: WorkBatch): Promise<void> {
    const items = batch.items.splice(0);
    if (!items.length) return;
    // In the order dispatched (a target's before its source's): n.
    const rows = items.flatMap((i) => i.rows.map((r) => ({ ...r, job_action_id: i.actionId }))).map((r, n) => ({ ...r, n }));
    // A job already preparing or running keeps its status: no update of jobs (its statement triggers run even for no row).
    const toPreparing = ['pending', 'waiting', 'reverting'].includes(job.status);
    // A row with a session (a target whose poll waits at this director) is claimed for that poll, as
    // engine_claim would claim it (migration 024). The nodes are free, a cleanup counting as busy (BUSY:
    // dispatch checked them, and on PostgreSQL holds their locks); the handed rows are returned.
    const [written] = await tx.query<{ handed: PollClaim[] | null }>(
      `with work as (insert into engine_work (job_action_id, job_id, node_id, role, status, payload, actor_session, claimed_at, deadline_at)
                     select x.job_action_id, $1, x.node_id, x.role, case when x.session is not null then 'claimed' else x.status end, x.payload,
                            x.session, case when x.session is not null then now() end,
                            case when x.session is not null then now() + ((x.payload->>'timeout_ms')::int + 15000) * interval '1 millisecond' end
                       from jsonb_to_recordset($2::jsonb) as x(job_action_id int, node_id int, role text, status text, payload jsonb, n int, session text)
                      order by x.n
                     returning id, node_id, status, actor_session, payload),
            action as (update job_actions set status = 'running', started_at = now() where id = any($3::int[]) returning id)
            ${toPreparing ? `, job as (update jobs set status = 'preparing', status_reason = null, started_at = coalesce(started_at, now()), updated_at = now() where id = $1 and status in ('pending', 'waiting', 'reverting') returning id)` : ''}
       select (select jsonb_agg(jsonb_build_object('id', id, 'node_id', node_id, 'session', actor_session, 'payload', payload)) from work where status = 'claimed') as handed`,
      [job.job_id, JSON.stringify(rows), items.map((i) => i.actionId)],
      { name: toPreparing ? 'engine-dispatch-preparing' : 'engine-dispatch' },
    );
    const handed = written?.handed ?? [];
    this.handing.push(...handed);
    if (toPreparing) job.status = 'preparing';
  }

  /**
   * Of the nodes, those free to take new work: on PostgreSQL each is locked until this transaction
   * ends (a row another director holds is busy), then the database says which hold open work: 2
   * statements (1 on PGlite: it serves this director alone, and this transaction holds it whole) for
   * every step a pass may start.
   */
  private async freeNodes(tx: Db, ids: number[]): Promise<number[]> {
    if (!ids.length) return [];
    // Sent together (one round trip): the check still runs after the lock, and in READ COMMITTED with a
    // snapshot taken after it, so it sees work another director committed before releasing a node.
    const [locked, open] = await Promise.all([
      tx.kind === 'pglite' ? ids : tx.query<{ id: number }>(LOCK_NODES, [ids], { name: 'engine-nodes-lock' }).then((rows) => rows.map((r) => r.id)),
      tx.query<{ node_id: number }>(`select distinct node_id from engine_work where node_id = any($1::int[]) and status in ${BUSY}`, [ids], { name: 'engine-nodes-open' }),
    ]);
    const held = new Set(open.map((r) => r.node_id));
    return locked.filter((id) => !held.has(id));
  }

  /**
   * Whether the actors may all take new work, across directors (freeNodes for one step's actors): their
   * node rows are locked until this transaction ends (a row another director holds means busy), then
   * the database is asked whether they still hold open work (another director may have handed them
   * some since this tick began).
   * `for no key update`, not `for update`: a transaction creating a job holds key-share locks on the
   * nodes its steps reference (foreign keys) while it updates the job counters this tick also updates;
   * a full `for update` here conflicted with those and deadlocked on PostgreSQL.
   */
  private async nodesFree(tx: Db, ids: number[]): Promise<boolean> {
    const unique = [...new Set(ids)];
    return (await this.freeNodes(tx, unique)).length === unique.length;
  }

  private async updateProgressTx(tx: Db, jobId: number) {
    await tx.query(
      `update jobs set progress = (select (100 * count(*) filter (where status not in ('pending', 'running', 'waiting')) / greatest(count(*), 1))::int from job_actions where job_id = $1) where id = $1`,
      [jobId],
    );
  }

  /** After job actions end: schedule their jobs' next actions, and match the events already received. */
  async afterActions(jobActionIds: number[], jobIds: number[]): Promise<void> {
    this.kick(jobIds);
    await matchEventsForActions(this.db, jobActionIds, this.opts.detectionWindowMs, !this.sharesDatabase).catch((e: Error) => console.error('event matching failed:', e.message));
  }
}

/** An unlocked job (force_unlock) waits, with the reason, for its actor to come online. */
async function waitForActor(tx: Db, jobId: number, name: string): Promise<'wait'> {
  const reason = `Waiting for actor ${name} to come online.`;
  await tx.query(
    `update jobs set status = 'waiting', status_reason = $2, updated_at = now() where id = $1 and status in ('pending', 'waiting', 'preparing', 'running') and (status <> 'waiting' or status_reason is distinct from $2)`,
    [jobId, reason],
  );
  return 'wait';
}

/** True while a target actor of the job is closing its servers (the job is 'reverting' meanwhile). */
async function reverting(tx: Db, job: ActiveJob): Promise<boolean> {
  const [row] = await tx.query<{ n: number }>(`select count(*)::int as n from engine_work where job_id = $1 and status = 'reverting'`, [job.job_id], { name: 'engine-job-reverting' });
  if (!row?.n) return false;
  // Written once: an update of jobs, even of no row, runs its statement triggers (counts, rollups, library log).
  if (job.status !== 'reverting') {
    await tx.query(`update jobs set status = 'reverting', status_reason = 'The actors are cleaning up after the last action.', updated_at = now() where id = $1 and status <> 'reverting'`, [
      job.job_id,
    ]);
  }
  return true;
}

/** A preparing job is running once a source actor has claimed its work. */
async function markPerforming(tx: Db, jobId: number): Promise<void> {
  await tx.query(
    `update jobs set status = 'running', updated_at = now() where id = $1 and status = 'preparing'
        and exists (select 1 from engine_work w where w.job_id = $1 and w.role = 'source' and w.status <> 'held' and w.status <> 'queued')`,
    [jobId],
    { name: 'engine-job-performing' },
  );
}

/**
 * True while the detection window after the job's last performed action is open: the job stays
 * running (its status_reason says so) so detected and alerted are final once it completes.
 */
async function collectingEvents(tx: Db, jobId: number, windowMs: number, kickAt: (jobId: number, at: Date) => void): Promise<boolean> {
  const [row] = await tx.query<{ until: string | null }>(
    `select max(finished_at + ${windowOf('$1', '$2')})::text as until from job_actions
      where job_id = $1 and status = 'ran' and finished_at + ${windowOf('$1', '$2')} > now()`,
    [jobId, String(windowMs)],
    { name: 'engine-job-detection-window' },
  );
  if (!row?.until) return false;
  kickAt(jobId, new Date(row.until));
  const until = new Date(row.until).toISOString().slice(11, 19);
  await tx.query(
    `update jobs set status = 'running', status_reason = $2, started_at = coalesce(started_at, now()), updated_at = now()
      where id = $1 and (status <> 'running' or status_reason is distinct from $2)`,
    [jobId, `Collecting security events until ${until} UTC (detection window).`],
  );
  return true;
}

const engines = new WeakMap<Db, Engine>();

/** The engine of a database (one per director process and database). */
export function engineFor(db: Db, opts?: Partial<EngineOptions>): Engine {
  let e = engines.get(db);
  if (!e) {
    e = new Engine(db, { ...engineOptionsFromEnv(), ...opts });
    engines.set(db, e);
  } else if (opts) {
    Object.assign(e.opts, opts);
  }
  return e;
}
