/**
 * The PGlite databases of one Vitest worker, each at the tests' starting point when a file gets it.
 *
 * Opening a copy of the run's template (template.ts) costs about 2.5 s of CPU (the WASM start and the
 * 44 MB data directory); a file that is done with its database gives it back, and the worker's next file
 * (the server project does not isolate files: this module outlives them) gets it brought back to the
 * template's state instead, in about 0.1 s:
 * - the file's temporary tables are dropped;
 * - every table is emptied and the template's rows put back as they were (ids too), triggers off;
 * - every sequence is set back to the template's value.
 * A database whose schema a test changed (a table it created, a trigger it dropped: the catalogue's
 * fingerprint differs), or that cannot be reset, is closed and a new copy opened instead.
 *
 * A file's handle stops working once the file gave it back (its queries fail as on a closed PGlite), so
 * work a file left running can never write into the next file's rows.
 */
import type { Db, PgliteDb } from '../../server/db/index';

/** User schemas: everything but PostgreSQL's own. */
const USER_NAMESPACE = `nspname not like 'pg\\_%' and nspname <> 'information_schema'`;

/** One text for the schema: schemas, relations, columns, defaults, constraints, triggers, functions, enums, extensions. */
const FINGERPRINT = `
select md5(string_agg(x, E'\\n' order by x)) as fingerprint from (
  select 'n:' || nspname from pg_namespace where ${USER_NAMESPACE}
  union all
  select 'c:' || c.oid::regclass::text || ':' || c.relkind::text from pg_class c join pg_namespace n on n.oid = c.relnamespace where ${USER_NAMESPACE}
  union all
  select 'a:' || c.oid::regclass::text || ':' || a.attname || ':' || format_type(a.atttypid, a.atttypmod) || ':' || a.attnotnull || ':' || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
    from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
    left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where ${USER_NAMESPACE} and a.attnum > 0 and not a.attisdropped
  union all
  select 't:' || tgrelid::regclass::text || ':' || tgname || ':' || tgenabled::text from pg_trigger where not tgisinternal
  union all
  select 'k:' || conrelid::regclass::text || ':' || conname || ':' || pg_get_constraintdef(k.oid) from pg_constraint k join pg_namespace n on n.oid = k.connamespace where ${USER_NAMESPACE}
  union all
  select 'f:' || p.oid::regprocedure::text || ':' || md5(p.prosrc) from pg_proc p join pg_namespace n on n.oid = p.pronamespace where ${USER_NAMESPACE}
  union all
  select 'y:' || enumtypid::regtype::text || ':' || enumlabel from pg_enum
  union all
  select 'e:' || extname || ':' || extversion from pg_extension
) s(x)`;

const TABLES = `select c.oid::regclass::text as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.relkind = 'r' and ${USER_NAMESPACE} order by 1`;

/** The columns an insert may name (not generated ones), and whether one is an identity `generated always`. */
const INSERTABLE = `
select string_agg(quote_ident(attname), ', ' order by attnum) as columns, coalesce(bool_or(attidentity = 'a'), false) as always
  from pg_attribute where attrelid = $1::regclass and attnum > 0 and not attisdropped and attgenerated = ''`;

const SEQUENCES = `select format('%I.%I', schemaname, sequencename) as name, coalesce(last_value, start_value)::text as value, last_value is not null as called from pg_sequences`;

interface Snapshot {
  fingerprint: string;
  /** Every table, as `truncate` names them. */
  tables: string[];
  /** The tables that hold rows in the template: an insert of them from their rows as JSON. */
  rows: { insert: string; json: string }[];
  sequences: { name: string[]; value: string[]; called: boolean[] };
}

async function fingerprintOf(db: Db): Promise<string> {
  const [row] = await db.query<{ fingerprint: string }>(FINGERPRINT);
  return row?.fingerprint ?? '';
}

