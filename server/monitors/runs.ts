/**
 * A monitor's runs as jobs. The next run waits as a job in status 'sleeping' (named after the monitor,
 * ran by 'Scheduled Process'); when it is due, `startRun` fills its steps from the current definition
 * (actors of zones resolved then), turns it pending and hands it to the engine as an evaluation (every
 * step runs, so every step gets an outcome). Claims are conditional updates on rows locked with
 * `for update skip locked`, so two directors on one database never start one run twice.
 */
import type { Db } from '../db/index';
import { SINGLE_ACTOR_TYPES } from '../../src/api/contracts/engine';
import type { ScheduleFields } from '../../src/api/contracts/monitor-schedule';
import { nextRunAfter } from './next-run';

export const SCHEDULE_COLUMNS = `monitor_runtime, timezone, repeat_job_period_number, repeat_job_period_type, repeat_week_days,
  repeat_monthly_frequency, repeat_day_of_the_week, extra_sleep`;

export interface MonitorScheduleRow extends ScheduleFields {
  id: number;
  name: string;
  paused: boolean;
  next_run_at: string | null;
  next_job_id: number | null;
}

/** A new sleeping job for the monitor's next run (no steps until it starts). */
export async function insertSleepingJob(tx: Db, monitorId: number, name: string): Promise<number> {
  const [job] = await tx.query<{ id: number }>(`insert into jobs (name, status, progress, monitor_id) values ($1, 'sleeping', 0, $2) returning id`, [name, monitorId]);
  if (!job) throw new Error('the sleeping job was not created');
  return job.id;
}

/** Sets the monitor's next run after `now` and its sleeping job (created, kept, or removed when none). */
export async function scheduleNext(tx: Db, m: MonitorScheduleRow, now: number): Promise<void> {
  const next = m.paused ? null : nextRunAfter(m, now);
  let jobId = m.next_job_id;
  if (next === null) {
    if (jobId !== null) await tx.query(`delete from jobs where id = $1 and status = 'sleeping'`, [jobId]);
    jobId = null;
  } else if (jobId === null) {
    jobId = await insertSleepingJob(tx, m.id, m.name);
  } else {
    await tx.query(`update jobs set name = $2, updated_at = now() where id = $1 and status = 'sleeping'`, [jobId, m.name]);
  }
  await tx.query(`update monitors set next_run_at = $2, next_job_id = $3 where id = $1`, [m.id, next === null ? null : new Date(next).toISOString(), jobId]);
}

/** The node of a group side: the chosen actor, or an actor of the chosen zone (online and connected first). */
const SIDE = (side: 'attack' | 'target', avoid: string) => `
  case when ms.config->>'run_between' = 'zone' then
    (select n.id from nodes n where n.security_zone_id = (ms.config->>'${side}_zone')::int ${avoid}
      order by (n.status = 'online') desc, (n.token_hash is not null) desc, n.id limit 1)
  else (ms.config->>'${side}_node')::int end`;

/** Fills a job's steps and job actions from the monitor's current groups and actions. */
export async function fillJob(tx: Db, jobId: number, monitorId: number): Promise<void> {
  await tx.query(
    `insert into job_steps (job_id, group_order, name, source_node_id, destination_node_id)
     select $1, ms.position, ms.name, s.src,
            case when exists (select 1 from monitor_actions ma join actions a on a.id = ma.action_id
                               where ma.monitor_step_id = ms.id and not (a.action_type = any($3::text[])))
                 then ${SIDE('target', `and n.id is distinct from s.src`)} end
       from monitor_steps ms
       cross join lateral (select ${SIDE('attack', '')} as src) s
      where ms.monitor_id = $2
      order by ms.position`,
    [jobId, monitorId, SINGLE_ACTOR_TYPES],
  );
  // An actor that never connected cannot be handed work: its actions end errored at once, with the reason.
  await tx.query(
    `insert into job_actions (job_step_id, job_id, action_id, position, sim_action_vid, name, action_type, status, disabled, blocked_msg, monitor_action_id, finished_at)
     select js.id, $1, a.id, ma.position, a.vid, a.name, a.action_type,
            case when a.disabled or a.decommissioned then 'not run' when bad.reason is not null then 'errored' else 'pending' end,
            a.disabled or a.decommissioned, bad.reason, ma.id,
            case when a.disabled or a.decommissioned or bad.reason is not null then now() end
       from monitor_steps ms
       join job_steps js on js.job_id = $1 and js.group_order = ms.position
       join monitor_actions ma on ma.monitor_step_id = ms.id
       join actions a on a.id = ma.action_id
       left join lateral (
         select case
           when js.source_node_id is null then 'No actor to run on: the source zone holds no actor.'
           when not (a.action_type = any($3::text[])) and js.destination_node_id is null then 'No destination actor: the destination zone holds no other actor.'
           else (select 'Actor ' || n.name || ' has never connected to this director.' from nodes n
                  where n.token_hash is null and (n.id = js.source_node_id or (n.id = js.destination_node_id and not (a.action_type = any($3::text[]))))
                  order by n.id limit 1)
         end as reason
       ) bad on true
      where ms.monitor_id = $2
      order by ms.position, ma.position`,
    [jobId, monitorId, SINGLE_ACTOR_TYPES],
  );
}

