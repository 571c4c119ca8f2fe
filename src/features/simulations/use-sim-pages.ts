import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useRef, useState } from 'react';
import { LIBRARY_LIMITS, isFinishedJobStatus, type LibraryListAnswer, type SimulationLibraryItem } from '@/api/contracts/library';
import { fetchSimulationsPage, simKeys, type SimListFilter } from './api';

export const PAGE_SIZE = LIBRARY_LIMITS.defaultPageSize;

/**
 * The filtered simulations, loaded page by page as rows come into view: page 1 always (it carries
 * total_count) plus the pages under the visible range. While a new filter loads, the previous answer
 * stays on screen. Pages with a running latest job refetch every 30 s.
 */
export function useSimulationPages(filter: SimListFilter) {
  const queryClient = useQueryClient();
  const [range, setRange] = useState<[number, number]>([0, 0]);
  const pageNumbers = useMemo(() => {
    const set = new Set<number>([1]);
    for (let p = Math.floor(range[0] / PAGE_SIZE) + 1; p <= Math.floor(range[1] / PAGE_SIZE) + 1; p++) set.add(p);
    return [...set];
  }, [range]);

  const results = useQueries({
    queries: pageNumbers.map((n) => ({
      queryKey: simKeys.page(filter, n, PAGE_SIZE),
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchSimulationsPage(filter, n, PAGE_SIZE, signal),
      staleTime: 10_000,
      refetchInterval: (q: { state: { data: LibraryListAnswer | undefined } }) =>
        q.state.data?.simulations.some((s) => s.latest_job && !isFinishedJobStatus(s.latest_job.status)) ? LIBRARY_LIMITS.jobRefetchMs : false,
    })),
  });

  const first = results[0];
  const lastGood = useRef<{ filter: SimListFilter; total: number } | null>(null);
  if (first?.data) lastGood.current = { filter, total: first.data.total_count };
  const stale = !first?.data && lastGood.current !== null && lastGood.current.filter.simType === filter.simType;
  const shownFilter = first?.data || !stale ? filter : (lastGood.current?.filter ?? filter);
  const total = first?.data?.total_count ?? (stale ? (lastGood.current?.total ?? 0) : 0);

  const pageOf = useCallback((p: number) => queryClient.getQueryData<LibraryListAnswer>(simKeys.page(shownFilter, p, PAGE_SIZE)), [queryClient, shownFilter]);

  const itemAt = useCallback(
    (index: number): SimulationLibraryItem | undefined => pageOf(Math.floor(index / PAGE_SIZE) + 1)?.simulations[index % PAGE_SIZE],
    // results changes whenever a page arrives, so rows re-read the cache then.
    [pageOf, results],
  );

  /** The item at an index, fetching its page when it is not loaded yet. */
  const fetchAt = useCallback(
    async (index: number): Promise<SimulationLibraryItem | undefined> => {
      const p = Math.floor(index / PAGE_SIZE) + 1;
      const data = await queryClient.fetchQuery({ queryKey: simKeys.page(shownFilter, p, PAGE_SIZE), queryFn: ({ signal }) => fetchSimulationsPage(shownFilter, p, PAGE_SIZE, signal), staleTime: 10_000 });
      return data.simulations[index % PAGE_SIZE];
    },
    [queryClient, shownFilter],
  );

  /** Items of [from, to] (inclusive), fetching pages not loaded yet (a shift-range selection). */
  const itemsBetween = useCallback(
    async (from: number, to: number): Promise<SimulationLibraryItem[]> => {
      const out: SimulationLibraryItem[] = [];
      for (let i = from; i <= to; i++) {
        const it = itemAt(i) ?? (await fetchAt(i));
        if (it) out.push(it);
      }
      return out;
    },
    [itemAt, fetchAt],
  );

  const indexOfVid = useCallback(
    (vid: string): number => {
      for (const p of pageNumbers) {
        const i = pageOf(p)?.simulations.findIndex((s) => s.vid === vid) ?? -1;
        if (i >= 0) return (p - 1) * PAGE_SIZE + i;
      }
      return -1;
    },
    [pageOf, pageNumbers, results],
  );

  return {
    total,
    loading: !first?.data && !stale && !first?.error,
    refreshing: stale || results.some((r) => r.isFetching),
    error: first?.error ?? null,
    itemAt,
    fetchAt,
    itemsBetween,
    indexOfVid,
    setRange,
  };
}
