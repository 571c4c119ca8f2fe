/**
 * Named statements (`db.query(sql, params, { name })`) behave as unnamed ones on both databases: the
 * same rows and types, errors with their codes and a session ready afterwards, transactions that see and
 * roll back their writes. On PGlite they are prepared once through PGlite's protocol (server/db/index.ts,
 * namedStatements); there a named statement outside a transaction must also wait for another caller's
 * open transaction instead of running inside it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/index';
import { openTestDatabase, type TestDatabase } from './template';

let t: TestDatabase;
let db: Db;

beforeAll(async () => {
  t = await openTestDatabase();
  db = t.db;
  // Not a temporary table: on PostgreSQL named statements outside transactions run on other connections.
  await db.exec(`create table named_probe (id serial primary key, label text not null unique, tags text[], doc jsonb, at timestamptz default now())`);
});

afterAll(async () => {
  await db?.exec('drop table if exists named_probe');
  await t?.dispose();
});

describe('named statements', () => {
  it('answer the rows and types an unnamed statement answers, with any parameters, run after run', async () => {
    const insert = `insert into named_probe (label, tags, doc) values ($1, $2, $3::jsonb) returning id, label, tags, doc, at`;
    const first = await db.query<{ id: number; label: string; tags: string[] | null; doc: unknown; at: Date }>(insert, ['one', ['a', 'b'], JSON.stringify({ n: 1 })], { name: 'probe-insert' });
    // More runs than PostgreSQL's five custom plans before it may choose a generic one.
    for (let i = 2; i <= 8; i++) await db.query(insert, [`n${i}`, null, null], { name: 'probe-insert' });
    expect(first[0]).toMatchObject({ label: 'one', tags: ['a', 'b'], doc: { n: 1 } });
    expect(first[0]?.at).toBeInstanceOf(Date);

    const select = `select id, label, tags, doc from named_probe where label = any($1::text[]) order by id`;
    const plain = await db.query(select, [['one', 'n8', 'none']]);
    const named = await db.query(select, [['one', 'n8', 'none']], { name: 'probe-select' });
    expect(named).toEqual(plain);
    expect(named.map((r) => r.label)).toEqual(['one', 'n8']);
    expect(await db.query(`select count(*)::int as n from named_probe where tags is null and doc is null`, [], { name: 'probe-nulls' })).toEqual([{ n: 7 }]);
    if (db.kind === 'pglite') {
      // Prepared once in PGlite's one session, and run eight times (PostgreSQL counts each run's plan).
      const [prepared] = await db.query<{ runs: number; from_sql: boolean }>(
        `select (generic_plans + custom_plans)::int as runs, from_sql from pg_prepared_statements where name = 'probe-insert'`,
      );
      expect(prepared).toEqual({ runs: 8, from_sql: false });
    }
  });

  it('an error keeps its code and the session answers the next statement, named or not', async () => {
    await expect(db.query(`insert into named_probe (label) values ($1)`, ['one'], { name: 'probe-duplicate' })).rejects.toMatchObject({ code: '23505' });
    await expect(db.query(`select 6 / $1::int as x`, [0], { name: 'probe-divide' })).rejects.toMatchObject({ code: '22012' });
    expect(await db.query(`select 6 / $1::int as x`, [2], { name: 'probe-divide' })).toEqual([{ x: 3 }]);
    expect(await db.query(`select 1 as one`)).toEqual([{ one: 1 }]);
  });

  it('inside a transaction they see its writes, and its rollback undoes theirs', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query(`insert into named_probe (label) values ($1)`, ['in-tx'], { name: 'probe-insert-label' });
        const seen = await tx.query(`select count(*)::int as n from named_probe where label = $1`, ['in-tx'], { name: 'probe-count' });
        expect(seen).toEqual([{ n: 1 }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await db.query(`select count(*)::int as n from named_probe where label = $1`, ['in-tx'], { name: 'probe-count' })).toEqual([{ n: 0 }]);
    // A failed statement aborts the transaction as an unnamed one does; the prepared statements outlive it.
    await expect(
      db.transaction(async (tx) => {
        await tx.query(`insert into named_probe (label) values ($1)`, ['one'], { name: 'probe-insert-label' });
      }),
    ).rejects.toMatchObject({ code: '23505' });
    await db.query(`insert into named_probe (label) values ($1)`, ['after'], { name: 'probe-insert-label' });
    expect(await db.query(`select count(*)::int as n from named_probe where label = $1`, ['after'], { name: 'probe-count' })).toEqual([{ n: 1 }]);
  });

  it('a name stands for one text', async () => {
    await db.query(`select 1 as x`, [], { name: 'probe-one-text' });
    await expect(db.query(`select 2 as x`, [], { name: 'probe-one-text' })).rejects.toThrow(/probe-one-text/);
  });

  it('PGlite: a named statement outside a transaction waits for another caller\'s open transaction', async (ctx) => {
    if (db.kind !== 'pglite') {
      console.log('skipped: PostgreSQL runs each transaction on a connection of its own');
      ctx.skip();
    }
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let inserted!: () => void;
    const didInsert = new Promise<void>((r) => (inserted = r));
    const tx = db.transaction(async (t) => {
      await t.query(`insert into named_probe (label) values ($1)`, ['uncommitted'], { name: 'probe-insert-label' });
      inserted();
      await held;
      throw new Error('roll back');
    });
    await didInsert;
    let answered = false;
    const outside = db.query<{ n: number }>(`select count(*)::int as n from named_probe where label = $1`, ['uncommitted'], { name: 'probe-count' }).then((rows) => {
      answered = true;
      return rows;
    });
    // The outside statement cannot run while the transaction is open: give it every chance to.
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(answered).toBe(false);
    release();
    await expect(tx).rejects.toThrow('roll back');
    expect(await outside).toEqual([{ n: 0 }]);
  });
});
