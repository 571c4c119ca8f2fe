import type { Db } from '../db/index';

/** How long a change may take to become visible after its sequence number was drawn (late commits). */
const SETTLE_MS = 10_000;
/** Changes older than this are pruned; an index that has not polled for longer rebuilds in full. */
export const CHANGE_RETENTION_MS = 60 * 60_000;
export const STALE_AFTER_MS = 30 * 60_000;

export interface ChangeBatch {
  actionIds: Set<number>;
  /** Jobs whose status changed. */
  jobIds: Set<number>;
  simulations: boolean;
  /** Tags or dimension trees changed. */
  reference: boolean;
  /** Number of change rows not seen before. */
  count: number;
}

interface ChangeRow {
  seq: number;
  kind: 'action' | 'simulation' | 'job' | 'reference';
  item_id: number | null;
}

/**
 * Reads library_changes (written by the triggers of migration 005) without missing late commits: a
 * transaction on PostgreSQL may commit a lower sequence number after a higher one was read, so the
 * feed re-reads a short window of recent sequence numbers and skips the rows it already applied.
 */
export class ChangeFeed {
  private floor = 0;
  private applied = new Set<number>();
  private observations: { at: number; seq: number }[] = [];
  lastPollAt = 0;

  constructor(private db: Db) {}

  /** Starts the feed at the current end of the log: what is committed now is part of the caller's snapshot. */
  async start(): Promise<void> {
    const [row] = await this.db.query<{ seq: number }>('select coalesce(max(seq), 0)::float8 as seq from library_changes');
    const max = row?.seq ?? 0;
    this.floor = Math.max(0, max - 1000);
    this.applied = new Set((await this.db.query<{ seq: number }>('select seq::float8 as seq from library_changes where seq > $1', [this.floor])).map((r) => r.seq));
    this.observations = [{ at: Date.now(), seq: max }];
    this.lastPollAt = Date.now();
  }

  async poll(): Promise<ChangeBatch> {
    // Only the rows not applied yet travel back (right after start, up to 1,000 applied ones are above the floor).
    const rows = await this.db.query<ChangeRow>(
      'select seq::float8 as seq, kind, item_id from library_changes where seq > $1 and seq::float8 <> all($2::float8[]) order by seq',
      [this.floor, [...this.applied]],
    );
    const batch: ChangeBatch = { actionIds: new Set(), jobIds: new Set(), simulations: false, reference: false, count: 0 };
    let max = this.floor;
    for (const s of this.applied) max = Math.max(max, s);
    for (const r of rows) {
      max = Math.max(max, r.seq);
      if (this.applied.has(r.seq)) continue;
      this.applied.add(r.seq);
      batch.count++;
      if (r.kind === 'simulation') batch.simulations = true;
      else if (r.kind === 'reference') batch.reference = true;
      else if (r.item_id === null) continue;
      else if (r.kind === 'job') batch.jobIds.add(r.item_id);
      else batch.actionIds.add(r.item_id);
    }
    const now = Date.now();
    this.observations.push({ at: now, seq: max });
    // Everything at or below a sequence number seen SETTLE_MS ago has committed (or never will).
    let settled: { at: number; seq: number } | undefined;
    while (this.observations.length > 1 && this.observations[0]!.at <= now - SETTLE_MS) settled = this.observations.shift();
    if (settled && settled.seq > this.floor) {
      this.floor = settled.seq;
      for (const s of this.applied) if (s <= this.floor) this.applied.delete(s);
    }
    if (this.observations.length > 200) this.observations.splice(0, this.observations.length - 200);
    this.lastPollAt = now;
    return batch;
  }

  /** Deletes change rows older than the retention period. */
  async prune(): Promise<void> {
    await this.db.query(`delete from library_changes where changed_at < now() - ($1::int * interval '1 millisecond')`, [CHANGE_RETENTION_MS]);
  }
}
