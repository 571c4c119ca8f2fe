/**
 * Resizable columns of the generic tables (monitors-actors-reporting.md MON-019, MON-173): widths kept
 * as percentages summing to 100, remembered per table under `{id}-columnWidths`; resize mode 'fit' (a
 * column grows at its right neighbour's expense, so the table keeps its width); no column narrower
 * than 50 px.
 */
import { useCallback, useState } from 'react';

export const MIN_COLUMN_PX = 50;
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

/** Column `index` grows by `deltaPx` (shrinks when negative) against column index + 1, neither below `minPx`. */
export function resizeColumn(widths: readonly number[], index: number, deltaPx: number, tablePx: number, minPx = MIN_COLUMN_PX): number[] {
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

/** A table's column widths (percent), remembered per table id and column count. */
export function useColumnWidths(id: string, n: number) {
  const [state, setState] = useState(() => ({ n, widths: stored(id, n) ?? evenWidths(n) }));
  const widths = state.n === n ? state.widths : (stored(id, n) ?? evenWidths(n));
  const resize = useCallback(
    (index: number, deltaPx: number, tablePx: number) => {
      setState((old) => {
        const next = resizeColumn(old.n === n ? old.widths : evenWidths(n), index, deltaPx, tablePx);
        try {
          localStorage.setItem(columnWidthsKey(id), JSON.stringify(next));
        } catch {
          // Storage disabled: the widths last as long as the table.
        }
        return { n, widths: next };
      });
    },
    [id, n],
  );
  return { widths, resize };
}
