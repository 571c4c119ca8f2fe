import fs from 'node:fs';
import path from 'node:path';

/** A statement's answer: its rows, and the rows it wrote (undefined for a read). */
export interface PgliteAnswer<T> {
  rows: T[];
  affectedRows?: number | undefined;
}

/**
 * PGlite's statements as the director issues them, whether PGlite runs on the calling thread or on a
 * thread of its own (pglite-thread.ts). `Tx` names an open transaction: PGlite's own transaction object
 * here, a number across the threads.
 */
export interface PgliteStatements<Tx> {
  /** `name`: a named statement (namedStatements below); `tx`: inside that transaction. */
  query<T>(sql: string, params: unknown[], name: string | undefined, tx: Tx | undefined): Promise<PgliteAnswer<T>>;
  exec(sql: string, tx: Tx | undefined): Promise<void>;
  /**
   * Commits when `fn` resolves, rolls back when it throws. `behind`, where offered (PGlite's thread):
   * the commit is sent behind that statement, still in flight (Db.commitBehind).
   */
  transaction<T>(fn: (tx: Tx, behind?: (last: Promise<unknown>) => void) => Promise<T>): Promise<T>;
  /** The whole data directory, after a checkpoint (an uncompressed tarball). */
  dumpDataDir(): Promise<Blob>;
  close(): Promise<void>;
}

type PGliteInstance = InstanceType<typeof import('@electric-sql/pglite').PGlite>;
export type PgliteTransaction = Parameters<Parameters<PGliteInstance['transaction']>[0]>[0];

/**
 * PGlite's buffer cache: 32 MB instead of PostgreSQL's 128 MB. It lives in the director's WebAssembly
 * memory, so the pages it fills stay in the director's RSS. bench:engine (PGlite, two jobs of 500
 * actions): RSS at most 448 MB instead of 550-584, at the same 108-124 actions/s; bench:reports
 * (100,000 jobs on disk): report calls p99 43.7 ms against 44.2. Pages beyond it are read from the data
 * directory's files, which the system keeps cached.
 */
const PGLITE_SHARED_BUFFERS = '32MB';

/** Where PGlite keeps its files in a director's DATA_DIR. */
const pgliteDirOf = (dataDir: string): string => path.join(dataDir, 'pglite');

/** Whether PGlite has yet to create its database in `dataDir` (initdb, on its first start there). */
export function isNewPgliteDir(dataDir: string): boolean {
  return !fs.existsSync(path.join(pgliteDirOf(dataDir), 'PG_VERSION'));
}

/**
 * Starts PGlite in `dataDir` (in memory when undefined) on the calling thread. `from` starts it from a
 * data directory dumped by `dumpDataDir` instead of running initdb (the server tests' migrated template:
 * under 1 s instead of about 4).
 */
export async function startPglite(dataDir: string | undefined, from?: Blob): Promise<PgliteStatements<PgliteTransaction>> {
  const lib = await import('@electric-sql/pglite');
  const dir = dataDir ? pgliteDirOf(dataDir) : undefined;
  if (dir) fs.mkdirSync(dir, { recursive: true });
  // One options object: `new PGlite(undefined, options)` ignores its options (the data directory was
  // never loaded, and each copy ran initdb instead). PGlite's own start parameters, and a smaller
  // buffer cache (PGLITE_SHARED_BUFFERS).
  const startParams = [...lib.PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`];
  const pg = new lib.PGlite({ ...(dir ? { dataDir: dir } : {}), ...(from ? { loadDataDir: from } : {}), startParams });
  await pg.waitReady;
  const named = namedStatements(pg, lib);
  return {
    async query<T>(sql: string, params: unknown[], name: string | undefined, tx: PgliteTransaction | undefined) {
      if (name) return named.run<T>(name, sql, params, tx !== undefined);
      const res = await (tx ?? pg).query<T>(sql, params);
      return { rows: res.rows, affectedRows: res.affectedRows };
    },
    async exec(sql: string, tx: PgliteTransaction | undefined) {
      await (tx ?? pg).exec(sql);
    },
    transaction: (fn) => pg.transaction(fn),
    // After a checkpoint: a copy then starts from the data files as they are, not from a replay of the
    // write-ahead log, which moves every sequence up to 32 values past its last one.
    dumpDataDir: async () => {
      await pg.exec('checkpoint');
      return pg.dumpDataDir('none');
    },
    close: () => pg.close(),
  };
}

/**
 * Named statements on PGlite, as on PostgreSQL: parsed once (protocol Parse with a name), then only
 * bound and executed, and planned once when a generic plan costs no more (PostgreSQL's plan cache, after
 * five runs). PGlite's `query` parses, analyses and plans every statement anew; the engine's and the
 * actors' statements (the same few texts thousands of times) spent most of their time there.
 *
 * The messages go through `execProtocolStream` under PGlite's own locks, as its `query` does: the query
 * lock, and outside a transaction the transaction lock too (so a statement never lands inside another
 * caller's open transaction). A prepared statement outlives a rolled-back transaction (it belongs to the
 * session), so it is prepared once per database.
 */
function namedStatements(pg: PGliteInstance, lib: typeof import('@electric-sql/pglite')) {
  const { serialize } = lib.protocol;
  const prepared = new Map<string, { text: string; types: number[] }>();
  const send = (message: Uint8Array) => pg.execProtocolStream(message, { syncToFs: false });
  // Each exchange's messages go as one buffer: one call into PGlite's WebAssembly instead of one per message.
  // Each exchange ends with Sync: after an error PostgreSQL skips to it, so the session is ready again.
  const runLocked = async <T>(name: string, text: string, params: unknown[]): Promise<PgliteAnswer<T>> => {
    let statement = prepared.get(name);
    if (statement && statement.text !== text) throw new Error(`The statement name ${name} is already used for another text.`);
    if (!statement) {
      const described = await send(Buffer.concat([serialize.parse({ name, text, types: [] }), serialize.describe({ type: 'S', name }), serialize.sync()]));
      prepared.set(name, (statement = { text, types: lib.parse.parseDescribeStatementResults(described) }));
    }
    const types = statement.types;
    // As PGlite's query serializes its parameters: by the types PostgreSQL inferred for them.
    const values = params.map((v, i) => (v === null || v === undefined ? null : (pg.serializers[types[i] ?? 0]?.(v) ?? String(v))));
    const messages = await send(Buffer.concat([serialize.bind({ statement: name, values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]));
    const [res] = lib.parse.parseResults(messages, pg.parsers);
    return { rows: (res?.rows ?? []) as T[], affectedRows: res?.affectedRows };
  };
  return {
    run<T>(name: string, text: string, params: unknown[], inTransaction: boolean): Promise<PgliteAnswer<T>> {
      if (inTransaction) return pg._runExclusiveQuery(() => runLocked<T>(name, text, params));
      return pg._runExclusiveTransaction(() =>
        pg._runExclusiveQuery(async () => {
          const res = await runLocked<T>(name, text, params);
          await pg.syncToFs();
          return res;
        }),
      );
    },
  };
}
