/**
 * Jobs nobody runs: a job in a non-final status that no engine holds (no active engine_jobs row) and
 * that is not a monitor's next run waiting for the scheduler (the 'sleeping' job of monitors.next_job_id). Such a job
 * would show Running or Pending forever, so it ends errored with the reason, its unfinished actions
 * errored (begun) or not run (never begun).
 */
import type { Db } from '../db/index';
import { FINISHED_JOB_STATUSES } from '../../src/api/contracts/library';

export const RESTART_REASON = 'The director restarted while this job was running, and no engine holds its work.';

const UNOWNED = `j.status <> all($1::text[])
   and not exists (select 1 from engine_jobs e where e.job_id = j.id and e.active)
   and not (j.status = 'sleeping' and exists (select 1 from monitors m where m.next_job_id = j.id))`;

/** Ends every job without engine work errored with `reason`; returns how many. */
export async function endJobsWithoutEngine(db: Db, reason: string = RESTART_REASON): Promise<number> {
  return db.transaction(async (tx) => {
    const jobs = await tx.query<{ id: number }>(
      `update jobs j set status = 'errored', status_reason = $2, progress = 100, finished_at = now(), updated_at = now() where ${UNOWNED} returning j.id`,
      [FINISHED_JOB_STATUSES, reason],
    );
    if (!jobs.length) return 0;
    const ids = jobs.map((j) => j.id);
    await tx.query(
      `update job_actions set status = case when started_at is null then 'not run' else 'errored' end,
              blocked_msg = case when started_at is null then blocked_msg else coalesce(blocked_msg, $2) end,
              evidence = coalesce(evidence, '{}'::jsonb) || jsonb_build_object(case when started_at is null then 'reason' else 'error' end, $2::text),
              finished_at = case when started_at is null then finished_at else coalesce(finished_at, now()) end
        where job_id = any($1::int[]) and status in ('pending', 'running', 'waiting', 'reverting')`,
      [ids, reason],
    );
    return ids.length;
  });
}
