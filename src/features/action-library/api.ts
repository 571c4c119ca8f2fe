import { ApiError, http, request } from '@/api/http';
import {
  LIBRARY_LIMITS,
  type ActionLibraryDetail,
  type EditableParam,
  type LatestJobsAnswer,
  type LegacyLibraryPage,
  type LibraryFiltersAnswer,
  type LibraryItem,
  type LibraryListAnswer,
  type LibrarySort,
  type LibraryStatus,
  type PreviewAnswer,
  type PreviewProps,
  type SortDirection,
  type UpdateFromLibraryAnswer,
} from '@/api/contracts/library';
import type { FilterNode } from '@/api/contracts/filters';

/** Plain fetchers of the Action library (commands and components share them). */

export interface ListFilter {
  search: string;
  tags: number[];
  tag_mode: 'and' | 'or';
  action_types: string[];
  status: LibraryStatus | '';
  dimensions: number[];
  sort: LibrarySort;
  direction: SortDirection;
  include_disabled: boolean;
  /** A rule tree over Actions (filter-rule builder and page filters), evaluated by the director. */
  rules?: FilterNode[];
}

export const libraryKeys = {
  all: ['library'] as const,
  lists: ['library', 'list'] as const,
  page: (f: ListFilter, page: number, size: number) => ['library', 'list', f, page, size] as const,
  filters: (includeDisabled: boolean) => ['library', 'filters', includeDisabled] as const,
  details: ['library', 'detail'] as const,
  detail: (vid: string) => ['library', 'detail', vid.toUpperCase()] as const,
  latest: (id: number) => ['library', 'latest', id] as const,
  preview: (id: number) => ['library', 'preview', id] as const,
};

function listParams(f: ListFilter, page: number, size: number) {
  return {
    search: f.search || undefined,
    tags: f.tags.length ? f.tags : undefined,
    tag_mode: f.tags.length > 1 ? f.tag_mode : undefined,
    action_types: f.action_types.length ? f.action_types : undefined,
    status: f.status || undefined,
    dimensions: f.dimensions.length ? f.dimensions : undefined,
    sort: f.sort,
    direction: f.direction,
    include_disabled: f.include_disabled || undefined,
    rules: f.rules?.length ? JSON.stringify(f.rules) : undefined,
    page_number: page,
    page_size: size,
  };
}

export const fetchLibraryPage = (f: ListFilter, page: number, size: number, signal?: AbortSignal) =>
  http.get<LibraryListAnswer>('/manage_sims/v2/actions/library_actions_list', { params: listParams(f, page, size), signal });

export const fetchFilters = (includeDisabled: boolean) =>
  http.get<LibraryFiltersAnswer>('/manage_sims/v2/actions/filters', { params: { include_disabled: includeDisabled || undefined } });

export const fetchDetail = async (ref: { vid?: string; id?: number }) =>
  (await http.get<{ action: ActionLibraryDetail }>('/manage_sims/v2/actions/detail.json', { params: ref })).action;

export const fetchLatestJobs = (id: number) => http.get<LatestJobsAnswer>('/manage_sims/v2/actions/latest_jobs.json', { params: { id }, background: true });

export const fetchPreview = async (id: number): Promise<PreviewProps> =>
  (await http.get<PreviewAnswer>('/library/actions.json', { params: { id, include_disabled: true } })).data.preview_props;

export const updateFromLibrary = async (input: { id: number; param_name: EditableParam; new_value: string; brt_license: string; auth_token: string }) =>
  (await http.post<UpdateFromLibraryAnswer>('/manage_sims/actions/update_from_library.json', input)).data;

export const approveAction = (id: number, required: boolean, version: number) =>
  http.put<{ data: { id: number; vid: string; approved: boolean } }>(`/manage_sims/actions/${id}/approve`, undefined, { params: { required, version } });

/** Rejection: failures carry their message in `base` (actions.md section 8). */
export async function rejectAction(id: number): Promise<{ id: number; vid: string; removed_from: string[] }> {
  try {
    return (await http.delete<{ data: { id: number; vid: string; removed_from: string[] } }>(`/manage_sims/actions/${id}.json`)).data;
  } catch (e) {
    if (e instanceof ApiError && e.body && typeof e.body === 'object') {
      const base = (e.body as { base?: unknown }).base;
      if (typeof base === 'string' && base) throw new ApiError(e.status, base, e.body);
    }
    throw e;
  }
}

export type FileDecision = 'approve' | 'restrict' | 'remove';
export const decideFile = (id: number, fileId: number, decision: FileDecision) =>
  decision === 'remove'
    ? http.delete<{ data: { file_id: number } }>(`/manage_sims/actions/${id}/files/${fileId}.json`)
    : http.put<{ data: { file_id: number } }>(`/manage_sims/actions/${id}/files/${fileId}/${decision}.json`);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The whole library through the legacy paged call (page size 1000): 204 means the director is still
 * preparing it, so wait 5 s and ask again; then fetch every page until total_pages.
 */
export async function fetchAllLibraryPages(
  onProgress?: (loaded: number, total: number) => void,
  opts: { retryMs?: number; maxWaits?: number } = {},
): Promise<LibraryItem[]> {
  const retryMs = opts.retryMs ?? LIBRARY_LIMITS.legacyRetryMs;
  const maxWaits = opts.maxWaits ?? 60;
  const items: LibraryItem[] = [];
  let page = 1;
  let totalPages = 1;
  let waits = 0;
  while (page <= totalPages) {
    let answer: LegacyLibraryPage;
    try {
      answer = await request<LegacyLibraryPage>('GET', '/manage_sims/library_actions_list.json', { params: { page, size: LIBRARY_LIMITS.legacyPageSize } });
    } catch (e) {
      // 204: the director is still preparing the library (the request helper counts only 200 and 201 as success).
      if (!(e instanceof ApiError && e.status === 204)) throw e;
      if (++waits > maxWaits) throw new Error('The library did not become ready in time.');
      await sleep(retryMs);
      continue;
    }
    items.push(...answer.data);
    totalPages = answer.meta.total_pages;
    onProgress?.(items.length, answer.meta.total_count);
    page++;
  }
  return items;
}
