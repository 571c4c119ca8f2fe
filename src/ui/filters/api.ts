import { http } from '@/api/http';
import {
  FILTER_SRC,
  type DimensionChildren,
  type FilterOption,
  type FilterTarget,
  type LookupAnswer,
  type PageFilterData,
  type SavedFilter,
  type SavedFilterBody,
} from '@/api/contracts/filters';

/** Plain fetchers of the filter calls (section 7) and of saved filters. */

export const filterKeys = {
  all: ['filters'] as const,
  source: (target: FilterTarget) => ['filters', 'source', target] as const,
  children: (type: string) => ['filters', 'dimension-children', type] as const,
  saved: ['filters', 'saved'] as const,
};

export const fetchLookup = async (matchObject: string, matchField: string, q: string, signal?: AbortSignal): Promise<FilterOption[]> =>
  (await http.get<LookupAnswer>(`/lookup/${encodeURIComponent(matchObject)}/${encodeURIComponent(matchField)}`, { params: { q: q || undefined }, signal })).data;

export const fetchPageFilterData = (target: FilterTarget) => http.get<PageFilterData>(FILTER_SRC, { params: { target } });

export const fetchDimensionChildren = (type: string) => http.get<DimensionChildren>('/reports/dimension_children.json', { params: { type } });

export const fetchSavedFilters = async (): Promise<SavedFilter[]> => (await http.get<{ data: SavedFilter[] }>('/filters/saved.json')).data;

export const saveFilter = async (target: FilterTarget, name: string, filter: SavedFilterBody): Promise<SavedFilter> =>
  (await http.post<{ data: SavedFilter }>('/filters/saved.json', { target, name, filter })).data;

export const deleteSavedFilter = (id: number) => http.delete<{ data: { id: number } }>(`/filters/saved/${id}.json`);
