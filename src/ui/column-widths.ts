/**
 * Resizable columns of the generic tables (monitors-actors-reporting.md MON-019, MON-173): widths kept
 * as percentages summing to 100, remembered per table under `{id}-columnWidths`; resize mode 'fit' (a
 * column grows at its right neighbour's expense, so the table keeps its width). The helper's own
 * minimum is 15 px (RESIZE_HELPER_MIN_PX, for any resizable table that names none); the generic tables
 * pass 50 px (MIN_COLUMN_PX), so none of their columns is narrower.
 */
import { useCallback, useState } from 'react';

/** The generic tables' column minimum (MON-173). */
export const MIN_COLUMN_PX = 50;
/** The resizable-table helper's default column minimum when a table names none (MON-173). */
export const RESIZE_HELPER_MIN_PX = 15;
export const columnWidthsKey = (id: string) => `${id}-columnWidths`;

const round = (n: number) => Math.round(n * 100) / 100;

/** Percentages that sum to exactly 100 (the last column takes the rounding). */
function normalize(widths: number[]): number[] {
  const total = widths.reduce((a, b) => a + b, 0) || 1;
  const scaled = widths.map((w) => round((w / total) * 100));
  scaled[scaled.length - 1] = round(100 - scaled.slice(0, -1).reduce((a, b) => a + b, 0));
  return scaled;
}

export const evenWidths = (n: number): number[] => (n > 0 ? normalize(Array.from({ length: n }, () => 1)) : []);

/** Starting widths from relative weights (even when none are given or their count differs). */
const startWidths = (n: number, weights?: readonly number[]) => (weights && weights.length === n && n > 0 && weights.every((w) => w > 0) ? normalize([...weights]) : evenWidths(n));

/** Column `index` grows by `deltaPx` (shrinks when negative) against column index + 1, neither below `minPx`. */
export function resizeColumn(widths: readonly number[], index: number, deltaPx: number, tablePx: number, minPx = RESIZE_HELPER_MIN_PX): number[] {
  if (index < 0 || index >= widths.length - 1 || !(tablePx > 0) || !Number.isFinite(deltaPx)) return [...widths];
  const px = widths.map((w) => (w / 100) * tablePx);
  const a = px[index]!;
  const b = px[index + 1]!;
  const d = Math.max(Math.min(a, minPx) - a, Math.min(deltaPx, b - Math.min(b, minPx)));
  px[index] = a + d;
  px[index + 1] = b - d;
  return normalize(px);
}

function stored(id: string, n: number): number[] | null {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(columnWidthsKey(id)) ?? 'null');
    // MON-167: widths remembered for another column count are a console warning; the table uses even widths.
    if (Array.isArray(raw) && raw.length !== n) console.warn(`${id}: the remembered column widths are for ${raw.length} columns, the table has ${n}; even widths are used.`);
    if (!Array.isArray(raw) || raw.length !== n || !raw.every((w) => typeof w === 'number' && w > 0)) return null;
    return Math.abs(raw.reduce((a: number, b: number) => a + b, 0) - 100) < 0.5 ? (raw as number[]) : null;
  } catch {
    return null;
  }
}

/** A table's column widths (percent), remembered per table id and column count; no column below `minPx` (default: the helper's 15 px); they start from `weights` (relative) or even. */
export function useColumnWidths(id: string, n: number, minPx = RESIZE_HELPER_MIN_PX, weights?: readonly number[]) {
  const [state, setState] = useState(() => ({ n, widths: stored(id, n) ?? startWidths(n, weights) }));
  const widths = state.n === n ? state.widths : (stored(id, n) ?? startWidths(n, weights));
  const resize = useCallback(
    (index: number, deltaPx: number, tablePx: number) => {
      setState((old) => {
        const next = resizeColumn(old.n === n ? old.widths : startWidths(n, weights), index, deltaPx, tablePx, minPx);
        try {
          localStorage.setItem(columnWidthsKey(id), JSON.stringify(next));
        } catch {
          // Storage disabled: the widths last as long as the table.
        }
        return { n, widths: next };
      });
    },
    [id, n, minPx, weights],
  );
  return { widths, resize };
}
