import type { ReactNode } from 'react';

/** The classes of the form's small tables (attachments, headers, web requests, conversations). */
export const tableClass = 'w-full text-left text-xs';
export const thClass = 'px-2 py-1 text-2xs font-medium text-muted uppercase';
export const tdClass = 'px-2 py-1 align-top';

/** The header cell of a table's remove-button column (named for screen readers only). */
export function RemoveHeader() {
  return (
    <th className={thClass}>
      <span className="sr-only">Remove</span>
    </th>
  );
}

/** The one row of an empty table. */
export function EmptyRow({ columns, className = 'px-2 py-3 text-muted', children }: { columns: number; className?: string; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={columns} className={className}>
        {children}
      </td>
    </tr>
  );
}
