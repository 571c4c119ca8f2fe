import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobProgress } from '../../server/engine/job-progress';
import { openTestDatabase, type TestDatabase } from './template';
import { until } from './processes';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
  await t.db.exec(`
    insert into jobs (id, name, status, started_at) values (7001, 'Progress A', 'running', now()), (7002, 'Progress B', 'running', now());
    insert into job_steps (id, job_id, group_order) values (7001, 7001, 0), (7002, 7002, 0);
    insert into job_actions (id, job_step_id, job_id, position, sim_action_vid, name, action_type, status) values
      (70011, 7001, 7001, 1, 'A1', 'a', 'sleep', 'running'), (70012, 7001, 7001, 2, 'A2', 'b', 'sleep', 'pending'),
      (70013, 7001, 7001, 3, 'A3', 'c', 'sleep', 'pending'), (70014, 7001, 7001, 4, 'A4', 'd', 'sleep', 'pending'),
      (70021, 7002, 7002, 1, 'B1', 'a', 'sleep', 'running'), (70022, 7002, 7002, 2, 'B2', 'b', 'sleep', 'pending');
  `);
});
afterAll(async () => {
  await t?.dispose();
});

const progress = async (id: number) => (await t.db.query<{ progress: number }>('select progress from jobs where id = $1', [id]))[0]?.progress;
const ran = (id: number) => t.db.query(`update job_actions set status = 'ran', finished_at = now() where id = $1`, [id]);

describe('job progress', () => {
  it('is written at once, then at most once per interval per job: a move held back is written when the interval ends', async () => {
    const p = new JobProgress(t.db, 1500);
    try {
      await ran(70011);
      await p.update([7001]);
      expect(await progress(7001)).toBe(25);
      // Within the interval: held back.
      await ran(70012);
      await p.update([7001]);
      await ran(70013);
      await p.update([7001]);
      expect(await progress(7001)).toBe(25);
      // Another job is not held back by the first one's interval.
      await ran(70021);
      await p.update([7002]);
      expect(await progress(7002)).toBe(50);
      // The timer writes the last move of the job held back.
      await until('the held-back progress is written', async () => ((await progress(7001)) === 75 ? true : undefined), 10_000);
      expect(await progress(7002)).toBe(50);
    } finally {
      p.stop();
    }
  });
});
