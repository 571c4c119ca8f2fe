import type { Db } from '../db/index';
import { HttpError, notFound } from '../http-errors';
import { ACTION_COMPLETE_STATUSES, CANCELLABLE_STATUSES, FINISHED_STATUSES, MAX_EVENTS, PUBLISHED, PUBLISH_PIPELINES, type CancelAnswer, type EventSeverity, type EventsFilter, type JobAction, type JobActionEventsAnswer, type JobActionEvidenceAnswer, type JobActionWork, type JobDetail, type JobStep, type NodeRef, type PublishAnswer, type StepActionsAnswer, type SummaryReportAnswer, type SummaryTotals } from '../../src/api/contracts/jobs';
import { EVENTS_CONDITION, iso } from './list-query';
import { type JobStatus } from '../../src/api/contracts/vocabulary';

export const conflict = (message: string) => new HttpError(409, message);

const jobNotFound = (id: number) => notFound(`Job ${id} was not found.`);

// ---------------------------------------------------------------------------------------------
// One job with its steps

interface StepRow {
  id: number;
  step_id: number | null;
  group_order: number;
  name: string;
  action_user_profile_name: string | null;
  action_user_profile_friendly_name: string | null;
  src_id: number | null;
  src_name: string | null;
  src_friendly: string | null;
  src_addr: string | null;
  src_zone: string | null;
  dst_id: number | null;
  dst_name: string | null;
  dst_friendly: string | null;
  dst_addr: string | null;
  dst_zone: string | null;
  action_count: number;
  blocked: number;
  detected: number;
  alerted: number;
  not_run: number;
  completed_count: number;
  ran: number;
}

const node = (id: number | null, name: string | null, friendly: string | null, addr: string | null, zone: string | null): NodeRef | null =>
  id === null ? null : { id, label: friendly || name || `Actor ${id}`, value: addr ?? '', name: name ?? '', zone };

/** Per-step totals of the steps `where` picks (job_actions_step_idx per step); $2 is ACTION_COMPLETE_STATUSES. */
const stepSql = (where: string) => `
  select s.id, s.job_id, s.step_id, s.group_order, s.name, s.action_user_profile_name, s.action_user_profile_friendly_name,
    src.id as src_id, src.name as src_name, src.friendly_name as src_friendly, src.sim_address as src_addr, sz.name as src_zone,
    dst.id as dst_id, dst.name as dst_name, dst.friendly_name as dst_friendly, dst.sim_address as dst_addr, dz.name as dst_zone,
    coalesce(t.action_count, 0)::int as action_count, coalesce(t.blocked, 0)::int as blocked, coalesce(t.detected, 0)::int as detected,
    coalesce(t.alerted, 0)::int as alerted, coalesce(t.not_run, 0)::int as not_run, coalesce(t.completed_count, 0)::int as completed_count,
    coalesce(t.ran, 0)::int as ran
  from job_steps s
  left join nodes src on src.id = s.source_node_id left join zones sz on sz.id = src.security_zone_id
  left join nodes dst on dst.id = s.destination_node_id left join zones dz on dz.id = dst.security_zone_id
  left join lateral (
    select count(*) as action_count,
      count(*) filter (where a.status = 'ran' and a.blocked) as blocked,
      count(*) filter (where a.status = 'ran' and (a.events > 0 or a.alerted)) as detected,
      count(*) filter (where a.status = 'ran' and a.alerted) as alerted,
      count(*) filter (where a.status in ('not run', 'incompatible')) as not_run,
      count(*) filter (where a.status = any($2::text[])) as completed_count,
      count(*) filter (where a.status = 'ran') as ran
    from job_actions a where a.job_step_id = s.id
  ) t on true
  where ${where}`;

/** The steps of a set of jobs with their totals, in one statement. */
async function stepsOf(db: Db, jobIds: readonly number[]): Promise<(StepRow & { job_id: number })[]> {
  return db.query<StepRow & { job_id: number }>(`${stepSql('s.job_id = any($1::int[])')} order by s.job_id, s.group_order, s.id`, [jobIds, ACTION_COMPLETE_STATUSES]);
}

