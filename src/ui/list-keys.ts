/**
 * The row a navigation key moves a list's active row to, for a list of `count` rows whose active row is
 * `active`: ArrowDown/ArrowUp one row, PageDown/PageUp `page` rows, Ctrl+Home/Ctrl+End the first and
 * the last; clamped to the list. Null for any other key and for an empty list. One rule for the
 * palette, the pick lists, the filter value pickers and the data table.
 */
export function listKeyTarget(e: { key: string; ctrlKey?: boolean }, active: number, count: number, page = 10): number | null {
  if (count <= 0) return null;
  const to =
    e.key === 'ArrowDown' ? active + 1
    : e.key === 'ArrowUp' ? active - 1
    : e.key === 'PageDown' ? active + page
    : e.key === 'PageUp' ? active - page
    : e.key === 'Home' && e.ctrlKey ? 0
    : e.key === 'End' && e.ctrlKey ? count - 1
    : null;
  return to === null ? null : Math.max(0, Math.min(count - 1, to));
}
