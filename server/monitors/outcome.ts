/**
 * Judging a finished monitor run. Per step (monitor action):
 * - not_run when its job action did not run (errored, incompatible, not run, cancelled), with the reason;
 * - otherwise blocked is the job action's blocked flag, and detected is "every expected event was
 *   matched by an event the integrations reported for it" when expected events are selected, else
 *   "any event or alert"; the step passes when both match the expectations, 'Does not matter' ignored;
 * - drift when the outcome (pass or fail) differs from the step's previous judged outcome.
 * A run is claimed with a conditional update, so two directors never judge it twice.
 */
import type { Db } from '../db/index';
import type { Expectation, ExpectedEvent, StepOutcome } from '../../src/api/contracts/monitors';

export interface StepFacts {
  status: string;
  blocked: boolean | null;
  events: number;
  alerted: boolean;
  eventDescriptions: string[];
  expected_blocked: Expectation;
  expected_detected: Expectation;
  expected_events: Pick<ExpectedEvent, 'description'>[];
}

const RAN = new Set(['ran', 'completed']);

/** The pure verdict of one step. */
export function judgeStep(f: StepFacts): { outcome: StepOutcome; blocked: boolean | null; detected: boolean | null; reason: string } {
  if (!RAN.has(f.status)) return { outcome: 'not_run', blocked: null, detected: null, reason: `The action did not run (${f.status}).` };
  const blocked = f.blocked === true;
  const seen = f.eventDescriptions.map((d) => d.toLowerCase());
  const detected = f.expected_events.length
    ? f.expected_events.every((e) => seen.some((d) => d.includes(e.description.toLowerCase())))
    : f.events > 0 || f.alerted;
  const reasons: string[] = [];
  if (f.expected_blocked !== 'does_not_matter' && blocked !== (f.expected_blocked === 'yes')) reasons.push(blocked ? 'Blocked, expected not blocked.' : 'Not blocked, expected blocked.');
  if (f.expected_detected !== 'does_not_matter' && detected !== (f.expected_detected === 'yes')) {
    reasons.push(detected ? 'Detected, expected not detected.' : f.expected_events.length ? 'The expected events were not all matched.' : 'Not detected, expected detected.');
  }
  return { outcome: reasons.length ? 'fail' : 'pass', blocked, detected, reason: reasons.join(' ') };
}

interface StepRow {
  monitor_action_id: number;
  job_action_id: number | null;
  status: string | null;
  blocked: boolean | null;
  events: number | null;
  alerted: boolean | null;
  expected_blocked: Expectation;
  expected_detected: Expectation;
  expected_events: ExpectedEvent[];
  descriptions: string[] | null;
  blocked_msg: string | null;
  previous: StepOutcome | null;
}

/** Judges one finished run (once); returns false when it was already judged or is not finished. */
export async function judgeRun(db: Db, jobId: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [run] = await tx.query<{ monitor_id: number }>(
      `update monitor_runs r set evaluated_at = now() from jobs j
        where r.job_id = $1 and j.id = r.job_id and r.evaluated_at is null and j.status in ('completed', 'errored', 'cancelled') returning r.monitor_id`,
      [jobId],
    );
    if (!run) return false;
    const rows = await tx.query<StepRow>(
      `select ma.id as monitor_action_id, ja.id as job_action_id, ja.status, ja.blocked, ja.events, ja.alerted, ja.blocked_msg,
              ma.expected_blocked, ma.expected_detected, ma.expected_events,
              (select array_agg(e.description) from job_action_events e where e.job_action_id = ja.id) as descriptions,
              (select p.outcome from monitor_step_results p where p.monitor_action_id = ma.id and p.outcome <> 'not_run' and p.job_id < $1 order by p.job_id desc limit 1) as previous
         from job_actions ja join monitor_actions ma on ma.id = ja.monitor_action_id
        where ja.job_id = $1`,
      [jobId],
    );
    const counts = { pass: 0, fail: 0, not_run: 0, drift: 0 };
    for (const r of rows) {
      const v = judgeStep({
        status: r.status ?? 'not run',
        blocked: r.blocked,
        events: r.events ?? 0,
        alerted: r.alerted === true,
        eventDescriptions: r.descriptions ?? [],
        expected_blocked: r.expected_blocked,
        expected_detected: r.expected_detected,
        expected_events: r.expected_events,
      });
      const drift = v.outcome !== 'not_run' && r.previous !== null && r.previous !== v.outcome;
      counts[v.outcome]++;
      if (drift) counts.drift++;
      const reason = v.outcome === 'not_run' && r.blocked_msg ? `${v.reason} ${r.blocked_msg}` : v.reason;
      await tx.query(
        `insert into monitor_step_results (job_id, monitor_id, monitor_action_id, job_action_id, outcome, blocked, detected, previous_outcome, drift, reason)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) on conflict (job_id, monitor_action_id) do nothing`,
        [jobId, run.monitor_id, r.monitor_action_id, r.job_action_id, v.outcome, v.blocked, v.detected, r.previous, drift, reason],
      );
    }
    await tx.query(`update monitor_runs set passed = $2, failed = $3, not_run = $4, drift = $5 where job_id = $1`, [jobId, counts.pass, counts.fail, counts.not_run, counts.drift]);
    return true;
  });
}

/** Judges every finished, unjudged run (at most `limit`). */
export async function judgeFinishedRuns(db: Db, limit = 200): Promise<number> {
  const rows = await db.query<{ job_id: number }>(
    `select r.job_id from monitor_runs r join jobs j on j.id = r.job_id
      where r.evaluated_at is null and r.started_at is not null and j.status in ('completed', 'errored', 'cancelled') order by r.job_id limit $1`,
    [limit],
  );
  let n = 0;
  for (const r of rows) if (await judgeRun(db, r.job_id)) n++;
  return n;
}
