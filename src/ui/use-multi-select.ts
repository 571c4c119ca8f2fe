import { useCallback, useRef, useState } from 'react';

/**
 * A list's multi-selection (jobs-simulations-network-map.md section 4 "Library": single, shift-range,
 * or ctrl/meta toggle): the selected items by id, the anchor a shift-range starts from, and the moves.
 * `itemsBetween` answers the items of [from, to], loading pages as needed.
 */
export function useMultiSelect<T extends { id: number }>(itemsBetween: (from: number, to: number) => Promise<T[]>) {
  const [selected, setSelected] = useState<ReadonlyMap<number, T>>(new Map());
  const anchor = useRef(-1);

  /** Selects this item alone; it becomes the anchor. */
  const only = useCallback((index: number, item: T) => {
    anchor.current = index;
    setSelected(new Map([[item.id, item]]));
  }, []);

  /** Selects from the anchor to `index` (added to the selection when `add`). */
  const extendTo = useCallback(
    async (index: number, item: T, add = false) => {
      if (anchor.current < 0) return only(index, item);
      const [a, b] = anchor.current <= index ? [anchor.current, index] : [index, anchor.current];
      const items = await itemsBetween(a, b);
      setSelected((old) => new Map([...(add ? old : new Map<number, T>()), ...items.map((i) => [i.id, i] as const)]));
    },
    [itemsBetween, only],
  );

  /** Adds or removes one item; it becomes the anchor. */
  const toggle = useCallback((index: number, item: T) => {
    anchor.current = index;
    setSelected((old) => {
      const next = new Map(old);
      if (next.has(item.id)) next.delete(item.id);
      else next.set(item.id, item);
      return next;
    });
  }, []);

  /** Back to one item (or none). */
  const collapse = useCallback((item: T | undefined) => setSelected(new Map(item ? [[item.id, item]] : [])), []);

  return { selected, only, extendTo, toggle, collapse };
}
