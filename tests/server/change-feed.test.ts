import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../server/db/index';
import { ChangeFeed } from '../../server/library/change-feed';
import { openTestDatabase } from './template';

// One migrated database for the file (PGlite, or PostgreSQL on TEST_DATABASE_URL; opening one is most of
// this file's time); each test starts from an empty change log whose sequence starts again at 1.
let shared: Db | undefined;
let dispose: (() => Promise<void>) | undefined;
beforeAll(async () => {
  ({ db: shared, dispose } = await openTestDatabase());
});
afterAll(async () => {
  await dispose?.();
});
beforeEach(async () => {
  await shared?.exec('truncate library_changes restart identity');
});

async function openDb(): Promise<Db> {
  if (!shared) throw new Error('The database did not open');
  return shared;
}

describe('the library change feed', () => {
  it('reports each change once, including changes written between the start and a late commit of a lower sequence number', async () => {
    const db = await openDb();
    await db.query(`insert into library_changes (kind, item_id) select 'action', g from generate_series(1, 50) g`);
    const feed = new ChangeFeed(db);
    await feed.start();
    // What was committed before the start is part of the snapshot: nothing new.
    expect((await feed.poll()).count).toBe(0);
    await db.query(`insert into library_changes (kind, item_id) values ('action', 7), ('action', 8), ('simulation', null)`);
    const batch = await feed.poll();
    expect(batch.count).toBe(3);
    expect([...batch.actionIds].sort()).toEqual([7, 8]);
    expect(batch.simulations).toBe(true);
    expect((await feed.poll()).count).toBe(0);
    // A row with a sequence number below ones already applied (a late commit) is still reported, once.
    await db.query(`insert into library_changes (seq, kind, item_id) values (1000, 'action', 98)`);
    expect([...(await feed.poll()).actionIds]).toEqual([98]);
    await db.query(`insert into library_changes (seq, kind, item_id) values (500, 'action', 99)`);
    const late = await feed.poll();
    expect([...late.actionIds]).toEqual([99]);
    expect((await feed.poll()).count).toBe(0);
  });

  it('reports a late commit below the start, and gives a gap up once it is older than the settle time', async () => {
    const db = await openDb();
    await db.query(`insert into library_changes (seq, kind, item_id) select g, 'action', g from generate_series(1, 50) g`);
    await db.query(`insert into library_changes (seq, kind, item_id) values (60, 'action', 60)`);
    const feed = new ChangeFeed(db);
    await feed.start();
    expect((await feed.poll()).count).toBe(0);
    await db.query(`insert into library_changes (seq, kind, item_id) values (55, 'action', 55)`);
    expect([...(await feed.poll()).actionIds]).toEqual([55]);
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now + 11_000);
    try {
      expect((await feed.poll()).count).toBe(0);
      // 56 was drawn more than the settle time ago without showing: it is no longer asked for.
      await db.query(`insert into library_changes (seq, kind, item_id) values (56, 'action', 56), (61, 'action', 61)`);
      expect([...(await feed.poll()).actionIds]).toEqual([61]);
    } finally {
      clock.mockRestore();
    }
  });
});
