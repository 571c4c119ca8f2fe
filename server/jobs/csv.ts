import type { Db } from '../db/index';
import { badRequest } from '../http-errors';
import { CSV_SEPARATORS, MAX_IDS, actionResult, statusLabel, type CsvSeparator, type EventsFilter, type JobAction } from '../../src/api/contracts/jobs';
import { EVENTS_CONDITION, Params, filterConditions, iso, rowCursor, selectPage, tableHead, type Cursor, type ParsedListQuery, type Row } from './list-query';
import { ACTION_COLUMNS, toAction } from './service';

/**
 * CSV exports of the jobs list and of the Job Action Report: RFC 4180 text a spreadsheet opens (UTF-8
 * byte order mark, CRLF line ends, a value holding the separator, a quote or a line break is quoted,
 * quotes inside doubled, or replaced by single quotes when asked). Text starting with = + - @ is
 * prefixed with ' so a spreadsheet shows it instead of evaluating it as a formula.
 * "All" exports are streamed in keyset batches, so 1,000,000 jobs never sit in memory at once.
 */

export interface CsvFormat {
  separator: CsvSeparator;
  quotes: 'double' | 'single';
}

export function csvCell(value: unknown, f: CsvFormat): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  let s = value instanceof Date ? value.toISOString() : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  if (f.quotes === 'single') s = s.replace(/"/g, "'");
  const sep = CSV_SEPARATORS[f.separator];
  if (s.includes(sep) || /["\r\n]/.test(s) || s !== s.trim()) return `"${s.replace(/"/g, '""')}"`;
  return s;
}

export const csvLine = (cells: readonly unknown[], f: CsvFormat) => `${cells.map((c) => csvCell(c, f)).join(CSV_SEPARATORS[f.separator])}\r\n`;
const BOM = '\uFEFF';

const JOB_HEADER = ['Job Id', 'Job Name', 'Job Status', 'Progress', 'Ran By', 'Time Started', 'Finished', 'Assessment', 'Published', 'Latest Published Time', 'Latest Published Pipeline'];
const PUBLISHED_LABEL = ['Not Published', 'Publishing', 'Published'];

const jobCells = (r: Row) => [
  r.id,
  r.name,
  statusLabel(r.status),
  r.progress,
  r.ran_by,
  iso(r.job_time),
  iso(r.finished_at),
  r.assessment_name,
  PUBLISHED_LABEL[r.published_status] ?? String(r.published_status),
  iso(r.latest_published_time),
  r.latest_published_pipeline,
];

const ACTION_HEADER = [
  'Job Id', 'Job Name', 'Job Status', 'Step', 'Step Name', 'Source', 'Destination', 'Job Action Id', 'VID', 'Action Name', 'Action Type', 'Status', 'Result',
  'Events', 'Suspicious Events', 'Blocked Message', 'Detected Message', 'Started', 'Finished',
];

type ReportRow = JobAction & { group_order: number; step_name: string; src: string | null; dst: string | null };

async function actionRows(db: Db, jobIds: readonly number[], events: EventsFilter | null): Promise<ReportRow[]> {
  if (!jobIds.length) return [];
  const cond = events ? ` and ${EVENTS_CONDITION[events]}` : '';
  const rows = await db.query<Parameters<typeof toAction>[0] & { group_order: number; step_name: string; src: string | null; dst: string | null }>(
    `select ${ACTION_COLUMNS}, s.group_order, s.name as step_name,
       coalesce(nullif(src.friendly_name, ''), src.name) as src, coalesce(nullif(dst.friendly_name, ''), dst.name) as dst
     from job_actions a join job_steps s on s.id = a.job_step_id
     left join nodes src on src.id = s.source_node_id left join nodes dst on dst.id = s.destination_node_id
     where a.job_id = any($1::int[])${cond}
     order by a.job_id, s.group_order, a.position, a.id`,
    [jobIds],
  );
  return rows.map((r) => ({ ...toAction(r), group_order: r.group_order, step_name: r.step_name, src: r.src, dst: r.dst }));
}

const actionCells = (job: Row, a: ReportRow) => [
  job.id,
  job.name,
  statusLabel(job.status),
  a.group_order,
  a.step_name,
  a.src,
  a.dst,
  a.id,
  a.sim_action_vid,
  a.name,
  a.action_type,
  statusLabel(a.status),
  actionResult(a).text,
  a.events,
  a.suspect_events,
  a.blocked_msg,
  a.detected_msg,
  a.started_at,
  a.finished_at,
];

const BATCH = 500;

/** Pages of jobs in the list's order: all matching jobs, or the given (visible) ids in the given order. */
async function* jobBatches(db: Db, q: ParsedListQuery, scope: { all: true } | { ids: readonly number[] }): AsyncGenerator<Row[]> {
  const base = new Params();
  const conds = await filterConditions(db, q.filter, base);
  if (conds === null) return;
  if ('ids' in scope) {
    if (!scope.ids.length) return;
    const p = base.clone();
    const rows = await selectPage(db, [...conds, `j.id = any(${p.add([...scope.ids])}::int[])`], p, { sort: q.sort, size: scope.ids.length, offset: 0, after: null, before: null }, { range: null, total: 0 });
    const order = new Map(scope.ids.map((id, i) => [id, i]));
    yield rows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
    return;
  }
  const { total } = await tableHead(db);
  let after: Cursor | null = null;
  for (;;) {
    const rows: Row[] = await selectPage(db, conds, base.clone(), { sort: q.sort, size: BATCH, offset: 0, after, before: null }, { range: q.filter.range, total });
    if (rows.length) yield rows;
    if (rows.length < BATCH) return;
    after = rowCursor(q.sort.col, rows[rows.length - 1]!);
  }
}

export type ExportScope = { all: true } | { ids: readonly number[] };

export function checkIds(ids: unknown): number[] {
  const list = Array.isArray(ids) ? ids : typeof ids === 'string' ? ids.split(',').filter(Boolean) : ids === undefined || ids === null ? [] : [ids];
  const out = list.map((v) => (typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v));
  if (!out.every((v): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0)) throw badRequest('job_ids must hold job ids');
  if (out.length > MAX_IDS) throw badRequest(`job_ids may hold at most ${MAX_IDS} ids`);
  return [...new Set(out)];
}

export async function* jobsCsv(db: Db, q: ParsedListQuery, scope: ExportScope, f: CsvFormat): AsyncGenerator<string> {
  yield BOM + csvLine(JOB_HEADER, f);
  for await (const rows of jobBatches(db, q, scope)) yield rows.map((r) => csvLine(jobCells(r), f)).join('');
}

export async function* jobActionsCsv(db: Db, q: ParsedListQuery, scope: ExportScope, f: CsvFormat): AsyncGenerator<string> {
  yield BOM + csvLine(ACTION_HEADER, f);
  for await (const jobs of jobBatches(db, q, scope)) {
    const actions = await actionRows(db, jobs.map((j) => j.id), q.filter.events);
    const byJob = new Map<number, ReportRow[]>();
    for (const a of actions) (byJob.get(a.job_id) ?? byJob.set(a.job_id, []).get(a.job_id)!).push(a);
    yield jobs.flatMap((j) => (byJob.get(j.id) ?? []).map((a) => csvLine(actionCells(j, a), f))).join('');
  }
}
