import type { Db } from '../db/index';
import { validate } from '../http-errors';
import { weekdayNumbers } from '../../src/api/contracts/weekdays';
import { keptWeekdays } from '../../src/api/contracts/time-range';
import { EVENTS_CONDITION, filterConditions, isFiltered, parseListQuery, textMatches, Params, type ListFilter } from '../jobs/list-query';
import { compileJobRules } from '../jobs/rule-filter';
import { reportQuerySchema, type ReportQuery } from '../../src/api/contracts/report-requests';
import { parseFilterRules, type ParsedNode } from '../../src/api/contracts/filters';
import { JOB_STATUSES } from '../../src/api/contracts/vocabulary';
import { isJobFinished } from '../../src/api/contracts/jobs';
import type { RawPiece } from './slices';
import type { KeptDays } from './weekday-windows';

/**
 * What every result call reads: the job actions of the jobs that started in a time range and pass the
 * jobs list's filter (text, VID, events and rule filters: the same rules as /jobs/list_page_data.json).
 * Without a filter the counts come from the rollups (server/reports/rollups.ts) plus the raw job actions
 * at the range's edges. A filter that asks only what a job class keeps (020_reports_filter_rollups.sql:
 * name, Ran By, assessment, published, simulation) is evaluated over the classes, and the counts come
 * from the matching classes' rollups plus the raw job actions at the edges that pass the filter. A
 * filter made only of job status conditions (022_reports_status_rollups.sql) reads the status rollups of
 * the finished statuses it keeps, the raw job actions at the edges of those, and the jobs of the
 * unfinished statuses it keeps raw (few: they wait or run). A filter made only of conditions on the job
 * actions' VIDs, or only of conditions on their event counts (023_reports_facet_rollups.sql), is
 * evaluated over the facet classes (each a set of VIDs or of event counts that jobs share), and reads the
 * matching classes' facet rollups, the raw job actions of finished jobs at the edges and the unfinished
 * jobs raw, as a status filter. Any other filter reads the job actions of the jobs it keeps raw.
 */
export interface ReportScope {
  q: ReportQuery;
  start: Date | null;
  end: Date | null;
  /** The filter's conditions on jobs `j` (the range excluded); null when the filter matches no job. */
  conds: string[] | null;
  /** A filter other than the time range is set: the plain rollups cannot answer. */
  filtered: boolean;
  /** The job classes the filter keeps when it asks only what classes keep (their rollups answer); null otherwise. */
  classes: number[] | null;
  /**
   * With a filter made only of job status conditions: the finished statuses it keeps (their status
   * rollups answer) and the unfinished ones (their jobs are read raw over the whole range); null otherwise.
   */
  statuses: { finished: string[]; open: string[] } | null;
  /** With a filter made only of VID or only of event count conditions: the family and the classes it keeps (023); null otherwise. */
  facet: { f: Facet; classes: number[] } | null;
  /** MON-051: the days of the week the range keeps, by local day (weekday-windows.ts); null for every day. */
  days: KeptDays | null;
  p: Params;
}

/** The facet families of 023_reports_facet_rollups.sql: 1 the VIDs of a job's job actions, 2 their event counts. */
export type Facet = 1 | 2;
const FACET_FIELD: Record<string, Facet> = { vid: 1, events: 2 };
/** A facet class (alias j) as the rows a that job action conditions test: one per VID, or per (events, suspect_events > 0) pair. */
const FACET_ROWS: Record<Facet, string> = {
  1: 'unnest(j.vids) a(sim_action_vid) where true',
  2: 'unnest(j.events, j.suspects) a(events, suspect_events) where true',
};
const FACET_CLASSES: Record<Facet, string> = { 1: 'report_vid_sets', 2: 'report_event_sets' };
/** A job's own job actions as rows a. */
const JOB_ROWS = 'job_actions a where a.job_id = j.id';

/** The job action fields of the conditions of a rule tree, or null when one is on something else. */
function jobActionFields(n: ParsedNode, into: Set<string>): Set<string> | null {
  if (n.kind === 'condition') return n.object === 'job_action' ? into.add(n.field) : null;
  for (const c of n.children) if (!jobActionFields(c, into)) return null;
  return into;
}

