/** Monitor reads (docs/api.md "Monitors"): the list, one monitor, its run history, drifting steps, groups. */
import type { Db } from '../db/index';
import { notFound } from '../http-errors';
import type {
  DriftItem,
  MonitorActionDetail,
  MonitorDetail,
  MonitorGroupBody,
  MonitorGroupDetail,
  MonitorGroupOption,
  MonitorListAnswer,
  MonitorListItem,
  MonitorListSort,
  MonitorRun,
  MonitorRunsAnswer,
  StepResult,
} from '../../src/api/contracts/monitors';
import { newActionBody } from '../../src/api/contracts/monitors';
import { definitionFields, scheduleInWords } from '../../src/api/contracts/monitor-schedule';
import type { ActionUserProfileField } from '../../src/api/contracts/run-as-selection';
import { SCHEDULE_COLUMNS, type MonitorScheduleRow } from './runs';
import { runAsFields } from './run-as';

const iso = (v: string | null) => (v === null ? null : new Date(v).toISOString());

const ORDER: Record<MonitorListSort, string> = {
  name: 'lower(m.name)',
  next_run_at: 'm.next_run_at',
  last_run: 'lj.job_time',
  failed: 'coalesce(lr.failed, 0)',
  drift: 'coalesce(lr.drift, 0)',
  monitor_group: 'lower(g.name)',
};

type ListRow = MonitorScheduleRow & {
  description: string;
  monitor_group: string | null;
  last_run_at: string | null;
  last_run_status: string | null;
  last_job_id: number | null;
  step_count: number;
  passed: number | null;
  failed: number | null;
  drift: number | null;
};

export async function listMonitors(db: Db, q: { search: string; sort: MonitorListSort; dir: 'asc' | 'desc' }): Promise<MonitorListAnswer> {
  const search = q.search.trim().toLowerCase();
  const rows = await db.query<ListRow>(
    `select m.id, m.name, m.description, m.paused, m.next_run_at::text, m.next_job_id, ${SCHEDULE_COLUMNS.replace(/(\w+)/g, 'm.$1')},
            g.name as monitor_group, lj.job_time::text as last_run_at, lj.status as last_run_status, m.last_job_id,
            (select count(*)::int from monitor_actions ma where ma.monitor_id = m.id) as step_count,
            lr.passed, lr.failed, lr.drift
       from monitors m
       left join monitor_groups g on g.id = m.monitor_group_id
       left join jobs lj on lj.id = m.last_job_id
       left join lateral (select passed, failed, drift from monitor_runs r where r.monitor_id = m.id and r.evaluated_at is not null and r.passed + r.failed > 0 order by r.job_id desc limit 1) lr on true
      where ($1 = '' or strpos(lower(m.name), $1) > 0 or strpos(lower(m.description), $1) > 0 or strpos(lower(coalesce(g.name, '')), $1) > 0)
      order by ${ORDER[q.sort]} ${q.dir} nulls last, m.id ${q.dir}`,
    [search],
  );
  const data: MonitorListItem[] = rows.map((r) => ({
    id: r.id,
    name: r.name,
    description: r.description,
    monitor_group: r.monitor_group,
    schedule: scheduleInWords(r),
    timezone: r.timezone,
    paused: r.paused,
    next_run_at: iso(r.next_run_at),
    last_run_at: iso(r.last_run_at),
    last_run_status: (r.last_run_status ?? 'never') as MonitorListItem['last_run_status'],
    last_job_id: r.last_job_id,
    step_count: r.step_count,
    passed: r.passed ?? 0,
    failed: r.failed ?? 0,
    drift: r.drift ?? 0,
  }));
  return { data, meta: { total_count: data.length } };
}

export async function monitorGroups(db: Db): Promise<MonitorGroupOption[]> {
  return db.query<MonitorGroupOption>('select id, name from monitor_groups order by lower(name), id');
}

