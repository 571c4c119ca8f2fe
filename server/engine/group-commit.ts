/**
 * Group commit: calls that each need a write (an actor's result) are written together. The first call
 * is written at once; calls arriving while a write is in flight wait for it to end and are then
 * written together, in one transaction of multi-row statements. A call answers once its own write is
 * committed, as before, so nothing is acknowledged that is not stored; under load N results cost one
 * transaction (and one run of each statement trigger) instead of N. A batch that fails is written again
 * one call at a time, so one bad call does not fail the others.
 */
export class GroupCommit<T> {
  private queue: { item: T; resolve: () => void; reject: (e: unknown) => void }[] = [];
  private inFlight = 0;

  /**
   * `lanes`: how many batches may be written at once (default 1). On PostgreSQL a second lane lets calls
   * that arrive during a slow write go at once, on another connection, instead of waiting for it: for
   * writes that touch disjoint rows (targets' readiness), never for ones that meet on shared rows.
   */
  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly maxBatch = 64,
    private readonly lanes = 1,
  ) {}

  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.lanes && this.queue.length) {
      const batch = this.queue.splice(0, this.maxBatch);
      this.inFlight++;
      void this.flush(batch).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  private async flush(batch: { item: T; resolve: () => void; reject: (e: unknown) => void }[]): Promise<void> {
    try {
      await this.write(batch.map((b) => b.item));
      for (const b of batch) b.resolve();
    } catch (e) {
      if (batch.length === 1) {
        batch[0]?.reject(e);
        return;
      }
      for (const b of batch) await this.write([b.item]).then(b.resolve, b.reject);
    }
  }
}

/**
 * One group commit per key (a database), made on first use with the first call's `write`. `store`
 * answers once its item is written, and throws what the write set as the item's refusal (work that was
 * not the caller's): actors' results, readiness and evidence (server/actors/service.ts).
 */
export class GroupCommits<K extends object, T extends { refused?: unknown }> {
  private readonly byKey = new WeakMap<K, GroupCommit<T>>();

  /** `lanes`: the batches of a key written at once (GroupCommit). */
  constructor(private readonly lanes: (key: K) => number = () => 1) {}

  async store(key: K, item: T, write: (items: T[]) => Promise<void>): Promise<void> {
    let writer = this.byKey.get(key);
    if (!writer) this.byKey.set(key, (writer = new GroupCommit(write, 64, this.lanes(key))));
    await writer.add(item);
    if (item.refused) throw item.refused;
  }
}
