import { FAIL_COLOR, PASS_COLOR, type ChartMode, type ResultRow } from '@/api/contracts/reports';
import { ChartFrame, EmptyChart, segmentProps, useBoxSize, type OnSelect } from './chart-frame';
import { BULLET_SERIES, forceFieldDomain, pieSegments, polar, shareOf, thresholdColor } from './rules';

/** The SVG charts of single figures and groups: bullet, force-field pass/fail, gauge, pie/donut. */

const pctText = (n: number) => `${n}%`;

/** Bullet chart: the series Prevented, Detected, Alerts, Total as bars on one scale, the threshold as a marker. */
export function BulletChart({ totals, threshold, onSelect }: { totals: ResultRow; threshold: number; onSelect?: OnSelect }) {
  const max = Math.max(1, totals.total);
  const table = { columns: ['Series', 'Count', 'Percent'], rows: BULLET_SERIES.map((s) => [s.label, totals[s.key], s.key === 'total' ? '100%' : pctText(totals[`${s.key}Pct`])]) };
  return (
    <ChartFrame label="Bullet chart" table={table}>
      <svg viewBox="0 0 300 130" className="h-full w-full" preserveAspectRatio="xMidYMid meet">
        {BULLET_SERIES.map((s, i) => {
          const y = 8 + i * 30;
          const w = (totals[s.key] / max) * 200;
          const tip = `${s.label}: ${totals[s.key]}${s.key === 'total' ? '' : ` (${pctText(totals[`${s.key}Pct`])})`}`;
          return (
            <g key={s.key} {...segmentProps(tip, onSelect && (() => onSelect({ metric: s.key })))} data-series={s.label}>
              <title>{tip}</title>
              <text x={0} y={y + 14} fontSize={11} fill="currentColor">
                {s.label}
              </text>
              <rect x={70} y={y} width={200} height={20} fill="currentColor" opacity={0.08} />
              <rect x={70} y={y + 4} width={w} height={12} fill={s.color} />
              <text x={275} y={y + 14} fontSize={10} fill="currentColor">
                {totals[s.key]}
              </text>
            </g>
          );
        })}
        <line x1={70 + (threshold / 100) * 200} x2={70 + (threshold / 100) * 200} y1={4} y2={124} stroke="currentColor" strokeDasharray="3 2" aria-hidden>
          <title>{`Threshold ${threshold}%`}</title>
        </line>
      </svg>
    </ChartFrame>
  );
}

/** Force-field pass/fail: per group, passed to the right and failed to the left of a zero line. */
export function ForceFieldChart({ rows, onSelect }: { rows: readonly ResultRow[]; onSelect?: OnSelect }) {
  if (!rows.length) return <EmptyChart />;
  const table = { columns: ['Group', 'Passed', 'Failed'], rows: rows.map((r) => [r.label, r.passed, r.failed]) };
  return (
    <ChartFrame label="Pass/fail force field" table={table}>
      <ForceFieldBars rows={rows} onSelect={onSelect} />
    </ChartFrame>
  );
}

/** The bars drawn at the panel's pixel width: labels at their font size on the left, the field in the rest. */
function ForceFieldBars({ rows, onSelect }: { rows: readonly ResultRow[]; onSelect?: OnSelect | undefined }) {
  const [ref, { w }] = useBoxSize<HTMLDivElement>({ w: 360, h: 200 });
  const half = forceFieldDomain(rows);
  const rowH = 22;
  const height = rows.length * rowH + 10;
  const labelW = Math.min(200, Math.round(w * 0.35));
  const center = labelW + Math.round((w - labelW) / 2);
  const scale = (n: number) => (n / half) * ((w - labelW) / 2 - 4);
  const chars = Math.max(4, Math.floor(labelW / 6.5));
  return (
    <div ref={ref} className="h-full w-full overflow-auto">
      <svg width={w} height={height} viewBox={`0 0 ${w} ${height}`} className="block" data-domain={half.toFixed(2)}>
        <line x1={center} x2={center} y1={0} y2={height} stroke="currentColor" opacity={0.4} />
        {rows.map((r, i) => {
          const y = 5 + i * rowH;
          const pw = scale(r.passed);
          const fw = scale(r.failed);
          return (
            <g key={r.key}>
              <text x={0} y={y + 14} fontSize={11} fill="currentColor">
                <title>{r.label}</title>
                {r.label.length > chars ? `${r.label.slice(0, chars - 1)}…` : r.label}
              </text>
              <rect x={center - fw} y={y + 3} width={fw} height={14} fill={FAIL_COLOR} {...segmentProps(`${r.label}: ${r.failed} failed`, onSelect && (() => onSelect({ key: r.key, label: r.label, metric: 'failed' })))}>
                <title>{`${r.label}: ${r.failed} failed`}</title>
              </rect>
              <rect x={center} y={y + 3} width={pw} height={14} fill={PASS_COLOR} {...segmentProps(`${r.label}: ${r.passed} passed`, onSelect && (() => onSelect({ key: r.key, label: r.label, metric: 'passed' })))}>
                <title>{`${r.label}: ${r.passed} passed`}</title>
              </rect>
            </g>
          );
        })}
      </svg>
    </div>
  );
}

