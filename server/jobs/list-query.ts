import type { Db } from '../db/index';
import { badRequest, validate } from '../http-errors';
import { EVENTS_FILTERS, EXACT_COUNT_LIMIT, SCHEDULED_PROCESS, jobListQuerySchema, parseFilterRange, type EventsFilter, type JobListAnswer, type JobListItem, type SortColumn, type SortDirection } from '../../src/api/contracts/jobs';
import { compileJobRules } from './rule-filter';
import { JOB_STATUSES, type JobStatus } from '../../src/api/contracts/vocabulary';

/**
 * The jobs list query: filters, sort and keyset paging over the jobs table, fast at 1,000,000 rows.
 *
 * - Each sort column has an index ending in id (migration 003), so a page is one ordered index range.
 *   `after`/`before` cursors (the previous answer's page_end/page_start) page by key; without a cursor
 *   page N is an offset, read backwards from the end when it lies in the second half of an exact total.
 * - Totals: the whole table's from job_status_counts (kept by triggers); a filtered total is counted up
 *   to EXACT_COUNT_LIMIT matches and estimated by the planner beyond that (total_filtered_estimated).
 * - The filter text matches job ids, names (through the small job_names table), Ran By and statuses,
 *   so it never scans every name.
 *
 * Size: one statement's builder (filters, text lookups, sort, keyset paging, totals) over one parsed query;
 * its parts read each other's SQL fragments, so split files would only pass them back and forth.
 */

export interface ListFilter {
  text: string;
  range: { start: Date | null; end: Date | null } | null;
  vid: string | null;
  events: EventsFilter | null;
  rules: unknown[] | null;
}

export interface ParsedListQuery {
  size: number;
  page: number;
  sort: { col: SortColumn; dir: SortDirection };
  filter: ListFilter;
  selected: number[];
  after: Cursor | null;
  before: Cursor | null;
}

export interface Cursor {
  key: string | number;
  id: number;
}

const SCALARS = ['size', 'page', 'sortCol', 'sortDir', 'filterVal', 'filterRange', 'filter', 'structuredFilter', 'vid', 'after', 'before'];

/** Normalises a raw query (or an export's props): `x[]` keys, comma lists, one value per scalar field. */
export function normaliseListQuery(raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [rawKey, value] of Object.entries(raw)) {
    const key = rawKey.endsWith('[]') ? rawKey.slice(0, -2) : rawKey;
    if (key === 'selected_jobs') {
      const list = (Array.isArray(value) ? value : [value]).flatMap((v) => (typeof v === 'string' ? v.split(',') : [v])).filter((v) => v !== '' && v !== null && v !== undefined);
      out.selected_jobs = [...((out.selected_jobs as unknown[] | undefined) ?? []), ...list];
      continue;
    }
    if (SCALARS.includes(key) && Array.isArray(value)) throw badRequest(`${key} must be given once`);
    if (SCALARS.includes(key) && value !== null && typeof value === 'object') throw badRequest(`${key} must be a single value`);
    out[key] = typeof value === 'number' && ['filterVal', 'vid', 'filterRange'].includes(key) ? String(value) : value;
  }
  return out;
}

function parseStructuredFilter(text: string): { events: EventsFilter | null; rules: unknown[] | null } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest('structuredFilter is not valid JSON');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw badRequest('structuredFilter must be a JSON object such as {"events":"present"}');
  const obj = parsed as Record<string, unknown>;
  for (const k of Object.keys(obj)) if (k !== 'events' && k !== 'rules') throw badRequest(`structuredFilter has an unknown field: ${k}`);
  const ev = obj.events;
  if (ev !== undefined && ev !== null && ev !== '' && !(typeof ev === 'string' && (EVENTS_FILTERS as readonly string[]).includes(ev))) {
    throw badRequest(`structuredFilter.events must be one of ${EVENTS_FILTERS.join(', ')}`);
  }
  const rules = obj.rules;
  if (rules !== undefined && rules !== null && !Array.isArray(rules)) throw badRequest('structuredFilter.rules must be a list of rules');
  return { events: typeof ev === 'string' && ev !== '' ? (ev as EventsFilter) : null, rules: Array.isArray(rules) && rules.length ? rules : null };
}

export function encodeCursor(col: SortColumn, dir: SortDirection, c: Cursor): string {
  return Buffer.from(JSON.stringify([col, dir, c.key, c.id])).toString('base64url');
}

