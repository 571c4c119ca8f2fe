import { describe, expect, it } from 'vitest';
import { openTestDatabase } from './template';

describe('the write signal of a database handle', () => {
  it('moves after statements and transactions that wrote, and not after reads or an update or delete that matched no row', async () => {
    // The run's database: a PGlite copy of the template, or a PostgreSQL database of its own (TEST_DATABASE_URL).
    const { db, dispose } = await openTestDatabase();
    try {
      await db.exec('create table t (id int primary key, v text)');
      let v = db.writes.version;
      const moved = () => {
        const now = db.writes.version;
        const did = now !== v;
        v = now;
        return did;
      };
      await db.query('select * from t');
      expect(moved()).toBe(false);
      await db.query(`insert into t values (1, 'a')`);
      expect(moved()).toBe(true);
      await db.query(`update t set v = 'b' where id = 2`);
      expect(moved()).toBe(false);
      await db.query(`delete from t where id = 2`);
      expect(moved()).toBe(false);
      await db.query(`insert into t values (1, 'a') on conflict do nothing`);
      expect(moved()).toBe(false);
      await db.query(`update t set v = 'b' where id = 1`);
      expect(moved()).toBe(true);
      // A statement whose row count does not say what it wrote counts as a write.
      await db.query(`with x as (update t set v = 'c' where id = 1 returning id) select count(*) from x`);
      expect(moved()).toBe(true);
      await db.transaction(async (tx) => {
        await tx.query(`update t set v = 'd' where id = 9`);
      });
      expect(moved()).toBe(false);
      await db.transaction(async (tx) => {
        await tx.query(`update t set v = 'd' where id = 1`);
      });
      expect(moved()).toBe(true);
    } finally {
      await dispose();
    }
  });
});
