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
import { offlineCutoff } from '../actors/presence';
import { presenceSqlAt } from '../actors/presence-sql';

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

/**
 * The node of a group side: the chosen actor, or an actor of the chosen zone (online by its heartbeat,
 * as of `cutoff`, and connected first).
 */
const SIDE = (side: 'attack' | 'target', avoid: string, cutoff: Date) => `
  case when ms.config->>'run_between' = 'zone' then
    (select n.id from nodes n where n.security_zone_id = (ms.config->>'${side}_zone')::int ${avoid}
      order by (${presenceSqlAt(cutoff, 'n').status} = 'online') desc, (n.token_hash is not null) desc, n.id limit 1)
  else (ms.config->>'${side}_node')::int end`;

/**
 * Fills jobs' steps and job actions from their monitors' current groups and actions (set-based, any
 * number of jobs). `cutoff`: heartbeats older than this count as none when choosing a zone's actor.
 */
export async function fillJobs(tx: Db, jobIds: number[], monitorIds: number[], cutoff: Date): Promise<void> {
  await tx.query(
    `insert into job_steps (job_id, group_order, name, source_node_id, destination_node_id)
     select u.job_id, ms.position, ms.name, s.src,
            case when exists (select 1 from monitor_actions ma join actions a on a.id = ma.action_id
                               where ma.monitor_step_id = ms.id and (not (a.action_type = any($3::text[]))
                                 -- a dns action whose server may be the destination actor (the engine decides)
                                 or (a.action_type = 'dns' and (a.details->>'dns_server_id' is not null
                                     or coalesce(ma.config->'runtime'->>'runtime_temporary_dns_server', '') <> ''))))
                 then ${SIDE('target', `and n.id is distinct from s.src`, cutoff)} end
       from unnest($1::int[], $2::int[]) as u(job_id, monitor_id)
       join monitor_steps ms on ms.monitor_id = u.monitor_id
       cross join lateral (select ${SIDE('attack', '', cutoff)} as src) s
      order by u.job_id, ms.position`,
    [jobIds, monitorIds, SINGLE_ACTOR_TYPES],
  );
  // An actor that never connected cannot be handed work: its actions end errored at once, with the reason.
  await tx.query(
    `insert into job_actions (job_step_id, job_id, action_id, position, sim_action_vid, name, action_type, status, disabled, blocked_msg, monitor_action_id, finished_at)
     select js.id, u.job_id, a.id, ma.position, a.vid, a.name, a.action_type,
            case when a.disabled or a.decommissioned then 'not run' when bad.reason is not null then 'errored' else 'pending' end,
            a.disabled or a.decommissioned, bad.reason, ma.id,
            case when a.disabled or a.decommissioned or bad.reason is not null then now() end
       from unnest($1::int[], $2::int[]) as u(job_id, monitor_id)
       join monitor_steps ms on ms.monitor_id = u.monitor_id
       join job_steps js on js.job_id = u.job_id and js.group_order = ms.position
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
      order by u.job_id, ms.position, ma.position`,
    [jobIds, monitorIds, SINGLE_ACTOR_TYPES],
  );
}

export interface RunStart {
  monitorId: number;
  jobId: number;
  scheduledFor: Date;
  trigger: 'schedule' | 'catch_up' | 'run_now';
}

/**
 * Starts runs: each sleeping job is claimed (a conditional update: still 'sleeping'), gets its steps,
 * turns pending and goes to the engine as an evaluation. A few statements for any number of runs.
 * Returns the job ids it started.
 */
export async function startRuns(tx: Db, runs: RunStart[], userId: number | null, cutoff: Date): Promise<number[]> {
  if (!runs.length) return [];
  const claimed = await tx.query<{ id: number }>(
    `update jobs set status = 'pending', user_id = $2, created_at = now(), updated_at = now() where id = any($1::int[]) and status = 'sleeping' returning id`,
    [runs.map((r) => r.jobId), userId],
  );
  const ok = new Set(claimed.map((c) => c.id));
  const go = runs.filter((r) => ok.has(r.jobId));
  if (!go.length) return [];
  const jobIds = go.map((r) => r.jobId);
  const monitorIds = go.map((r) => r.monitorId);
  await tx.query(`delete from job_steps where job_id = any($1::int[])`, [jobIds]);
  await fillJobs(tx, jobIds, monitorIds, cutoff);
  await tx.query(
    `update jobs j set progress = p.pct from (select job_id, (100 * count(*) filter (where status not in ('pending', 'running', 'waiting')) / greatest(count(*), 1))::int as pct
       from job_actions where job_id = any($1::int[]) group by job_id) p where j.id = p.job_id and j.progress <> p.pct`,
    [jobIds],
  );
  await tx.query(`insert into engine_jobs (job_id, kind) select unnest($1::int[]), 'evaluation'`, [jobIds]);
  await tx.query(
    `insert into monitor_runs (job_id, monitor_id, scheduled_for, started_at, trigger) select u.j, u.m, u.at, now(), u.t from unnest($1::int[], $2::int[], $3::timestamptz[], $4::text[]) as u(j, m, at, t)`,
    [jobIds, monitorIds, go.map((r) => r.scheduledFor.toISOString()), go.map((r) => r.trigger)],
  );
  await tx.query(`update monitors m set last_job_id = u.j from unnest($1::int[], $2::int[]) as u(m, j) where m.id = u.m`, [monitorIds, jobIds]);
  return jobIds;
}