/** What a database at the template's state holds (read from a copy no test has used). */
async function snapshotOf(db: Db): Promise<Snapshot> {
  const tables = (await db.query<{ name: string }>(TABLES)).map((t) => t.name);
  const rows: Snapshot['rows'] = [];
  for (const table of tables) {
    const [held] = await db.query<{ json: string | null }>(`select json_agg(t)::text as json from ${table} t`);
    if (!held?.json) continue;
    const [cols] = await db.query<{ columns: string; always: boolean }>(INSERTABLE, [table]);
    if (!cols) continue;
    const overriding = cols.always ? 'overriding system value ' : '';
    rows.push({ insert: `insert into ${table} (${cols.columns}) ${overriding}select ${cols.columns} from json_populate_recordset(null::${table}, $1::json)`, json: held.json });
  }
  const seqs = await db.query<{ name: string; value: string; called: boolean }>(SEQUENCES);
  return {
    fingerprint: await fingerprintOf(db),
    tables,
    rows,
    sequences: { name: seqs.map((q) => q.name), value: seqs.map((q) => q.value), called: seqs.map((q) => q.called) },
  };
}

/** Brings a database some files used back to the template's state; false when it cannot (then it is closed). */
async function resetTo(db: Db, snap: Snapshot): Promise<boolean> {
  try {
    // Temporary tables go (not `discard all`: it would also reset PGlite's search_path).
    await db.exec('discard temp');
    if ((await fingerprintOf(db)) !== snap.fingerprint) return false;
    await db.transaction(async (tx) => {
      // Triggers (the rollups, foreign keys) stay off while the template's rows go back as they were.
      await tx.exec(`set local session_replication_role = replica; truncate ${snap.tables.join(', ')} restart identity`);
      for (const r of snap.rows) await tx.query(r.insert, [r.json]);
      await tx.query('select setval(s::regclass, v::bigint, c) from unnest($1::text[], $2::text[], $3::bool[]) as x(s, v, c)', [snap.sequences.name, snap.sequences.value, snap.sequences.called]);
    });
    return true;
  } catch {
    return false;
  }
}

/** A handle on `inner` that works until the lease ends, then fails as a closed PGlite does. */
function leased(inner: Db): { db: Db; end(): void } {
  let ended = false;
  const check = () => {
    if (ended) throw new Error('PGlite is closed');
  };
  const wrap = (d: Db, close: () => Promise<void>): Db => ({
    kind: d.kind,
    writes: d.writes,
    async query<T>(sql: string, params?: unknown[], opts?: { name?: string }) {
      check();
      return d.query<T>(sql, params, opts);
    },
    async exec(sql: string) {
      check();
      return d.exec(sql);
    },
    async transaction<T>(fn: (tx: Db) => Promise<T>, opts?: { plans?: 'generic' }) {
      check();
      return d.transaction((tx) => fn(wrap(tx, () => tx.close())), opts);
    },
    close,
  });
  return {
    db: wrap(inner, async () => void (ended = true)),
    end: () => void (ended = true),
  };
}

/** Databases kept beyond this many idle ones are closed (a file that opens several at once). */
const MAX_IDLE = 2;

export class PglitePool {
  private snapshot: Promise<Snapshot> | undefined;
  /** Databases files gave back, not reset yet (a worker that runs no further file never pays for it). */
  private idle: PgliteDb[] = [];

  constructor(private readonly open: () => Promise<PgliteDb>) {}

  /** A database at the template's state for one file, and its return to the pool. */
  async lease(): Promise<{ db: Db; release: () => Promise<void> }> {
    const inner = await this.take();
    const lease = leased(inner);
    let released = false;
    return {
      db: lease.db,
      release: async () => {
        lease.end();
        if (released) return;
        released = true;
        if (this.idle.length < MAX_IDLE) this.idle.push(inner);
        else await inner.close();
      },
    };
  }

  private async take(): Promise<PgliteDb> {
    for (let used = this.idle.pop(); used; used = this.idle.pop()) {
      if (this.snapshot && (await resetTo(used, await this.snapshot))) return used;
      await used.close().catch(() => undefined);
    }
    const fresh = await this.open();
    // The first copy is read before any test uses it: the template's state.
    this.snapshot ??= snapshotOf(fresh);
    await this.snapshot;
    return fresh;
  }
}