/**
 * The facet family that can answer a filter: one made only of an Action VID and rule builder conditions
 * on the job action VID (1), or only of the events filter and conditions on the job action events (2).
 */
export function facetOf(f: ListFilter): Facet | null {
  if (f.range || f.text || (f.vid && f.vid.startsWith('S')) || (f.vid && f.events)) return null;
  let facet: Facet | null = f.vid ? 1 : f.events ? 2 : null;
  if (f.rules) {
    let fields: Set<string> | null;
    try {
      fields = jobActionFields(parseFilterRules('jobs', f.rules), new Set());
    } catch {
      // The compiler has answered 400 for a malformed tree already; nothing to decide.
      return null;
    }
    const of = fields && fields.size === 1 ? FACET_FIELD[[...fields][0]!] : undefined;
    if (!of || (facet && facet !== of)) return null;
    facet = of;
  }
  return facet;
}

/** A facet filter's conditions over jobs j whose job actions are the rows of `rows` (as filterConditions, one probe per job). */
function facetConditions(f: ListFilter, p: Params, rows: string): string[] {
  const conds: string[] = [];
  if (f.vid) conds.push(`exists (select 1 from ${rows} and a.sim_action_vid = ${p.add(f.vid)})`);
  if (f.events) conds.push(`exists (select 1 from ${rows} and ${EVENTS_CONDITION[f.events]})`);
  if (f.rules) conds.push(`(${compileJobRules(f.rules, p.add, rows)})`);
  return conds;
}

/** Job fields of the rule builder that report_job_classes keeps. */
const CLASS_RULE_FIELDS = new Set(['name', 'ran_by', 'assessment_name', 'published']);
const onClassFields = (n: ParsedNode): boolean => (n.kind === 'condition' ? n.object === 'job' && CLASS_RULE_FIELDS.has(n.field) : n.children.every(onClassFields));

/**
 * Whether every condition of a filter is on the fields a job class keeps. The filter text also matches
 * job ids and statuses (not kept) when it looks like one; an Action VID, events and job action rules
 * look at the job actions.
 */
export function isClassFilter(f: ListFilter): boolean {
  if (f.range || f.events) return false;
  if (f.vid && !f.vid.startsWith('S')) return false;
  const t = f.text.toLowerCase();
  if (t && (/^\d{1,9}$/.test(t) || JOB_STATUSES.some((st) => st.includes(t)))) return false;
  if (!f.rules) return true;
  try {
    return onClassFields(parseFilterRules('jobs', f.rules));
  } catch {
    // The compiler has answered 400 for a malformed tree already; nothing to decide.
    return false;
  }
}

const onStatus = (n: ParsedNode): boolean => (n.kind === 'condition' ? n.object === 'job' && n.field === 'status' : n.children.every(onStatus));

/**
 * Whether a filter is made only of job status conditions: rule builder conditions on the job status
 * (any and/or tree) and a filter text that matches statuses only (no job id, job name or Ran By).
 */
export async function isStatusFilter(db: Db, f: ListFilter): Promise<boolean> {
  if (f.range || f.events || f.vid || (!f.text && !f.rules)) return false;
  if (f.rules) {
    try {
      if (!onStatus(parseFilterRules('jobs', f.rules))) return false;
    } catch {
      // The compiler has answered 400 for a malformed tree already; nothing to decide.
      return false;
    }
  }
  if (f.text) {
    const m = await textMatches(db, f.text);
    if (m.id !== null || m.names === 'many' || m.names.length || m.ranBy.length) return false;
  }
  return true;
}

/** Validates a raw query (400 with a message on bad input) and builds the filter's conditions. */
export async function reportScope(db: Db, raw: Record<string, unknown>): Promise<ReportScope> {
  const q = validate(reportQuerySchema, raw);
  // MON-051: the days of the week are kept as windows of time (weekday-windows.ts), whatever the filter.
  const kept = keptWeekdays({ repeat_week_days: q.week_days });
  return { ...(await filterScope(db, q)), days: kept ? { days: new Set(weekdayNumbers(kept)), tz: q.tz } : null };
}