const toStep = (r: StepRow): JobStep => ({
  id: r.id,
  step_id: r.step_id,
  group_order: r.group_order,
  name: r.name,
  source: node(r.src_id, r.src_name, r.src_friendly, r.src_addr, r.src_zone),
  destination: node(r.dst_id, r.dst_name, r.dst_friendly, r.dst_addr, r.dst_zone),
  blocked: r.blocked,
  detected: r.detected,
  alerted: r.alerted,
  not_run: r.not_run,
  action_count: r.action_count,
  completed_count: r.completed_count,
  action_user_profile_name: r.action_user_profile_name,
  action_user_profile_friendly_name: r.action_user_profile_friendly_name,
  actions: null,
});

interface JobRow {
  id: number;
  name: string;
  status: JobStatus;
  progress: number;
  created_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
  job_time: Date | string;
  ran_by: string;
  user_id: number | null;
  user_email: string | null;
  assessment_name: string | null;
  published_status: number;
  latest_published_time: Date | string | null;
  latest_published_pipeline: string | null;
  sim_id: number | null;
  sim_vid: string | null;
  sim_type: 'sequence' | 'eval' | null;
  sim_name: string | null;
  act_id: number | null;
  act_vid: string | null;
  act_name: string | null;
}

/** One job with its steps and their totals: one statement (the steps as a JSON list of the job's row). */
export async function getJob(db: Db, id: number): Promise<JobDetail> {
  const [j] = await db.query<JobRow & { steps: StepRow[] | string }>(
    `select j.id, j.name, j.status, j.progress, j.created_at, j.started_at, j.finished_at, j.job_time, j.ran_by, j.user_id, u.email as user_email,
       j.assessment_name, j.published_status, j.latest_published_time, j.latest_published_pipeline,
       s.id as sim_id, s.vid as sim_vid, s.simulation_type as sim_type, s.name as sim_name, a.id as act_id, a.vid as act_vid, a.name as act_name,
       (select coalesce(json_agg(st order by st.group_order, st.id), '[]'::json) from (${stepSql('s.job_id = j.id')}) st) as steps
     from jobs j left join users u on u.id = j.user_id left join simulations s on s.id = j.simulation_id left join actions a on a.id = j.action_id
     where j.id = $1`,
    [id, ACTION_COMPLETE_STATUSES],
    // Planned once per connection: planning this join was most of its time on PostgreSQL (3.3-3.9 ms a job, 0.4 ms prepared).
    { name: 'job-detail' },
  );
  if (!j) throw jobNotFound(id);
  const steps: StepRow[] = typeof j.steps === 'string' ? (JSON.parse(j.steps) as StepRow[]) : j.steps;
  return {
    id: j.id,
    name: j.name,
    status: j.status,
    progress: j.progress,
    timestamp: iso(j.created_at) ?? '',
    started_at: iso(j.started_at),
    finished_at: iso(j.finished_at),
    job_time: iso(j.job_time) ?? '',
    user: j.user_id === null ? null : { id: j.user_id, name: j.ran_by, email: j.user_email ?? '' },
    job_user: j.ran_by,
    assessment: { assessment_name: j.assessment_name },
    publish_job_pipeline: { latest_published_time: iso(j.latest_published_time), latest_published_status: j.published_status, latest_published_pipeline: j.latest_published_pipeline },
    simulation: j.sim_id !== null && j.sim_vid && j.sim_type ? { id: j.sim_id, vid: j.sim_vid, sim_type: j.sim_type, name: j.sim_name ?? '' } : null,
    action: j.act_id !== null && j.act_vid ? { id: j.act_id, vid: j.act_vid, name: j.act_name ?? '' } : null,
    steps: steps.map(toStep),
  };
}

// ---------------------------------------------------------------------------------------------
// Actions of steps

