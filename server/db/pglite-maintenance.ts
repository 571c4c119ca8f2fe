import type { Db } from './index';
import { Repeater } from '../repeater';

/** How often the tables are looked at: PostgreSQL's autovacuum_naptime. */
const NAP_MS = 60_000;

/**
 * The tables due, by PostgreSQL's default autovacuum thresholds: vacuum when the dead rows pass 50 + 20%
 * of the table's rows, or the rows inserted since the last vacuum 1,000 + 20% (autovacuum_vacuum_* and
 * autovacuum_vacuum_insert_*); analyze when the rows changed since the last analyze pass 50 + 10%
 * (autovacuum_analyze_*). A table never analyzed counts as empty (reltuples -1).
 */
const DUE_TABLES_SQL = `
  select s.relname as table,
         (s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0) or s.n_ins_since_vacuum > 1000 + 0.2 * greatest(c.reltuples, 0)) as vacuum,
         s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0) as analyze
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid
   where s.schemaname = current_schema()
     and (s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0) or s.n_ins_since_vacuum > 1000 + 0.2 * greatest(c.reltuples, 0)
          or s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0))
   order by s.relname`;

export interface TableMaintained {
  table: string;
  vacuum: boolean;
  analyze: boolean;
}

/**
 * PostgreSQL's autovacuum, for a PGlite director: PGlite runs none. Without it a long-lived director's
 * tables kept every dead row version (the engine updates each job action and its work several times),
 * and were never analyzed, so the plans PGlite caches for the director's named statements stayed those
 * made for the tables as they were when it started: made on a nearly empty database, the results' group
 * commit hashed every open job action and the scheduling pass read every job, instead of looking their
 * rows up by key. An analyze makes PostgreSQL plan them again for the tables as they are. bench:engine
 * with BENCH_GROW=200000 (200,000 finished jobs added while the director runs): the next job ran 121-129
 * actions/s with this maintenance, 87-106 without (the README's engine row).
 *
 * Once a minute, each table past PostgreSQL's own autovacuum thresholds (DUE_TABLES_SQL) is vacuumed
 * and analyzed, one statement per table: other statements run between them. On PostgreSQL, its own
 * autovacuum does this.
 */
export class PgliteMaintenance {
  private readonly repeater: Repeater;
  private current: Promise<TableMaintained[]> | null = null;

  constructor(
    readonly db: Db,
    readonly everyMs = NAP_MS,
  ) {
    this.repeater = new Repeater(
      () =>
        this.run().catch((e: unknown) => {
          if (this.repeater.running) console.error('database maintenance failed:', e);
        }),
      everyMs,
    );
  }

  start(): void {
    this.repeater.start();
  }

  async stop(): Promise<void> {
    this.repeater.stop();
    await this.current?.catch(() => []);
  }

  /** Vacuums and analyzes the tables due now; answers what it did. Never overlaps itself. */
  run(): Promise<TableMaintained[]> {
    if (this.current) return this.current;
    this.current = (async () => {
      // PostgreSQL hands its table counters over when it is next idle, at most once a second: now.
      await this.db.exec('select pg_stat_force_next_flush()');
      const due = await this.db.query<TableMaintained>(DUE_TABLES_SQL);
      for (const t of due) {
        const what = t.vacuum && t.analyze ? 'vacuum (analyze)' : t.vacuum ? 'vacuum' : 'analyze';
        await this.db.exec(`${what} ${quoteIdent(t.table)}`);
      }
      return due;
    })().finally(() => {
      this.current = null;
    });
    return this.current;
  }
}

/** Starts the maintenance of a PGlite database (null on PostgreSQL, whose autovacuum does it). */
export function startPgliteMaintenance(db: Db): PgliteMaintenance | null {
  if (db.kind !== 'pglite') return null;
  const maintenance = new PgliteMaintenance(db);
  maintenance.start();
  return maintenance;
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