/** The filter's conditions and what answers them (the plain, class, status or facet rollups, or raw). */
async function filterScope(db: Db, q: ReportQuery): Promise<Omit<ReportScope, 'days'>> {
  const start = q.start ? new Date(q.start) : null;
  const end = q.end ? new Date(q.end) : null;
  // The jobs list's own parser checks the filter fields (structuredFilter needs filter=adhoc, rules...).
  const listFilter: ListFilter = parseListQuery({ filterVal: q.filterVal, vid: q.vid, filter: q.filter, structuredFilter: q.structuredFilter }).filter;
  const p = new Params();
  const conds = await filterConditions(db, listFilter, p);
  const filtered = isFiltered(listFilter);
  if (filtered && conds && (await isStatusFilter(db, listFilter))) {
    // The conditions over alias j look at j.status only: evaluated over every status.
    const v = p.clone();
    const [row] = await db.query<{ s: string[] | null }>(`select array_agg(j.status order by j.status) as s from unnest(${v.add(JOB_STATUSES)}::text[]) j(status) where ${conds.join(' and ')}`, v.values);
    const kept = row?.s ?? [];
    const statuses = { finished: kept.filter(isJobFinished), open: kept.filter((x) => !isJobFinished(x)) };
    return { q, start, end, conds: kept.length ? conds : null, filtered, classes: null, statuses, facet: null, p };
  }
  const facet = filtered && conds ? facetOf(listFilter) : null;
  if (facet) {
    // The conditions over a class's set hold for the class as for each of its jobs' job actions.
    const v = new Params();
    const [row] = await db.query<{ ids: number[] | null }>(
      `select array_agg(j.class_id order by j.class_id) as ids from ${FACET_CLASSES[facet]} j where ${facetConditions(listFilter, v, FACET_ROWS[facet]).join(' and ')}`,
      v.values,
    );
    const jp = new Params();
    return { q, start, end, conds: facetConditions(listFilter, jp, JOB_ROWS), filtered, classes: null, statuses: null, facet: { f: facet, classes: row?.ids ?? [] }, p: jp };
  }
  if (!filtered || !conds || !isClassFilter(listFilter)) return { q, start, end, conds, filtered, classes: null, statuses: null, facet: null, p };
  // The filter's conditions over alias j hold for a class as for its jobs (name is kept lower-cased;
  // null and '' compare alike); a job's class exists once it has job actions.
  const [row] = await db.query<{ ids: number[] | null }>(`select array_agg(j.class_id order by j.class_id) as ids from report_job_classes j where ${conds.join(' and ')}`, p.values);
  const classes = row?.ids ?? [];
  return { q, start, end, conds: classes.length ? conds : null, filtered, classes, statuses: null, facet: null, p };
}

/**
 * `ja as materialized (...)` (or `name`): one row per job action whose job started in one of the pieces
 * (disjoint, in time order) and passes the conditions `conds` over jobs j, with its step's actors when
 * `actors` is set, and `i`, its piece's bucket. Adds its values to `p`.
 *
 * With `edges` the pieces are the few minutes or hours the rollups leave at the edges: each is read on
 * its own through jobs_sort_time_idx and job_actions_report_idx (a lateral subquery per piece). Without,
 * they cover the whole range: they are merged into literal ranges, so the planner estimates them from
 * the job_time statistics (and the conditions' own indexes) and may scan, and `i` is found from the
 * piece starts.
 */
