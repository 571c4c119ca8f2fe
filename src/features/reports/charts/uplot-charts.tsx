import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { FAIL_COLOR, PASS_COLOR, type ResultRow, type TimeSeriesAnswer } from '@/api/contracts/reports';
import { ChartFrame, EmptyChart, type OnSelect } from './chart-frame';
import { BLOCK_RATE_AXIS, DETECTED_COLOR, blockRatePoints, fitLabel, rangeLabel } from './rules';

/**
 * The uPlot charts (time-based and x/y): line, block rate and bar. uPlot draws on a canvas sized to the
 * panel (a ResizeObserver keeps it in step); its legend is the hover tooltip; a click picks the point or
 * bar under the cursor.
 */

function UPlotCanvas({ opts, data, onPick, label }: { opts: Omit<uPlot.Options, 'width' | 'height'>; data: uPlot.AlignedData; onPick?: (idx: number) => void; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  const pick = useRef(onPick);
  pick.current = onPick;
  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const size = () => ({ width: Math.max(120, el.clientWidth), height: Math.max(80, el.clientHeight - 28) });
    const plot = new uPlot({ ...opts, ...size() }, data, el);
    const click = () => {
      const idx = plot.cursor.idx;
      if (idx !== null && idx !== undefined) pick.current?.(idx);
    };
    plot.over.addEventListener('click', click);
    const ro = new ResizeObserver(() => plot.setSize(size()));
    ro.observe(el);
    return () => {
      ro.disconnect();
      plot.destroy();
    };
    // The figures, not the objects' identity, decide when to draw again.
  }, [JSON.stringify(data), label]);
  return <div ref={box} className="h-full w-full" aria-label={label} data-uplot />;
}

const timeTable = (s: TimeSeriesAnswer) => ({
  columns: ['Start', 'Total', 'Prevented', 'Detected', 'Missed', 'Prevented %'],
  rows: s.points.filter((p) => p.total > 0).map((p) => [p.start.slice(0, 16).replace('T', ' '), p.total, p.prevented, p.detected, p.missed, `${p.preventedPct}%`]),
});

const seconds = (s: TimeSeriesAnswer) => s.points.map((p) => Date.parse(p.start) / 1000);

/** Line chart: prevented, detected and missed per time bucket. */
export function LineChart({ series, onSelect }: { series: TimeSeriesAnswer; onSelect?: OnSelect }) {
  const data: uPlot.AlignedData = [seconds(series), series.points.map((p) => p.prevented), series.points.map((p) => p.detected), series.points.map((p) => p.missed)];
  const opts: Omit<uPlot.Options, 'width' | 'height'> = {
    series: [{}, { label: 'Prevented', stroke: PASS_COLOR }, { label: 'Detected', stroke: DETECTED_COLOR }, { label: 'Missed', stroke: FAIL_COLOR }],
    axes: [{ stroke: '#94a3b8' }, { stroke: '#94a3b8' }],
  };
  const pick = (i: number) => onSelect?.({ start: series.points[i]?.start, end: series.points[i]?.end });
  return (
    <ChartFrame label="Line chart" table={timeTable(series)}>
      <UPlotCanvas opts={opts} data={data} onPick={pick} label="Results over time" />
    </ChartFrame>
  );
}

/** Block rate: percent blocked over time on a 0..100 axis; points coloured above or below the threshold, the range labelled e.g. '85%'. */
export function BlockRateChart({ series, threshold, onSelect }: { series: TimeSeriesAnswer; threshold: number; onSelect?: OnSelect }) {
  const { values, colors } = blockRatePoints(series, threshold);
  const data: uPlot.AlignedData = [seconds(series), values, values.map(() => threshold)];
  const opts: Omit<uPlot.Options, 'width' | 'height'> = {
    scales: { y: { range: [BLOCK_RATE_AXIS[0], BLOCK_RATE_AXIS[1]] } },
    series: [
      {},
      {
        label: 'Blocked %',
        stroke: '#94a3b8',
        spanGaps: true,
        // The points are drawn by the draw hook below, each in its threshold colour.
        points: { show: false },
      },
      { label: rangeLabel(threshold), stroke: FAIL_COLOR, dash: [4, 4], points: { show: false } },
    ],
    axes: [{ stroke: '#94a3b8' }, { stroke: '#94a3b8', values: (_u, vals) => vals.map((v) => `${v}%`) }],
    hooks: {
      draw: [
        (u: uPlot) => {
          // Points coloured by the threshold (uPlot fills a series' points with one colour).
          const ctx = u.ctx;
          values.forEach((v, i) => {
            if (v === null) return;
            const x = u.valToPos(data[0][i]!, 'x', true);
            const y = u.valToPos(v, 'y', true);
            ctx.beginPath();
            ctx.fillStyle = colors[i]!;
            ctx.arc(x, y, 4 * devicePixelRatio, 0, Math.PI * 2);
            ctx.fill();
          });
        },
      ],
    },
  };
  const table = { columns: ['Start', 'Blocked %', 'Colour'], rows: values.flatMap((v, i) => (v === null ? [] : [[series.points[i]!.start.slice(0, 16).replace('T', ' '), `${v}%`, colors[i] === PASS_COLOR ? 'pass' : 'fail']])) };
  const pick = (i: number) => onSelect?.({ start: series.points[i]?.start, end: series.points[i]?.end });
  return (
    <ChartFrame label="Block rate chart" table={table}>
      <span className="absolute right-1 top-0 z-10 rounded px-1 text-[10px]" style={{ color: FAIL_COLOR }} data-testid="range-label">
        {rangeLabel(threshold)}
      </span>
      <UPlotCanvas opts={opts} data={data} onPick={pick} label="Block rate over time" />
    </ChartFrame>
  );
}

