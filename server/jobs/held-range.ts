import type { Db } from '../db/index';
import type { ListFilter } from './list-query';

type Range = NonNullable<ListFilter['range']>;

/**
 * A date range narrowed to the jobs it holds: its start moved up to the first job time in it and its
 * end down to the last, to the millisecond (the first floored, the last ceiled: a range's own ends are
 * milliseconds, so the narrowed one holds exactly the same jobs). An open end stays open. 'empty' when
 * the range holds no job.
 *
 * Why: two ranges that hold the same jobs have the same list answers, and ranges differ in ways that
 * change no answer all the time: "Last 7 Days" ends at the moment each user picked it, a script's range
 * at the millisecond it ran. Keyed by the range it holds, an answer kept for one serves the others
 * (server/jobs/answers.ts). Two index probes of jobs_sort_time_idx, read once per database state for a
 * given range.
 */
export async function heldRange(db: Db, range: Range): Promise<Range | 'empty'> {
  const params: string[] = [];
  const probe = (bound: Date | null, edge: 'first' | 'last') => {
    if (!bound) return 'null::float8';
    params.push(bound.toISOString());
    const [cmp, order, round] = edge === 'first' ? ['>=', 'asc', 'floor'] : ['<=', 'desc', 'ceil'];
    return `${round}(extract(epoch from (select job_time from jobs where job_time ${cmp} $${params.length}::timestamptz order by job_time ${order} limit 1)) * 1000)::float8`;
  };
  const [row] = await db.query<{ first: number | null; last: number | null }>(`select ${probe(range.start, 'first')} as first, ${probe(range.end, 'last')} as last`, params);
  const first = row?.first ?? null;
  const last = row?.last ?? null;
  if ((range.start && first === null) || (range.end && last === null) || (first !== null && last !== null && first > last)) return 'empty';
  return { start: first === null ? null : new Date(first), end: last === null ? null : new Date(last) };
}

/** The text a held range is keyed by: its ends in ISO 8601, an open end empty. */
export const heldRangeText = (r: Range | 'empty'): string => (r === 'empty' ? 'empty' : `${r.start?.toISOString() ?? ''},${r.end?.toISOString() ?? ''}`);
