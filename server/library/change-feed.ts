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
  /** What quick open shows of actors, monitors, saved filters, scripts or dashboards changed (migration 020). */
  search: boolean;
  /** Number of change rows not seen before. */
  count: number;
}

interface ChangeRow {
  seq: number;
  kind: 'action' | 'simulation' | 'job' | 'reference' | 'search';
  item_id: number | null;
}

/** Sequence numbers drawn but not seen yet (from..to, inclusive), noticed at `at`. */
interface Gap {
  from: number;
  to: number;
  at: number;
}

/** Beyond this many gaps the oldest are given up (a gap is a rolled-back or still uncommitted write). */
const MAX_GAPS = 200;

/**
 * Reads library_changes (written by the triggers of migrations 005 and 012) without missing late
 * commits: a transaction on PostgreSQL may commit a lower sequence number after a higher one was read.
 * The feed keeps the highest sequence number read and the gaps below it that were not seen yet, and
 * asks only for rows above the one or inside the others; a gap is given up SETTLE_MS after it was
 * noticed (its write has committed by then, or never will). The query stays an index range scan
 * however many rows were read in the settle window.
 */
export class ChangeFeed {
  private high = 0;
  private gaps: Gap[] = [];
  lastPollAt = 0;

  constructor(private db: Db) {}

  /** Starts the feed at the current end of the log: what is committed now is part of the caller's snapshot. */
  async start(): Promise<void> {
    const [row] = await this.db.query<{ seq: number }>('select coalesce(max(seq), 0)::float8 as seq from library_changes');
    this.high = row?.seq ?? 0;
    // Numbers of the last 1,000 not in the log yet may still commit.
    const floor = Math.max(0, this.high - 1000);
    const seen = (await this.db.query<{ seq: number }>('select seq::float8 as seq from library_changes where seq > $1 order by seq', [floor])).map((r) => r.seq);
    this.gaps = [];
    const now = Date.now();
    let prev = floor;
    for (const seq of seen) {
      if (seq > prev + 1) this.gaps.push({ from: prev + 1, to: seq - 1, at: now });
      prev = seq;
    }
    this.lastPollAt = now;
  }

  async poll(): Promise<ChangeBatch> {
    const params: number[] = [this.high];
    const ranges = this.gaps.map((g) => {
      params.push(g.from, g.to);
      return ` or seq between $${params.length - 1} and $${params.length}`;
    });
    const rows = await this.db.query<ChangeRow>(`select seq::float8 as seq, kind, item_id from library_changes where seq > $1${ranges.join('')} order by seq`, params);
    const batch: ChangeBatch = { actionIds: new Set(), jobIds: new Set(), simulations: false, reference: false, search: false, count: 0 };
    const now = Date.now();
    for (const r of rows) {
      if (r.seq > this.high) {
        if (r.seq > this.high + 1) this.gaps.push({ from: this.high + 1, to: r.seq - 1, at: now });
        this.high = r.seq;
      } else this.fill(r.seq);
      batch.count++;
      if (r.kind === 'simulation') batch.simulations = true;
      else if (r.kind === 'reference') batch.reference = true;
      else if (r.kind === 'search') batch.search = true;
      else if (r.item_id === null) continue;
      else if (r.kind === 'job') batch.jobIds.add(r.item_id);
      else batch.actionIds.add(r.item_id);
    }
    this.gaps = this.gaps.filter((g) => g.at > now - SETTLE_MS);
    if (this.gaps.length > MAX_GAPS) this.gaps.splice(0, this.gaps.length - MAX_GAPS);
    this.lastPollAt = now;
    return batch;
  }

  /** Takes a sequence number that turned up out of its gaps. */
  private fill(seq: number): void {
    const at = this.gaps.findIndex((g) => g.from <= seq && seq <= g.to);
    if (at < 0) return;
    const g = this.gaps[at]!;
    const parts = [
      ...(g.from < seq ? [{ from: g.from, to: seq - 1, at: g.at }] : []),
      ...(seq < g.to ? [{ from: seq + 1, to: g.to, at: g.at }] : []),
    ];
    this.gaps.splice(at, 1, ...parts);
  }

  /** Deletes change rows older than the retention period. */
  async prune(): Promise<void> {
    await this.db.query(`delete from library_changes where changed_at < now() - ($1::int * interval '1 millisecond')`, [CHANGE_RETENTION_MS]);
  }
}
