/**
 * Monitor writes (docs/api.md "Monitors"): create, update, delete, duplicate, pause, resume, run now.
 * Each write is one transaction; the body has passed the yup contract and checkMonitorBody first, so
 * nothing is saved half. Deleting a monitor keeps the jobs of its past runs (jobs.monitor_id is set
 * null) and removes only its sleeping next run, which never ran.
 */
import type { Db } from '../db/index';
import { notFound } from '../http-errors';
import type { MonitorBody } from '../../src/api/contracts/monitors';
import { SCHEDULE_COLUMNS, runNow, scheduleNext, type MonitorScheduleRow } from './runs';

async function groupId(tx: Db, body: MonitorBody): Promise<number | null> {
  const name = body.new_monitor_group.trim();
  if (!name) return body.monitor_group;
  const [row] = await tx.query<{ id: number }>(
    `insert into monitor_groups (name) values ($1) on conflict (lower(name)) do update set name = monitor_groups.name returning id`,
    [name],
  );
  return row?.id ?? null;
}

async function insertSteps(tx: Db, monitorId: number, body: MonitorBody): Promise<void> {
  for (const [gi, g] of body.steps.entries()) {
    const { actions, name, ...config } = g;
    const [step] = await tx.query<{ id: number }>(
      `insert into monitor_steps (monitor_id, position, name, config) values ($1, $2, $3, $4) returning id`,
      [monitorId, gi + 1, name, JSON.stringify(config)],
    );
    if (!step) throw new Error('monitor step not inserted');
    await tx.query(
      `insert into monitor_actions (monitor_id, monitor_step_id, position, action_id, expected_blocked, expected_detected, config, expected_events)
       select $1, $2, u.pos, u.action_id, u.eb, u.ed, u.config::jsonb, u.events::jsonb
         from unnest($3::int[], $4::int[], $5::text[], $6::text[], $7::text[], $8::text[]) as u(pos, action_id, eb, ed, config, events)`,
      [
        monitorId,
        step.id,
        actions.map((_, i) => i + 1),
        actions.map((a) => a.action_id),
        actions.map((a) => a.expected_blocked),
        actions.map((a) => a.expected_detected),
        actions.map(({ action_id: _a, expected_blocked: _b, expected_detected: _d, expected_events: _e, ...rest }) => JSON.stringify(rest)),
        actions.map((a) => JSON.stringify(a.expected_events)),
      ],
    );
  }
}

const DEFINITION = [
  'name', 'description', 'monitor_runtime', 'timezone', 'repeat_job_period_number', 'repeat_job_period_type', 'repeat_week_days',
  'repeat_monthly_frequency', 'repeat_day_of_the_week', 'extra_sleep', 'detection_timeout_seconds', 'simulation_id',
] as const;

async function scheduleRow(tx: Db, id: number): Promise<MonitorScheduleRow> {
  const [m] = await tx.query<MonitorScheduleRow>(`select id, name, paused, next_run_at::text, next_job_id, ${SCHEDULE_COLUMNS} from monitors where id = $1 for update`, [id]);
  if (!m) throw notFound(`Monitor ${id} does not exist.`);
  return m;
}

export async function createMonitor(db: Db, body: MonitorBody, userId: number | null, now = Date.now()): Promise<number> {
  return db.transaction(async (tx) => {
    const gid = await groupId(tx, body);
    const cols = DEFINITION.join(', ');
    const params = DEFINITION.map((k) => body[k]);
    const [row] = await tx.query<{ id: number }>(
      `insert into monitors (${cols}, monitor_group_id, created_by) values (${DEFINITION.map((_, i) => `$${i + 1}`).join(', ')}, $${DEFINITION.length + 1}, $${DEFINITION.length + 2}) returning id`,
      [...params, gid, userId],
    );
    if (!row) throw new Error('monitor not inserted');
    await insertSteps(tx, row.id, body);
    await scheduleNext(tx, await scheduleRow(tx, row.id), now);
    return row.id;
  });
}

export async function updateMonitor(db: Db, id: number, body: MonitorBody, now = Date.now()): Promise<void> {
  await db.transaction(async (tx) => {
    await scheduleRow(tx, id);
    const gid = await groupId(tx, body);
    await tx.query(
      `update monitors set ${DEFINITION.map((k, i) => `${k} = $${i + 2}`).join(', ')}, monitor_group_id = $${DEFINITION.length + 2}, updated_at = now() where id = $1`,
      [id, ...DEFINITION.map((k) => body[k]), gid],
    );
    await replaceSteps(tx, id, body);
    await scheduleNext(tx, await scheduleRow(tx, id), now);
  });
}

