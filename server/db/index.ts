import { startPglite, type PgliteStatements } from './pglite';
import { startPgliteThread } from './pglite-remote';
import { WriteSignal, isWrite, touchesAuth } from './write-signal';

/** The one database interface of the director: PGlite by default, PostgreSQL when DATABASE_URL is set. */
export interface Db {
  readonly kind: 'pglite' | 'postgres';
  /** Moves after each write committed through this handle (shared by its transactions). */
  readonly writes: WriteSignal;
  /**
   * `opts.name`: on PostgreSQL a prepared statement of that name on each connection, parsed once and
   * planned once (a generic plan; in a transaction without `plans: 'generic'`, after five runs when a
   * generic plan costs no more): for a hot statement whose plan does not depend on its parameters (a row
   * by id), where planning is most of its time. One name, one text.
   */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], opts?: { name?: string }): Promise<T[]>;
  /** Runs several statements (no parameters), as migrations need. */
  exec(sql: string): Promise<void>;
  /**
   * `opts.plans: 'generic'`: on PostgreSQL every statement of the transaction is planned once per
   * connection, as named statements outside transactions are (the engine's scheduling pass, actors'
   * results: the same shapes thousands of times). Other transactions plan each statement for its values.
   */
  transaction<T>(fn: (tx: Db) => Promise<T>, opts?: { plans?: 'generic' }): Promise<T>;
  /**
   * Inside a PostgreSQL transaction, or one of PGlite on its own thread (undefined elsewhere: await the
   * statement instead): `last` is the
   * statement the transaction issued last, still in flight; the commit is sent behind it without waiting
   * for its answer (pipeline: one round trip less), and the transaction answers once both are in. A
   * failed `last` fails the transaction (the server then ends it with a rollback, not a commit).
   */
  commitBehind?(last: Promise<unknown>): void;
  /**
   * A director's PostgreSQL pools (PoolOptions keep; undefined for other pools and on PGlite, which has
   * one connection): runs `sql` (several statements, no parameters) on every connection they keep, all at
   * once, each connection then going back to its pool. For what each server process does once for itself
   * (compiling a function, planning).
   */
  onEveryConnection?(sql: string): Promise<void>;
  /**
   * PGlite on its own thread (openPgliteThread): settles with the reason if that thread ends before
   * `close` (PGlite failed); every statement then fails with it.
   */
  stopped?: Promise<Error>;
  close(): Promise<void>;
}

/** A PGlite database, which can also dump its whole data directory (an uncompressed tarball). */
export interface PgliteDb extends Db {
  dumpDataDir(): Promise<Blob>;
}

/**
 * Opens PGlite in `dataDir` (in memory when undefined) on this thread. `from` starts it from a data
 * directory dumped by `dumpDataDir` instead of running initdb (the server tests' migrated template).
 */
export async function openPglite(dataDir: string | undefined, from?: Blob): Promise<PgliteDb> {
  return pgliteDb(await startPglite(dataDir, from));
}

/**
 * Opens PGlite in `dataDir` on a thread of its own (pglite-remote.ts), as the director does: PostgreSQL's
 * work then runs beside the director's JavaScript.
 */
export async function openPgliteThread(dataDir: string | undefined, from?: Blob): Promise<PgliteDb> {
  const pg = await startPgliteThread(dataDir, from);
  return pgliteDb(pg, pg.stopped);
}

/** The Db interface over PGlite's statements, here or on PGlite's thread. */
function pgliteDb<Tx>(pg: PgliteStatements<Tx>, stopped?: Promise<Error>): PgliteDb {
  const writes = new WriteSignal();
  // onWrite runs once the statement is done: outside a transaction that is its commit.
  const wrap = (tx: Tx | undefined, onWrite: (sql: string) => void): Pick<Db, 'query' | 'exec'> => ({
    async query<T>(sql: string, params: unknown[] = [], opts: { name?: string } = {}) {
      const res = await pg.query<T>(sql, params, opts.name, tx);
      if (isWrite(sql, res.affectedRows)) onWrite(sql);
      return res.rows;
    },
    async exec(sql: string) {
      await pg.exec(sql, tx);
      onWrite(sql);
    },
  });
  const db: PgliteDb = {
    kind: 'pglite',
    writes,
    ...wrap(undefined, (sql) => writes.bump(touchesAuth(sql))),
    async transaction(fn) {
      const wrote = { any: false, auth: false };
      try {
        return await pg.transaction((tx, behind) =>
          fn({ kind: 'pglite', writes, ...wrap(tx, (sql) => noteWrite(wrote, sql)), transaction: (inner) => inner(db), ...(behind ? { commitBehind: behind } : {}), close: async () => {} }),
        );
      } finally {
        if (wrote.any) writes.bump(wrote.auth);
      }
    },
    ...(stopped ? { stopped } : {}),
    close: () => pg.close(),
    dumpDataDir: () => pg.dumpDataDir(),
  };
  return db;
}

