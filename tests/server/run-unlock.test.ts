/** The run-all form's force_unlock: an unlocked run accepts an offline actor and the job waits for it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActorAgent } from '../../actor/agent';
import { insertAction, startEngineWorld, stoppedActor, waitForJob, type EngineWorld } from './engine-helpers';
import { loopback } from './loopback';

let w: EngineWorld;
let back: ActorAgent | null = null;

beforeAll(async () => {
  w = await startEngineWorld({}, { engine: { offlineAfterMs: 1500 } });
});
afterAll(async () => {
  await back?.stop();
  await w?.close();
});

describe('force_unlock', () => {
  it('MON-045 MON-061 MON-134 locked, an offline actor is refused; unlocked, the job waits for it with the reason and runs once it is back', async () => {
    const away = await stoppedActor(w, 'away', loopback(4));
    for (let i = 0; i < 400; i++) {
      const [n] = await w.server.db.query<{ status: string }>('select status from nodes where id = $1', [away.nodeId]);
      if (n?.status === 'offline') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const actionId = await insertAction(w.server.db, 'sleep', { sleep_ms: 50 });
    const run = (force_unlock: boolean) =>
      w.server.call('POST', `/run/actions/${actionId}.json`, { as: w.operator, body: { attack_node_id_1: away.nodeId, target_node_id_1: w.dst.nodeId, force_unlock } });

    const locked = await run(false);
    expect(locked.statusCode).toBe(400);
    expect(locked.json<{ error: string }>().error).toBe('Source Actor away is offline. Unlock the actor choice (force_unlock) to run when it comes back.');

    const unlocked = await run(true);
    expect(unlocked.statusCode, unlocked.body).toBe(201);
    const jobId = unlocked.json<{ job_id: number }>().job_id;
    const { job } = await waitForJob(w.server.db, jobId, ['waiting']);
    expect(job.status_reason).toBe('Waiting for actor away to come online.');

    back = await away.restart();
    const done = await waitForJob(w.server.db, jobId);
    expect(done.job.status).toBe('completed');
    expect(done.actions.map((a) => a.status)).toEqual(['ran']);
  });
});