export function rawCte(pieces: readonly RawPiece[], p: Params, actors: boolean, how: { edges: boolean; conds: string[]; name?: string }): string {
  const iso = (t: number) => new Date(t).toISOString();
  const name = how.name ?? 'ja';
  const steps = actors ? 'join job_steps st on st.id = a.job_step_id' : '';
  const cols = `a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events, j.simulation_id, j.monitor_id${actors ? ', st.source_node_id, st.destination_node_id' : ''}`;
  if (how.edges) {
    // With conditions (a class or status filter) the jobs in a piece (found through the time index: the
    // fenced subquery keeps the planner from AND-ing a name index over every job) are checked against them.
    const conds = how.conds;
    const jobs = conds.length ? `(select * from jobs j where j.job_time >= r.a and j.job_time <= r.b and (r.inc or j.job_time < r.b) offset 0) j` : 'jobs j';
    const where = conds.length ? conds.join(' and ') : 'j.job_time >= r.a and j.job_time <= r.b and (r.inc or j.job_time < r.b)';
    // The two pieces on either side of a bucket edge inside a slice are read together (one index range
    // for both; rows before the edge `s` count in bucket i0, the others in i).
    const probes: { a: number; b: number; inc: boolean; s: number; i0: number; i: number }[] = [];
    for (const x of pieces) {
      const last = probes[probes.length - 1];
      if (last && last.s === last.a && last.b === x.a && !last.inc) Object.assign(last, { b: x.b, inc: x.inclusive, s: x.a, i: x.i });
      else probes.push({ a: x.a, b: x.b, inc: x.inclusive, s: x.a, i0: x.i, i: x.i });
    }
    const col = <K extends keyof (typeof probes)[number]>(k: K, type: string, f: (v: (typeof probes)[number][K]) => unknown = (v) => v) => `${p.add(probes.map((x) => f(x[k])))}::${type}[]`;
    const r = `unnest(${col('a', 'timestamptz', (t) => iso(t as number))}, ${col('b', 'timestamptz', (t) => iso(t as number))}, ${col('inc', 'bool')}, ${col('s', 'timestamptz', (t) => iso(t as number))}, ${col('i0', 'int')}, ${col('i', 'int')}) r(a, b, inc, s, i0, i)`;
    return `${name} as materialized (
      select case when x.job_time < r.s then r.i0 else r.i end as i, x.* from ${r} cross join lateral (
        select j.job_time, ${cols} from ${jobs} join job_actions a on a.job_id = j.id ${steps}
        where ${where} offset 0) x)`;
  }
  const ranges: RawPiece[] = [];
  for (const x of pieces) {
    const last = ranges[ranges.length - 1];
    if (last && last.b === x.a && !last.inclusive) Object.assign(last, { b: x.b, inclusive: x.inclusive });
    else ranges.push({ ...x });
  }
  const at = (t: number) => `${p.add(iso(t))}::timestamptz`;
  const inRange = ranges.map((r) => (r.a === r.b ? `j.job_time = ${at(r.a)}` : `(j.job_time >= ${at(r.a)} and j.job_time ${r.inclusive ? '<=' : '<'} ${at(r.b)})`));
  // The piece of a row: the last piece starting at or before its time (width_bucket is 1-based, as arrays are).
  const bucket = pieces.every((x) => x.i === pieces[0]?.i)
    ? String(pieces[0]?.i ?? 0)
    : `(${p.add(pieces.map((x) => x.i))}::int[])[width_bucket(extract(epoch from j.job_time), ${p.add(pieces.map((x) => String(x.a / 1000)))}::numeric[])]`;
  const where = [`(${inRange.join(' or ')})`, ...how.conds].join(' and ');
  // The job actions of each matching job through job_actions_report_idx (a lateral subquery: the planner
  // cannot tell how few jobs a filter keeps, and would otherwise hash-join every job action).
  const actions = `(select a.job_step_id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events from job_actions a where a.job_id = j.id offset 0)`;
  return `${name} as materialized (select ${bucket} as i, ${cols} from jobs j cross join lateral ${actions} a ${steps} where ${where})`;
}

/** The counts of rows `x` of ja (see ResultCounts for the rules; the rollups count alike). */
export const COUNTS_SQL = `count(*) filter (where x.status = 'ran')::int as total,
  count(*) filter (where x.status = 'ran' and x.blocked)::int as prevented,
  count(*) filter (where x.status = 'ran' and (x.events > 0 or x.alerted))::int as detected,
  count(*) filter (where x.status = 'ran' and x.alerted)::int as alerted,
  count(*) filter (where x.status = 'ran' and not coalesce(x.blocked, false) and x.events = 0 and not x.alerted)::int as missed,
  count(*) filter (where x.status in ('not run', 'incompatible'))::int as not_run,
  count(*) filter (where x.status = 'errored')::int as errored`;

/** The counters the rollups keep, summed. */
export const COUNTER_COLUMNS = ['n', 'total', 'prevented', 'detected', 'alerted', 'missed', 'not_run', 'errored'] as const;
export const SUM_SQL = COUNTER_COLUMNS.map((c) => `sum(u.${c})::int as ${c}`).join(', ');

export interface CountsRow {
  total: number;
  prevented: number;
  detected: number;
  alerted: number;
  missed: number;
  not_run: number;
  errored: number;
}
