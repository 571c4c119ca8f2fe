import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestEvents, matchEventsForActions, normalizeEvent, type NormalEvent } from '../../server/engine/detection';
import { openTestDatabase, type TestDatabase } from './template';

let t: TestDatabase;
let integration = 0;
beforeAll(async () => {
  t = await openTestDatabase();
  await t.db.exec(`
    insert into nodes (id, name, node_type, status, sim_address) values (8101, 'match-src', 'endpoint', 'online', '10.9.0.1'), (8102, 'match-dst', 'endpoint', 'online', '10.9.0.2');
    insert into jobs (id, name, status, started_at) values (8101, 'Match', 'running', now());
    insert into job_steps (id, job_id, group_order, source_node_id, destination_node_id) values (8101, 8101, 0, 8101, 8102);
    insert into job_actions (id, job_step_id, job_id, position, sim_action_vid, name, action_type, status, started_at, finished_at) values
      (81011, 8101, 8101, 1, 'A1', 'scan', 'port_scan', 'ran', now() - interval '20 seconds', now() - interval '10 seconds'),
      (81012, 8101, 8101, 2, 'A2', 'scan again', 'port_scan', 'ran', now() - interval '20 seconds', now() - interval '10 seconds');
  `);
  [{ id: integration }] = (await t.db.query<{ id: number }>(`insert into integrations (name, type) values ('Match IDS', 'ids') returning id`)) as [{ id: number }];
});
afterAll(async () => {
  await t?.dispose();
});

const eventAt = (secondsAgo: number): NormalEvent =>
  normalizeEvent({ timestamp: new Date(Date.now() - secondsAgo * 1000).toISOString(), src_ip: '10.9.0.1', dest_ip: '10.9.0.2', event_type: 'alert', alert: { signature: 'ET SCAN' } })!;

describe('matching events when actions end, on a database no other director writes', () => {
  it('a database seen without events is not asked again, until events are stored: then an action ending matches them', async () => {
    const windowMs = 30_000;
    expect(await matchEventsForActions(t.db, [81011], windowMs, true)).toBe(0);
    // Stored before the actions' source work was claimed (an event a moment before the claim): the
    // event is kept unmatched, and only the actions' end can match it.
    expect(await ingestEvents(t.db, integration, [eventAt(15)], windowMs)).toEqual({ stored: 1, matched: 0 });
    await t.db.exec(`insert into engine_work (job_action_id, job_id, node_id, role, status, payload, claimed_at) values
      (81011, 8101, 8101, 'source', 'done', '{}', now() - interval '14 seconds'), (81012, 8101, 8101, 'source', 'done', '{}', now() - interval '14 seconds')`);
    expect(await matchEventsForActions(t.db, [81011], windowMs, true)).toBe(1);
    const [row] = await t.db.query<{ events: number; alerted: boolean }>('select events, alerted from job_actions where id = 81011');
    expect(row).toEqual({ events: 1, alerted: true });
    // The same without `alone` (directors sharing the database): always looked up.
    expect(await matchEventsForActions(t.db, [81012], windowMs, false)).toBe(1);
  });
});
