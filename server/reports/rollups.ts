import type { Db } from '../db/index';
import type { Params } from '../jobs/list-query';
import { rawCte, COUNTER_COLUMNS, COUNTS_SQL, SUM_SQL, type CountsRow, type ReportScope } from './scope';
import { FINISHED_STATUSES, isJobFinished } from '../../src/api/contracts/jobs';
import { JOB_STATUSES } from '../../src/api/contracts/vocabulary';
import { CLASS_TOTAL_GRAINS, GRAIN, KEYED_GRAINS, TOTAL_GRAINS, ceilTo, floorTo, planSlices, type RollupRange, type SlicePlan, type Within } from './slices';
import { isKeptDay, keptWindows } from './weekday-windows';

/**
 * Reads result counts from the rollups (migration 017_reports_rollups.sql) plus the raw job actions of
 * the pieces of the range the rollups do not cover (see slices.ts); with a filter on job class fields
 * (scope.ts), from the class rollups of the matching classes plus the raw pieces that pass the filter;
 * with a filter on the job status, from the status rollups of the finished statuses it keeps plus the
 * raw pieces of those and the raw job actions of the unfinished statuses it keeps (022); with a filter
 * on the job actions' VIDs or event counts, from the facet rollups of the matching classes plus the raw
 * pieces of the finished jobs and the unfinished jobs raw (023); with any other filter, from the raw job actions of the jobs it keeps only. All give the same counts:
 * tests/server/reports-rollups.test.ts.
 */

/** The rollups' dimensions: 0 all job actions, 1 per Action (and type), 2 source actor, 3 destination actor, 4 simulation, 5 monitor. */
export type Dim = 0 | 1 | 2 | 3 | 4 | 5;

/** Per dimension: the raw job action's key (k, t) as the rollups store it. */
const RAW_KEY: Record<Dim, [k: string, t: string]> = {
  0: ['0', `''`],
  1: ['coalesce(x.action_id, 0)', 'x.action_type'],
  2: ['coalesce(x.source_node_id, 0)', `''`],
  3: ['coalesce(x.destination_node_id, 0)', `''`],
  4: ['coalesce(x.simulation_id, 0)', `''`],
  5: ['coalesce(x.monitor_id, 0)', `''`],
};

export type CountsWithN = CountsRow & { n: number };

/**
 * The scope's range as epoch ms [start, end] (end inclusive). An open side ends on the month boundary
 * before the oldest job or after the newest one: every job counts either way, and a range of whole
 * months is read from the month rollups alone, with no raw job actions at its edges. Null: no job at all.
 */
export async function rangeOf(db: Db, s: ReportScope): Promise<[number, number] | null> {
  if (s.start && s.end) return [s.start.getTime(), s.end.getTime()];
  const [row] = await db.query<{ lo: string | Date | null; hi: string | Date | null }>('select min(job_time) as lo, max(job_time) as hi from jobs');
  if (!row?.lo || !row.hi) return null;
  const lo = floorTo(GRAIN.month, Math.floor(new Date(row.lo).getTime()));
  const hi = ceilTo(GRAIN.month, Math.ceil(new Date(row.hi).getTime()) + 1);
  return [s.start ? s.start.getTime() : lo, s.end ? s.end.getTime() : hi];
}

