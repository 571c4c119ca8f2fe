import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTOR_API } from '@/api/contracts/engine';
import { createBulkToken } from '../../server/engine/secrets';
import { insertAction, startEngineWorld, waitForJob, type EngineWorld } from './engine-helpers';
import { loopback } from './loopback';

let w: EngineWorld;
beforeAll(async () => {
  w = await startEngineWorld();
});
afterAll(async () => {
  await w?.close();
});

const actorCall = (path: string, body: unknown, token?: string) =>
  w.server.call('POST', `${ACTOR_API}${path}`, { body, csrf: false, headers: token ? { authorization: `Bearer ${token}` } : {} });

const registration = (bulk_token: string) => ({ bulk_token, name: 'x', version: '1', os: 'Linux', addresses: ['127.0.0.9'], capabilities: ['sleep'] });
const count = async (table: string) => (await w.server.db.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0]?.n ?? 0;

describe('actor API refuses bad input and stores nothing', () => {
  it('unknown or expired bulk token, invalid registration', async () => {
    const before = await count('nodes');
    const unknown = await actorCall('/register', registration('vbt_not-a-real-token'));
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json<{ error: string }>().error).toBe('Unknown bulk token.');
    const { token } = await createBulkToken(w.server.db, { hours: 1 });
    await w.server.db.query(`update actor_bulk_tokens set expires_at = now() - interval '1 minute' where token_hash is not null and name = ''`);
    const expired = await actorCall('/register', registration(token));
    expect(expired.statusCode).toBe(401);
    expect(expired.json<{ error: string }>().error).toBe('The bulk token has expired.');
    const bad = await actorCall('/register', { ...registration(w.bulkToken), addresses: ['not-an-ip'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: string }>().error).toContain('IPv4');
    expect(await count('nodes')).toBe(before);
  });

  it('forged or missing actor credential', async () => {
    for (const token of [undefined, 'vat_forged-credential-000000000000', 'bad header value']) {
      const res = await actorCall('/poll', { session: 's' }, token);
      expect(res.statusCode).toBe(401);
      expect(res.json<{ error: string }>().error).toMatch(/actor credential/);
    }
  });

  it('results for work not assigned to the actor, and oversized results, are refused', async () => {
    // A third actor registers and tries to report on the source actor's work.
    const reg = await actorCall('/register', registration(w.bulkToken));
    expect(reg.statusCode, reg.body).toBe(200);
    const intruder = reg.json<{ token: string }>().token;
    const id = await insertAction(w.server.db, 'sleep', { sleep_ms: 1500 });
    const res = await w.server.call('POST', `/run/actions/${id}.json`, { as: w.operator, body: { attack_node_id_1: w.src.nodeId, target_node_id_1: w.dst.nodeId } });
    const jobId = res.json<{ job_id: number }>().job_id;
    let workId = 0;
    for (let i = 0; i < 100 && !workId; i++) {
      const [r] = await w.server.db.query<{ id: number }>(`select id from engine_work where job_id = $1 and status = 'claimed'`, [jobId]);
      workId = r?.id ?? 0;
      if (!workId) await new Promise((r2) => setTimeout(r2, 50));
    }
    expect(workId).toBeGreaterThan(0);
    const forged = await actorCall(`/work/${workId}/result`, { session: 'x', outcome: 'ran', blocked: false, evidence: {} }, intruder);
    expect(forged.statusCode).toBe(404);
    expect(forged.json<{ error: string }>().error).toBe(`Work ${workId} is not assigned to this actor.`);
    // Even the right actor's credential with another process's session is refused.
    const [tokenRow] = await w.server.db.query<{ n: number }>('select count(*)::int as n from engine_work where id = $1 and result is null', [workId]);
    expect(tokenRow?.n).toBe(1);
    const huge = await w.server.call('POST', `${ACTOR_API}/work/${workId}/result`, {
      body: { session: w.src.session, outcome: 'ran', blocked: false, evidence: { blob: 'x'.repeat(400 * 1024) } },
      csrf: false,
      headers: { authorization: `Bearer ${(w.src as unknown as { cred: { token: string } }).cred.token}` },
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json<{ error: string }>().error).toMatch(/too large/i);
    const { actions } = await waitForJob(w.server.db, jobId);
    // Only the real result was stored.
    expect(actions[0]?.status).toBe('ran');
    expect(actions[0]?.evidence).toEqual({ source: { slept_ms: 1500 }, target: null });
    const late = await actorCall(`/work/${workId}/result`, { session: w.src.session, outcome: 'ran', blocked: true, evidence: {} }, (w.src as unknown as { cred: { token: string } }).cred.token);
    expect(late.statusCode).toBe(409);
  });

  it('an actor that misses heartbeats goes offline and its work ends errored with the reason', async () => {
    const { ActorAgent } = await import('../../actor/agent');
    const lone = new ActorAgent({ director: w.url, bulkToken: w.bulkToken, name: 'lone', address: loopback(4), log: () => {}, pollWaitMs: 1000 });
    await lone.start();
    const id = await insertAction(w.server.db, 'sleep', { sleep_ms: 30_000 });
    const res = await w.server.call('POST', `/run/actions/${id}.json`, { as: w.operator, body: { attack_node_id_1: lone.nodeId, target_node_id_1: w.dst.nodeId } });
    expect(res.statusCode, res.body).toBe(201);
    const jobId = res.json<{ job_id: number }>().job_id;
    for (let i = 0; i < 100 && !lone.holding.length; i++) await new Promise((r) => setTimeout(r, 50));
    await lone.stop();
    const { job, actions } = await waitForJob(w.server.db, jobId, ['completed', 'errored'], 15_000);
    expect(job.status).toBe('completed');
    expect(actions[0]?.status).toBe('errored');
    expect(actions[0]?.blocked_msg).toBe('Actor lone went offline (no heartbeat for 3 s).');
    const [node] = await w.server.db.query<{ status: string }>('select status from nodes where id = $1', [lone.nodeId]);
    expect(node?.status).toBe('offline');
  });
});
