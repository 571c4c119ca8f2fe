import type { ReactNode } from 'react';
import { TableHead } from './table-head';

/** A plain table with a header row, or the `empty` text when it has no rows. */
export function Table({ head, rows, label, empty }: { head: string[]; rows: ReactNode[][]; label: string; empty?: string }) {
  if (!rows.length && empty) return <p className="text-muted">{empty}</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" aria-label={label}>
        <TableHead columns={head.map((label) => ({ label }))} cellClassName="py-1 pr-3 font-medium" />
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