/** A run due later than this after its slot is a catch-up (the director was down at the slot). */
export const CATCH_UP_AFTER_MS = 60_000;

/**
 * Starts the due runs, in batches of `batch` monitors per transaction (rows locked `for update skip
 * locked`, so two directors share the work and never start one run twice). The next run is computed
 * after now, so a director back after downtime runs each monitor once, not once per missed slot.
 * Returns the started job ids.
 */
export async function startDueRuns(db: Db, now: () => number = Date.now, batch = 100): Promise<number[]> {
  const started: number[] = [];
  for (let round = 0; round < 50; round++) {
    const jobIds = await db.transaction(async (tx) => {
      const due = await tx.query<MonitorScheduleRow & { due_at: string }>(
        `select id, name, paused, next_run_at::text, next_run_at::text as due_at, next_job_id, ${SCHEDULE_COLUMNS}
           from monitors where not paused and next_run_at <= now() order by next_run_at, id limit $1 for update skip locked`,
        [batch],
      );
      if (!due.length) return null;
      const t = now();
      // A monitor without its sleeping job (removed by hand) gets one now.
      const missing = due.filter((m) => m.next_job_id === null);
      if (missing.length) {
        const made = await tx.query<{ id: number; monitor_id: number }>(
          `insert into jobs (name, status, progress, monitor_id) select u.n, 'sleeping', 0, u.m from unnest($1::text[], $2::int[]) as u(n, m) returning id, monitor_id`,
          [missing.map((m) => m.name), missing.map((m) => m.id)],
        );
        for (const j of made) {
          const m = missing.find((x) => x.id === j.monitor_id);
          if (m) m.next_job_id = j.id;
        }
      }
      const ids = await startRuns(
        tx,
        due.map((m) => {
          const at = new Date(m.due_at);
          return { monitorId: m.id, jobId: m.next_job_id as number, scheduledFor: at, trigger: t - at.getTime() > CATCH_UP_AFTER_MS ? 'catch_up' : 'schedule' };
        }),
        null,
        offlineCutoff(db, t),
      );
      // The next runs: new sleeping jobs, and next_run_at after now.
      const nexts = due.map((m) => nextRunAfter(m, t));
      const withNext = due.filter((_, i) => nexts[i] !== null);
      const sleeping = await tx.query<{ id: number; monitor_id: number }>(
        `insert into jobs (name, status, progress, monitor_id) select u.n, 'sleeping', 0, u.m from unnest($1::text[], $2::int[]) as u(n, m) returning id, monitor_id`,
        [withNext.map((m) => m.name), withNext.map((m) => m.id)],
      );
      const jobOf = new Map(sleeping.map((j) => [j.monitor_id, j.id]));
      await tx.query(
        `update monitors m set next_run_at = u.at, next_job_id = u.j from unnest($1::int[], $2::timestamptz[], $3::int[]) as u(id, at, j) where m.id = u.id`,
        [due.map((m) => m.id), nexts.map((n) => (n === null ? null : new Date(n).toISOString())), due.map((m) => jobOf.get(m.id) ?? null)],
      );
      return ids;
    });
    if (jobIds === null) break;
    started.push(...jobIds);
  }
  return started;
}

/** Run now: a new job for the monitor, outside its schedule (the sleeping next run stays). */
export async function runNow(db: Db, monitorId: number, userId: number | null): Promise<number> {
  return db.transaction(async (tx) => {
    const [m] = await tx.query<{ id: number; name: string }>(`select id, name from monitors where id = $1 for update`, [monitorId]);
    if (!m) throw new Error('monitor vanished');
    const jobId = await insertSleepingJob(tx, m.id, m.name);
    await startRuns(tx, [{ monitorId: m.id, jobId, scheduledFor: new Date(), trigger: 'run_now' }], userId, offlineCutoff(db));
    return jobId;
  });
}
