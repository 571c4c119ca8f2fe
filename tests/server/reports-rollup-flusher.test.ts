/**
 * The director's flusher of the report facts (server/reports/rollup-flusher.ts, migration 028): it
 * adds the facts its writes queued to the rollups about once a period, and leaves an idle database alone.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { openTestDatabase, type TestDatabase } from './template';
import { RollupFlusher } from '../../server/reports/rollup-flusher';

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await openTestDatabase();
});
afterAll(() => tdb?.dispose());

const count = async (table: string) => Number((await tdb.db.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0]?.n);

it('MON-053 a director moves the facts its writes queued into the rollups, and flushes nothing while nothing is written', async () => {
  const { db } = tdb;
  await db.exec(`insert into jobs (id, name, status, created_at, started_at) values (9101, 'Flushed', 'running', now(), now())`);
  await db.exec(`insert into job_steps (id, job_id, group_order) values (9101, 9101, 0)`);
  await db.exec(`insert into job_actions (job_step_id, job_id, position, sim_action_vid, name, action_type, status) select 9101, 9101, k, 'A' || k, 'x', 'dns', 'ran' from generate_series(1, 6) k`);
  expect(await count('report_fact_queue')).toBeGreaterThan(0);
  const flushes: number[] = [];
  const flusher = new RollupFlusher(db, 20);
  const flush = flusher.flush.bind(flusher);
  vi.spyOn(flusher, 'flush').mockImplementation(async () => {
    const n = await flush();
    flushes.push(n);
    return n;
  });
  flusher.start();
  try {
    await vi.waitFor(async () => expect(await count('report_fact_queue')).toBe(0), { timeout: 5000, interval: 20 });
    const [whole] = await db.query<{ n: number; total: number }>(`select sum(n)::int as n, sum(total)::int as total from report_rollups where grain = 0 and dim = 0`);
    expect(whole).toEqual({ n: 6, total: 6 });
    // Idle: the flusher's own statements are reads, so the write signal stays where it is.
    const seen = flushes.length;
    await new Promise((r) => setTimeout(r, 200));
    expect(flushes.length).toBe(seen);
    // A write: the next period flushes it.
    await db.exec(`update job_actions set status = 'errored' where job_id = 9101 and position = 1`);
    // The flush's count is recorded once it returns, a moment after its commit empties the queue.
    await vi.waitFor(() => expect(flushes.slice(seen).some((n) => n > 0)).toBe(true), { timeout: 5000, interval: 20 });
    expect(await count('report_fact_queue')).toBe(0);
    const [after] = await db.query<{ errored: number }>(`select sum(errored)::int as errored from report_rollups where grain = 0 and dim = 0`);
    expect(after?.errored).toBe(1);
  } finally {
    await flusher.stop();
  }
});
