/** A column of the pane's tables: its header text (or an accessible name only) and alignment. */
export interface Column {
  label: string;
  /** Shown as text; false: an empty header named for screen readers. */
  visible?: boolean;
  right?: boolean;
  className?: string;
}

export function TableHead({ columns, dense = false }: { columns: readonly Column[]; dense?: boolean }) {
  const pad = dense ? 'py-0.5' : 'py-1';
  return (
    <thead className={`text-2xs text-muted uppercase ${dense ? '' : 'border-b border-line'}`}>
      <tr>
        {columns.map((c) => (
          <th key={c.label} aria-label={c.visible === false ? c.label : undefined} className={`${pad} pr-2 ${c.right ? 'text-right' : ''} ${c.className ?? ''}`}>
            {c.visible === false ? null : c.label}
          </th>
        ))}
      </tr>
    </thead>
  );
}
