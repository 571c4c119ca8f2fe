import type { ReactNode } from 'react';

/** A plain table with a header row, or the `empty` text when it has no rows. */
export function Table({ head, rows, label, empty }: { head: string[]; rows: ReactNode[][]; label: string; empty?: string }) {
  if (!rows.length && empty) return <p className="text-muted">{empty}</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" aria-label={label}>
        <thead className="border-b border-line text-2xs text-muted uppercase">
          <tr>
            {head.map((h) => (
              <th key={h} className="py-1 pr-3 font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i} className="border-b border-line/50 align-top">
              {r.map((c, j) => (
                <td key={j} className="py-1 pr-3">
                  {c}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
