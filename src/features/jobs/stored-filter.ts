import {
  DEFAULT_PAGE_SIZE,
  DEFAULT_SORT,
  EVENTS_FILTERS,
  PAGE_SIZES,
  SORT_COLUMNS,
  type EventsFilter,
  type SortColumn,
  type SortDirection,
} from '@/api/contracts/jobs';
import type { FilterNode, PageFilterValues } from '@/api/contracts/filters';
import { jobRulesOf, rangeWithStart } from './page-filters';
import { filterRules, parseJobFilter } from './filter-qualifiers';

/** The stored job-list filter (JOB-033), kept in browser storage per user and per ?vid= scope. */
export interface StoredFilter {
  /** One-based in the UI (zero-based on the wire). */
  page_number: number;
  page_size: number;
  sort: { by: SortColumn; direction: SortDirection };
  filter_value: string;
  /** The wire's filterRange ("start,end", ISO), or ''. */
  filter_range: string;
  selected_jobs: number[];
  /** The events filter, plus the filter-rule builder's rules and the page filter's values (issue 8). */
  structured_filter: { events: EventsFilter | ''; rules: FilterNode[]; page: PageFilterValues };
}

export const defaultFilter = (): StoredFilter => ({
  page_number: 1,
  page_size: DEFAULT_PAGE_SIZE,
  sort: { by: DEFAULT_SORT.by, direction: DEFAULT_SORT.direction },
  filter_value: '',
  filter_range: '',
  selected_jobs: [],
  structured_filter: { events: '', rules: [], page: {} },
});

export const filterStorageKey = (userId: number | string, vid: string) => `vigil.jobs.filter.v1:${userId}:${vid || '-'}`;

/** Reads a stored filter, keeping only valid fields (anything unreadable falls back to the defaults). */
export function parseStoredFilter(raw: string | null): StoredFilter {
  const d = defaultFilter();
  if (!raw) return d;
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return d;
  }
  if (!v || typeof v !== 'object') return d;
  const o = v as Partial<Record<keyof StoredFilter, unknown>>;
  const int = (x: unknown, min: number) => (typeof x === 'number' && Number.isInteger(x) && x >= min ? x : null);
  const sort = o.sort as { by?: unknown; direction?: unknown } | undefined;
  const structured = o.structured_filter as { events?: unknown; rules?: unknown; page?: unknown } | undefined;
  const events = structured?.events;
  const page = structured?.page && typeof structured.page === 'object' && !Array.isArray(structured.page) ? (structured.page as Record<string, unknown>) : {};
  return {
    page_number: int(o.page_number, 1) ?? d.page_number,
    page_size: (PAGE_SIZES as readonly number[]).includes(o.page_size as number) ? (o.page_size as number) : d.page_size,
    sort: {
      by: (SORT_COLUMNS as readonly unknown[]).includes(sort?.by) ? (sort!.by as SortColumn) : d.sort.by,
      direction: sort?.direction === 'asc' || sort?.direction === 'desc' ? sort.direction : d.sort.direction,
    },
    filter_value: typeof o.filter_value === 'string' ? o.filter_value.slice(0, 200) : '',
    filter_range: typeof o.filter_range === 'string' && /^[^,]*,[^,]*$/.test(o.filter_range) ? o.filter_range : '',
    selected_jobs: Array.isArray(o.selected_jobs) ? o.selected_jobs.filter((x): x is number => int(x, 1) !== null).slice(0, 1000) : [],
    structured_filter: {
      events: (EVENTS_FILTERS as readonly unknown[]).includes(events) ? (events as EventsFilter) : '',
      // The director checks the tree; an unreadable one answers 400 and Reset Filter clears it.
      rules: Array.isArray(structured?.rules) ? (structured.rules as FilterNode[]) : [],
      page: Object.fromEntries(Object.entries(page).filter((e): e is [string, string] => typeof e[1] === 'string')),
    },
  };
}

export function loadFilter(key: string): StoredFilter {
  try {
    return parseStoredFilter(localStorage.getItem(key));
  } catch {
    return defaultFilter();
  }
}

export function saveFilter(key: string, f: StoredFilter): void {
  try {
    localStorage.setItem(key, JSON.stringify(f));
  } catch {
    // Storage full or disabled: the filter lives for this page only.
  }
}

/** What one list call asks for (the query key of the list). */
export interface ListRequest {
  size: number;
  page: number;
  sortCol: SortColumn;
  sortDir: SortDirection;
  filterVal: string;
  filterRange: string;
  vid: string;
  events: EventsFilter | '';
  /** The rule tree sent (builder and page filter), as JSON; '' without one. */
  rules: string;
  after: string;
  before: string;
  /** Sent for pruning, never part of the cache key (see listKeyOf). */
  selected: number[];
}

/** `timezoneOffset`: minutes east of UTC of the filter source, where a page filter day starts. */
export function toListRequest(f: StoredFilter, vid: string, cursor: { after?: string; before?: string } | null, timezoneOffset?: number | null): ListRequest {
  // The text filter's `field:value` words (status:completed) join the rules; the rest is the list's text search.
  const parsed = parseJobFilter(f.filter_value);
  return {
    size: f.page_size,
    page: Math.max(0, f.page_number - 1),
    sortCol: f.sort.by,
    sortDir: f.sort.direction,
    filterVal: parsed.text,
    filterRange: rangeWithStart(f.filter_range, f.structured_filter.page, timezoneOffset),
    vid,
    events: f.structured_filter.events,
    rules: rulesJson(f, filterRules(parsed)),
    after: cursor?.after ?? '',
    before: cursor?.before ?? '',
    selected: [],
  };
}

function rulesJson(f: StoredFilter, words: FilterNode[]): string {
  const rules = [...jobRulesOf(f.structured_filter.rules, f.structured_filter.page), ...words];
  return rules.length ? JSON.stringify(rules) : '';
}
