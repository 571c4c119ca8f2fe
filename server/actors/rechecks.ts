/**
 * The recheck of waiting polls on PostgreSQL. Directors sharing a database do not hear each other's
 * news of an actor (engine.notify is in-process), so a poll waiting for news must look at the database
 * now and then. Instead of one statement per waiting poll each second, the director looks at all its
 * waiting polls in one statement each second (pollStatesChanged) and wakes only those whose state
 * changed: they read it again. News this director makes wakes a poll at once, as before.
 */
import type { Db } from '../db/index';
import { pollStatesChanged, type PollState } from './service';

interface Waiting {
  nodeId: number;
  holding: readonly number[];
  state: PollState;
  wake: () => void;
}

export class PollRechecks {
  private readonly waiting = new Set<Waiting>();
  private timer: NodeJS.Timeout | null = null;
  /** Statements run (one a recheck): for tests and benchmarks. */
  readonly counts = { rechecks: 0 };

  constructor(
    private readonly db: Db,
    readonly everyMs = 1000,
  ) {}

  /**
   * Resolves when `until` does (news, the poll's deadline) or when a recheck finds the poll's state
   * (node, holding) other than `state`.
   */
  wait(nodeId: number, holding: readonly number[], state: PollState, until: Promise<void>): Promise<void> {
    return new Promise((resolve) => {
      const w: Waiting = {
        nodeId,
        holding,
        state,
        wake: () => {
          this.waiting.delete(w);
          resolve();
        },
      };
      this.waiting.add(w);
      void until.then(w.wake);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.timer || !this.waiting.size) return;
    this.timer = setTimeout(() => void this.run(), this.everyMs);
    this.timer.unref();
  }

  private async run(): Promise<void> {
    const polls = [...this.waiting];
    try {
      if (polls.length) {
        this.counts.rechecks++;
        const changed = await pollStatesChanged(this.db, polls);
        polls.forEach((p, i) => changed[i] && p.wake());
      }
    } catch {
      // The database could not say (closing, a lost connection): each poll reads for itself.
      for (const p of polls) p.wake();
    } finally {
      this.timer = null;
      this.schedule();
    }
  }

  /** Wakes every waiting poll (the director stops). */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const w of [...this.waiting]) w.wake();
  }
}
