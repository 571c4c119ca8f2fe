/**
 * Jobs in progress for tests of the job calls without an engine (cancel, delete, publish, the CLI's
 * waits): the demo seed stores finished history only, ending the jobs it generated in progress errored
 * with DEMO_JOB_REASON; this puts those back to running, their ended actions running or pending.
 */
import type { Db } from '../../server/db/index';
import { DEMO_JOB_REASON } from '../../server/seed/demo';

export async function reopenDemoJobs(db: Db): Promise<number> {
  await db.query(
    `update job_actions set status = case when evidence->>'error' = $1 then 'running' else 'pending' end,
            finished_at = case when evidence->>'error' = $1 then null else finished_at end,
            blocked_msg = case when blocked_msg = $1 then null else blocked_msg end,
            evidence = evidence - 'error' - 'reason'
      where evidence->>'error' = $1 or evidence->>'reason' = $1`,
    [DEMO_JOB_REASON],
  );
  const jobs = await db.query(`update jobs set status = 'running', status_reason = null, finished_at = null where status_reason = $1 returning id`, [DEMO_JOB_REASON]);
  return jobs.length;
}
