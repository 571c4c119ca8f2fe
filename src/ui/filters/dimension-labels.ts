import { useQueries, type UseQueryResult } from '@tanstack/react-query';
import type { DimensionChildren } from '@/api/contracts/filters';
import { fetchDimensionChildren, filterKeys } from './api';

// A module-level combine, so the map is rebuilt only when an answer changes.
const toLabels = (answers: UseQueryResult<DimensionChildren>[]) => new Map(answers.flatMap((q) => (q.data ?? []).map(([label, id]): [string, string] => [String(id), label])));

/**
 * Labels of dimension node ids ('12' -> 'Phishing / Spearphishing Link') from GET
 * /reports/dimension_children.json of each type asked for, so ids stored in a filter show as names after
 * a reload. Node ids are unique across types, so one map serves them all. A type not yet loaded has no entries.
 */
export function useDimensionLabels(types: readonly { type: string; enabled: boolean }[]): Map<string, string> {
  return useQueries({
    queries: types.map(({ type, enabled }) => ({
      queryKey: filterKeys.children(type),
      queryFn: () => fetchDimensionChildren(type),
      enabled,
      staleTime: 60_000,
    })),
    combine: toLabels,
  });
}
