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
  private flushing = false;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    private readonly maxBatch = 64,
  ) {}

  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0, this.maxBatch);
        try {
          await this.write(batch.map((b) => b.item));
          for (const b of batch) b.resolve();
        } catch (e) {
          if (batch.length === 1) {
            batch[0]?.reject(e);
            continue;
          }
          for (const b of batch) await this.write([b.item]).then(b.resolve, b.reject);
        }
      }
    } finally {
      this.flushing = false;
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

  async store(key: K, item: T, write: (items: T[]) => Promise<void>): Promise<void> {
    let writer = this.byKey.get(key);
    if (!writer) this.byKey.set(key, (writer = new GroupCommit(write)));
    await writer.add(item);
    if (item.refused) throw item.refused;
  }
}
