import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ACTOR_API, type PollAnswer, type WorkPayload } from '@/api/contracts/engine';
import { credentialTtlMs } from '../../server/actors/liveness';
import { updateNode } from '../../server/admin/node-edit';
import { hashSecret } from '../../server/engine/secrets';
import { markReady, storeTargetEvidence, workCaller } from '../../server/actors/service';
import { insertAction, startEngineWorld, waitForJob, type EngineWorld } from './engine-helpers';

/**
 * Actor calls the director answers from memory (server/actors/liveness.ts): a remembered credential, a
 * heartbeat written behind, an idle poll's state. The world's two loopback actors poll meanwhile, so
 * statements are told apart by their parameters (this actor's node id or credential).
 */
let w: EngineWorld;
beforeAll(async () => {
  // The production offline delay: a flush each second, a remembered call written at once only after 6.7 s.
  w = await startEngineWorld({}, { engine: { offlineAfterMs: 20_000 } });
});
afterAll(async () => {
  await w?.close();
});

const actorCall = (path: string, body: unknown, token: string) =>
  w.server.call('POST', `${ACTOR_API}${path}`, { body, csrf: false, headers: { authorization: `Bearer ${token}` } });

async function register(name: string): Promise<{ id: number; token: string }> {
  const reg = await w.server.call('POST', `${ACTOR_API}/register`, {
    body: { bulk_token: w.bulkToken, name, version: '1', os: 'Linux', addresses: ['127.0.0.9'], capabilities: ['sleep'] },
    csrf: false,
  });
  expect(reg.statusCode, reg.body).toBe(200);
  const { node_id, token } = reg.json<{ node_id: number; token: string }>();
  return { id: node_id, token };
}

/** Of the statements `calls`, those whose parameters name the node or its credential (their first 60 characters). */
function naming(node: { id: number; token: string }, calls: readonly (readonly [string, unknown[]?, ...unknown[]])[]): string[] {
  const hash = hashSecret(node.token);
  return calls.filter(([, params]) => JSON.stringify(params ?? []).match(new RegExp(`^\\[(${node.id}|"${hash}"|\\[[0-9,]*\\b${node.id}\\b)`))).map(([sql]) => sql.replace(/\s+/g, ' ').slice(0, 60));
}

/** The claim statements among statements (engine_claim's). */
const claims = (sqls: string[]) => sqls.filter((sql) => sql.startsWith('select o_open'));

/**
 * Two actors registered and driven by hand (no agent: each poll is the test's), each polled once by its
 * process `prefix`, and a socket action between them on `port`: their ids and credentials, a poll maker
 * and the action.
 */
async function handDrivenPair(prefix: string, source: [string, string], target: [string, string], port: number) {
  const register = async ([name, address]: [string, string]) => {
    const reg = await w.server.call('POST', `${ACTOR_API}/register`, {
      body: { bulk_token: w.bulkToken, name, version: '1', os: 'Linux', addresses: [address], capabilities: ['socket'] },
      csrf: false,
    });
    expect(reg.statusCode, reg.body).toBe(200);
    const { node_id, token } = reg.json<{ node_id: number; token: string }>();
    return { id: node_id, token };
  };
  const src = await register(source);
  const dst = await register(target);
  const poll = (node: { token: string }, body: Record<string, unknown>) => actorCall('/poll', { session: `${prefix}-${node.token.slice(-6)}`, holding: [], wait_ms: 0, ...body }, node.token);
  expect((await poll(src, {})).statusCode).toBe(200);
  expect((await poll(dst, {})).statusCode).toBe(200);
  const action = await insertAction(w.server.db, 'socket', { comm_type: 'tcp', server_port: port, steps: [{ data_type: 'ascii', request: 'hi', response: 'yo' }] }, `${prefix} socket`);
  return { src, dst, poll, action };
}

/**
 * Three hand-driven pairs (`${prefix}1`..`${prefix}3`, on 127.0.0.firstHost upwards and ports from
 * firstPort), each with its action run and its target's work handed to the target's poll.
 */
