import { useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import type { ResultMetric } from '@/api/contracts/reports';

/** What a click on a chart segment names: a group key, a metric, a time bucket. */
export interface ChartSelection {
  key?: string;
  label?: string;
  metric?: ResultMetric | 'total';
  start?: string;
  end?: string;
}

export type OnSelect = (s: ChartSelection) => void;

/**
 * The pixel size of a chart's box, followed as the panel is resized, so SVG charts draw at the panel's
 * own size (text at its font size, not stretched with the box). `fallback` until measured (and in jsdom).
 */
export function useBoxSize<E extends HTMLElement>(fallback: { w: number; h: number }): [RefObject<E | null>, { w: number; h: number }] {
  const ref = useRef<E>(null);
  const [size, setSize] = useState(fallback);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const measure = () => {
      const w = Math.floor(el.clientWidth);
      const h = Math.floor(el.clientHeight);
      if (w > 0 && h > 0) setSize((s) => (s.w === w && s.h === h ? s : { w, h }));
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, size];
}

export interface TableData {
  columns: string[];
  rows: (string | number)[][];
}

/**
 * A chart with its text alternative: a toggle between the drawing and a table of the same figures
 * (every chart kind offers it, so the figures are readable without the drawing).
 */
export function ChartFrame({ label, table, children }: { label: string; table: TableData; children: ReactNode }) {
  const [asTable, setAsTable] = useState(false);
  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className="flex justify-end">
        <button type="button" className="rounded px-1 text-xs text-muted hover:text-ink" aria-pressed={asTable} onClick={() => setAsTable((v) => !v)}>
          {asTable ? 'Show chart' : 'Show table'}
        </button>
      </div>
      {asTable ? (
        <div className="min-h-0 flex-1 overflow-auto">
          <table className="w-full text-xs" aria-label={`${label} (table)`}>
            <thead>
              <tr>
                {table.columns.map((c) => (
                  <th key={c} scope="col" className="border-b border-line px-1 text-left font-semibold">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((r, i) => (
                <tr key={i}>
                  {r.map((v, j) => (
                    <td key={j} className="border-b border-line/50 px-1">
                      {v}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <div className="relative min-h-0 flex-1" role="figure" aria-label={label}>
          {children}
        </div>
      )}
    </div>
  );
}

/** Props that make an SVG shape a keyboard-reachable, clickable segment with a tooltip. */
export function segmentProps(label: string, select: (() => void) | undefined) {
  if (!select) return { 'aria-label': label };
  return {
    role: 'button',
    tabIndex: 0,
    'aria-label': label,
    style: { cursor: 'pointer' },
    onClick: select,
    onKeyDown: (e: KeyboardEvent) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        select();
      }
    },
  };
}

export const EMPTY_CHART = 'No results in this time range.';

export function EmptyChart() {
  return <p className="p-2 text-xs text-muted">{EMPTY_CHART}</p>;
}
