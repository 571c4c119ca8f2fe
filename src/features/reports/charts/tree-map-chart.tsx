import type { TreeMapRow } from '@/api/contracts/reports';
import { ChartFrame, EmptyChart, segmentProps, type OnSelect } from './chart-frame';
import { squarify } from './rules';

/** Tree map: cells sized by total, coloured by the director (pass or fail against the threshold). */
export function TreeMapChart({ rows, onSelect }: { rows: readonly TreeMapRow[]; onSelect?: OnSelect }) {
  const shown = rows.filter((r) => r.total > 0);
  if (!shown.length) return <EmptyChart />;
  const rects = squarify(
    shown.map((r) => r.total),
    { x: 0, y: 0, w: 400, h: 200 },
  );
  const table = { columns: ['Name', 'Total', 'Matched'], rows: shown.map((r) => [r.name, r.total, r.matched]) };
  return (
    <ChartFrame label="Tree map" table={table}>
      <svg viewBox="0 0 400 200" className="h-full w-full" preserveAspectRatio="none">
        {shown.map((r, i) => {
          const b = rects[i]!;
          const tip = `${r.name}: ${r.matched} of ${r.total}`;
          return (
            <g key={r.key} {...segmentProps(tip, onSelect && (() => onSelect({ key: r.key, label: r.name })))}>
              <title>{tip}</title>
              <rect x={b.x} y={b.y} width={b.w} height={b.h} fill={r.color} fillOpacity={0.75} stroke="rgb(var(--panel))" strokeWidth={1} />
              {b.w > 40 && b.h > 14 && (
                <text x={b.x + 3} y={b.y + 12} fontSize={9} fill="#0b0f17">
                  {r.name.length > b.w / 5 ? `${r.name.slice(0, Math.max(3, Math.floor(b.w / 5) - 1))}…` : r.name}
                </text>
              )}
            </g>
          );
        })}
      </svg>
    </ChartFrame>
  );
}