const AXIS_FONT = '11px system-ui, sans-serif';
/** Above this many groups the bar chart's names are slanted, each up to SLANTED_LABEL_PX wide. */
const SLANT_FROM = 4;
const SLANTED_LABEL_PX = 100;
let measure: CanvasRenderingContext2D | null | undefined;

function textWidth(t: string): number {
  if (measure === undefined) measure = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  if (!measure) return t.length * 6;
  measure.font = AXIS_FONT;
  return measure.measureText(t).width;
}

/** Bar chart: prevented, detected only and missed per group (stacked). */
export function BarChart({ rows, onSelect }: { rows: readonly ResultRow[]; onSelect?: OnSelect }) {
  if (!rows.length) return <EmptyChart />;
  const x = rows.map((_, i) => i);
  const prevented = rows.map((r) => r.prevented);
  const detectedOnly = rows.map((r) => r.passed - r.prevented);
  const missed = rows.map((r) => r.missed);
  // Stacked: each series is drawn from the sum of the ones before it.
  const s2 = prevented.map((v, i) => v + detectedOnly[i]!);
  const s3 = s2.map((v, i) => v + missed[i]!);
  const bars = uPlot.paths.bars!({ size: [0.6, 60] });
  const data: uPlot.AlignedData = [x, s3, s2, prevented];
  const opts: Omit<uPlot.Options, 'width' | 'height'> = {
    scales: { x: { time: false, range: [-0.5, rows.length - 0.5] } },
    series: [
      { label: 'Group', value: (_u, v) => (v === null ? '' : (rows[Math.round(v)]?.label ?? '')) },
      { label: 'Missed', fill: FAIL_COLOR, stroke: FAIL_COLOR, paths: bars, value: (_u, _v, _s, i) => (i === null ? '' : String(missed[i] ?? '')) },
      { label: 'Detected', fill: DETECTED_COLOR, stroke: DETECTED_COLOR, paths: bars, value: (_u, _v, _s, i) => (i === null ? '' : String(detectedOnly[i] ?? '')) },
      { label: 'Prevented', fill: PASS_COLOR, stroke: PASS_COLOR, paths: bars },
    ],
    // Group names fit their slot (cut with an ellipsis); more than a few groups are written slanted, with
    // more room. The whole name is in the legend and the plot's tooltip (title) under the cursor.
    axes: [
      {
        stroke: '#94a3b8',
        font: AXIS_FONT,
        splits: () => x,
        ...(rows.length > SLANT_FROM ? { rotate: -35, size: 72 } : {}),
        values: (u, vals) => {
          const room = rows.length > SLANT_FROM ? SLANTED_LABEL_PX : u.bbox.width / devicePixelRatio / rows.length - 6;
          return vals.map((v) => fitLabel(rows[v]?.label ?? '', room, textWidth));
        },
      },
      { stroke: '#94a3b8', font: AXIS_FONT },
    ],
    hooks: {
      setCursor: [
        (u: uPlot) => {
          const i = u.cursor.idx;
          u.over.title = i === null || i === undefined ? '' : (rows[i]?.label ?? '');
        },
      ],
    },
  };
  const table = { columns: ['Group', 'Total', 'Prevented', 'Detected', 'Missed'], rows: rows.map((r) => [r.label, r.total, r.prevented, r.detected, r.missed]) };
  return (
    <ChartFrame label="Bar chart" table={table}>
      <UPlotCanvas opts={opts} data={data} onPick={(i) => rows[i] && onSelect?.({ key: rows[i].key, label: rows[i].label })} label="Results by group" />
    </ChartFrame>
  );
}

export { EmptyChart };
