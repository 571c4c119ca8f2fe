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

export interface SortState<K extends string> {
  key: K;
  dir: 'asc' | 'desc';
}

/** A sortable column header: clicking sorts by it, again reverses; aria-sort tells which. */
export function SortHeader<K extends string>({ label, sortKey, sort, setSort, className }: { label: string; sortKey: K; sort: SortState<K>; setSort: (next: (s: SortState<K>) => SortState<K>) => void; className: string }) {
  const active = sort.key === sortKey;
  return (
    <th className={className} aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <button type="button" className="uppercase hover:text-ink" onClick={() => setSort((s) => ({ key: sortKey, dir: s.key === sortKey && s.dir === 'asc' ? 'desc' : 'asc' }))}>
        {label}
        {active ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}
      </button>
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