/**
 * Takes `size` connections of a pool at once (held together, so each is a different one, opened if the
 * pool has fewer), runs `fn` on each, and gives them back to the pool.
 */
async function withEveryConnection(p: import('pg').Pool, size: number, fn: (c: import('pg').PoolClient) => Promise<unknown>): Promise<void> {
  const clients = await Promise.all(Array.from({ length: size }, () => p.connect()));
  try {
    await Promise.all(clients.map(fn));
  } finally {
    for (const c of clients) c.release();
  }
}

/** Notes a write inside a transaction; the signal moves once the transaction has ended. */
function noteWrite(wrote: { any: boolean; auth: boolean }, sql: string): void {
  wrote.any = true;
  if (!wrote.auth && touchesAuth(sql)) wrote.auth = true;
}

/**
 * PostgreSQL ends one of two transactions that wait on each other (deadlock, 40P01) or that cannot be
 * serialized (40001), and the other goes on. Rolled back, the loser holds no partial write, so running
 * it again (a few times, after a short random pause) is the documented remedy. Concurrent job creation
 * and engine updates meet on the rollup and status-count rows their triggers keep, and would otherwise
 * answer 500. Inside a transaction statements are never retried one by one: the whole transaction is.
 */
export async function retryingConflicts<T>(run: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      if (attempt >= attempts || (code !== '40P01' && code !== '40001')) throw e;
      await new Promise((resolve) => setTimeout(resolve, 10 * attempt + Math.random() * 40));
    }
  }
}

/**
 * How a process uses its pool. A director keeps its connections (`keep`): it opens them all at start and
 * never closes one for being idle. A new connection costs the server a process, its catalog caches and
 * the plans of the triggers' statements, each built again by the first statements that need them; pg's
 * default closed a connection after 10 s idle, so each job after a pause opened new ones in its first
 * wave (bench:engine, 50 actors: the first wave's targets were ready 98-100 ms after their work was
 * created, 74-87 ms with the connections kept).
 */
export interface PoolOptions {
  keep?: boolean;
  /** Connections (default DATABASE_POOL_MAX, else 10); named statements outside transactions, and transactions with `plans: 'generic'`, have half as many more. */
  max?: number;
}

