/**
 * PGlite on a thread of its own, as the director opens it (server/db/pglite-remote.ts): the same answers,
 * errors and transactions as PGlite on the calling thread, which the other server tests use.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPgliteThread, type PgliteDb } from '../../server/db/index';

let db: PgliteDb;
beforeAll(async () => {
  db = await openPgliteThread(undefined);
  await db.exec('create table items (id int primary key, note text)');
}, 120_000);
afterAll(async () => {
  await db?.close();
});

it('answers rows of every kind, named statements, and PostgreSQL errors with their code', async () => {
  const [row] = await db.query<{ at: Date; bytes: Uint8Array; doc: { x: number }; big: number }>(
    "select timestamptz '2026-11-29 10:00:00+00' as at, $1::bytea as bytes, $2::jsonb as doc, 9007199254740991::int8 as big",
    [Buffer.from('hi'), { x: 1 }],
  );
  expect(row?.at).toEqual(new Date('2026-11-29T10:00:00Z'));
  expect(Buffer.from(row?.bytes ?? []).toString()).toBe('hi');
  expect(row?.doc).toEqual({ x: 1 });
  expect(await db.query('select $1::int + 1 as n', [41], { name: 'plus-one' })).toEqual([{ n: 42 }]);
  expect(await db.query('select $1::int + 1 as n', [1], { name: 'plus-one' })).toEqual([{ n: 2 }]);
  await db.query('insert into items values (1, $1)', ['first']);
  const refused = await db.query('insert into items values (1, $1)', ['again']).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(Error);
  expect(refused).toMatchObject({ code: '23505', constraint: 'items_pkey', message: expect.stringContaining('duplicate key') });
  // Its stack names the code that ran the statement, not only the thread's answer.
  async function insertTwice() {
    await db.query('insert into items values (1, $1)', ['again']);
  }
  expect(((await insertTwice().catch((e: unknown) => e)) as Error).stack).toContain('insertTwice');
  // A parameter that cannot cross the threads fails its own statement, and the next one runs.
  await expect(db.query('select $1::text', [() => 1])).rejects.toThrow();
  expect(await db.query('select note from items where id = 1')).toEqual([{ note: 'first' }]);
});

it('commits and rolls back transactions, one at a time, and counts their writes once they end', async () => {
  const before = db.writes.version;
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const order: string[] = [];
  const first = db.transaction(async (tx) => {
    await tx.query('insert into items values (2, $1)', ['in a transaction']);
    order.push('first wrote');
    await held;
    order.push('first ends');
  });
  // A statement outside the transaction waits for it, as on PGlite itself (one session).
  await new Promise((r) => setImmediate(r));
  const outside = db.query<{ n: number }>('select count(*)::int as n from items').then((rows) => {
    order.push('outside read');
    return rows[0]?.n;
  });
  while (!order.includes('first wrote')) await new Promise((r) => setImmediate(r));
  expect(db.writes.version).toBe(before);
  release();
  await first;
  expect(await outside).toBe(2);
  expect(order).toEqual(['first wrote', 'first ends', 'outside read']);
  expect(db.writes.version).toBe(before + 1);

  const failed = await db
    .transaction(async (tx) => {
      await tx.query('insert into items values (3, $1)', ['rolled back']);
      throw new Error('the caller gave up');
    })
    .catch((e: Error) => e.message);
  expect(failed).toBe('the caller gave up');
  expect(await db.query('select id from items order by id')).toEqual([{ id: 1 }, { id: 2 }]);
  // A statement that failed inside leaves the transaction aborted: its end is a rollback, as on PGlite.
  await expect(
    db.transaction(async (tx) => {
      await tx.query('insert into items values (4, $1)', ['kept?']);
      await tx.query('insert into items values (1, $1)', ['duplicate']).catch(() => undefined);
    }),
  ).rejects.toThrow(/rolled back/);
  expect(await db.query('select id from items order by id')).toEqual([{ id: 1 }, { id: 2 }]);
});

it('sends a commit behind a statement still in flight: kept when it succeeds, its error and nothing kept when it fails', async () => {
  await db.transaction(async (tx) => {
    expect(tx.commitBehind).toBeTypeOf('function');
    await tx.query('insert into items values (10, $1)', ['before']);
    tx.commitBehind?.(tx.query('insert into items values (11, $1)', ['behind']));
  });
  expect(await db.query('select id from items where id >= 10 order by id')).toEqual([{ id: 10 }, { id: 11 }]);
  const failed = await db
    .transaction(async (tx) => {
      await tx.query('insert into items values (12, $1)', ['kept?']);
      tx.commitBehind?.(tx.query('insert into items values (10, $1)', ['a duplicate']));
    })
    .catch((e: unknown) => e);
  expect(failed).toMatchObject({ code: '23505' });
  expect(await db.query('select id from items where id >= 10 order by id')).toEqual([{ id: 10 }, { id: 11 }]);
  await db.query('delete from items where id >= 10');
});

it('dumps its data directory for another to start from, and refuses statements once closed', async () => {
  const copy = await openPgliteThread(undefined, await db.dumpDataDir());
  let stoppedEarly = false;
  void copy.stopped?.then(() => (stoppedEarly = true));
  expect(await copy.query('select id, note from items order by id')).toEqual([
    { id: 1, note: 'first' },
    { id: 2, note: 'in a transaction' },
  ]);
  await copy.close();
  await expect(copy.query('select 1')).rejects.toThrow(/The database stopped/);
  await new Promise((r) => setImmediate(r));
  // Closing is no failure: `stopped` settles only when the thread ends on its own.
  expect(stoppedEarly).toBe(false);
}, 120_000);

it('a database that cannot start fails its opening with the reason', async () => {
  await expect(openPgliteThread('/dev/null/vigil')).rejects.toThrow(/ENOTDIR/);
});

it('creates a new data directory on disk (on a thread of its own, then ended) and opens it again at the next start', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-pglite-thread-'));
  try {
    const first = await openPgliteThread(dir);
    expect(fs.existsSync(path.join(dir, 'pglite', 'PG_VERSION'))).toBe(true);
    await first.exec('create table kept (v text)');
    await first.query('insert into kept values ($1)', ['across starts']);
    await first.close();
    const again = await openPgliteThread(dir);
    expect(await again.query('select v from kept')).toEqual([{ v: 'across starts' }]);
    await again.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
