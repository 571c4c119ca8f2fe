/**
 * Table headers, declared once: a header row from column declarations, and sortable column headers
 * (aria-sort, the same column again reverses, an arrow that keeps its width).
 */

/** A column of a table: its header text (or an accessible name only) and alignment. */
export interface Column {
  label: string;
  /** Shown as text; false: an empty header named for screen readers. */
  visible?: boolean;
  right?: boolean;
  className?: string;
}

/**
 * The header row of a table. `dense` drops the line under it and tightens the padding; `className`
 * adds to the header's own classes (e.g. a sticky header).
 */
export function TableHead({ columns, dense = false, cellClassName, className = '' }: { columns: readonly Column[]; dense?: boolean; cellClassName?: string; className?: string }) {
  const cell = cellClassName ?? `${dense ? 'py-0.5' : 'py-1'} pr-2`;
  return (
    <thead className={`text-2xs text-muted uppercase ${dense ? '' : 'border-b border-line'} ${className}`}>
      <tr>
        {columns.map((c) => (
          <th key={c.label} aria-label={c.visible === false ? c.label : undefined} className={`${cell} ${c.right ? 'text-right' : ''} ${c.className ?? ''}`}>
            {c.visible === false ? null : c.label}
          </th>
        ))}
      </tr>
    </thead>
  );
}

export type SortDirection = 'asc' | 'desc';

export interface SortState<K extends string> {
  key: K;
  dir: SortDirection;
}

/** The aria-sort of a column header. */
export const ariaSort = (active: boolean, dir: SortDirection): 'ascending' | 'descending' | 'none' => (active ? (dir === 'asc' ? 'ascending' : 'descending') : 'none');

/** Sorting by a column: the sorted column again reverses; another column starts at `first`. */
export function toggleSort<K extends string>(sort: SortState<K>, key: K, first: SortDirection = 'asc'): SortState<K> {
  return { key, dir: sort.key === key ? (sort.dir === 'asc' ? 'desc' : 'asc') : first };
}

/** The button inside a sortable header: its label, and an arrow for the direction (hidden, not removed, when not sorted by it). */
export function SortButton({ label, active, dir, onSort }: { label: string; active: boolean; dir: SortDirection; onSort(): void }) {
  return (
    <button type="button" className={`inline-flex items-center gap-1 uppercase hover:text-ink ${active ? 'text-ink' : ''}`} onClick={onSort} title={`Sort by ${label}`}>
      {label}
      <span aria-hidden="true" className={active ? '' : 'opacity-0'}>
        {dir === 'asc' ? '▲' : '▼'}
      </span>
    </button>
  );
}

/** A sortable column header of a table: clicking sorts by it, again reverses; aria-sort tells which. */
export function SortHeader<K extends string>({ label, sortKey, sort, setSort, className }: { label: string; sortKey: K; sort: SortState<K>; setSort: (next: (s: SortState<K>) => SortState<K>) => void; className: string }) {
  const active = sort.key === sortKey;
  return (
    <th className={className} aria-sort={ariaSort(active, sort.dir)}>
      <SortButton label={label} active={active} dir={sort.dir} onSort={() => setSort((s) => toggleSort(s, sortKey))} />
    </th>
  );
}
