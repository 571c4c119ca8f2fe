import type { Db } from '../db/index';

/**
 * Statuses of the jobs the library shows as latest runs, kept in memory. The change feed names the
 * jobs whose status changed (migration 012) and they are forgotten; a job not known is read when a
 * page shows it. A read that overlapped a forget is used for its own call but not kept.
 */
/** A job's status and when it last changed (jobs.updated_at moves with every status change). */
export interface JobState {
  status: string;
  updated_at: string;
}

export class JobStatuses {
  /** null: no such job. */
  private statuses = new Map<number, JobState | null>();
  private epoch = 0;

  /** Moves whenever a known status may have changed. */
  get version(): number {
    return this.epoch;
  }

  constructor(private db: Db) {}

  /** The statuses of the given jobs, reading the unknown ones in one query. */
  async of(ids: Iterable<number>): Promise<Map<number, JobState | null>> {
    const out = new Map<number, JobState | null>();
    const missing: number[] = [];
    for (const id of ids) {
      const known = this.statuses.get(id);
      if (known !== undefined) out.set(id, known);
      else if (!out.has(id)) {
        out.set(id, null);
        missing.push(id);
      }
    }
    if (!missing.length) return out;
    const epoch = this.epoch;
    const rows = await this.db.query<{ id: number; status: string; updated_at: string }>(
      `select id, status, to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as updated_at from jobs where id = any($1::int[])`,
      [missing],
    );
    for (const r of rows) out.set(r.id, { status: r.status, updated_at: r.updated_at });
    if (epoch === this.epoch) for (const id of missing) this.statuses.set(id, out.get(id) ?? null);
    return out;
  }

  forget(ids: Iterable<number>): void {
    this.epoch++;
    for (const id of ids) this.statuses.delete(id);
  }

  clear(): void {
    this.epoch++;
    this.statuses.clear();
  }
}
