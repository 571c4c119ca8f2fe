/**
 * Migration 027: the scheduling pass's reads of busy actors (work in any of BUSY's statuses, a target's
 * cleanup included) use engine_work_busy_idx, not a scan of every work row ever written (two per
 * two-actor action, kept as history).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BUSY } from '../../server/engine/engine';
import { openTestDatabase, type TestDatabase } from './template';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
  await t.db.exec(`
    insert into nodes (id, name, node_type, status) values (9101, 'busy-a', 'endpoint', 'online'), (9102, 'busy-b', 'endpoint', 'online'), (9103, 'busy-c', 'endpoint', 'online');
    insert into jobs (id, name, status) select g, 'Busy ' || g, 'completed' from generate_series(9101, 9400) g;
    insert into job_steps (id, job_id, group_order, source_node_id, destination_node_id) select g, g, 0, 9101, 9102 from generate_series(9101, 9400) g;
    insert into job_actions (id, job_step_id, job_id, position, sim_action_vid, name, action_type, status) select g, g, g, 1, 'A1', 'scan', 'port_scan', 'ran' from generate_series(9101, 9400) g;
    -- 300 jobs' history (two work rows per action, 20 actions each), and two busy rows: a cleanup and queued work.
    insert into engine_work (job_action_id, job_id, node_id, role, status) select 9101 + g % 300, 9101 + g % 300, 9101 + g % 3, 'source', 'done' from generate_series(1, 6000) g;
    insert into engine_work (job_action_id, job_id, node_id, role, status) values (9400, 9400, 9101, 'target', 'reverting'), (9400, 9400, 9102, 'source', 'queued');
    analyze engine_work;
  `);
});
afterAll(async () => {
  await t?.dispose();
});

const plan = async (sql: string, params: unknown[] = []) => JSON.stringify(await t.db.query(`explain (format json) ${sql}`, params));

it('the busy actors of a pass are read from the busy rows alone, a cleanup among them', async () => {
  const all = `select array_agg(distinct node_id) as busy from engine_work where status in ${BUSY}`;
  const some = `select distinct node_id from engine_work where node_id = any($1::int[]) and status in ${BUSY}`;
  expect(await plan(all)).toContain('engine_work_busy_idx');
  expect(await plan(some, [[9101, 9102, 9103]])).toContain('engine_work_busy_idx');
  // A cleanup ('reverting') makes its actor busy as open work does; finished work does not.
  expect((await t.db.query<{ busy: number[] }>(all))[0]?.busy).toEqual([9101, 9102]);
  expect((await t.db.query<{ node_id: number }>(`${some} order by 1`, [[9101, 9103]])).map((r) => r.node_id)).toEqual([9101]);
});
