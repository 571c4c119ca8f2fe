import { useEffect, useRef } from 'react';
import { usePaneContext } from '@/panes/use-pane-context';
import { filterHostPane, loadPendingFilter, type FilterHost } from './filter-host';

/** Offers this pane's filter panel to the filter commands while mounted; loads a saved filter waiting for it. */
export function useFilterHost(host: FilterHost): void {
  usePaneContext(filterHostPane, host);
  const first = useRef(host);
  useEffect(() => loadPendingFilter(first.current), []);
}
