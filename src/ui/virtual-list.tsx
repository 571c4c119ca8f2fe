import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, type RefObject } from 'react';

/** Pieces shared by the virtualized listboxes (Action library, Simulations). */

export const LISTBOX_CLASS = 'relative min-h-0 flex-1 overflow-auto outline-none focus-visible:ring-2 focus-visible:ring-accent/60 focus-visible:ring-inset';
export const ROW_CLASS = 'absolute top-0 left-0 w-full cursor-default overflow-hidden select-none';

/** A row whose item has not arrived yet. */
export function RowPlaceholder() {
  return (
    <div className="flex h-full flex-col justify-center gap-2 border-b border-line/60 px-3" aria-hidden>
      <div className="h-3 w-2/3 animate-pulse rounded bg-raised" />
      <div className="h-2 w-1/3 animate-pulse rounded bg-raised" />
    </div>
  );
}

/**
 * A virtualizer over fixed-height rows that reports the visible index range (to load the pages under
 * it) and scrolls to `scrollToIndex` when it changes.
 */
export function useVirtualRows(opts: { count: number; rowHeight: number; scrollRef: RefObject<HTMLDivElement | null>; onRange(range: [number, number]): void; scrollToIndex: number | null }) {
  const { count, rowHeight, scrollRef, onRange, scrollToIndex } = opts;
  const virtualizer = useVirtualizer({ count, getScrollElement: () => scrollRef.current, estimateSize: () => rowHeight, overscan: 6 });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  useEffect(() => onRange([first, last]), [first, last, onRange]);
  useEffect(() => {
    if (scrollToIndex !== null && scrollToIndex >= 0 && scrollToIndex < count) virtualizer.scrollToIndex(scrollToIndex, { align: 'auto' });
  }, [scrollToIndex, count, virtualizer]);
  return { items, totalSize: virtualizer.getTotalSize() };
}
