import type { TreeMapRow } from '@/api/contracts/reports';
import { ChartFrame, EmptyChart, segmentProps, useBoxSize, type OnSelect } from './chart-frame';
import { squarify } from './rules';

/** Tree map: cells sized by total, coloured by the director (pass or fail against the threshold). */
export function TreeMapChart({ rows, onSelect }: { rows: readonly TreeMapRow[]; onSelect?: OnSelect }) {
  const shown = rows.filter((r) => r.total > 0);
  if (!shown.length) return <EmptyChart />;
  const table = { columns: ['Name', 'Total', 'Matched'], rows: shown.map((r) => [r.name, r.total, r.matched]) };
  return (
    <ChartFrame label="Tree map" table={table}>
      <TreeMapCells rows={shown} onSelect={onSelect} />
    </ChartFrame>
  );
}

/** Cells laid out at the panel's pixel size, so names keep their font size whatever the panel's shape. */
function TreeMapCells({ rows: shown, onSelect }: { rows: readonly TreeMapRow[]; onSelect?: OnSelect | undefined }) {
  const [ref, { w, h }] = useBoxSize<HTMLDivElement>({ w: 400, h: 200 });
  const rects = squarify(
    shown.map((r) => r.total),
    { x: 0, y: 0, w, h },
  );
  return (
    <div ref={ref} className="h-full w-full overflow-hidden">
      <svg width={w} height={h} viewBox={`0 0 ${w} ${h}`} className="block">
        {shown.map((r, i) => {
          const b = rects[i]!;
          const tip = `${r.name}: ${r.matched} of ${r.total}`;
          return (
            <g key={r.key} {...segmentProps(tip, onSelect && (() => onSelect({ key: r.key, label: r.name })))}>
              <title>{tip}</title>
              <rect x={b.x} y={b.y} width={b.w} height={b.h} fill={r.color} fillOpacity={0.75} stroke="rgb(var(--panel))" strokeWidth={1} />
              {b.w > 40 && b.h > 18 && (
                <text x={b.x + 4} y={b.y + 15} fontSize={11} fill="#0b0f17">
                  {r.name.length > b.w / 6.5 ? `${r.name.slice(0, Math.max(3, Math.floor(b.w / 6.5) - 1))}…` : r.name}
                </text>
              )}
            </g>
          );
        })}
      </svg>
    </div>
  );
}
