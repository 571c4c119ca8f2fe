import type { Db } from '../server/db/index';

/**
 * A diagnostic wrapper of a database handle for benchmarks (BENCH_SQL_STATS=1): counts each statement
 * (by its text, whitespace folded; a named statement stays named) and the milliseconds it took, inside transactions too, and prints the
 * costliest. On PGlite a statement outside a transaction also counts the time it waited for its turn.
 */
export function withSqlStats(db: Db): { db: Db; print: (top?: number, actions?: number) => void } {
  const stats = new Map<string, { n: number; ms: number; tx: number }>();
  const note = (sql: string, ms: number, inTx: boolean) => {
    const key = sql.replace(/\s+/g, ' ').trim().slice(0, 140);
    const s = stats.get(key) ?? { n: 0, ms: 0, tx: 0 };
    s.n++;
    s.ms += ms;
    if (inTx) s.tx++;
    stats.set(key, s);
  };
  let transactions = 0;
  const wrap = (inner: Db, inTx: boolean): Db => ({
    ...inner,
    kind: inner.kind,
    writes: inner.writes,
    async query<T>(sql: string, params?: unknown[], opts?: { name?: string }) {
      const t0 = performance.now();
      try {
        return await inner.query<T>(sql, params, opts);
      } finally {
        note(sql, performance.now() - t0, inTx);
      }
    },
    transaction<T>(fn: (tx: Db) => Promise<T>, opts?: { plans?: 'generic' }) {
      transactions++;
      return inner.transaction((tx) => fn(wrap(tx, true)), opts);
    },
    exec: (sql) => inner.exec(sql),
    close: () => inner.close(),
  });
  return {
    db: wrap(db, false),
    /** `actions`: also the statements per action, with each transaction's begin and commit counted as two more. */
    print(top = 25, actions?: number) {
      const rows = [...stats].sort((a, b) => b[1].ms - a[1].ms);
      const n = rows.reduce((s, [, v]) => s + v.n, 0);
      const ms = rows.reduce((s, [, v]) => s + v.ms, 0);
      console.log(`  SQL: ${n} statements (${transactions} transactions), ${ms.toFixed(0)} ms in all; the costliest:`);
      if (actions) console.log(`  per action: ${(n / actions).toFixed(1)} statements, ${((n + 2 * transactions) / actions).toFixed(1)} round trips with begin and commit`);
      for (const [sql, v] of rows.slice(0, top)) console.log(`  ${String(v.n).padStart(6)} x ${(v.ms / v.n).toFixed(2).padStart(7)} ms = ${v.ms.toFixed(0).padStart(6)} ms${v.tx ? ' (tx)' : '     '}  ${sql}`);
    },
  };
}
