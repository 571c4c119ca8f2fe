import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useRef, useState } from 'react';
import { LIBRARY_LIMITS, type LibraryItem, type LibraryListAnswer } from '@/api/contracts/library';
import { fetchLibraryPage, libraryKeys, type ListFilter } from './api';
import { anyRunning } from './format';

export const PAGE_SIZE = LIBRARY_LIMITS.defaultPageSize;

/**
 * The filtered library, loaded page by page from the director as rows come into view: page 1 always
 * (it carries total_count), plus the pages under the visible range. While a new filter loads, the
 * previous answer stays on screen. Pages whose latest jobs are still running refetch every 30 s.
 */
export function useLibraryPages(filter: ListFilter) {
  const queryClient = useQueryClient();
  const [range, setRange] = useState<[number, number]>([0, 0]);
  const pageNumbers = useMemo(() => {
    const first = Math.floor(range[0] / PAGE_SIZE) + 1;
    const last = Math.floor(range[1] / PAGE_SIZE) + 1;
    const set = new Set<number>([1]);
    for (let p = first; p <= last; p++) set.add(p);
    return [...set];
  }, [range]);

  const results = useQueries({
    queries: pageNumbers.map((n) => ({
      queryKey: libraryKeys.page(filter, n, PAGE_SIZE),
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchLibraryPage(filter, n, PAGE_SIZE, signal),
      staleTime: 10_000,
      refetchInterval: (q: { state: { data: LibraryListAnswer | undefined } }) =>
        q.state.data && anyRunning(q.state.data.actions.map((a) => a.latest_job)) ? LIBRARY_LIMITS.jobRefetchMs : false,
    })),
  });

  const first = results[0];
  // Keep showing the last complete answer while a new filter's first page loads.
  const lastGood = useRef<{ filter: ListFilter; total: number } | null>(null);
  if (first?.data) lastGood.current = { filter, total: first.data.total_count };
  const stale = !first?.data && lastGood.current !== null;
  const shownFilter = first?.data ? filter : (lastGood.current?.filter ?? filter);
  const total = first?.data?.total_count ?? lastGood.current?.total ?? 0;

  const itemAt = useCallback(
    (index: number): LibraryItem | undefined => {
      const page = Math.floor(index / PAGE_SIZE) + 1;
      const data = queryClient.getQueryData<LibraryListAnswer>(libraryKeys.page(shownFilter, page, PAGE_SIZE));
      return data?.actions[index % PAGE_SIZE];
    },
    // results changes whenever a page arrives, so rows re-read the cache then.
    [queryClient, shownFilter, results],
  );

  /** Items of [from, to] (inclusive), fetching pages not loaded yet. */
  const itemsBetween = useCallback(
    async (from: number, to: number): Promise<LibraryItem[]> => {
      const out: LibraryItem[] = [];
      for (let p = Math.floor(from / PAGE_SIZE) + 1; p <= Math.floor(to / PAGE_SIZE) + 1; p++) {
        const data = await queryClient.fetchQuery({
          queryKey: libraryKeys.page(shownFilter, p, PAGE_SIZE),
          queryFn: ({ signal }) => fetchLibraryPage(shownFilter, p, PAGE_SIZE, signal),
          staleTime: 10_000,
        });
        data.actions.forEach((a, i) => {
          const index = (p - 1) * PAGE_SIZE + i;
          if (index >= from && index <= to) out.push(a);
        });
      }
      return out;
    },
    [queryClient, shownFilter],
  );

  const indexOfVid = useCallback(
    (vid: string): number => {
      for (const p of pageNumbers) {
        const data = queryClient.getQueryData<LibraryListAnswer>(libraryKeys.page(shownFilter, p, PAGE_SIZE));
        const i = data?.actions.findIndex((a) => a.vid === vid) ?? -1;
        if (i >= 0) return (p - 1) * PAGE_SIZE + i;
      }
      return -1;
    },
    [queryClient, shownFilter, pageNumbers, results],
  );

  return {
    total,
    loading: !first?.data && !stale,
    /** A newer filter is loading; the rows shown are the previous answer. */
    refreshing: stale || results.some((r) => r.isFetching),
    error: first?.error ?? null,
    itemAt,
    itemsBetween,
    indexOfVid,
    setRange,
  };
}