/** `u(i, k, t, n, total, ...)`: the counts per bucket i and key (k, t), rollup rows and raw pieces together. Adds values to p. */
function unionCtes(s: ReportScope, edges: readonly number[], endBucket: number | undefined, dim: Dim, p: Params): string {
  const within = withinOf(s, edges);
  const plan = planOf(s, edges, dim, endBucket, within);
  const actors = dim === 2 || dim === 3;
  const parts: string[] = [];
  const ctes: string[] = [];
  const [k, t] = RAW_KEY[dim];
  const rawPart = (name: string) => `select x.i, ${k} as k, ${t} as t, count(*)::int as n, ${COUNTS_SQL} from ${name} x group by 1, 2, 3`;
  // The statuses a status filter keeps, as a condition over jobs j.
  const statusIn = (statuses: string[]) => `j.status = any(${p.add(statuses)}::text[])`;
  // A status filter's finished and unfinished statuses; a facet filter's rollups hold every finished job.
  const finished = s.statuses ? s.statuses.finished : s.facet ? [...FINISHED_STATUSES] : null;
  const open = s.statuses ? s.statuses.open : s.facet ? JOB_STATUSES.filter((x) => !isJobFinished(x)) : [];
  // No finished job kept: no rollup rows, no edges.
  const noneFinished = (finished && !finished.length) || (s.facet && !s.facet.classes.length);
  if (noneFinished) {
    // Only the unfinished jobs below.
  } else if (plan.rollup.length && s.classes) {
    const classes = p.add(s.classes);
    parts.push(...keptRollupParts('report_class_rollups', 'c', classes, 'int', plan.rollup, dim, p), queuedPart(rangesSql(plan.rollup, p), dim, classes));
  }
  else if (plan.rollup.length && s.facet) parts.push(...keptRollupParts('report_facet_rollups', 'c', p.add(s.facet.classes), 'int', plan.rollup, dim, p, `ru.f = ${s.facet.f} and `));
  else if (plan.rollup.length && finished) parts.push(...keptRollupParts('report_status_rollups', 's', p.add(finished), 'text', plan.rollup, dim, p));
  else if (plan.rollup.length) {
    const r = rangesSql(plan.rollup, p);
    // Each range is one primary-key range scan (a lateral subquery per range: as a plain join the planner
    // hashes on the grain and compares every rollup row with every range, 50 million comparisons for a
    // 481-point time series over a year).
    parts.push(`select r.i, ru.* from ${r} cross join lateral (
        select ru.k, ru.t, ru.n, ru.total, ru.prevented, ru.detected, ru.alerted, ru.missed, ru.not_run, ru.errored from report_rollups ru
        where ru.grain = r.g and ru.dim = ${dim} and ru.bucket >= r.a and ru.bucket < r.b offset 0) ru`, queuedPart(r, dim, null));
  }
  if ((plan.raw.length || plan.neg.length) && !noneFinished) {
    // Without a filter, or with one the kept rollups answer, the raw pieces are the range's edges.
    const atEdges = !s.filtered || !!s.classes || !!finished;
    // A finished job at the edges passes a facet filter when its class (report_job_facets) is kept: one
    // primary-key probe per job (the filter over its job actions costs a subquery per job).
    const conds = s.facet ? [`exists (select 1 from report_job_facets fj where fj.job_id = j.id and fj.${s.facet.f === 1 ? 'vc' : 'ec'} = any(${p.add(s.facet.classes)}::int[]))`] : (s.conds ?? []);
    const edgeConds = [...conds, ...(finished ? [statusIn(finished)] : [])];
    if (plan.raw.length) {
      ctes.push(rawCte(plan.raw, p, actors, { edges: atEdges, conds: edgeConds }));
      parts.push(rawPart('ja'));
    }
    if (plan.neg.length) {
      // The rest of the slices an edge read whole from the rollups (slices.ts edge()), under the same
      // conditions as the rollups it comes off, counted negative.
      ctes.push(rawCte(plan.neg, p, actors, { edges: atEdges, conds: edgeConds, name: 'jn' }));
      parts.push(`select q.i, q.k, q.t, ${COUNTER_COLUMNS.map((c) => `-q.${c} as ${c}`).join(', ')} from (${rawPart('jn')}) q`);
    }
  }
  if (open.length) {
    // The jobs of the unfinished statuses kept, over the whole range (through jobs_sort_status_idx).
    ctes.push(rawCte(planSlices(edges, [], endBucket, within).raw, p, actors, { edges: false, conds: [...(s.conds ?? []), statusIn(open)], name: 'jo' }));
    parts.push(rawPart('jo'));
  }
  if (!parts.length) parts.push(`select 0 as i, 0 as k, '' as t, ${COUNTER_COLUMNS.map((c) => `0 as ${c}`).join(', ')} where false`);
  ctes.push(`u as (${parts.join(' union all ')})`);
  return ctes.join(', ');
}