function arc(cx: number, cy: number, r: number, a0: number, a1: number): string {
  const s = polar(cx, cy, r, a0);
  const e = polar(cx, cy, r, a1);
  const large = a1 - a0 > Math.PI ? 1 : 0;
  return `M ${s.x} ${s.y} A ${r} ${r} 0 ${large} 1 ${e.x} ${e.y}`;
}

/** Gauge: the prevented share (blocked mode) or detected share (totals mode), pass or fail by the threshold. */
export function GaugeChart({ totals, mode, threshold, onSelect }: { totals: ResultRow; mode: ChartMode; threshold: number; onSelect?: OnSelect }) {
  const value = shareOf(totals, mode);
  const color = thresholdColor(value, threshold);
  const start = -Math.PI * 0.75;
  const span = Math.PI * 1.5;
  const label = mode === 'blocked' ? 'Prevented' : 'Detected';
  const tip = `${label}: ${value}% of ${totals.total} (threshold ${threshold}%)`;
  return (
    <ChartFrame label="Gauge" table={{ columns: ['Measure', 'Value'], rows: [[label, `${value}%`], ['Threshold', `${threshold}%`], ['Total', totals.total]] }}>
      <svg viewBox="0 0 200 160" className="h-full w-full" {...segmentProps(tip, onSelect && (() => onSelect({ metric: mode === 'blocked' ? 'prevented' : 'detected' })))}>
        <title>{tip}</title>
        <path d={arc(100, 95, 70, start, start + span)} stroke="currentColor" strokeOpacity={0.15} strokeWidth={16} fill="none" />
        {value > 0 && <path d={arc(100, 95, 70, start, start + (span * Math.min(value, 99.99)) / 100)} stroke={color} strokeWidth={16} fill="none" data-color={color} />}
        <text x={100} y={100} textAnchor="middle" fontSize={26} fill="currentColor">
          {`${value}%`}
        </text>
        <text x={100} y={150} textAnchor="middle" fontSize={11} fill="currentColor" opacity={0.7}>
          {label}
        </text>
      </svg>
    </ChartFrame>
  );
}

/** Pie/donut of prevented, detected only and missed. */
export function PieChart({ totals, onSelect }: { totals: ResultRow; onSelect?: OnSelect }) {
  const segs = pieSegments(totals);
  const sum = segs.reduce((s, x) => s + x.value, 0);
  const table = { columns: ['Result', 'Count'], rows: segs.map((s) => [s.label, s.value]) };
  let a = 0;
  return (
    <ChartFrame label="Donut chart" table={table}>
      {sum === 0 ? (
        <EmptyChart />
      ) : (
        <svg viewBox="0 0 200 200" className="h-full w-full">
          {segs.map((s) => {
            if (!s.value) return null;
            const a0 = a;
            a += (s.value / sum) * Math.PI * 2;
            const tip = `${s.label}: ${s.value} (${Math.round((s.value / sum) * 1000) / 10}%)`;
            const d = s.value === sum ? `M 100 30 A 70 70 0 1 1 99.99 30` : arc(100, 100, 70, a0, a);
            return (
              <path key={s.key} d={d} stroke={s.color} strokeWidth={28} fill="none" {...segmentProps(tip, onSelect && (() => onSelect({ metric: s.key === 'detected' ? 'detected' : s.key })))}>
                <title>{tip}</title>
              </path>
            );
          })}
          <text x={100} y={106} textAnchor="middle" fontSize={18} fill="currentColor">
            {sum}
          </text>
        </svg>
      )}
    </ChartFrame>
  );
}