async function threeDispatchedPairs(prefix: string, firstHost: number, firstPort: number) {
  const pairs = await Promise.all(
    [0, 1, 2].map((i) => handDrivenPair(`${prefix}${i + 1}`, [`${prefix}-src-${i + 1}`, `127.0.0.${firstHost + 2 * i}`], [`${prefix}-dst-${i + 1}`, `127.0.0.${firstHost + 2 * i + 1}`], firstPort + i)),
  );
  const runs = await Promise.all(
    pairs.map(async ({ src, dst, poll, action }) => {
      const run = await w.server.call('POST', `/run/actions/${action}.json`, { as: w.operator, body: { attack_node_id_1: src.id, target_node_id_1: dst.id } });
      expect(run.statusCode, run.body).toBe(201);
      let target: PollAnswer = { work: [], abort: [] };
      for (let i = 0; i < 20 && !target.work.length; i++) target = (await poll(dst, { wait_ms: 1000 })).json<PollAnswer>();
      return { jobId: run.json<{ job_id: number }>().job_id, targetWork: target.work[0]?.id ?? 0, port: (JSON.parse(target.work[0]!.payload) as WorkPayload).details.server_port as number };
    }),
  );
  return { pairs, runs };
}

/** Runs fn with the first hand-off to the node refused (as when its poll woke first); checks that one was. */
async function withFirstHandOffRefused<T>(node: number, fn: () => Promise<T>): Promise<T> {
  const real = w.engine.handOff.bind(w.engine);
  let refused = 0;
  const spy = vi.spyOn(w.engine, 'handOff').mockImplementation((n, session, work) => (n === node && refused++ === 0 ? false : real(n, session, work)));
  try {
    const out = await fn();
    expect(refused).toBe(1);
    return out;
  } finally {
    spy.mockRestore();
  }
}

/** The statements whose parameters name the node or its credential while `fn` runs. */
async function statementsOf(node: { id: number; token: string }, fn: () => Promise<unknown>): Promise<string[]> {
  const spy = vi.spyOn(w.server.db, 'query');
  try {
    await fn();
    return naming(node, spy.mock.calls);
  } finally {
    spy.mockRestore();
  }
}

const heartbeatOf = async (id: number) => (await w.server.db.query<{ at: string }>('select last_heartbeat_at::text as at from nodes where id = $1', [id]))[0]?.at;

