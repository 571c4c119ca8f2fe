/** Shared setup of the engine tests: a listening director with the engine, two in-process actors on loopback. */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Db } from '../../server/db/index';
import type { DirectorConfig } from '../../server/config';
import { engineFor, startEngine } from '../../server/engine/index';
import type { Engine, EngineOptions } from '../../server/engine/engine';
import { createBulkToken } from '../../server/engine/secrets';
import { ActorAgent, type ActorOptions } from '../../actor/agent';
import { startTestServer, type Session, type TestServer } from './helpers';
import { DST_ADDRESS, SRC_ADDRESS } from './loopback';

export interface EngineWorld {
  server: TestServer;
  engine: Engine;
  url: string;
  bulkToken: string;
  operator: Session;
  src: ActorAgent;
  dst: ActorAgent;
  close(): Promise<void>;
}

// A short detection window: every job completes that long after its last action.
export const TEST_ENGINE_OPTIONS = { tickMs: 50, offlineAfterMs: 3000, heartbeatMs: 500, detectionWindowMs: 300, defaultTimeoutMs: 20_000 };

export interface WorldOptions {
  config?: Partial<DirectorConfig>;
  /** Runs before the actors register (e.g. seeding, which brings its own nodes). */
  beforeActors?: (server: TestServer) => Promise<unknown>;
  /** false: the director answers actors but its engine loop does not run (the test schedules). */
  schedule?: boolean;
  /** Overrides of TEST_ENGINE_OPTIONS. */
  engine?: Partial<EngineOptions>;
}

export async function startEngineWorld(actorOpts: Partial<ActorOptions> = {}, world: WorldOptions = {}): Promise<EngineWorld> {
  const server = await startTestServer(world.config);
  await world.beforeActors?.(server);
  const opts = { ...TEST_ENGINE_OPTIONS, ...world.engine };
  const engine = world.schedule === false ? engineFor(server.db, opts) : startEngine(server.app, opts);
  const url = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const { token } = await createBulkToken(server.db, { name: 'test' });
  const quiet = () => {};
  const src = new ActorAgent({ director: url, bulkToken: token, name: 'src', address: SRC_ADDRESS, log: quiet, pollWaitMs: 2000, ...actorOpts });
  const dst = new ActorAgent({ director: url, bulkToken: token, name: 'dst', address: DST_ADDRESS, log: quiet, pollWaitMs: 2000, ...actorOpts });
  await src.start();
  await dst.start();
  const operator = await server.signIn('operator');
  return {
    server,
    engine,
    url,
    bulkToken: token,
    operator,
    src,
    dst,
    async close() {
      const t = (what: string) => process.env.ENGINE_TEST_DEBUG && console.log(`close: ${what} at ${Date.now() % 100000}`);
      t('start');
      await src.stop();
      t('src stopped');
      await dst.stop();
      t('dst stopped');
      await server.app.close();
      t('app closed');
      await server.close().catch(() => {});
      t('server closed');
    },
  };
}

let vid = 0;
export async function insertAction(db: Db, type: string, details: Record<string, unknown>, name = `${type} test`, timeoutMs: number | null = null): Promise<number> {
  vid++;
  const [row] = await db.query<{ id: number }>(
    `insert into actions (vid, name, action_type, approved, details, timeout_ms) values ($1, $2, $3, true, $4, $5) returning id`,
    [`A900-${Date.now().toString(36)}-${vid}`, name, type, JSON.stringify(details), timeoutMs],
  );
  if (!row) throw new Error('no action');
  return row.id;
}

export async function insertSimulation(db: Db, type: 'sequence' | 'eval', steps: number[][]): Promise<number> {
  vid++;
  const [sim] = await db.query<{ id: number }>(`insert into simulations (vid, name, simulation_type) values ($1, $2, $3) returning id`, [
    `S900-${Date.now().toString(36)}-${vid}`,
    `${type} test ${vid}`,
    type,
  ]);
  if (!sim) throw new Error('no simulation');
  for (const [i, actions] of steps.entries()) {
    const [st] = await db.query<{ id: number }>(`insert into simulation_steps (simulation_id, position, name) values ($1, $2, $3) returning id`, [sim.id, i + 1, `Step ${i + 1}`]);
    if (!st) throw new Error('no step');
    for (const [p, a] of actions.entries()) await db.query(`insert into simulation_step_actions (step_id, action_id, position) values ($1, $2, $3)`, [st.id, a, p + 1]);
  }
  return sim.id;
}