/**
 * The facts still queued for report_rollups (`classes` null) or for report_class_rollups of those
 * classes (migration 028: the triggers queue them, a flush adds them to the rollups), as rows of the
 * rollup `ranges` (rangesSql) they fall in. Read in the same snapshot as the rollups, so a report counts every job
 * action once whether its facts were flushed or not. The queue holds about a second of writes: its
 * facts are summed per grain, bucket and key before they meet the ranges.
 */
function queuedPart(ranges: string, dim: Dim, classes: string | null): string {
  return `select r.i, q.k, q.t, q.n, q.total, q.prevented, q.detected, q.alerted, q.missed, q.not_run, q.errored
      from vigil_report_queued(${dim}::int2, ${classes ?? 'null'}::int[]) q join ${ranges} on q.grain = r.g and q.bucket >= r.a and q.bucket < r.b`;
}

/** The rollup ranges as rows r(g, a, b, i): grain, [start, end) and the index they count in. Adds values to p. */
function rangesSql(ranges: readonly RollupRange[], p: Params): string {
  const iso = (t: number) => new Date(t).toISOString();
  return `unnest(${p.add(ranges.map((x) => x.grain))}::int2[], ${p.add(ranges.map((x) => iso(x.a)))}::timestamptz[], ${p.add(ranges.map((x) => iso(x.b)))}::timestamptz[], ${p.add(ranges.map((x) => x.i))}::int[]) r(g, a, b, i)`;
}

/** Above this many ranges of one grain, the class rollups are read in one scan over their span rather than a probe per range and class. */
const SCAN_FROM = 8;

/**
 * The rows of a kept rollup (report_class_rollups for the classes a filter keeps, column c;
 * report_status_rollups for the finished statuses a status filter keeps, column s) whose key column
 * `col` is one of the values in parameter `vals` (it comes before the bucket in the key: one index range
 * per value). A grain with a few ranges (a report's edges) is read a range at a time; one
 * with many (a time series' buckets) in one range over their span, each row finding its range by
 * width_bucket over the range starts (the ranges of a grain are disjoint and in time order).
 */
function keptRollupParts(table: string, col: string, vals: string, type: 'int' | 'text', ranges: readonly RollupRange[], dim: Dim, p: Params, family = ''): string[] {
  const iso = (t: number) => new Date(t).toISOString();
  const cols = 'ru.k, ru.t, ru.n, ru.total, ru.prevented, ru.detected, ru.alerted, ru.missed, ru.not_run, ru.errored';
  const parts: string[] = [];
  const few: RollupRange[] = [];
  for (const grain of new Set(ranges.map((r) => r.grain))) {
    const of = ranges.filter((r) => r.grain === grain);
    if (of.length <= SCAN_FROM) {
      few.push(...of);
      continue;
    }
    const starts = p.add(of.map((r) => iso(r.a)));
    parts.push(`select (${p.add(of.map((r) => r.i))}::int[])[ru.w] as i, ${cols} from (
        select width_bucket(ru.bucket, ${starts}::timestamptz[]) as w, ru.* from ${table} ru
        where ru.grain = ${grain} and ru.dim = ${dim} and ${family}ru.${col} = any(${vals}::${type}[]) and ru.bucket >= ${p.add(iso(of[0]!.a))}::timestamptz and ru.bucket < ${p.add(iso(of[of.length - 1]!.b))}::timestamptz) ru
      where ru.w > 0 and ru.bucket < (${p.add(of.map((r) => iso(r.b)))}::timestamptz[])[ru.w]`);
  }
  if (few.length) {
    const r = rangesSql(few, p);
    parts.push(`select r.i, ru.* from ${r} cross join lateral (
        select ${cols} from ${table} ru
        where ru.grain = r.g and ru.dim = ${dim} and ${family}ru.${col} = any(${vals}::${type}[]) and ru.bucket >= r.a and ru.bucket < r.b offset 0) ru`);
  }
  return parts;
}

