import { FAIL_COLOR, PASS_COLOR, type ChartMode, type ResultRow, type TimeSeriesAnswer } from '@/api/contracts/reports';

/**
 * The chart rules of the spec (monitors-actors-reporting.md sections 4 "Charts" and 9), as pure functions
 * the chart components and their tests share.
 */

export const NEUTRAL_COLOR = '#38bdf8';
export const DETECTED_COLOR = '#facc15';
export const ALERTED_COLOR = '#fb923c';

/** Time charts group data at about 120 points per unit of panel width, plus 1. */
export const POINTS_PER_WIDTH_UNIT = 120;
export const pointsForWidth = (widthUnits: number): number => Math.max(2, Math.round(POINTS_PER_WIDTH_UNIT * Math.max(widthUnits, 0.05)) + 1);

/** Block-rate axis: 0 to 100. */
export const BLOCK_RATE_AXIS: readonly [number, number] = [0, 100];
/** Points at or above the threshold pass, below fail. */
export const thresholdColor = (value: number, threshold: number): string => (value >= threshold ? PASS_COLOR : FAIL_COLOR);
/** The label of the block-rate colour range, e.g. '85%'. */
export const rangeLabel = (threshold: number): string => `${Math.round(threshold * 10) / 10}%`;

/**
 * Force-field extra margin: 0.15 plus a small amount (0.01 per digit of the largest value, so the value
 * labels fit beside the longest bar); when that comes to over 0.2 it is capped at 0.25.
 */
export function forceFieldMargin(maxValue: number): number {
  const digits = String(Math.max(0, Math.round(maxValue))).length;
  const m = 0.15 + 0.01 * digits;
  return m > 0.2 ? 0.25 : Math.round(m * 100) / 100;
}

/** The half-width of a force-field axis: the largest passed or failed count plus the margin. */
export const forceFieldDomain = (rows: readonly Pick<ResultRow, 'passed' | 'failed'>[]): number => {
  const max = Math.max(1, ...rows.flatMap((r) => [r.passed, r.failed]));
  return max * (1 + forceFieldMargin(max));
};

/** The share a chart shows for a row: prevented in blocked mode, detected in totals mode. */
export const shareOf = (r: Pick<ResultRow, 'preventedPct' | 'detectedPct'>, mode: ChartMode): number => (mode === 'blocked' ? r.preventedPct : r.detectedPct);

/** Radar point colours: threshold colouring in blocked mode; none (one neutral colour) in totals mode. */
export function radarPointColors(values: readonly number[], mode: ChartMode, threshold: number): string[] {
  return values.map((v) => (mode === 'totals' ? NEUTRAL_COLOR : thresholdColor(v, threshold)));
}

/** The ATT&CK view link of the radar chart: /analyze/mitre/?active_tactics[]=..&start=..&end=.. */
export function mitreLink(tactics: readonly string[], start: string | null, end: string | null): string {
  const q = new URLSearchParams();
  for (const t of tactics) q.append('active_tactics[]', t);
  if (start) q.set('start', start);
  if (end) q.set('end', end);
  return `/analyze/mitre/?${q.toString()}`;
}

/** Donut segments: prevented, detected but not prevented, missed (they sum to the total). */
export function pieSegments(r: Pick<ResultRow, 'prevented' | 'passed' | 'missed'>): { key: 'prevented' | 'detected' | 'missed'; label: string; value: number; color: string }[] {
  return [
    { key: 'prevented', label: 'Prevented', value: r.prevented, color: PASS_COLOR },
    { key: 'detected', label: 'Detected only', value: r.passed - r.prevented, color: DETECTED_COLOR },
    { key: 'missed', label: 'Missed', value: r.missed, color: FAIL_COLOR },
  ];
}

/** Bullet chart series, in the spec's order. */
export const BULLET_SERIES = [
  { key: 'prevented', label: 'Prevented', color: PASS_COLOR },
  { key: 'detected', label: 'Detected', color: DETECTED_COLOR },
  { key: 'alerted', label: 'Alerts', color: ALERTED_COLOR },
  { key: 'total', label: 'Total', color: NEUTRAL_COLOR },
] as const;

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Squarified tree map layout (Bruls, Huizing, van Wijk): rectangles in the order of the values given (largest first). */
export function squarify(values: readonly number[], box: Rect): Rect[] {
  const total = values.reduce((s, v) => s + Math.max(0, v), 0);
  const out: Rect[] = values.map(() => ({ x: box.x, y: box.y, w: 0, h: 0 }));
  if (!total || box.w <= 0 || box.h <= 0) return out;
  const scale = (box.w * box.h) / total;
  const areas = values.map((v) => Math.max(0, v) * scale);
  let rest = { ...box };
  let i = 0;
  const worst = (row: number[], side: number) => {
    const s = row.reduce((a, b) => a + b, 0);
    const mx = Math.max(...row);
    const mn = Math.min(...row);
    return Math.max((side * side * mx) / (s * s), (s * s) / (side * side * mn));
  };
  while (i < areas.length) {
    const side = Math.min(rest.w, rest.h);
    const row: number[] = [];
    const idx: number[] = [];
    while (i < areas.length) {
      const a = areas[i]!;
      if (a <= 0) {
        i++;
        continue;
      }
      if (row.length && worst([...row, a], side) > worst(row, side)) break;
      row.push(a);
      idx.push(i);
      i++;
    }
    if (!row.length) break;
    const sum = row.reduce((a, b) => a + b, 0);
    if (rest.w >= rest.h) {
      const w = sum / rest.h;
      let y = rest.y;
      row.forEach((a, k) => {
        const h = a / w;
        out[idx[k]!] = { x: rest.x, y, w, h };
        y += h;
      });
      rest = { x: rest.x + w, y: rest.y, w: rest.w - w, h: rest.h };
    } else {
      const h = sum / rest.w;
      let x = rest.x;
      row.forEach((a, k) => {
        const w = a / h;
        out[idx[k]!] = { x, y: rest.y, w, h };
        x += w;
      });
      rest = { x: rest.x, y: rest.y + h, w: rest.w, h: rest.h - h };
    }
  }
  return out;
}

/** A point on a circle (radar, gauge): angle 0 at the top, clockwise. */
export const polar = (cx: number, cy: number, r: number, angle: number) => ({ x: cx + r * Math.sin(angle), y: cy - r * Math.cos(angle) });

/** The block-rate series: percent blocked per bucket (null where nothing ran) and each point's colour. */
export function blockRatePoints(series: TimeSeriesAnswer, threshold: number): { values: (number | null)[]; colors: (string | null)[] } {
  const values = series.points.map((p) => (p.total > 0 ? p.preventedPct : null));
  return { values, colors: values.map((v) => (v === null ? null : thresholdColor(v, threshold))) };
}

/** The label as it fits `px` pixels measured by `width`: whole, or cut with an ellipsis. */
export function fitLabel(label: string, px: number, width: (t: string) => number): string {
  if (width(label) <= px) return label;
  let lo = 0;
  let hi = label.length;
  // The longest prefix that fits with its ellipsis (binary search over the length).
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (width(`${label.slice(0, mid).trimEnd()}…`) <= px) lo = mid;
    else hi = mid - 1;
  }
  return lo ? `${label.slice(0, lo).trimEnd()}…` : '…';
}