export const ACTION_COLUMNS = `a.id, a.job_id, a.job_step_id, a.position, a.name, a.action_id as sim_action_id, a.sim_action_vid, a.status, a.alerted, a.blocked,
  a.blocked_msg, a.detected_msg, a.events, a.suspect_events, a.disabled, a.action_type, a.started_at, a.finished_at,
  case when a.status in ('not run', 'incompatible', 'errored', 'cancelled') then coalesce(a.evidence ->> 'reason', a.evidence ->> 'error', a.blocked_msg) end as reason`;

type ActionRow = Omit<JobAction, 'started_at' | 'finished_at'> & { started_at: Date | string | null; finished_at: Date | string | null };
export const toAction = (r: ActionRow): JobAction => ({ ...r, started_at: iso(r.started_at), finished_at: iso(r.finished_at) });

/** The actions of steps, in one statement: each step found gives a row (its action's columns null when it has none). */
export async function getStepActions(db: Db, stepIds: readonly number[], events: EventsFilter | null): Promise<StepActionsAnswer> {
  const cond = events ? ` and ${EVENTS_CONDITION[events]}` : '';
  const rows = await db.query<Omit<ActionRow, 'id'> & { id: number | null; step: number }>(
    `select st.id as step, ${ACTION_COLUMNS} from job_steps st left join job_actions a on a.job_step_id = st.id${cond}
      where st.id = any($1::int[]) order by st.id, a.position, a.id`,
    [stepIds],
  );
  const found = new Set(rows.map((r) => r.step));
  if (found.size !== stepIds.length) {
    const missing = stepIds.filter((s) => !found.has(s));
    throw notFound(`Job step${missing.length > 1 ? 's' : ''} ${missing.join(', ')} ${missing.length > 1 ? 'were' : 'was'} not found.`);
  }
  const out: StepActionsAnswer = {};
  for (const id of stepIds) out[String(id)] = [];
  for (const { step, ...r } of rows) if (r.id !== null) out[String(step)]!.push(toAction(r as ActionRow));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Cancel, delete, publish

/**
 * Cancels a job that has not finished: the job becomes 'cancelled' (finished now), its pending actions
 * 'not run' and its running ones 'cancelled', in one transaction. Nothing runs jobs yet except the
 * engine of issue 9, which stops the work of cancelled jobs; until then this state change is the stop.
 */
export async function cancelJob(db: Db, id: number, by: string): Promise<CancelAnswer> {
  return db.transaction(async (tx) => {
    const [row] = await tx.query<{ id: number }>(
      `update jobs set status = 'cancelled', finished_at = now(), updated_at = now() where id = $1 and status = any($2::text[]) returning id`,
      [id, CANCELLABLE_STATUSES],
    );
    if (!row) {
      const [j] = await tx.query<{ status: string }>('select status from jobs where id = $1', [id]);
      if (!j) throw jobNotFound(id);
      throw conflict(`Job ${id} is ${j.status} and can no longer be cancelled.`);
    }
    const stopped = await tx.query<{ id: number }>(
      `update job_actions set
         status = case when status = 'pending' then 'not run' else 'cancelled' end,
         finished_at = case when status = 'pending' then finished_at else now() end,
         evidence = evidence || jsonb_build_object('reason', case when status = 'pending' then 'The job was cancelled.' else 'Cancelled by ' || $2::text || '.' end)
       where job_id = $1 and status in ('pending', 'running', 'waiting', 'reverting')
       returning id`,
      [id, by],
    );
    return { id, status: 'cancelled', stopped_actions: stopped.length };
  });
}

/** Deletes a finished job with its steps, actions and events. */
export async function deleteJob(db: Db, id: number): Promise<void> {
  const rows = await db.query<{ id: number }>('delete from jobs where id = $1 and status = any($2::text[]) returning id', [id, FINISHED_STATUSES]);
  if (rows.length) return;
  const [j] = await db.query<{ status: string }>('select status from jobs where id = $1', [id]);
  if (!j) throw jobNotFound(id);
  throw conflict(`Job ${id} is ${j.status}: only finished jobs can be deleted.`);
}

/** Publishes finished jobs to a pipeline (all or none): publish_job_pipeline becomes published now. */
export async function publishJobs(db: Db, ids: readonly number[], pipeline: string): Promise<PublishAnswer> {
  const unique = [...new Set(ids)];
  return db.transaction(async (tx) => {
    const rows = await tx.query<{ id: number; status: string; latest_published_pipeline: string | null }>(
      'select id, status, latest_published_pipeline from jobs where id = any($1::int[]) order by id for update',
      [unique],
    );
    if (rows.length !== unique.length) {
      const found = new Set(rows.map((r) => r.id));
      const missing = unique.filter((i) => !found.has(i));
      throw notFound(missing.length === 1 ? `Job ${missing[0]} was not found.` : `Jobs ${missing.join(', ')} were not found.`);
    }
    const unfinished = rows.filter((r) => !(FINISHED_STATUSES as readonly string[]).includes(r.status));
    if (unfinished.length) {
      throw conflict(`Only finished jobs can be published: ${unfinished.slice(0, 5).map((r) => `job ${r.id} is ${r.status}`).join(', ')}${unfinished.length > 5 ? ', …' : ''}.`);
    }
    const target = pipeline || rows[0]?.latest_published_pipeline || PUBLISH_PIPELINES[0];
    const [row] = await tx.query<{ t: Date | string }>(
      `update jobs set published_status = $3, latest_published_time = now(), latest_published_pipeline = $2, updated_at = now()
       where id = any($1::int[]) returning latest_published_time as t`,
      [unique, target, PUBLISHED],
    );
    return { published: unique, pipeline: target, latest_published_time: iso(row?.t ?? new Date()) ?? '' };
  });
}

// ---------------------------------------------------------------------------------------------
// Events of a job action

export type EventsKind = 'detected' | 'suspicious' | 'all';

export async function getActionEvents(db: Db, jobActionId: number, kind: EventsKind): Promise<JobActionEventsAnswer> {
  const [a] = await db.query<JobActionEventsAnswer['job_action']>(
    'select id, job_id, name, sim_action_vid, events, suspect_events, status from job_actions where id = $1',
    [jobActionId],
  );
  if (!a) throw notFound(`Job action ${jobActionId} was not found.`);
  const cond = kind === 'all' ? '' : `and e.suspicious = ${kind === 'suspicious' ? 'true' : 'false'}`;
  const rows = await db.query<{ id: number; integration_id: number | null; integration_name: string | null; description: string; raw_event: string; suspicious: boolean; alert: boolean; severity: EventSeverity | null; occurred_at: Date | string }>(
    `select e.id, e.integration_id, i.name as integration_name, e.description, e.raw_event, e.suspicious, e.alert, e.severity, e.occurred_at
     from job_action_events e left join integrations i on i.id = e.integration_id
     where e.job_action_id = $1 ${cond} order by e.occurred_at, e.id limit ${MAX_EVENTS}`,
    [jobActionId],
  );
  return {
    job_action: a,
    events: rows.map((r) => ({
      id: r.id,
      integration: r.integration_id === null ? null : { id: r.integration_id, name: r.integration_name ?? '' },
      description: r.description,
      raw_event: r.raw_event,
      suspicious: r.suspicious,
      alert: r.alert,
      severity: r.severity,
      occurred_at: iso(r.occurred_at) ?? '',
    })),
  };
}

/** A job action's evidence in one answer: the action and its reason, each side's work (actor, output, timings), its events. */
export async function getActionEvidence(db: Db, jobActionId: number, withEvents: boolean): Promise<JobActionEvidenceAnswer> {
  const [a] = await db.query<ActionRow & { evidence: Record<string, unknown> | null; step_group_order: number; step_name: string }>(
    `select ${ACTION_COLUMNS}, a.evidence, s.group_order as step_group_order, s.name as step_name
     from job_actions a join job_steps s on s.id = a.job_step_id where a.id = $1`,
    [jobActionId],
  );
  if (!a) throw notFound(`Job action ${jobActionId} was not found.`);
  const work = await db.query<{ role: JobActionWork['role']; node_id: number | null; node_name: string | null; status: string; error: string | null; result: unknown; created_at: Date | string | null; claimed_at: Date | string | null; ready_at: Date | string | null; finished_at: Date | string | null }>(
    `select w.role, w.node_id, coalesce(nullif(n.friendly_name, ''), n.name) as node_name, w.status, w.error, w.result, w.created_at, w.claimed_at, w.ready_at, w.finished_at
     from engine_work w left join nodes n on n.id = w.node_id where w.job_action_id = $1 order by w.role = 'target' desc, w.id`,
    [jobActionId],
  );
  const { evidence, step_group_order, step_name, ...action } = a;
  const ja = toAction(action);
  const started = ja.started_at ? Date.parse(ja.started_at) : NaN;
  const finished = ja.finished_at ? Date.parse(ja.finished_at) : NaN;
  return {
    job_action: {
      ...ja,
      step: { id: ja.job_step_id, group_order: step_group_order, name: step_name },
      evidence: evidence ?? {},
      duration_ms: Number.isFinite(started) && Number.isFinite(finished) ? Math.max(0, finished - started) : null,
    },
    work: work.map((w) => ({
      role: w.role,
      actor: w.node_id === null ? null : { id: w.node_id, name: w.node_name ?? `Actor ${w.node_id}` },
      status: w.status,
      error: w.error,
      result: w.result ?? null,
      created_at: iso(w.created_at),
      claimed_at: iso(w.claimed_at),
      ready_at: iso(w.ready_at),
      finished_at: iso(w.finished_at),
    })),
    events: withEvents ? (await getActionEvents(db, jobActionId, 'all')).events : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Job Summary Report

function totals(rows: readonly Pick<StepRow, 'action_count' | 'blocked' | 'detected' | 'alerted' | 'not_run' | 'ran'>[]): SummaryTotals {
  const sum = (k: 'action_count' | 'blocked' | 'detected' | 'alerted' | 'not_run' | 'ran') => rows.reduce((s, r) => s + r[k], 0);
  const ran = sum('ran');
  const blocked = sum('blocked');
  return {
    actions: sum('action_count'),
    blocked,
    detected: sum('detected'),
    alerted: sum('alerted'),
    not_run: sum('not_run'),
    percent_blocked: ran ? Math.round((blocked / ran) * 1000) / 10 : 0,
  };
}

export async function summaryReport(db: Db, ids: readonly number[]): Promise<SummaryReportAnswer> {
  const unique = [...new Set(ids)];
  const jobs = await db.query<{ id: number; name: string; status: JobStatus; ran_by: string; job_time: Date | string }>(
    'select id, name, status, ran_by, job_time from jobs where id = any($1::int[])',
    [unique],
  );
  if (jobs.length !== unique.length) {
    const found = new Set(jobs.map((j) => j.id));
    const missing = unique.filter((i) => !found.has(i));
    throw notFound(missing.length === 1 ? `Job ${missing[0]} was not found.` : `Jobs ${missing.join(', ')} were not found.`);
  }
  const steps = await stepsOf(db, unique);
  const byId = new Map(jobs.map((j) => [j.id, j]));
  return {
    jobs: unique.map((id) => {
      const j = byId.get(id)!;
      const own = steps.filter((s) => s.job_id === id);
      return {
        id,
        name: j.name,
        status: j.status,
        job_user: j.ran_by,
        job_time: iso(j.job_time) ?? '',
        totals: totals(own),
        steps: own.map((s) => ({ id: s.id, group_order: s.group_order, name: s.name, totals: totals([s]) })),
      };
    }),
  };
}