function decodeCursor(token: string, col: SortColumn, dir: SortDirection, name: string): Cursor {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw badRequest(`${name} is not a paging cursor of this list`);
  }
  if (!Array.isArray(v) || v.length !== 4 || !Number.isInteger(v[3])) throw badRequest(`${name} is not a paging cursor of this list`);
  const [c, d, key, id] = v as [unknown, unknown, unknown, number];
  if (c !== col || d !== dir) throw badRequest(`${name} was made for another sort order; ask for the page without ${name}`);
  const keyOk = col === 'job_id' ? Number.isInteger(key) : typeof key === 'string' && (col !== 'job_time' || TIMESTAMP_TEXT.test(key));
  if (!keyOk) throw badRequest(`${name} is not a paging cursor of this list`);
  return { key: key as string | number, id };
}

const TIMESTAMP_TEXT = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}(:?\d{2})?)?$/;

/** Validates the list call's query (or an export's props); every problem answers 400 with a message. */
export function parseListQuery(raw: Record<string, unknown>): ParsedListQuery {
  const q = validate(jobListQuerySchema, normaliseListQuery(raw));
  if (q.structuredFilter && q.filter !== 'adhoc') throw badRequest('structuredFilter needs filter=adhoc');
  const structured = q.structuredFilter ? parseStructuredFilter(q.structuredFilter) : { events: null, rules: null };
  const range = q.filterRange ? parseFilterRange(q.filterRange) : null;
  const sort = { col: q.sortCol as SortColumn, dir: q.sortDir as SortDirection };
  if (q.after && q.before) throw badRequest('Give after or before, not both');
  return {
    size: q.size,
    page: q.page,
    sort,
    filter: {
      text: q.filterVal.trim(),
      range: range && typeof range !== 'string' && (range.start || range.end) ? range : null,
      vid: q.vid || null,
      events: structured.events,
      rules: structured.rules,
    },
    selected: [...new Set(q.selected_jobs)],
    after: q.after ? decodeCursor(q.after, sort.col, sort.dir, 'after') : null,
    before: q.before ? decodeCursor(q.before, sort.col, sort.dir, 'before') : null,
  };
}

export const isFiltered = (f: ListFilter) => !!(f.text || f.range || f.vid || f.events || f.rules);

/** Positional parameters for one statement. */
export class Params {
  readonly values: unknown[] = [];
  add = (value: unknown): string => {
    this.values.push(value);
    return `$${this.values.length}`;
  };
  /** A copy for one more statement over the same conditions. */
  clone(): Params {
    const c = new Params();
    c.values.push(...this.values);
    return c;
  }
}

const SORT_KEY: Record<SortColumn, string> = {
  job_id: 'j.id',
  job_name: 'lower(j.name)',
  job_status: 'j.status',
  job_user: 'j.ran_by',
  job_time: 'j.job_time',
};

/** The key a cursor keeps: full precision (timestamps as the database's own text, microseconds included). */
const SORT_KEY_VALUE: Record<SortColumn, string> = { ...SORT_KEY, job_time: 'j.job_time::text' };

export const EVENTS_CONDITION: Record<EventsFilter, string> = {
  present: 'a.events > 0',
  suspicious: 'a.suspect_events > 0',
  none: 'a.events = 0 and a.suspect_events = 0',
};

/** What the filter text matches: a job id, job names (lower-cased; 'many' past 5,000), Ran By names and statuses. */
export interface TextMatches {
  id: number | null;
  names: string[] | 'many';
  ranBy: string[];
  statuses: string[];
}

/** The filter text's matches (case-insensitive, literal): names and users are looked up, never every job's name. */
export async function textMatches(db: Db, text: string): Promise<TextMatches> {
  const t = text.toLowerCase();
  const names = await db.query<{ lname: string }>('select lname from job_names where strpos(lname, $1) > 0 limit 5001', [t]);
  const users = await db.query<{ n: string }>('select distinct vigil_job_ran_by(id) as n from users where strpos(lower(vigil_job_ran_by(id)), $1) > 0', [t]);
  const ranBy = users.map((u) => u.n);
  if (SCHEDULED_PROCESS.toLowerCase().includes(t)) ranBy.push(SCHEDULED_PROCESS);
  return {
    id: /^\d{1,9}$/.test(t) ? Number(t) : null,
    names: names.length > 5000 ? 'many' : names.map((n) => n.lname),
    ranBy,
    statuses: JOB_STATUSES.filter((s) => s.includes(t)),
  };
}