export async function openPostgres(url: string, opts: PoolOptions = {}): Promise<Db> {
  const { default: pg } = await import('pg');
  // Keep bigint ids and counts as JS numbers: they stay far below 2^53 here.
  pg.types.setTypeParser(20, (v: string) => Number(v));
  // DATABASE_POOL_MAX: connections per director process (default 10), and half as many more for named
  // statements (below); an actor's long poll holds none while it waits.
  // jit=off: the report statements (many small index probes, estimated above jit_above_cost) spent most
  // of their time compiling them (about 130 ms of a 150 ms time series on 100,000 jobs); none of the
  // director's statements scans enough for JIT to pay off.
  // pipeline: a client writes each statement at once, without waiting for the one before to be answered;
  // the server still runs them in order, each with its own Sync (an error ends only its statement, and
  // inside a transaction the ones after fail as aborted). Statements a caller issues together
  // (Promise.all in a transaction) then cost one round trip, and `begin` travels with the first of them.
  const max = opts.max ?? (Number(process.env.DATABASE_POOL_MAX) > 0 ? Number(process.env.DATABASE_POOL_MAX) : 10);
  const open = async (size: number, options: string) => {
    const p = new pg.Pool({ connectionString: url, max: size, options, pipeline: true, ...(opts.keep ? { idleTimeoutMillis: 0 } : {}) });
    // An idle connection the server ends (a restart, pg_terminate_backend, a dropped database) is an
    // 'error' event of the pool: without a listener it would end the process. The pool drops that
    // connection and opens another at the next query, which fails with the reason if the server is gone.
    p.on('error', (e: Error & { code?: string }) => console.error(JSON.stringify({ level: 'warn', msg: 'PostgreSQL closed an idle connection', code: e.code, error: e.message })));
    await p.query('select 1');
    if (opts.keep) await withEveryConnection(p, size, async () => {});
    return p;
  };
  // Named statements outside transactions (the engine's and the actors' calls, repeated thousands of times
  // with the same shape), and transactions asking for it, run on `generic` connections, which plan each
  // statement once (force_generic_plan): PostgreSQL chose a custom plan at each of their calls, and
  // planning was a third of the readiness statement's time (pg_stat_statements with track_planning,
  // bench:engine:pg). Other statements keep custom plans: a one-off list or report query is planned for
  // its own values (a date range, a filter). Both sets open together.
  const genericMax = Math.max(2, Math.ceil(max / 2));
  const [pool, generic] = await Promise.all([open(max, '-c jit=off'), open(genericMax, '-c jit=off -c plan_cache_mode=force_generic_plan')]);
  type Client = { query: (sql: string | { name: string; text: string; values: unknown[] }, params?: unknown[]) => Promise<{ rows: unknown[]; rowCount: number | null }> };
  const writes = new WriteSignal();
  const wrap = (c: Client, onWrite: (sql: string) => void) => ({
    async query<T>(sql: string, params: unknown[] = [], opts: { name?: string } = {}) {
      const res = await (opts.name ? c.query({ name: opts.name, text: sql, values: params }) : c.query(sql, params));
      if (isWrite(sql, res.rowCount)) onWrite(sql);
      return res.rows as T[];
    },
    async exec(sql: string) {
      await c.query(sql);
      onWrite(sql);
    },
  });
  const onPool = wrap(pool, (sql) => writes.bump(touchesAuth(sql)));
  const onGeneric = wrap(generic, (sql) => writes.bump(touchesAuth(sql)));
  async function inTransaction<T>(fn: (tx: Db) => Promise<T>, plans: 'generic' | undefined): Promise<T> {
    const client = await (plans === 'generic' ? generic : pool).connect();
    const wrote = { any: false, auth: false };
    // Not awaited: written together with the transaction's first statement (pipeline). A clean pooled
    // connection cannot refuse `begin` while its next statement succeeds; were it refused, the commit is not sent.
    const begun = client.query('begin');
    // Handled here as well: a refusal arrives before the first statement's answer, while nothing awaits it yet.
    begun.catch(() => undefined);
    // Statements the transaction left in flight for its commit to follow (commitBehind).
    const behind: Promise<unknown>[] = [];
    try {
      const inner: Db = {
        kind: 'postgres',
        writes,
        ...wrap(client, (sql) => noteWrite(wrote, sql)),
        transaction: (f) => f(inner),
        commitBehind: (last) => {
          last.catch(() => undefined);
          behind.push(last);
        },
        close: async () => {},
      };
      const out = await fn(inner);
      await begun;
      const committed = client.query('commit');
      committed.catch(() => undefined);
      await Promise.all(behind);
      await committed;
      return out;
    } catch (e) {
      await client.query('rollback');
      throw e;
    } finally {
      client.release();
      if (wrote.any) writes.bump(wrote.auth);
    }
  }
  const db: Db = {
    kind: 'postgres',
    writes,
    query<T>(sql: string, params?: unknown[], opts?: { name?: string }) {
      return retryingConflicts(() => (opts?.name ? onGeneric : onPool).query<T>(sql, params, opts));
    },
    exec: (sql) => retryingConflicts(() => onPool.exec(sql)),
    transaction: (fn, opts) => retryingConflicts(() => inTransaction(fn, opts?.plans)),
    // Only for pools that keep their connections: elsewhere it would open every one (the tests' pools open them as needed).
    ...(opts.keep
      ? {
          onEveryConnection: async (sql: string) => {
            for (const [p, size] of [[pool, max], [generic, genericMax]] as const) await withEveryConnection(p, size, (c) => c.query(sql));
          },
        }
      : {}),
    close: async () => {
      await Promise.all([pool.end(), generic.end()]);
    },
  };
  return db;
}

export function openDb(opts: { databaseUrl?: string | undefined; dataDir?: string | undefined }, pool: PoolOptions = {}): Promise<Db> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl, pool) : openPgliteThread(opts.dataDir);
}
