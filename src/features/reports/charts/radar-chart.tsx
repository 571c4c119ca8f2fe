import type { ChartMode, TacticResult } from '@/api/contracts/reports';
import { ChartFrame, segmentProps } from './chart-frame';
import { NEUTRAL_COLOR, mitreLink, polar, radarPointColors, shareOf } from './rules';

/**
 * Tactic radar: one spoke per ATT&CK tactic. Blocked mode plots the prevented share with threshold
 * colouring; totals mode plots the totals with no threshold colouring. A spoke opens the ATT&CK view
 * (/analyze/mitre/?active_tactics[]=..&start=..&end=..), by its point or its label.
 */
export function RadarChart({
  data,
  mode,
  threshold,
  start,
  end,
  onOpen,
}: {
  data: readonly TacticResult[];
  mode: ChartMode;
  threshold: number;
  start: string | null;
  end: string | null;
  onOpen?: (url: string) => void;
}) {
  const values = data.map((d) => (mode === 'totals' ? d.results.total : shareOf(d.results, 'blocked')));
  const max = mode === 'totals' ? Math.max(1, ...values) : 100;
  const colors = radarPointColors(values, mode, threshold);
  const n = Math.max(1, data.length);
  const pt = (i: number, v: number) => polar(150, 130, (v / max) * 100, (i / n) * Math.PI * 2);
  const poly = values.map((v, i) => pt(i, v)).map((p) => `${p.x},${p.y}`).join(' ');
  const table = {
    columns: ['Tactic', 'Total', 'Prevented', 'Prevented %'],
    rows: data.map((d) => [d.tactic.name, d.results.total, d.results.prevented, `${d.results.preventedPct}%`]),
  };
  return (
    <ChartFrame label="Tactic radar" table={table}>
      <svg viewBox="0 0 300 260" className="h-full w-full" data-mode={mode}>
        {[0.25, 0.5, 0.75, 1].map((f) => (
          <polygon key={f} points={data.map((_, i) => polar(150, 130, 100 * f, (i / n) * Math.PI * 2)).map((p) => `${p.x},${p.y}`).join(' ')} fill="none" stroke="currentColor" strokeOpacity={0.15} />
        ))}
        <polygon points={poly} fill={NEUTRAL_COLOR} fillOpacity={0.2} stroke={NEUTRAL_COLOR} />
        {data.map((d, i) => {
          const p = pt(i, values[i]!);
          const l = polar(150, 130, 114, (i / n) * Math.PI * 2);
          const tip = mode === 'totals' ? `${d.tactic.name}: ${d.results.total} run` : `${d.tactic.name}: ${d.results.preventedPct}% prevented of ${d.results.total}`;
          return (
            <g key={d.tactic.id} {...segmentProps(tip, onOpen && (() => onOpen(mitreLink([d.tactic.id], start, end))))}>
              <title>{tip}</title>
              {/* The points of tactics with no value all sit at the centre, over a small value's point: they take no clicks (their label does). */}
              <circle cx={p.x} cy={p.y} r={4} fill={colors[i]} data-testid="radar-point" data-color={colors[i]} pointerEvents={values[i] === 0 ? 'none' : undefined} />
              <text x={l.x} y={l.y} fontSize={8} textAnchor="middle" fill="currentColor">
                {d.tactic.name}
              </text>
            </g>
          );
        })}
      </svg>
    </ChartFrame>
  );
}