/** The filter text: job ids, names, Ran By and statuses it matches. Null: matches nothing. */
async function textCondition(db: Db, text: string, p: Params): Promise<string | null> {
  const m = await textMatches(db, text);
  const ors: string[] = [];
  if (m.id !== null) ors.push(`j.id = ${p.add(m.id)}`);
  if (m.names === 'many') ors.push(`strpos(lower(j.name), ${p.add(text.toLowerCase())}) > 0`);
  else if (m.names.length === 1) ors.push(`lower(j.name) = ${p.add(m.names[0]!)}`);
  else if (m.names.length > 1) ors.push(`lower(j.name) = any(${p.add(m.names)}::text[])`);
  if (m.ranBy.length) ors.push(`j.ran_by = any(${p.add(m.ranBy)}::text[])`);
  if (m.statuses.length) ors.push(`j.status = any(${p.add(m.statuses)}::text[])`);
  return ors.length ? `(${ors.join(' or ')})` : null;
}

/** The where conditions of a filter; null when the filter can match no job at all. */
export async function filterConditions(db: Db, f: ListFilter, p: Params): Promise<string[] | null> {
  const conds: string[] = [];
  if (f.vid) {
    if (f.vid.startsWith('S')) conds.push(`j.simulation_id = (select id from simulations where vid = ${p.add(f.vid)})`);
    else conds.push(`j.id in (select job_id from job_actions where sim_action_vid = ${p.add(f.vid)})`);
  }
  if (f.range?.start) conds.push(`j.job_time >= ${p.add(f.range.start.toISOString())}::timestamptz`);
  if (f.range?.end) conds.push(`j.job_time <= ${p.add(f.range.end.toISOString())}::timestamptz`);
  if (f.events) conds.push(`exists (select 1 from job_actions a where a.job_id = j.id and ${EVENTS_CONDITION[f.events]})`);
  if (f.rules) conds.push(`(${compileJobRules(f.rules, p.add)})`);
  if (f.text) {
    const c = await textCondition(db, f.text, p);
    if (c === null) return null;
    conds.push(c);
  }
  return conds;
}

export interface Row {
  id: number;
  finished_at: Date | string | null;
  name: string;
  status: JobStatus;
  ran_by: string;
  job_time: Date | string;
  progress: number;
  published_status: number;
  latest_published_time: Date | string | null;
  latest_published_pipeline: string | null;
  assessment_name: string | null;
  simulation_id: number | null;
  action_id: number | null;
  sim_vid: string | null;
  sim_type: 'sequence' | 'eval' | null;
  action_vid: string | null;
  sort_key: string | number;
}

const COLUMNS = `j.id, j.name, j.status, j.ran_by, j.job_time, j.finished_at, j.progress, j.published_status, j.latest_published_time,
  j.latest_published_pipeline, j.assessment_name, j.simulation_id, j.action_id`;
/** The simulation and action references, looked up by primary key for the rows of the page only (not for skipped ones). */
const LOOKUPS = `(select s.vid from simulations s where s.id = x.simulation_id) as sim_vid,
  (select s.simulation_type from simulations s where s.id = x.simulation_id) as sim_type,
  (select a.vid from actions a where a.id = x.action_id) as action_vid`;
/** The same order over the page's own columns. */
const OUTER_KEY: Record<SortColumn, string> = { job_id: 'x.id', job_name: 'x.sort_key', job_status: 'x.status', job_user: 'x.ran_by', job_time: 'x.job_time' };

export const iso = (v: Date | string | null): string | null => (v === null ? null : new Date(v).toISOString());

/** Below this many estimated rows, a date range is always read through the time index and sorted. */
const RANGE_SORT_MIN = 2_000;
export async function planRows(db: Db, sql: string, params: unknown[]): Promise<number> {
  const [row] = await db.query<{ 'QUERY PLAN': unknown }>(`explain (format json) ${sql}`, params);
  let plan: unknown = row?.['QUERY PLAN'];
  if (typeof plan === 'string') plan = JSON.parse(plan);
  const rows = (plan as { Plan?: { 'Plan Rows'?: number } }[] | undefined)?.[0]?.Plan?.['Plan Rows'];
  return typeof rows === 'number' ? rows : Number.POSITIVE_INFINITY;
}

export interface PageRequest {
  sort: { col: SortColumn; dir: SortDirection };
  size: number;
  offset: number;
  after: Cursor | null;
  before: Cursor | null;
  /** Read the order backwards from the end (then reverse): cheap offsets near the end. */
  fromEnd?: boolean;
}

export interface PageHints {
  /** The date range of the filter, if any. */
  range: ListFilter['range'];
  /** Jobs in the whole table (for cost estimates). */
  total: number;
  /** The planner's estimate of the rows the conditions match, when already asked (countFiltered). */
  matches?: number;
}

