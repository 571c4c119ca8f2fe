import type { Db } from '../db/index';
import { AnswerCache } from '../answer-cache';

/**
 * The jobs calls' answers (list pages, one job, the actions of steps) kept as sent until the database
 * changes, so asking again for a page nobody changed reads no table. Jobs change while they run, so
 * the stamp an answer is kept under is the database's own state:
 * - every write committed through this director (db.writes): on PGlite that is every write;
 * - on PostgreSQL also the server's snapshot (pg_current_snapshot(): xmin, xmax and the transactions in
 *   progress), which moves with every commit of any session: another director's writes, a script's,
 *   the engine's, are seen by the very next call.
 * A call reads the snapshot after it arrived, before looking its answer up; an answer just built is
 * kept only when a snapshot read after it was built is still the one read before (no transaction
 * committed meanwhile), so a kept answer is the one a build would make now. Calls arriving together
 * share one read (a call never joins a read already under way: it waits for the next one), so many
 * clients cost one small query a round, not one each.
 */
export class JobAnswers {
  private readonly answers = new AnswerCache(() => this.stamp);
  private stamp = '';
  /** Values the builds share (the table's total), under the stamp they were read at. */
  private values = new Map<string, Promise<unknown>>();
  private valuesStamp = '';
  private failedReads = 0;
  private reading: Promise<string> | null = null;
  private nextRead: Promise<string> | null = null;

  constructor(private readonly db: Db) {}

  /**
   * The answer kept under `key` while the database is unchanged, else `build`'s (JSON text), kept when
   * nothing committed meanwhile. A key that depends on the data (a date range narrowed to the jobs it
   * holds) is a function, called once the state is read, so it may read values of that state (value()).
   */
  async get(key: string | (() => Promise<string>), build: () => Promise<unknown>): Promise<Buffer> {
    try {
      this.stamp = await this.read();
    } catch {
      // No snapshot to compare with: answered from the database, not kept, sharing no kept value.
      this.stamp = this.unread();
      return Buffer.from(JSON.stringify(await build()));
    }
    return this.answers.get(typeof key === 'string' ? key : await key(), async () => {
      const json = JSON.stringify(await build());
      this.stamp = await this.read().catch(() => this.unread());
      return json;
    });
  }

  /**
   * A value a build needs (the whole table's total and newest id), read once per database state: kept
   * under the stamp the calling build read before it started. A stamp never comes back once the database
   * has changed, so a value read after a commit it was kept under is only ever used by calls that arrived
   * before that commit.
   */
  value<T>(key: string, read: () => Promise<T>): Promise<T> {
    if (this.valuesStamp !== this.stamp) {
      this.valuesStamp = this.stamp;
      this.values.clear();
    }
    let v = this.values.get(key) as Promise<T> | undefined;
    if (!v) {
      v = read();
      this.values.set(key, v);
      // A failed read is not kept.
      v.catch(() => this.values.get(key) === v && this.values.delete(key));
    }
    return v;
  }

  /** A stamp no other state has: after a failed read nothing kept is used, and nothing built is kept. */
  private unread(): string {
    return `unread:${++this.failedReads}`;
  }

  /** The stamp now: this director's write count, and on PostgreSQL the snapshot read after this call. */
  private async read(): Promise<string> {
    if (this.db.kind !== 'postgres') return String(this.db.writes.version);
    const snapshot = await this.snapshot();
    return `${this.db.writes.version}|${snapshot}`;
  }

  private snapshot(): Promise<string> {
    if (!this.reading) return this.startRead();
    // The read under way may have started before this call arrived: wait for the next one.
    return (this.nextRead ??= this.reading
      .catch(() => '')
      .then(() => {
        this.nextRead = null;
        return this.startRead();
      }));
  }

  private startRead(): Promise<string> {
    const read = this.db.query<{ s: string }>('select pg_current_snapshot()::text as s').then((rows) => rows[0]?.s ?? '');
    this.reading = read;
    read
      .finally(() => {
        if (this.reading === read) this.reading = null;
      })
      .catch(() => undefined);
    return read;
  }
}

const byDb = new WeakMap<Db, JobAnswers>();

/** The one answer cache of a database handle (every jobs route of a director shares it). */
export function jobAnswersFor(db: Db): JobAnswers {
  let answers = byDb.get(db);
  if (!answers) byDb.set(db, (answers = new JobAnswers(db)));
  return answers;
}