/**
 * Replaces the groups and actions in place: a monitor action's row (and so its result history and
 * drift) is kept when the same Action stays at the same group and position; the others are replaced.
 */
async function replaceSteps(tx: Db, id: number, body: MonitorBody): Promise<void> {
  await tx.query(`delete from monitor_steps where monitor_id = $1 and position > $2`, [id, body.steps.length]);
  for (const [gi, g] of body.steps.entries()) {
    const { actions, name, ...config } = g;
    const [step] = await tx.query<{ id: number }>(
      `insert into monitor_steps (monitor_id, position, name, config) values ($1, $2, $3, $4)
       on conflict (monitor_id, position) do update set name = excluded.name, config = excluded.config returning id`,
      [id, gi + 1, name, JSON.stringify(config)],
    );
    if (!step) throw new Error('monitor step not saved');
    await tx.query(`delete from monitor_actions where monitor_step_id = $1 and position > $2`, [step.id, actions.length]);
    for (const [ai, a] of actions.entries()) {
      const { action_id: actionId, expected_blocked: eb, expected_detected: ed, expected_events: events, ...rest } = a;
      // Another Action at this place: the old row (and its history) goes.
      await tx.query(`delete from monitor_actions where monitor_step_id = $1 and position = $2 and action_id <> $3`, [step.id, ai + 1, actionId]);
      await tx.query(
        `insert into monitor_actions (monitor_id, monitor_step_id, position, action_id, expected_blocked, expected_detected, config, expected_events)
         values ($1, $2, $3, $4, $5, $6, $7, $8)
         on conflict (monitor_step_id, position) do update set expected_blocked = excluded.expected_blocked, expected_detected = excluded.expected_detected,
           config = excluded.config, expected_events = excluded.expected_events`,
        [id, step.id, ai + 1, actionId, eb, ed, JSON.stringify(rest), JSON.stringify(events)],
      );
    }
  }
}

export async function deleteMonitor(db: Db, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const m = await scheduleRow(tx, id);
    if (m.next_job_id !== null) await tx.query(`delete from jobs where id = $1 and status = 'sleeping'`, [m.next_job_id]);
    await tx.query(`delete from monitors where id = $1`, [id]);
  });
}

export async function setPaused(db: Db, id: number, paused: boolean, now = Date.now()): Promise<void> {
  await db.transaction(async (tx) => {
    await scheduleRow(tx, id);
    await tx.query(`update monitors set paused = $2, updated_at = now() where id = $1`, [id, paused]);
    await scheduleNext(tx, await scheduleRow(tx, id), now);
  });
}

/** A copy named "Copy of …", paused so it does not run before it is reviewed. */
export async function duplicateMonitor(db: Db, id: number, userId: number | null): Promise<number> {
  return db.transaction(async (tx) => {
    await scheduleRow(tx, id);
    const cols = [...DEFINITION.filter((k) => k !== 'name'), 'monitor_group_id'].join(', ');
    const [row] = await tx.query<{ id: number }>(
      `insert into monitors (name, ${cols}, paused, created_by) select left('Copy of ' || name, 255), ${cols}, true, $2 from monitors where id = $1 returning id`,
      [id, userId],
    );
    if (!row) throw new Error('monitor not copied');
    const steps = await tx.query<{ id: number; position: number }>(`select id, position from monitor_steps where monitor_id = $1 order by position`, [id]);
    for (const s of steps) {
      const [copy] = await tx.query<{ id: number }>(
        `insert into monitor_steps (monitor_id, position, name, config) select $2, position, name, config from monitor_steps where id = $1 returning id`,
        [s.id, row.id],
      );
      await tx.query(
        `insert into monitor_actions (monitor_id, monitor_step_id, position, action_id, expected_blocked, expected_detected, config, expected_events)
         select $2, $3, position, action_id, expected_blocked, expected_detected, config, expected_events from monitor_actions where monitor_step_id = $1`,
        [s.id, row.id, copy?.id],
      );
    }
    return row.id;
  });
}

export async function runMonitorNow(db: Db, id: number, userId: number | null): Promise<number> {
  const [m] = await db.query('select 1 from monitors where id = $1', [id]);
  if (!m) throw notFound(`Monitor ${id} does not exist.`);
  return runNow(db, id, userId);
}
