import type { Db } from '../db/index';
import { Repeater } from '../repeater';

/** How often a director adds the report facts its writes queued to the rollups (migration 028). */
const FLUSH_MS = 1000;
/** At least this often whatever this director wrote: facts another director queued before it stopped. */
const IDLE_FLUSH_MS = 60_000;
/**
 * PGlite runs no autovacuum: without a vacuum the queue's deleted rows would keep their pages, and every
 * report read and flush would scan them. After a flush that moved facts, at most this often.
 */
const VACUUM_MS = 30_000;

/**
 * Flushes the queued report facts (vigil_report_flush, migration 028) about once a second while this
 * director writes, so the queue a report read adds to the rollups stays small. Reads are exact either
 * way; a flush only moves counts from the queue to the rollups. Never overlaps itself.
 */
export class RollupFlusher {
  private readonly repeater: Repeater;
  private flushing: Promise<number> | null = null;
  private seenVersion = -1;
  private lastFlush = 0;
  private lastVacuum = 0;

  constructor(
    readonly db: Db,
    readonly everyMs = FLUSH_MS,
  ) {
    this.repeater = new Repeater(() => this.tick(), everyMs);
  }

  start(): void {
    this.repeater.start();
  }

  async stop(): Promise<void> {
    this.repeater.stop();
    await this.flushing?.catch(() => 0);
  }

  /** A flush when this director wrote since the last one (or a minute went by). */
  private async tick(): Promise<void> {
    const version = this.db.writes.version;
    if (version === this.seenVersion && Date.now() - this.lastFlush < IDLE_FLUSH_MS) return;
    this.seenVersion = version;
    try {
      await this.flush();
    } catch (e) {
      if (this.repeater.running) console.error('report rollups flush failed:', e);
    }
  }

  /** Adds every queued fact to the rollups now; answers how many there were. */
  flush(): Promise<number> {
    if (this.flushing) return this.flushing;
    this.flushing = (async () => {
      this.lastFlush = Date.now();
      const [row] = await this.db.query<{ n: number }>('select vigil_report_flush() as n', [], { name: 'report-rollups-flush' });
      const n = row?.n ?? 0;
      if (n > 0 && this.db.kind === 'pglite' && Date.now() - this.lastVacuum >= VACUUM_MS) {
        this.lastVacuum = Date.now();
        const before = this.db.writes.version;
        await this.db.exec('vacuum report_fact_queue');
        // The vacuum counts as a write; alone, it is no reason for another flush.
        if (this.db.writes.version === before + 1 && this.seenVersion === before) this.seenVersion = this.db.writes.version;
      }
      return n;
    })().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }
}