/**
 * One page of jobs for already-built conditions (shared by the list call and the CSV exports); adds to `p`.
 *
 * With a date range and a sort on another column, two plans compete: walk the sort column's index and
 * skip the rows outside the range, or read the range through the time index and sort it. The planner
 * cannot know that ids follow time (it would walk a million newer jobs to reach a range a year ago), so
 * the choice is made here from its row estimates: reading the range costs its rows; walking costs the
 * rows passed before the range (for Job Id: every job newer, or older, than it) plus the page over the
 * range's share of the table.
 */
export async function selectPage(db: Db, conds: readonly string[], p: Params, req: PageRequest, hints: PageHints): Promise<Row[]> {
  const { col, dir } = req.sort;
  const key = SORT_KEY[col];
  const backwards = !!req.before || !!req.fromEnd;
  const d = backwards ? (dir === 'desc' ? 'asc' : 'desc') : dir;
  const where = [...conds];
  const cursor = req.after ?? req.before;
  if (cursor) {
    const cmp = d === 'desc' ? '<' : '>';
    if (col === 'job_id') where.push(`j.id ${cmp} ${p.add(cursor.id)}`);
    else {
      const kv = col === 'job_time' ? `${p.add(String(cursor.key))}::timestamptz` : `${p.add(String(cursor.key))}::text`;
      where.push(`(${key}, j.id) ${cmp} (${kv}, ${p.add(cursor.id)})`);
    }
  }
  const whereSql = where.length ? `where ${where.join(' and ')}` : '';
  const order = col === 'job_id' ? `order by j.id ${d}` : `order by ${key} ${d}, j.id ${d}`;
  const inner = `select j.* from jobs j ${whereSql}`;
  let readRange = false;
  if (hints.range && col !== 'job_time') {
    // The estimate the total was counted with, unless a cursor adds a condition to it.
    const inRange = hints.matches !== undefined && !cursor ? hints.matches : await planRows(db, inner, [...p.values]);
    readRange = inRange <= RANGE_SORT_MIN;
    if (!readRange) {
      const wanted = req.size + req.offset;
      let walk = inRange > 0 ? (wanted * Math.max(hints.total, inRange)) / inRange : Number.POSITIVE_INFINITY;
      const edge = d === 'desc' ? hints.range.end : hints.range.start;
      if (col === 'job_id' && edge) walk += await planRows(db, `select 1 from jobs j where j.job_time ${d === 'desc' ? '>' : '<'} $1::timestamptz`, [edge.toISOString()]);
      readRange = inRange <= walk;
    }
  }
  const limit = `limit ${p.add(req.size)} offset ${p.add(req.offset)}`;
  // Reading the range: only ids (and the sort key) of the rows in it are sorted (an index-only scan
  // of jobs_sort_time_idx when the range is the only condition), then the page's rows are fetched.
  const rangeOrder = col === 'job_id' ? `order by r.id ${d}` : `order by r.k ${d}, r.id ${d}`;
  const page = readRange
    ? `select ${COLUMNS}, ${SORT_KEY_VALUE[col]} as sort_key from jobs j where j.id in (
         select r.id from (select j.id${col === 'job_id' ? '' : `, ${key} as k`} from jobs j ${whereSql} offset 0) r ${rangeOrder} ${limit})`
    : `select ${COLUMNS}, ${SORT_KEY_VALUE[col]} as sort_key from jobs j ${whereSql} ${order} ${limit}`;
  const outerOrder = col === 'job_id' ? `order by x.id ${d}` : `order by ${OUTER_KEY[col]} ${d}, x.id ${d}`;
  const rows = await db.query<Row>(`select x.*, ${LOOKUPS} from (${page}) x ${outerOrder}`, p.values);
  return backwards ? rows.reverse() : rows;
}

export function toListItems(rows: readonly Row[]): JobListItem[] {
  return rows.map((r) => ({
    id: r.id,
    job_id: r.id,
    job_name: r.name,
    job_status: r.status,
    job_user: r.ran_by,
    job_time: iso(r.job_time) ?? '',
    progress: r.progress,
    published_status: r.published_status,
    latest_published_time: iso(r.latest_published_time),
    latest_published_pipeline: r.latest_published_pipeline,
    assessment_name: r.assessment_name,
    simulation: r.simulation_id !== null && r.sim_vid && r.sim_type ? { id: r.simulation_id, vid: r.sim_vid, sim_type: r.sim_type } : null,
    action: r.action_id !== null && r.action_vid ? { id: r.action_id, vid: r.action_vid } : null,
  }));
}

