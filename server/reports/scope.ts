import type { Db } from '../db/index';
import { validate } from '../http-errors';
import { filterConditions, parseListQuery, Params, type ListFilter } from '../jobs/list-query';
import { reportQuerySchema, type ReportQuery } from '../../src/api/contracts/reports';

/**
 * What every result call reads: the job actions of the jobs that started in a time range and pass the
 * jobs list's filter (text, VID, events and rule filters: the same rules as /jobs/list_page_data.json),
 * as the CTE `ja` (one row per job action, with its step, Action, simulation and job time).
 */
export interface ReportScope {
  q: ReportQuery;
  start: Date | null;
  end: Date | null;
  /** The `with ja as (...)` prefix; null when the filter matches no job. */
  cte: string | null;
  p: Params;
}

/** Validates a raw query (400 with a message on bad input) and builds the scope's SQL. */
export async function reportScope(db: Db, raw: Record<string, unknown>): Promise<ReportScope> {
  const q = validate(reportQuerySchema, raw);
  const start = q.start ? new Date(q.start) : null;
  const end = q.end ? new Date(q.end) : null;
  // The jobs list's own parser checks the filter fields (structuredFilter needs filter=adhoc, rules...).
  const listFilter: ListFilter = parseListQuery({ filterVal: q.filterVal, vid: q.vid, filter: q.filter, structuredFilter: q.structuredFilter }).filter;
  listFilter.range = start || end ? { start, end } : null;
  const p = new Params();
  const conds = await filterConditions(db, listFilter, p);
  if (conds === null) return { q, start, end, cte: null, p };
  const where = conds.length ? `where ${conds.join(' and ')}` : '';
  const cte = `with ja as materialized (
    select a.id, a.action_id, a.action_type, a.status, a.blocked, a.alerted, a.events, a.job_step_id, j.simulation_id, j.monitor_id, j.job_time
    from jobs j join job_actions a on a.job_id = j.id ${where})`;
  return { q, start, end, cte, p };
}

/** The counts of rows `x` of ja (see ResultCounts for the rules). */
export const COUNTS_SQL = `count(*) filter (where x.status = 'ran')::int as total,
  count(*) filter (where x.status = 'ran' and x.blocked)::int as prevented,
  count(*) filter (where x.status = 'ran' and (x.events > 0 or x.alerted))::int as detected,
  count(*) filter (where x.status = 'ran' and x.alerted)::int as alerted,
  count(*) filter (where x.status = 'ran' and not coalesce(x.blocked, false) and x.events = 0 and not x.alerted)::int as missed,
  count(*) filter (where x.status in ('not run', 'incompatible'))::int as not_run,
  count(*) filter (where x.status = 'errored')::int as errored`;

export interface CountsRow {
  total: number;
  prevented: number;
  detected: number;
  alerted: number;
  missed: number;
  not_run: number;
  errored: number;
}
