/**
 * The engine's warm-up at start (server/engine/warm-up.ts): the statement triggers its writes fire run
 * once on every connection of a PostgreSQL director's pools (Db.onEveryConnection), on no rows, and
 * leave nothing behind: no row changed, no transaction left open, every connection usable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type Db } from '../../server/db/index';
import { warmUpEngineConnections } from '../../server/engine/warm-up';
import { openTestDatabase, type TestDatabase } from './template';

let tdb: TestDatabase;
let db: Db;

beforeAll(async () => {
  tdb = await openTestDatabase();
  db = tdb.db;
});
afterAll(() => tdb?.dispose());

const jobsSnapshot = () => db.query<{ n: number; updated: string | null }>(`select count(*)::int as n, max(updated_at)::text as updated from jobs`);

describe("the engine's connection warm-up", () => {
  it('runs on every connection of both pools at once (PostgreSQL), changes no row and leaves every connection usable', async (ctx) => {
    const before = await jobsSnapshot();
    if (!tdb.url) {
      console.log("skipped on PGlite: it has one connection, and the warm-up runs once on it");
      expect(db.onEveryConnection).toBeUndefined();
      await warmUpEngineConnections(db);
      expect(await jobsSnapshot()).toEqual(before);
      await expect(db.transaction((tx) => tx.query<{ one: number }>('select 1 as one'))).resolves.toEqual([{ one: 1 }]);
      return ctx.skip();
    }
    // Only a director's pools (keep) have it: others open their connections as needed.
    expect(db.onEveryConnection).toBeUndefined();
    await warmUpEngineConnections(db);
    // A director's pools of 3 connections and 2 (named statements, generic plans): 5 in all.
    const director = await openPostgres(tdb.url, { keep: true, max: 3 });
    try {
      const marked = `vigil-warm-${process.pid}`;
      await director.onEveryConnection?.(`set application_name = '${marked}'`);
      const named = async () => (await db.query<{ n: number }>(`select count(*)::int as n from pg_stat_activity where application_name = $1`, [marked]))[0]?.n;
      expect(await named()).toBe(5);
      await warmUpEngineConnections(director);
      expect(await jobsSnapshot()).toEqual(before);
      // None left in a transaction, and every connection takes the next one (all five at once).
      expect((await db.query<{ n: number }>(`select count(*)::int as n from pg_stat_activity where application_name = $1 and state <> 'idle'`, [marked]))[0]?.n).toBe(0);
      const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => director.transaction((tx) => tx.query<{ n: number }>('select $1::int as n, pg_sleep(0.01)', [i]))));
      expect(answers.map((r) => r[0]?.n)).toEqual([0, 1, 2, 3, 4]);
      expect(await named()).toBe(5);
    } finally {
      await director.close();
    }
  });
});
