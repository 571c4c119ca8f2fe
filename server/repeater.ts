/**
 * Runs a step again `everyMs` after each run ends, until stopped: a run never overlaps the next, and a
 * slow one delays the next instead of piling calls up. The director's background loops (the report
 * rollups' flusher, PGlite's maintenance, the monitor scheduler) run on it. `step` handles its own errors.
 */
export class Repeater {
  private timer: NodeJS.Timeout | null = null;
  private active = false;

  constructor(
    private readonly step: () => Promise<unknown>,
    private readonly everyMs: number,
    /** runAtStart: the first run at once, not after everyMs; keepsProcessAlive: the timer holds the process open. */
    private readonly opts: { runAtStart?: boolean; keepsProcessAlive?: boolean } = {},
  ) {}

  /** True from start() until stop(). */
  get running(): boolean {
    return this.active;
  }

  start(): void {
    if (this.active) return;
    this.active = true;
    const next = () => {
      if (!this.active) return;
      this.timer = setTimeout(() => void this.step().finally(next), this.everyMs);
      if (!this.opts.keepsProcessAlive) this.timer.unref();
    };
    if (this.opts.runAtStart) void this.step().finally(next);
    else next();
  }

  /** No run starts after this; one under way finishes (its owner awaits it). */
  stop(): void {
    this.active = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
