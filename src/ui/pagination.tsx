/**
 * The generic tables' pagination (monitors-actors-reporting.md MON-032 "pagination control", MON-077,
 * MON-174): page sizes 10, 20 and 30, the choice remembered per table under `{id}-perPage`, the
 * starting size from the caller, and a change of size going back to the first page.
 */
import { useCallback, useState } from 'react';
import { Button } from './button';

export const PAGE_SIZES = [10, 20, 30] as const;
export const perPageKey = (id: string) => `${id}-perPage`;

function storedPerPage(id: string, initial: number): number {
  try {
    const n = Number(localStorage.getItem(perPageKey(id)));
    return (PAGE_SIZES as readonly number[]).includes(n) ? n : initial;
  } catch {
    return initial;
  }
}

/** Page and page size of a table; setPerPage remembers the size and resets to page 1. */
export function usePaging(id: string, initial: number) {
  const [perPage, setSize] = useState(() => storedPerPage(id, initial));
  const [page, setPage] = useState(1);
  const setPerPage = useCallback(
    (n: number) => {
      setSize(n);
      setPage(1);
      try {
        localStorage.setItem(perPageKey(id), String(n));
      } catch {
        // Storage disabled: the size lasts as long as the pane.
      }
    },
    [id],
  );
  return { page, perPage, setPage, setPerPage };
}

export function Pagination({ label, page, perPage, total, onPage, onPerPage }: { label: string; page: number; perPage: number; total: number; onPage(page: number): void; onPerPage(n: number): void }) {
  const pages = Math.max(1, Math.ceil(total / perPage));
  return (
    <nav aria-label={`${label} pages`} className="flex items-center gap-2 text-xs">
      <Button disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span>
        Page {Math.min(page, pages)} of {pages}
      </span>
      <Button disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </Button>
      <label className="ml-2 flex items-center gap-1">
        Per page
        <select className="rounded border border-line bg-surface px-1 py-0.5" value={perPage} onChange={(e) => onPerPage(Number(e.target.value))}>
          {PAGE_SIZES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
    </nav>
  );
}