/** Starts a run: the sleeping job (or a new one) gets its steps, turns pending and goes to the engine. */
export async function startRun(tx: Db, monitorId: number, jobId: number, scheduledFor: Date, trigger: 'schedule' | 'catch_up' | 'run_now', userId: number | null): Promise<boolean> {
  const [claimed] = await tx.query<{ id: number }>(
    `update jobs set status = 'pending', user_id = $2, created_at = now(), updated_at = now() where id = $1 and status = 'sleeping' returning id`,
    [jobId, userId],
  );
  if (!claimed) return false;
  await tx.query(`delete from job_steps where job_id = $1`, [jobId]);
  await fillJob(tx, jobId, monitorId);
  await tx.query(`update jobs set progress = (select (100 * count(*) filter (where status not in ('pending', 'running', 'waiting')) / greatest(count(*), 1))::int from job_actions where job_id = $1) where id = $1`, [jobId]);
  await tx.query(`insert into engine_jobs (job_id, kind) values ($1, 'evaluation')`, [jobId]);
  await tx.query(`insert into monitor_runs (job_id, monitor_id, scheduled_for, started_at, trigger) values ($1, $2, $3, now(), $4)`, [jobId, monitorId, scheduledFor.toISOString(), trigger]);
  await tx.query(`update monitors set last_job_id = $2 where id = $1`, [monitorId, jobId]);
  return true;
}

/** A run due later than this after its slot is a catch-up (the director was down at the slot). */
export const CATCH_UP_AFTER_MS = 60_000;

/**
 * Starts every due run (at most `limit`), one monitor per transaction; the next run is computed from
 * now, so a director back after downtime runs each monitor once, not once per missed slot. Returns the
 * started job ids.
 */
export async function startDueRuns(db: Db, now: () => number = Date.now, limit = 500): Promise<number[]> {
  const due = await db.query<{ id: number }>(
    `select id from monitors where not paused and next_run_at <= now() order by next_run_at, id limit $1`,
    [limit],
  );
  const started: number[] = [];
  for (const { id } of due) {
    const jobId = await db.transaction(async (tx) => {
      const [m] = await tx.query<MonitorScheduleRow & { due_at: string }>(
        `select id, name, paused, next_run_at::text, next_run_at::text as due_at, next_job_id, ${SCHEDULE_COLUMNS}
           from monitors where id = $1 and not paused and next_run_at <= now() for update skip locked`,
        [id],
      );
      if (!m) return null;
      const t = now();
      const dueAt = new Date(m.due_at);
      const jobId = m.next_job_id ?? (await insertSleepingJob(tx, m.id, m.name));
      const ok = await startRun(tx, m.id, jobId, dueAt, t - dueAt.getTime() > CATCH_UP_AFTER_MS ? 'catch_up' : 'schedule', null);
      await scheduleNext(tx, { ...m, next_job_id: null }, t);
      return ok ? jobId : null;
    });
    if (jobId !== null) started.push(jobId);
  }
  return started;
}

/** Run now: a new job for the monitor, outside its schedule (the sleeping next run stays). */
export async function runNow(db: Db, monitorId: number, userId: number | null): Promise<number> {
  return db.transaction(async (tx) => {
    const [m] = await tx.query<{ id: number; name: string }>(`select id, name from monitors where id = $1 for update`, [monitorId]);
    if (!m) throw new Error('monitor vanished');
    const jobId = await insertSleepingJob(tx, m.id, m.name);
    await startRun(tx, m.id, jobId, new Date(), 'run_now', userId);
    return jobId;
  });
}