function planOf(s: ReportScope, edges: readonly number[], dim: Dim, endBucket: number | undefined, within: Within | undefined): SlicePlan {
  const grains = !s.filtered ? (dim === 0 ? TOTAL_GRAINS : KEYED_GRAINS) : s.classes || s.statuses || s.facet ? (dim === 0 ? CLASS_TOTAL_GRAINS : KEYED_GRAINS) : [];
  return planSlices(edges, grains, endBucket, within);
}

/** With days of the week, the windows of the range's kept local days (weekday-windows.ts). */
function withinOf(s: ReportScope, edges: readonly number[]): Within | undefined {
  if (!s.days || edges.length < 2) return undefined;
  const [start, end] = [edges[0]!, edges[edges.length - 1]!];
  return { windows: keptWindows(start, end, s.days), endKept: isKeptDay(end, s.days) };
}

/**
 * Counts of all job actions per bucket [edges[i], edges[i + 1]); the instant edges[n] counts in
 * `endBucket` (default the last bucket).
 */
export async function bucketCounts(db: Db, s: ReportScope, edges: readonly number[], endBucket?: number): Promise<Map<number, CountsWithN>> {
  if (!s.conds || edges.length < 2) return new Map();
  const p = s.p.clone();
  const ctes = unionCtes(s, edges, endBucket, 0, p);
  const rows = await db.query<CountsWithN & { i: number }>(`with ${ctes} select u.i, ${SUM_SQL} from u group by u.i`, p.values);
  return new Map(rows.map((r) => [Number(r.i), r]));
}

/** How a grouping key is read from the rows `u` of its dimension. */
export interface KeyMap {
  dim: Dim;
  /** Extra CTEs (lookups such as an Action's tags). */
  ctes?: string;
  join?: string;
  /** The key expression over u (and the joins); null keys are left out. */
  key: string;
}

/**
 * Counts per key over [start, end], most evaluated first; `limit` rows at most (plus one to tell
 * truncation). With `totals`, the counts of all job actions in range come in the same statement (every
 * job action is one row of each dimension, key 0 for none, so the sum over u counts each one once,
 * whatever the grouping key multiplies).
 */
export async function keyedCounts(
  db: Db,
  s: ReportScope,
  range: [number, number],
  map: KeyMap,
  limit: number | null,
  totals = false,
): Promise<{ rows: (CountsWithN & { key: string })[]; totals: CountsWithN | undefined }> {
  if (!s.conds) return { rows: [], totals: undefined };
  const p = s.p.clone();
  const ctes = [unionCtes(s, range, undefined, map.dim, p), ...(map.ctes ? [map.ctes] : [])].join(', ');
  const lim = limit === null ? '' : `limit ${p.add(limit + 1)}`;
  const rows = await db.query<CountsWithN & { key: string | null; part: number }>(
    `with ${ctes}, g as (select ${map.key} as key, ${SUM_SQL} from u ${map.join ?? ''} where ${map.key} is not null group by 1 having sum(u.n) > 0 order by total desc, 1 ${lim})
     select 1 as part, key, ${COUNTER_COLUMNS.join(', ')} from g
     ${totals ? `union all select 0, null, ${SUM_SQL} from u` : ''}
     order by part desc, total desc, key`,
    p.values,
  );
  const all = rows.find((r) => r.part === 0);
  return { rows: rows.filter((r) => r.part === 1) as (CountsWithN & { key: string })[], totals: all && all.n !== null ? all : undefined };
}
