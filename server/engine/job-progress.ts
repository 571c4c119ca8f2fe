import type { Db } from '../db/index';

/**
 * Jobs' progress (the percent of their actions ended), written at most once per `everyMs` per job; a
 * move within that time is written by a timer when it ends. Why: an update of jobs runs its statement
 * triggers (counts, names, three report rollups, the library log), 6.3 ms on PostgreSQL whatever
 * column moved, and written once per percent a 1,500-action job paid it 100 times (0.4 ms per action).
 * A job's end writes 100 itself (engine.ts), so the last write is never late.
 */
export class JobProgress {
  private readonly writtenAt = new Map<number, number>();
  private readonly later = new Set<number>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    private readonly everyMs: number,
  ) {}

  /** Writes the progress of the jobs not written within `everyMs` (in `tx`), and the others' later. */
  async update(jobIds: readonly number[], tx: Db = this.db): Promise<void> {
    const now = Date.now();
    const due = jobIds.filter((id) => now - (this.writtenAt.get(id) ?? -Infinity) >= this.everyMs);
    for (const id of jobIds) if (!due.includes(id)) this.later.add(id);
    if (this.later.size && !this.timer) this.timer = setTimeout(() => void this.flush(), this.everyMs);
    if (!due.length) return;
    for (const id of due) {
      this.writtenAt.set(id, now);
      this.later.delete(id);
    }
    await writeProgress(tx, due);
  }

  /** The moves held back: written now (and the memory of jobs written long ago dropped). */
  private async flush(): Promise<void> {
    this.timer = null;
    const now = Date.now();
    for (const [id, at] of this.writtenAt) if (now - at >= this.everyMs) this.writtenAt.delete(id);
    const ids = [...this.later];
    this.later.clear();
    if (!ids.length) return;
    for (const id of ids) this.writtenAt.set(id, now);
    await writeProgress(this.db, ids).catch((e: Error) => console.error(`job progress not written: ${e.message}`));
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.later.clear();
  }
}

/**
 * Read first, written only where it moved: an update of jobs runs its statement triggers even for no
 * row, and locks the job's row until the transaction ends (every result of a 500-action job would wait on it).
 */
async function writeProgress(tx: Db, jobIds: number[]): Promise<void> {
  const moved = await tx.query<{ job_id: number; pct: number }>(
    `select p.job_id, p.pct from jobs j
       join (select job_id, (100 * count(*) filter (where status not in ('pending', 'running', 'waiting')) / greatest(count(*), 1))::int as pct
               from job_actions where job_id = any($1::int[]) group by job_id) p on p.job_id = j.id
      where j.progress <> p.pct`,
    [jobIds],
    { name: 'job-progress-moved' },
  );
  if (!moved.length) return;
  await tx.query(
    `update jobs j set progress = p.pct, updated_at = now() from unnest($1::int[], $2::int[]) as p(job_id, pct) where j.id = p.job_id and j.progress <> p.pct`,
    [moved.map((m) => m.job_id), moved.map((m) => m.pct)],
    { name: 'job-progress-write' },
  );
}
