/**
 * On PostgreSQL the director's connections pipeline (server/db/index.ts): statements a transaction
 * issues together are written at once, and `begin` travels with the first of them. The transaction
 * keeps its meaning: statements run in the order issued, each sees the ones before it, and one that
 * fails rolls the whole transaction back, whatever was issued with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type Db } from '../../server/db/index';
import { openTestDatabase, type TestDatabase } from './template';

let tdb: TestDatabase;
let db: Db;

beforeAll(async () => {
  tdb = await openTestDatabase();
  db = tdb.db;
  await db.exec('create table piped (id int primary key, note text not null)');
});
afterAll(() => tdb?.dispose());

describe('statements issued together in a transaction', () => {
  it('run in the order issued, each seeing the ones before it, and commit together', async () => {
    const [inserted, counted, updated] = await db.transaction((tx) =>
      Promise.all([
        tx.query<{ id: number }>(`insert into piped values (1, 'a'), (2, 'b') returning id`),
        tx.query<{ n: number }>('select count(*)::int as n from piped'),
        tx.query<{ note: string }>(`update piped set note = note || '!' where id = 2 returning note`),
      ]),
    );
    expect(inserted.map((r) => r.id)).toEqual([1, 2]);
    expect(counted).toEqual([{ n: 2 }]);
    expect(updated).toEqual([{ note: 'b!' }]);
    expect(await db.query('select id, note from piped order by id')).toEqual([
      { id: 1, note: 'a' },
      { id: 2, note: 'b!' },
    ]);
  });

  it('one failing rolls back every statement issued with it, before and after', async () => {
    await expect(
      db.transaction((tx) =>
        Promise.all([
          tx.query(`insert into piped values (10, 'before')`),
          tx.query(`insert into piped values (1, 'a duplicate key')`),
          tx.query(`insert into piped values (11, 'after')`),
        ]),
      ),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await db.query<{ id: number }>('select id from piped order by id')).toEqual([{ id: 1 }, { id: 2 }]);
    // The connection went back to the pool usable: the next transaction on it commits.
    await db.transaction((tx) => tx.query(`insert into piped values (3, 'c')`));
    expect(await db.query<{ n: number }>('select count(*)::int as n from piped')).toEqual([{ n: 3 }]);
  });

  it('a transaction that issues nothing, or fails before its first statement, leaves the connection clean', async () => {
    await expect(db.transaction(async () => 'nothing')).resolves.toBe('nothing');
    await expect(
      db.transaction(async () => {
        throw new Error('refused before any statement');
      }),
    ).rejects.toThrow('refused before any statement');
    // More transactions than the pool has connections: each commits, none left one open or aborted.
    for (let i = 100; i < 112; i++) await db.transaction((tx) => tx.query(`insert into piped values ($1, 'later')`, [i]));
    expect(await db.query<{ n: number }>(`select count(*)::int as n from piped where note = 'later'`)).toEqual([{ n: 12 }]);
  });
});

describe('a director\'s pool (PoolOptions keep)', () => {
  it('opens all its connections at start (4, and 2 planning named statements once); a pool without keep opens one of each', async (ctx) => {
    if (!tdb.url) {
      console.log('skipped: the connection pool is PostgreSQL\'s (TEST_DATABASE_URL); PGlite has none');
      return ctx.skip();
    }
    const connections = async () => (await db.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where datname = current_database()'))[0]?.n ?? 0;
    const before = await connections();
    const kept = await openPostgres(tdb.url, { keep: true, max: 4 });
    try {
      expect(await connections()).toBe(before + 6);
      // Four transactions at once use the four open connections: none is opened for them.
      await Promise.all(Array.from({ length: 4 }, () => kept.transaction((tx) => tx.query('select pg_sleep(0)'))));
      expect(await connections()).toBe(before + 6);
      // Counted before any pool closes: a closed connection's server process ends a moment after the
      // client lets go, and still counted in pg_stat_activity meanwhile.
      const plain = await openPostgres(tdb.url, { max: 4 });
      try {
        expect(await connections()).toBe(before + 8);
      } finally {
        await plain.close();
      }
    } finally {
      await kept.close();
    }
  });
});

describe('plans on PostgreSQL', () => {
  it('a named statement outside a transaction, and every statement of a transaction asking for it, is planned once per connection (generic); other statements are planned for their values', async (ctx) => {
    if (!tdb.url) {
      console.log('skipped: plan modes are PostgreSQL connections\' (TEST_DATABASE_URL); PGlite has one connection');
      return ctx.skip();
    }
    const mode = `select current_setting('plan_cache_mode') as mode`;
    expect(await db.query(mode, [], { name: 'plan-mode' })).toEqual([{ mode: 'force_generic_plan' }]);
    expect(await db.query(mode)).toEqual([{ mode: 'auto' }]);
    expect(await db.transaction((tx) => tx.query(mode, [], { name: 'plan-mode' }))).toEqual([{ mode: 'auto' }]);
    // A transaction asking for it (the engine's pass, actors' results) plans every statement once.
    expect(await db.transaction((tx) => Promise.all([tx.query(mode), tx.query(mode, [], { name: 'plan-mode' })]), { plans: 'generic' })).toEqual([[{ mode: 'force_generic_plan' }], [{ mode: 'force_generic_plan' }]]);
  });
});

describe('a commit sent behind the last statement (commitBehind)', () => {
  it('commits that statement with the rest once both are answered; one that fails rolls all back, and the transaction rejects with its error', async (ctx) => {
    if (!tdb.url) {
      console.log('skipped: commitBehind is PostgreSQL\'s (a pipelined commit); on PGlite a transaction has none');
      await db.transaction(async (tx) => expect(tx.commitBehind).toBeUndefined());
      return ctx.skip();
    }
    // The statement is still in flight when the transaction's function returns; the transaction answers once it is committed.
    let answered = false;
    const out = await db.transaction(async (tx) => {
      await tx.query(`insert into piped values (200, 'first')`);
      tx.commitBehind?.(tx.query(`insert into piped values (201, 'behind') returning id`).then((rows) => (answered = rows.length === 1)));
      return 'done';
    });
    expect(out).toBe('done');
    expect(answered).toBe(true);
    expect(await db.query<{ id: number }>('select id from piped where id >= 200 order by id')).toEqual([{ id: 200 }, { id: 201 }]);
    // A failing last statement: the commit sent behind it ends the transaction as a rollback.
    await expect(
      db.transaction(async (tx) => {
        await tx.query(`insert into piped values (202, 'rolled back')`);
        tx.commitBehind?.(tx.query(`insert into piped values (200, 'a duplicate key')`));
        return 'not committed';
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await db.query<{ id: number }>('select id from piped where id >= 200 order by id')).toEqual([{ id: 200 }, { id: 201 }]);
    // The connections went back to the pool usable: a transaction on each commits.
    await Promise.all(Array.from({ length: 12 }, (_, i) => db.transaction((tx) => tx.query(`insert into piped values ($1, 'after')`, [300 + i]))));
    expect(await db.query<{ n: number }>(`select count(*)::int as n from piped where note = 'after'`)).toEqual([{ n: 12 }]);
  });
});
