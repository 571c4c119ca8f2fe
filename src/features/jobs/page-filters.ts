import { DEFAULT_DIMENSION_TYPES, pageToNodes, type FilterNode, type PageFilterItem, type PageFilterValues } from '@/api/contracts/filters';

/** The Jobs pane's page filter items (section 3: page filter config item). */
export const JOB_PAGE_FILTERS: PageFilterItem[] = [
  { type: 'text', label: 'Job Name', stateKey: 'job_name', condition: { match_object: 'job', match_field: 'name', operator: 'contains' } },
  { type: 'checkbox', label: 'Whole name', stateKey: 'job_name_exact', requires: 'job_name', excludeFromSummary: true, modifies: { stateKey: 'job_name', operator: 'equals' } },
  { type: 'select', label: 'Job Status', stateKey: 'job_status', source: 'job_statuses', condition: { match_object: 'job', match_field: 'status', operator: 'in' } },
  { type: 'date', label: 'Started on or after', stateKey: 'started_from' },
  { type: 'checkbox', label: 'Published only', stateKey: 'published', condition: { match_object: 'job', match_field: 'published', operator: 'equals' } },
  ...DEFAULT_DIMENSION_TYPES.map(
    (d): PageFilterItem => ({ type: 'select', label: d.label, stateKey: d.type, dimension: d.label, condition: { match_object: 'job_action', match_field: d.type, operator: 'in' } }),
  ),
];

/** The rules a list call sends: the builder's, and the page filter's as one more group. */
export const jobRulesOf = (rules: readonly FilterNode[], page: PageFilterValues): FilterNode[] => [...rules, ...pageToNodes('jobs', JOB_PAGE_FILTERS, page)];

/**
 * The list's filterRange with the page filter's 'Started on or after' day as its start when later. The
 * day starts at midnight in the filter source's timezone (`timezoneOffset`, minutes east of UTC, from
 * GET {filterSrc}), the zone the panel names; without it, at the browser's local midnight.
 */
export function rangeWithStart(range: string, page: PageFilterValues, timezoneOffset?: number | null): string {
  const day = page.started_from ?? '';
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return range;
  const from = typeof timezoneOffset === 'number' ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) - timezoneOffset * 60_000) : new Date(`${day}T00:00:00`);
  if (Number.isNaN(from.getTime())) return range;
  const [start = '', end = ''] = range ? range.split(',') : [];
  const keep = start && Date.parse(start) > from.getTime();
  const endOk = !end || Date.parse(end) >= from.getTime();
  return `${keep ? start : from.toISOString()},${endOk ? end : ''}`;
}