/** The keyset position of a row in a sort order. */
export function rowCursor(col: SortColumn, row: Row): Cursor {
  return { key: col === 'job_id' ? row.id : String(row.sort_key), id: row.id };
}

function cursorOf(col: SortColumn, dir: SortDirection, row: Row | undefined): string | null {
  return row ? encodeCursor(col, dir, rowCursor(col, row)) : null;
}

/** The whole table's total (kept by triggers) and its newest job id, in one statement. */
export async function tableHead(db: Db): Promise<{ total: number; maxId: number }> {
  const [row] = await db.query<{ n: number | string | null; m: number | null }>('select (select sum(n) from job_status_counts)::bigint as n, (select max(id) from jobs) as m');
  return { total: Number(row?.n ?? 0), maxId: row?.m ?? 0 };
}

/** Above this many estimated matches the filtered total is the estimate, without counting. */
const COUNT_SKIP_ESTIMATE = 20 * EXACT_COUNT_LIMIT;

/**
 * A filtered total: exact up to EXACT_COUNT_LIMIT, the planner's estimate beyond. When the estimate is
 * far above the limit, counting even 1000 matches is skipped (it may read many rows from disk).
 */
export async function countFiltered(db: Db, conds: readonly string[], params: readonly unknown[]): Promise<{ n: number; estimated: boolean; planned: number }> {
  const where = conds.length ? `where ${conds.join(' and ')}` : '';
  const planned = await planRows(db, `select 1 from jobs j ${where}`, [...params]);
  const est = Number.isFinite(planned) ? Math.round(planned) : 0;
  if (est > COUNT_SKIP_ESTIMATE) return { n: est, estimated: true, planned };
  const [row] = await db.query<{ n: number }>(`select count(*)::int as n from (select 1 from jobs j ${where} limit ${EXACT_COUNT_LIMIT + 1}) x`, [...params]);
  const n = row?.n ?? 0;
  if (n <= EXACT_COUNT_LIMIT) return { n, estimated: false, planned };
  return { n: Math.max(EXACT_COUNT_LIMIT + 1, est), estimated: true, planned };
}

/** The whole table's total and newest id: read each call, or shared by the calls of one database state (server/jobs/answers.ts). */
export type TableHead = () => Promise<{ total: number; maxId: number }>;

/** The list call: one page of jobs with totals and cursors. */
export async function listJobs(db: Db, q: ParsedListQuery, head: TableHead = () => tableHead(db)): Promise<JobListAnswer> {
  const { total, maxId } = await head();
  const selected = q.selected.length ? (await db.query<{ id: number }>('select id from jobs where id = any($1::int[]) order by id', [q.selected])).map((r) => r.id) : [];
  const filtered = isFiltered(q.filter);
  const p = new Params();
  const conds = await filterConditions(db, q.filter, p);
  const base = { max_jobs: maxId, total_jobs: total, page: q.page, size: q.size, selected_jobs: selected };
  if (conds === null) {
    return { ...base, filtered_jobs: [], total_filtered_jobs: 0, total_filtered_estimated: false, page_start: null, page_end: null };
  }
  const count = filtered ? await countFiltered(db, conds, p.values) : { n: total, estimated: false, planned: undefined };
  const hints: PageHints = { range: q.filter.range, total, matches: count.planned };
  const offset = q.page * q.size;
  let rows: Row[];
  if (q.after || q.before) {
    rows = await selectPage(db, conds, p, { sort: q.sort, size: q.size, offset: 0, after: q.after, before: q.before }, hints);
  } else if (!count.estimated && offset > count.n / 2 && offset < count.n) {
    // The second half of an exact total: read backwards from the end so the offset stays small.
    const fromEnd = Math.max(0, count.n - offset - q.size);
    const size = Math.min(q.size, count.n - offset);
    rows = await selectPage(db, conds, p, { sort: q.sort, size, offset: fromEnd, after: null, before: null, fromEnd: true }, hints);
  } else {
    rows = await selectPage(db, conds, p, { sort: q.sort, size: q.size, offset, after: null, before: null }, hints);
  }
  const items = toListItems(rows);
  const answer: JobListAnswer = {
    ...base,
    total_filtered_jobs: Math.min(count.n, total),
    total_filtered_estimated: count.estimated,
    page_start: cursorOf(q.sort.col, q.sort.dir, rows[0]),
    page_end: cursorOf(q.sort.col, q.sort.dir, rows[rows.length - 1]),
  };
  if (filtered) answer.filtered_jobs = items;
  else answer.jobs = items;
  return answer;
}
