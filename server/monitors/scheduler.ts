/**
 * The monitor scheduler of one director: every tick it starts the due runs (runs.ts) and judges the
 * finished ones (outcome.ts), then kicks the engine so new jobs are dispatched at once. Its state is
 * in the database, so several directors may run one each.
 */
import type { Db } from '../db/index';
import { startDueRuns } from './runs';
import { judgeFinishedRuns } from './outcome';
import { Repeater } from '../repeater';

export interface SchedulerOptions {
  tickMs: number;
  /** Called after runs started (the engine's kick). */
  onStarted?: (jobIds: number[]) => void;
  now?: () => number;
}

export class MonitorScheduler {
  private readonly repeater: Repeater;
  private ticking: Promise<void> | null = null;

  constructor(
    readonly db: Db,
    readonly opts: SchedulerOptions,
  ) {
    this.repeater = new Repeater(() => this.tick(), opts.tickMs, { runAtStart: true, keepsProcessAlive: true });
  }

  start(): void {
    this.repeater.start();
  }

  async stop(): Promise<void> {
    this.repeater.stop();
    await this.ticking?.catch(() => {});
  }

  /** One pass; never overlaps itself. Returns when it is done. */
  tick(): Promise<void> {
    if (this.ticking) return this.ticking;
    this.ticking = (async () => {
      try {
        const started = await startDueRuns(this.db, this.opts.now);
        if (started.length) this.opts.onStarted?.(started);
        await judgeFinishedRuns(this.db);
      } catch (e) {
        if (this.repeater.running) console.error('monitor scheduler tick failed:', e);
      }
    })().finally(() => {
      this.ticking = null;
    });
    return this.ticking;
  }
}

export function monitorTickMs(env: NodeJS.ProcessEnv = process.env): number {
  const v = Number(env.MONITOR_TICK_MS);
  return Number.isFinite(v) && v > 0 ? v : 1000;
}