describe('actor calls answered from the director memory', () => {
  it('an idle actor polling again makes no statement; it is marked alive by one write behind, and news of it is read again', async () => {
    const node = await register('idle-poller');
    const poll = (session = 'idle-1') => actorCall('/poll', { session, holding: [], wait_ms: 0 }, node.token);
    // The first poll checks the credential and reads the state (a select), and ends with nothing to do.
    // It is the actor's first call-in since it registered, so its heartbeat is written at once: the
    // bulk tokens' pending rule (last_heartbeat_at after created_at) must see it (MON-129).
    const first = await statementsOf(node, async () => expect((await poll()).json<PollAnswer>()).toEqual({ work: [], abort: [] }));
    // (A new session's first poll also ends work and tasks of the actor's earlier processes.)
    expect(first[0]).toMatch(/^select n\.id, n\.name, n\.status, \(case when last_heartbeat_at/);
    expect(first.some((sql) => sql.startsWith('update nodes set last_heartbeat_at = greatest(now(), '))).toBe(true);
    // (Its heartbeat noted by that poll is written now, so the flush below is the idle polls' own.)
    await w.engine.liveness.flush();
    const before = await heartbeatOf(node.id);
    const idle = await statementsOf(node, async () => {
      for (let i = 0; i < 5; i++) expect((await poll()).json<PollAnswer>()).toEqual({ work: [], abort: [] });
      expect((await actorCall('/heartbeat', { session: 'idle-1' }, node.token)).statusCode).toBe(200);
    });
    expect(idle).toEqual([]);
    // Within the flush interval (a tenth of the offline delay), one statement marks it alive.
    const flushed = await statementsOf(node, () => new Promise((r) => setTimeout(r, w.engine.liveness.flushMs() + 200)));
    expect(flushed).toEqual([expect.stringMatching(/^update nodes set last_heartbeat_at = now\(\)/)]);
    expect(await heartbeatOf(node.id)).not.toBe(before);
    // A task queued for it is news: its next poll reads its state again and gets the task.
    const queued = await w.server.call('POST', `/topology/nodes/${node.id}/version_check.json`, { as: await w.server.signIn('admin') });
    expect(queued.statusCode, queued.body).toBe(201);
    const answer = (await poll()).json<PollAnswer>();
    expect(answer.tasks?.length).toBe(1);
  });

  it('after a claim the next poll of the actor, holding that work, reads no state; news of the work (it was ended) is read again', async () => {
    const node = await register('claimer');
    const poll = (holding: number[], wait_ms = 0) => actorCall('/poll', { session: 'claim-1', holding, wait_ms }, node.token);
    expect((await poll([])).statusCode).toBe(200);
    const action = await insertAction(w.server.db, 'sleep', { sleep_ms: 10 }, 'claimed sleep');
    const run = await w.server.call('POST', `/run/actions/${action}.json`, { as: w.operator, body: { attack_node_id_1: node.id } });
    expect(run.statusCode, run.body).toBe(201);
    // The engine queues the work and tells the waiting poll, which claims it.
    let claimed: PollAnswer = { work: [], abort: [] };
    for (let i = 0; i < 20 && !claimed.work.length; i++) claimed = (await poll([], 1000)).json<PollAnswer>();
    const workId = claimed.work[0]?.id ?? 0;
    expect(workId).toBeGreaterThan(0);
    // Nothing else is open or queued for it while it holds that work: its next poll is answered from memory.
    const next = await statementsOf(node, async () => expect((await poll([workId])).json<PollAnswer>()).toEqual({ work: [], abort: [] }));
    expect(next.filter((sql) => sql.startsWith('select (select array_agg(id) from engine_work'))).toEqual([]);
    // The work ended behind the actor's back (news of it): the next poll reads the state and hears to abort.
    await w.engine.failOpenWork('node_id = $1', [node.id], 'Ended by the test.');
    const after = await statementsOf(node, async () => expect((await poll([workId])).json<PollAnswer>()).toEqual({ work: [], abort: [workId] }));
    expect(after.some((sql) => sql.startsWith('select (select array_agg(id) from engine_work'))).toBe(true);
  });

  it("a two-actor action's polls read no state after the claims: the source's result rides on its poll, the target hears to abort from that result, and its evidence poll starts from memory", async () => {
    const register2 = async (name: string) => {
      const reg = await w.server.call('POST', `${ACTOR_API}/register`, {
        body: { bulk_token: w.bulkToken, name, version: '1', os: 'Linux', addresses: [name === 'pair-src' ? '127.0.0.10' : '127.0.0.11'], capabilities: ['socket'] },
        csrf: false,
      });
      expect(reg.statusCode, reg.body).toBe(200);
      const { node_id, token } = reg.json<{ node_id: number; token: string }>();
      return { id: node_id, token };
    };
    const src = await register2('pair-src');
    const dst = await register2('pair-dst');
    const poll = (node: { token: string }, body: Record<string, unknown>) => actorCall('/poll', { session: `s-${node.token.slice(-6)}`, holding: [], wait_ms: 0, ...body }, node.token);
    /** The poll-state reads and claims (each a read of the actor's state) among the statements naming the node. */
    const stateReads = (sqls: string[]) => sqls.filter((sql) => /^select \(select array_agg\(id\) from engine_work|^select n\.id, n\.name|^select o_open/.test(sql));
    expect((await poll(src, {})).statusCode).toBe(200);
    expect((await poll(dst, {})).statusCode).toBe(200);
    const action = await insertAction(w.server.db, 'socket', { comm_type: 'tcp', server_port: 47990, steps: [{ data_type: 'ascii', request: 'hi', response: 'yo' }] }, 'paired socket');
    const run = await w.server.call('POST', `/run/actions/${action}.json`, { as: w.operator, body: { attack_node_id_1: src.id, target_node_id_1: dst.id } });
    expect(run.statusCode, run.body).toBe(201);
    const jobId = run.json<{ job_id: number }>().job_id;

    // The target claims its work; its readiness rides on its next poll, which then waits for news.
    let claimed: PollAnswer = { work: [], abort: [] };
    for (let i = 0; i < 20 && !claimed.work.length; i++) claimed = (await poll(dst, { wait_ms: 1000 })).json<PollAnswer>();
    const targetWork = claimed.work[0]?.id ?? 0;
    expect(targetWork).toBeGreaterThan(0);
    // One recording of every statement from here (the two actors' calls overlap), told apart by node.
    const spy = vi.spyOn(w.server.db, 'query');
    const since = () => {
      const from = spy.mock.calls.length;
      return () => spy.mock.calls.slice(from);
    };
    try {
      const fromReady = since();
      const ready = poll(dst, { holding: [targetWork], wait_ms: 10_000, ready: [{ work_id: targetWork, port_map: { '47990': 47990 }, port_failures: {} }] });
      // The source, released by the readiness, claims its work; its result rides on its next poll.
      let sourceClaim: PollAnswer = { work: [], abort: [] };
      for (let i = 0; i < 20 && !sourceClaim.work.length; i++) sourceClaim = (await poll(src, { wait_ms: 1000 })).json<PollAnswer>();
      const sourceWork = sourceClaim.work[0]?.id ?? 0;
      expect(sourceWork).toBeGreaterThan(0);
      const fromResult = since();
      expect((await poll(src, { results: [{ work_id: sourceWork, outcome: 'ran', blocked: false, message: null, evidence: { exchanged: 1 } }] })).json<PollAnswer>()).toEqual({ work: [], abort: [] });
      expect(stateReads(naming(src, fromResult()))).toEqual([]);
      const [stored] = await w.server.db.query<{ status: string; blocked: boolean; source: unknown }>(`select status, blocked, evidence->'source' as source from job_actions where job_id = $1`, [jobId]);
      expect(stored).toEqual({ status: 'ran', blocked: false, source: { exchanged: 1 } });

      // The target's waiting poll hears from the result that its work ended: told to abort, without a read
      // (its claim was the last look at its state).
      expect((await ready).json<PollAnswer>()).toEqual({ work: [], abort: [targetWork] });
      expect(stateReads(naming(dst, fromReady()))).toEqual([]);
      // Its next poll carries its servers' evidence, which ends the cleanup; it too starts from memory.
      const fromEvidence = since();
      expect((await poll(dst, { evidence: [{ work_id: targetWork, evidence: { received: ['hi'] } }] })).json<PollAnswer>()).toEqual({ work: [], abort: [] });
      expect(stateReads(naming(dst, fromEvidence()))).toEqual([]);
      // A result of work that is not the actor's is refused with the reason /result would answer; the poll answers all the same.
      const foreign = (await poll(src, { results: [{ work_id: targetWork, outcome: 'ran', blocked: true, message: null, evidence: {} }] })).json<PollAnswer>();
      expect(foreign).toEqual({ work: [], abort: [], refused: [{ work_id: targetWork, error: `Work ${targetWork} is not assigned to this actor.` }] });
    } finally {
      spy.mockRestore();
    }
    const [work] = await w.server.db.query<{ status: string }>('select status from engine_work where id = $1', [targetWork]);
    expect(work?.status).toBe('aborted');
    const { job } = await waitForJob(w.server.db, jobId);
    expect(job.status).toBe('completed');
  });

  it("a source's poll waiting when its target is ready is handed its work by the readiness statement, with no claim of its own; a poll that woke meanwhile claims it from the queue", async () => {
    const { src, dst, poll, action } = await handDrivenPair('h', ['hand-src', '127.0.0.12'], ['hand-dst', '127.0.0.13'], 47991);

    /** Runs the action once: the target claims and gets ready while the source's poll waits; answers the source's poll and the statements naming the source meanwhile. */
    const once = async () => {
      const run = await w.server.call('POST', `/run/actions/${action}.json`, { as: w.operator, body: { attack_node_id_1: src.id, target_node_id_1: dst.id } });
      expect(run.statusCode, run.body).toBe(201);
      let target: PollAnswer = { work: [], abort: [] };
      for (let i = 0; i < 20 && !target.work.length; i++) target = (await poll(dst, { wait_ms: 1000 })).json<PollAnswer>();
      const targetWork = target.work[0]?.id ?? 0;
      expect(targetWork).toBeGreaterThan(0);
      const spy = vi.spyOn(w.server.db, 'query');
      try {
        const waiting = poll(src, { wait_ms: 10_000 });
        for (let i = 0; i < 200 && !w.engine.waitingPolls().nodes.includes(src.id); i++) await new Promise((r) => setTimeout(r, 10));
        expect(w.engine.waitingPolls().nodes).toContain(src.id);
        expect((await poll(dst, { holding: [targetWork], ready: [{ work_id: targetWork, port_map: { '47991': 47991 }, port_failures: {} }] })).statusCode).toBe(200);
        const answer = (await waiting).json<PollAnswer>();
        const sourceWork = answer.work[0]?.id ?? 0;
        expect(sourceWork).toBeGreaterThan(0);
        const statements = naming(src, spy.mock.calls);
        // The source performs and its result (checked against the process that claimed it) ends the action;
        // the target hears to abort and its evidence ends the cleanup.
        expect((await poll(src, { results: [{ work_id: sourceWork, outcome: 'ran', blocked: false, message: null, evidence: { exchanged: 1 } }] })).json<PollAnswer>()).toEqual({ work: [], abort: [] });
        expect((await poll(dst, { holding: [targetWork], wait_ms: 5000 })).json<PollAnswer>()).toEqual({ work: [], abort: [targetWork] });
        expect((await poll(dst, { evidence: [{ work_id: targetWork, evidence: { received: ['hi'] } }] })).statusCode).toBe(200);
        const { job } = await waitForJob(w.server.db, run.json<{ job_id: number }>().job_id);
        expect(job.status).toBe('completed');
        const [row] = await w.server.db.query<{ status: string; blocked: boolean }>('select ja.status, ja.blocked from job_actions ja join engine_work e on e.job_action_id = ja.id where e.id = $1', [sourceWork]);
        expect(row).toEqual({ status: 'ran', blocked: false });
        return { payload: JSON.parse(answer.work[0]!.payload) as WorkPayload, statements };
      } finally {
        spy.mockRestore();
      }
    };

    // Handed: the readiness claimed it for the waiting process, with the target's port map.
    const handed = await once();
    expect(handed.payload).toMatchObject({ role: 'source', node_id: src.id, port_map: { '47991': 47991 } });
    expect(claims(handed.statements)).toEqual([]);
    // The poll woke before the hand-off (handOff false): the work goes back to the queue and is claimed.
    // Only the source's hand-off is refused: the target's poll may be handed its work by the dispatch too.
    const queued = await withFirstHandOffRefused(src.id, once);
    expect(queued.payload).toMatchObject({ role: 'source', node_id: src.id, port_map: { '47991': 47991 } });
    expect(claims(queued.statements)).toHaveLength(1);
  });

  it("a target's poll waiting when its action is dispatched is handed its work by the dispatch, with no claim of its own; a poll that woke meanwhile claims it from the queue", async () => {
    const { src, dst, poll, action } = await handDrivenPair('d', ['dispatch-src', '127.0.0.14'], ['dispatch-dst', '127.0.0.15'], 47992);

    /** Runs the action once while the target's poll waits: its answer, and the statements naming the target until it came. */
    const once = async () => {
      const spy = vi.spyOn(w.server.db, 'query');
      let answer: PollAnswer;
      let statements: string[];
      try {
        const waiting = poll(dst, { wait_ms: 10_000 });
        for (let i = 0; i < 200 && !w.engine.waitingPolls().nodes.includes(dst.id); i++) await new Promise((r) => setTimeout(r, 10));
        expect(w.engine.waitingPolls().nodes).toContain(dst.id);
        const run = await w.server.call('POST', `/run/actions/${action}.json`, { as: w.operator, body: { attack_node_id_1: src.id, target_node_id_1: dst.id } });
        expect(run.statusCode, run.body).toBe(201);
        answer = (await waiting).json<PollAnswer>();
        statements = naming(dst, spy.mock.calls);
        const targetWork = answer.work[0]?.id ?? 0;
        expect(targetWork).toBeGreaterThan(0);
        // The target serves, the source performs, and the action ends with the target's evidence.
        expect((await poll(dst, { holding: [targetWork], ready: [{ work_id: targetWork, port_map: { '47992': 47992 }, port_failures: {} }] })).statusCode).toBe(200);
        let source: PollAnswer = { work: [], abort: [] };
        for (let i = 0; i < 20 && !source.work.length; i++) source = (await poll(src, { wait_ms: 1000 })).json<PollAnswer>();
        const sourceWork = source.work[0]?.id ?? 0;
        expect((await poll(src, { results: [{ work_id: sourceWork, outcome: 'ran', blocked: false, message: null, evidence: {} }] })).statusCode).toBe(200);
        expect((await poll(dst, { holding: [targetWork], wait_ms: 5000 })).json<PollAnswer>()).toEqual({ work: [], abort: [targetWork] });
        expect((await poll(dst, { evidence: [{ work_id: targetWork, evidence: { received: ['hi'] } }] })).statusCode).toBe(200);
        const { job } = await waitForJob(w.server.db, run.json<{ job_id: number }>().job_id);
        expect(job.status).toBe('completed');
      } finally {
        spy.mockRestore();
      }
      return { payload: JSON.parse(answer.work[0]!.payload) as WorkPayload, statements };
    };

    // Handed: the dispatch claimed it for the waiting process.
    const handed = await once();
    expect(handed.payload).toMatchObject({ role: 'target', node_id: dst.id, peer_address: '127.0.0.14' });
    expect(claims(handed.statements)).toEqual([]);
    // The poll woke before the hand-off (handOff false): the work goes back to the queue and is claimed.
    // Only the target's hand-off is refused: the source's poll may be handed its work by the readiness too.
    const queued = await withFirstHandOffRefused(dst.id, once);
    expect(queued.payload).toMatchObject({ role: 'target', node_id: dst.id });
    expect(claims(queued.statements)).toHaveLength(1);
  });

  it("targets' evidence arriving together is written together (group commit): each job action gets its own, and evidence for work that is not the caller's is refused with why", async () => {
    const { pairs, runs } = await threeDispatchedPairs('e', 16, 47993);
    // Each action runs until its target is told to abort (its source's result ended it): the target's work is reverting.
    for (const [i, { src, dst, poll }] of pairs.entries()) {
      const { targetWork, port } = runs[i]!;
      expect((await poll(dst, { holding: [targetWork], ready: [{ work_id: targetWork, port_map: { [port]: port }, port_failures: {} }] })).statusCode).toBe(200);
      let source: PollAnswer = { work: [], abort: [] };
      for (let n = 0; n < 20 && !source.work.length; n++) source = (await poll(src, { wait_ms: 1000 })).json<PollAnswer>();
      expect((await poll(src, { results: [{ work_id: source.work[0]!.id, outcome: 'ran', blocked: false, message: null, evidence: {} }] })).statusCode).toBe(200);
      expect((await poll(dst, { holding: [targetWork], wait_ms: 5000 })).json<PollAnswer>()).toEqual({ work: [], abort: [targetWork] });
    }
    const spy = vi.spyOn(w.server.db, 'query');
    try {
      // Three targets' evidence at once, and the first target's work claimed to be the second actor's (refused).
      const store = (i: number, workId: number, received: string) => {
        const { dst } = pairs[i]!;
        return storeTargetEvidence(w.server.db, w.engine, workCaller(w.engine, `Bearer ${dst.token}`), workId, `e${i + 1}-${dst.token.slice(-6)}`, { received: [received] }, false);
      };
      const stored = await Promise.allSettled([...runs.map((r, i) => store(i, r.targetWork, `hi ${i}`)), store(1, runs[0]!.targetWork, 'forged')]);
      expect(stored.slice(0, 3).map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
      expect(stored[3]).toMatchObject({ status: 'rejected', reason: { statusCode: 404, message: `Work ${runs[0]!.targetWork} is not assigned to this actor.` } });
      // The first is written at once; the three arriving meanwhile together.
      expect(spy.mock.calls.filter(([sql]) => String(sql).includes("jsonb_build_object('seen'"))).toHaveLength(2);
    } finally {
      spy.mockRestore();
    }
    for (const [i, r] of runs.entries()) {
      const { job, actions } = await waitForJob(w.server.db, r.jobId);
      expect(job.status).toBe('completed');
      expect((actions[0]!.evidence as { target?: { received?: string[] } }).target?.received).toEqual([`hi ${i}`]);
    }
  });

  it("targets' readiness arriving together is written together (group commit): each source is released with its own target's ports, and readiness of work that is not the caller's is refused with why", async () => {
    // Each action dispatched, its target's work claimed: the target is starting its servers.
    const { pairs, runs } = await threeDispatchedPairs('r', 22, 47996);
    const spy = vi.spyOn(w.server.db, 'query');
    try {
      // Three targets ready at once, each on its own port, and the first target's work claimed to be the second actor's (refused).
      const ready = (i: number, workId: number) => {
        const { dst } = pairs[i]!;
        return markReady(w.server.db, w.engine, workCaller(w.engine, `Bearer ${dst.token}`), workId, `r${i + 1}-${dst.token.slice(-6)}`, { port_map: { '7': 50_000 + i }, port_failures: {} });
      };
      const stored = await Promise.allSettled([...runs.map((r, i) => ready(i, r.targetWork)), ready(1, runs[0]!.targetWork)]);
      expect(stored.slice(0, 3).map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
      expect(stored[3]).toMatchObject({ status: 'rejected', reason: { statusCode: 404, message: `Work ${runs[0]!.targetWork} is not assigned to this actor.` } });
      // The first is written at once; on PostgreSQL the second too, in the second lane (readinessWriters);
      // the ones arriving meanwhile together.
      const writes = spy.mock.calls.filter(([sql]) => String(sql).includes('result = v.result')).map(([, params]) => (JSON.parse(String((params as unknown[])[0])) as unknown[]).length);
      expect(writes).toEqual(w.server.db.kind === 'postgres' ? [1, 1, 2] : [1, 3]);
    } finally {
      spy.mockRestore();
    }
    // Each source is released with its own target's port map, and the actions complete.
    for (const [i, { src, dst, poll }] of pairs.entries()) {
      let source: PollAnswer = { work: [], abort: [] };
      for (let n = 0; n < 20 && !source.work.length; n++) source = (await poll(src, { wait_ms: 1000 })).json<PollAnswer>();
      const payload = JSON.parse(source.work[0]!.payload) as WorkPayload;
      expect(payload.port_map).toEqual({ '7': 50_000 + i });
      expect((await poll(src, { results: [{ work_id: source.work[0]!.id, outcome: 'ran', blocked: false, message: null, evidence: {} }] })).statusCode).toBe(200);
      const targetWork = runs[i]!.targetWork;
      expect((await poll(dst, { holding: [targetWork], wait_ms: 5000 })).json<PollAnswer>()).toEqual({ work: [], abort: [targetWork] });
      expect((await poll(dst, { evidence: [{ work_id: targetWork, evidence: {} }] })).statusCode).toBe(200);
      expect((await waitForJob(w.server.db, runs[i]!.jobId)).job.status).toBe('completed');
    }
  });

  it("a poll of an actor's earlier process, still waiting, is not handed work: only the latest process's waiting poll is", async () => {
    const node = 990_001;
    w.engine.sessions.set(node, 'new-process');
    const stale = w.engine.waitForWork(node, 'old-process', 5000, w.engine.newsOf(node));
    expect(w.engine.waitingPolls().nodes).not.toContain(node);
    w.engine.sessions.set(node, 'old-process');
    expect(w.engine.waitingPolls()).toMatchObject({ nodes: expect.arrayContaining([node]) });
    const work = { id: 1, payload: {} as WorkPayload };
    expect(w.engine.handOff(node, 'new-process', work)).toBe(false);
    expect(w.engine.handOff(node, 'old-process', work)).toBe(true);
    expect(await stale).toEqual([work]);
    w.engine.sessions.delete(node);
  });

  it('a credential is remembered: retiring through the director refuses it at once; on PostgreSQL a change by another director counts within a second', async () => {
    const node = await register('retiree');
    const heartbeat = () => actorCall('/heartbeat', { session: 'r-1' }, node.token);
    expect((await heartbeat()).statusCode).toBe(200);
    await updateNode(w.server.db, node.id, { retired: true });
    const refused = await heartbeat();
    expect(refused.statusCode).toBe(401);
    expect(refused.json<{ error: string }>().error).toBe('Unknown or revoked actor credential, or the actor is retired.');

    const other = await register('revoked-elsewhere');
    expect((await actorCall('/heartbeat', { session: 'o-1' }, other.token)).statusCode).toBe(200);
    await w.server.db.query('update nodes set token_hash = null where id = $1', [other.id]);
    if (w.server.db.kind === 'postgres') {
      // Another director sharing the database revoked it: this director believes its memory for at most a second.
      await new Promise((r) => setTimeout(r, credentialTtlMs(w.server.db) + 50));
      expect((await actorCall('/heartbeat', { session: 'o-1' }, other.token)).statusCode).toBe(401);
    } else {
      // PGlite lives inside this director, which forgets on its own changes: a change behind its back is believed later.
      expect(credentialTtlMs(w.server.db)).toBe(60_000);
      expect((await actorCall('/heartbeat', { session: 'o-1' }, other.token)).statusCode).toBe(200);
    }
  });
});