export async function getMonitor(db: Db, id: number): Promise<MonitorDetail> {
  const [m] = await db.query<MonitorScheduleRow & Record<string, unknown>>(
    `select m.*, m.next_run_at::text as next_run_at, g.name as monitor_group_name from monitors m left join monitor_groups g on g.id = m.monitor_group_id where m.id = $1`,
    [id],
  );
  if (!m) throw notFound(`Monitor ${id} does not exist.`);
  const steps = await db.query<{ id: number; position: number; name: string; config: Record<string, unknown> }>(
    'select id, position, name, config from monitor_steps where monitor_id = $1 order by position',
    [id],
  );
  const actions = await db.query<{
    id: number; monitor_step_id: number; action_id: number; name: string; action_type: string; vid: string; require_protected: boolean; expected_blocked: string; expected_detected: string;
    config: Record<string, unknown>; expected_events: unknown[]; last_outcome: string | null; drift: boolean | null; last_job_action_id: number | null;
  }>(
    `select ma.id, ma.monitor_step_id, ma.action_id, a.name, a.action_type, a.vid, a.require_protected, ma.expected_blocked, ma.expected_detected, ma.config, ma.expected_events,
            lr.outcome as last_outcome, lr.drift, lr.job_action_id as last_job_action_id
       from monitor_actions ma join actions a on a.id = ma.action_id
       left join lateral (select outcome, drift, job_action_id from monitor_step_results r where r.monitor_action_id = ma.id order by r.job_id desc limit 1) lr on true
      where ma.monitor_id = $1 order by ma.monitor_step_id, ma.position`,
    [id],
  );
  const groups = await monitorGroups(db);
  const profiles = await db.query<ActionUserProfileField['profiles'][number]>('select id, friendly_name, username from action_user_profiles order by lower(friendly_name), id');
  const detailSteps: MonitorGroupDetail[] = steps.map((s) => ({
    ...(s.config as Omit<MonitorGroupDetail, 'id' | 'name' | 'actions'>),
    ...runAsFields({ require_interactive: false, interactive_desktop_session: false, ...(s.config as Partial<MonitorGroupBody>) } as MonitorGroupBody, profiles),
    id: s.id,
    name: s.name,
    actions: actions
      .filter((a) => a.monitor_step_id === s.id)
      .map((a) => ({
        ...newActionBody(a.action_id),
        ...(a.config as Partial<MonitorActionDetail>),
        id: a.id,
        action_id: a.action_id,
        name: a.name,
        action_type: a.action_type,
        vid: a.vid,
        require_protected: a.require_protected,
        expected_blocked: a.expected_blocked,
        expected_detected: a.expected_detected,
        expected_events: a.expected_events,
        last_outcome: a.last_outcome,
        last_job_action_id: a.last_job_action_id ?? null,
        drift: a.drift === true,
      }) as MonitorActionDetail),
  }));
  const def = {
    name: m.name,
    description: m.description as string,
    monitor_group: (m.monitor_group_id as number | null) ?? null,
    new_monitor_group: '',
    monitor_runtime: m.monitor_runtime,
    timezone: m.timezone,
    repeat_job_period_number: m.repeat_job_period_number,
    repeat_job_period_type: m.repeat_job_period_type,
    repeat_week_days: m.repeat_week_days,
    repeat_monthly_frequency: m.repeat_monthly_frequency,
    repeat_day_of_the_week: m.repeat_day_of_the_week,
    extra_sleep: m.extra_sleep,
  };
  return {
    ...def,
    id: m.id,
    detection_timeout_seconds: m.detection_timeout_seconds as number,
    simulation_id: (m.simulation_id as number | null) ?? null,
    monitor_group_name: (m.monitor_group_name as string | null) ?? null,
    paused: m.paused,
    next_run_at: iso(m.next_run_at),
    next_job_id: m.next_job_id,
    last_job_id: (m.last_job_id as number | null) ?? null,
    schedule: scheduleInWords(m),
    steps: detailSteps,
    fields: definitionFields(def, groups),
  };
}

export async function monitorRuns(db: Db, id: number, page: number, perPage: number): Promise<MonitorRunsAnswer> {
  const [exists] = await db.query('select 1 from monitors where id = $1', [id]);
  if (!exists) throw notFound(`Monitor ${id} does not exist.`);
  const [{ n } = { n: 0 }] = await db.query<{ n: number }>('select count(*)::int as n from monitor_runs where monitor_id = $1', [id]);
  const runs = await db.query<Omit<MonitorRun, 'steps' | 'evaluated'> & { evaluated_at: string | null }>(
    `select r.job_id, j.status, j.progress, r.scheduled_for::text, r.started_at::text, r.trigger, r.evaluated_at::text, r.passed, r.failed, r.not_run, r.drift
       from monitor_runs r join jobs j on j.id = r.job_id where r.monitor_id = $1 order by r.job_id desc limit $2 offset $3`,
    [id, perPage, (page - 1) * perPage],
  );
  const results = runs.length
    ? await db.query<StepResult & { job_id: number }>(
        `select r.job_id, r.monitor_action_id, r.job_action_id, coalesce(ja.name, a.name) as name, r.outcome, r.blocked, r.detected, r.previous_outcome, r.drift, r.reason
           from monitor_step_results r
           join monitor_actions ma on ma.id = r.monitor_action_id join monitor_steps ms on ms.id = ma.monitor_step_id join actions a on a.id = ma.action_id
           left join job_actions ja on ja.id = r.job_action_id
          where r.job_id = any($1::int[]) order by ms.position, ma.position`,
        [runs.map((r) => r.job_id)],
      )
    : [];
  return {
    data: runs.map(({ evaluated_at, ...r }) => ({
      ...r,
      scheduled_for: new Date(r.scheduled_for).toISOString(),
      started_at: iso(r.started_at),
      evaluated: evaluated_at !== null,
      steps: results.filter((x) => x.job_id === r.job_id).map(({ job_id: _j, ...x }) => x),
    })),
    meta: { total_count: n, total_pages: Math.max(1, Math.ceil(n / perPage)), page, per_page: perPage },
  };
}

/** Steps whose latest judged outcome differs from the one before (drift), across every monitor. */
export async function driftingSteps(db: Db): Promise<DriftItem[]> {
  return db.query<DriftItem>(
    `select m.id as monitor_id, m.name as monitor_name, ma.id as monitor_action_id,
            (select count(*)::int from monitor_actions x join monitor_steps xs on xs.id = x.monitor_step_id
              where x.monitor_id = m.id and (xs.position, x.position) <= (ms.position, ma.position)) as step,
            a.name as action_name, r.job_id, r.outcome, r.previous_outcome, r.created_at as at
       from monitor_actions ma
       join monitors m on m.id = ma.monitor_id
       join monitor_steps ms on ms.id = ma.monitor_step_id
       join actions a on a.id = ma.action_id
       join lateral (select * from monitor_step_results r where r.monitor_action_id = ma.id and r.outcome <> 'not_run' order by r.job_id desc limit 1) r on true
      where r.drift
      order by r.created_at desc, m.id, ms.position, ma.position`,
  ).then((rows) => rows.map((r) => ({ ...r, at: new Date(r.at).toISOString() })));
}
