/**
 * Two transactions that wait on each other: PostgreSQL ends one (deadlock) and the director runs it
 * again, so both callers see their writes committed instead of a 500. Concurrent job creation and
 * engine updates meet this way on the rows the rollup and status-count triggers keep.
 */
import { describe, expect, it } from 'vitest';
import { retryingConflicts } from '../../server/db';
import { openTestDatabase } from './template';

describe('conflicting transactions on PostgreSQL', () => {
  it('a deadlock or serialization failure is run again; any other error is thrown at once', async () => {
    let calls = 0;
    const flaky = () => {
      calls++;
      if (calls < 3) return Promise.reject(Object.assign(new Error('deadlock detected'), { code: calls === 1 ? '40P01' : '40001' }));
      return Promise.resolve('done');
    };
    await expect(retryingConflicts(flaky)).resolves.toBe('done');
    expect(calls).toBe(3);

    let other = 0;
    const broken = () => {
      other++;
      return Promise.reject(Object.assign(new Error('duplicate key'), { code: '23505' }));
    };
    await expect(retryingConflicts(broken)).rejects.toThrow('duplicate key');
    expect(other).toBe(1);

    let always = 0;
    const stuck = () => {
      always++;
      return Promise.reject(Object.assign(new Error('deadlock detected'), { code: '40P01' }));
    };
    await expect(retryingConflicts(stuck, 3)).rejects.toThrow('deadlock detected');
    expect(always).toBe(3);
  });

  it('two transactions locking two rows in opposite order both commit', async (ctx) => {
    if (!process.env.TEST_DATABASE_URL) {
      console.log('skipped: deadlocks need PostgreSQL (TEST_DATABASE_URL); PGlite runs one transaction at a time');
      ctx.skip();
    }
    const { db, dispose } = await openTestDatabase();
    try {
      await db.exec(`create table pair (id int primary key, n int not null); insert into pair values (1, 0), (2, 0)`);
      // Each transaction takes its first row, then waits until the other has taken its own: a sure deadlock.
      let arrived = 0;
      let release!: () => void;
      const bothHoldOne = new Promise<void>((r) => (release = r));
      let attempts = 0;
      const crossing = (first: number, second: number) =>
        db.transaction(async (tx) => {
          attempts++;
          await tx.query('update pair set n = n + 1 where id = $1', [first]);
          if (++arrived === 2) release();
          await bothHoldOne;
          await tx.query('update pair set n = n + 1 where id = $1', [second]);
        });
      await Promise.all([crossing(1, 2), crossing(2, 1)]);
      expect(attempts).toBe(3);
      expect(await db.query('select id, n from pair order by id')).toEqual([{ id: 1, n: 2 }, { id: 2, n: 2 }]);
    } finally {
      await dispose();
    }
  });
});