export interface JobActionRow {
  id: number;
  name: string;
  action_type: string;
  status: string;
  blocked: boolean | null;
  blocked_msg: string | null;
  detected_msg: string | null;
  events: number;
  alerted: boolean;
  evidence: Record<string, unknown>;
}

export async function waitForJob(db: Db, jobId: number, statuses = ['completed', 'errored', 'cancelled'], timeoutMs = 25_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [job] = await db.query<{ status: string; progress: number; status_reason: string | null; started_at: string | null; finished_at: string | null }>(
      'select status, progress, status_reason, started_at::text, finished_at::text from jobs where id = $1',
      [jobId],
    );
    if (job && statuses.includes(job.status)) {
      const actions = await db.query<JobActionRow>(
        `select ja.id, ja.name, ja.action_type, ja.status, ja.blocked, ja.blocked_msg, ja.detected_msg, ja.events, ja.alerted, ja.evidence
           from job_actions ja join job_steps s on s.id = ja.job_step_id where ja.job_id = $1 order by s.group_order, ja.position`,
        [jobId],
      );
      return { job, actions };
    }
    if (Date.now() > deadline) throw new Error(`job ${jobId} is still ${job?.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Runs an action, sequence or evaluation between the world's two actors through the run call; the job id. */
export async function runJob(w: EngineWorld, kind: 'actions' | 'sequences' | 'evaluations', id: number): Promise<number> {
  const res = await w.server.call('POST', `/run/${kind}/${id}.json`, {
    as: w.operator,
    body: { attack_node_id_1: w.src.nodeId, target_node_id_1: w.dst.nodeId, force_unlock: false },
  });
  if (res.statusCode !== 201) throw new Error(`the run call answered ${res.statusCode}: ${res.body}`);
  return res.json<{ job_id: number }>().job_id;
}

/** Waits until the job's first action has one of the statuses (e.g. ran while the job collects events). */
export async function waitForAction(db: Db, jobId: number, statuses: string[], timeoutMs = 25_000): Promise<JobActionRow> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [a] = await db.query<JobActionRow>(
      'select id, name, action_type, status, blocked, blocked_msg, detected_msg, events, alerted, evidence from job_actions where job_id = $1 order by id limit 1',
      [jobId],
    );
    if (a && statuses.includes(a.status)) return a;
    if (Date.now() > deadline) throw new Error(`job ${jobId}'s action is still ${a?.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * An actor that registered and then stopped (its process is gone; the director still has it):
 * `restart()` starts it again with the same credential, as a new process would.
 */
export async function stoppedActor(w: EngineWorld, name: string, address: string): Promise<{ nodeId: number; restart(): Promise<ActorAgent> }> {
  const stateFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-actor-')), `${name}.json`);
  const opts = { director: w.url, bulkToken: w.bulkToken, name, address, stateFile, log: () => {}, pollWaitMs: 500 };
  const first = new ActorAgent(opts);
  await first.start();
  await first.stop();
  return {
    nodeId: first.nodeId ?? 0,
    async restart() {
      const again = new ActorAgent(opts);
      await again.start();
      return again;
    },
  };
}

/** A file-library entry with content (or without, for a missing file); its id. */
export async function insertLibraryFile(db: Db, name: string, content: Buffer | null): Promise<number> {
  const sha = crypto.createHash('sha256').update(content ?? Buffer.alloc(0)).digest('hex');
  const [row] = await db.query<{ id: number }>(
    `insert into file_library (orig_file_name, sha256sum, size, file_restrictions, content) values ($1, $2, $3, 'none', $4) returning id`,
    [name, sha, content?.length ?? 0, content],
  );
  if (!row) throw new Error('no file');
  return row.id;
}

/** Runs one new action of `type` between the world's actors and waits for its job: the job action. */
export async function runOneAction(w: EngineWorld, type: string, details: Record<string, unknown>, timeoutMs: number | null = null): Promise<JobActionRow> {
  const { actions } = await waitForJob(w.server.db, await runJob(w, 'actions', await insertAction(w.server.db, type, details, `${type} test`, timeoutMs)));
  const a = actions[0];
  if (!a) throw new Error('no job action');
  return a;
}

/** A file_transfer action's details: the library file over plain http GET with compare_transfer, changed by `over`. */
export const fileTransferDetails = (fileId: number, over: Record<string, unknown>): Record<string, unknown> => ({
  file_transfer_library_id: fileId,
  compare_transfer: true,
  keep_after_compare: false,
  content_encoding: '',
  user_agent: 'Mozilla/5.0 (Vigil)',
  method: 'GET',
  app_layer: 'http',
  tunnel_protocol: 'none',
  ...over,
});
