/**
 * The generic table (monitors-actors-reporting.md section 2 "Generic tables", MON-019, MON-068, MON-070,
 * MON-077, MON-173, MON-174): auto-refreshed (5000 ms, paused while a modal is open, refetched on a
 * modal success event), resizable columns (percentages summing to 100, at least 50 px), a tab menu, a
 * quick-find popover (Cancel and Apply; 'No Results' when nothing matches), pagination with a per-page
 * selector, a status line, and the no-results panel. A table with no columns reads 'No table column
 * details'. Panes give it columns and rows; every table built on it behaves the same.
 *
 * Virtualized: a table of more than VIRTUAL_THRESHOLD rows on its page (a table with `paged={false}`
 * shows every row in one scrolling viewport) renders only the rows in view plus a few (fixed row
 * height, spacer rows above and below), so 100k rows scroll as smoothly as 10.
 *
 * Size: one component whose quick find, tab menu, resize handles and row window are private parts of
 * it, sharing its column and paging state; split, they would be exported for one caller.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { Fragment, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent as ReactPointerEvent, type ReactNode } from 'react';
import { Button } from './button';
import { MIN_COLUMN_PX, useColumnWidths } from './column-widths';
import { NoResults } from './no-results';
import { Pagination, usePaging } from './pagination';
import { TABLE_REFRESH_MS, useAutoRefresh } from './table-refresh';
import { listKeyTarget } from './list-keys';

export const NO_COLUMNS_TEXT = 'No table column details';
/** Tables showing more rows than this render only the rows in view. */
export const VIRTUAL_THRESHOLD = 100;
/** Every row's height in px (cells are one line, truncated), so the virtual window is exact. */
export const ROW_PX = 29;
const OVERSCAN_ROWS = 10;
export const QUICK_FIND_NO_MATCH = 'No Results';
const KEY_STEP_PX = 10;

export interface DataColumn<R> {
  key: string;
  label: string;
  render(row: R): ReactNode;
  /** The text quick find searches (default: none for this column). */
  text?(row: R): string;
  /** The header is empty on screen and named `label` for screen readers (e.g. a column of buttons). */
  hideLabel?: boolean;
  right?: boolean;
  /** The column's starting width relative to the others (default 1); the user's resizing is remembered over it. */
  weight?: number;
}

export interface DataTab<R> {
  id: string;
  label: string;
  /** The rows this tab shows (default: all). */
  filter?(row: R): boolean;
}

export interface DataTableProps<R> {
  /** Names what the table remembers ({id}-perPage, {id}-columnWidths). */
  id: string;
  label: string;
  columns: readonly DataColumn<R>[];
  rows: readonly R[] | undefined;
  rowKey(row: R): string | number;
  tabs?: readonly DataTab<R>[];
  /** Refetches the rows; called every `refreshMs` (default 5000) while no modal is open. */
  refetch?: () => Promise<unknown>;
  refreshMs?: number;
  /** The starting page size (10, 20 or 30). */
  perPage?: number;
  /** Shown instead of the table before the first rows arrive. */
  loading?: ReactNode;
  /** Shown when there are no rows at all (no tab or quick find narrowing them). */
  empty?: ReactNode;
  /** Extra text at the end of the status line (e.g. a status poller). */
  status?: ReactNode;
  /** Buttons beside the tab menu (CommandButtons). */
  toolbar?: ReactNode;
  selectedKey?: string | number | null;
  onSelect?(row: R): void;
  /** Enter or a double click on a row. */
  onOpen?(row: R): void;
  /** Other keys on a focused row (e.g. Delete); call preventDefault when handled. */
  onRowKeyDown?(e: KeyboardEvent<HTMLTableRowElement>, row: R): void;
  /** 'grid' for a table whose rows are selected and acted on with the keyboard (default 'table'). */
  role?: 'table' | 'grid';
  /** A row's expansion (a full-width row under it), or null; a table with expansions is not virtualized. */
  expanded?(row: R): ReactNode;
  /** false: no pagination; every row scrolls in a viewport of `viewportPx` (virtualized when long). */
  paged?: boolean;
  viewportPx?: number;
}

function useOutsideClose(open: boolean, ref: React.RefObject<HTMLElement | null>, close: () => void) {
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) close();
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open, ref, close]);
}

function QuickFind<R>({ label, rows, columns, applied, onApply }: { label: string; rows: readonly R[]; columns: readonly DataColumn<R>[]; applied: string; onApply(text: string): void }) {
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState(applied);
  const box = useRef<HTMLDivElement>(null);
  const inputId = useId();
  const close = () => setOpen(false);
  useOutsideClose(open, box, close);
  const matches = useMemo(() => (draft.trim() ? rows.filter((r) => matchesFind(r, columns, draft)).length : rows.length), [draft, rows, columns]);
  const apply = () => {
    onApply(draft.trim());
    setOpen(false);
  };
  const cancel = () => {
    setDraft(applied);
    setOpen(false);
  };
  return (
    <div className="relative" ref={box}>
      <Button aria-expanded={open} aria-haspopup="dialog" onClick={() => (open ? cancel() : (setDraft(applied), setOpen(true)))}>
        Quick Find{applied ? `: ${applied}` : ''}
      </Button>
      {open && (
        <div
          role="dialog"
          aria-label="Quick find"
          className="absolute right-0 z-30 mt-1 flex w-72 flex-col gap-2 rounded border border-line bg-panel p-3 shadow-xl"
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.preventDefault();
              e.stopPropagation();
              cancel();
            }
          }}
        >
          <label htmlFor={inputId} className="text-xs font-medium text-muted">
            Find in {label}
          </label>
          <input
            id={inputId}
            type="search"
            autoFocus
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                apply();
              }
            }}
            className="rounded border border-line bg-surface px-2 py-1 text-sm"
          />
          <p className="text-2xs text-muted" aria-live="polite">
            {draft.trim() ? (matches ? `${matches} matching row${matches === 1 ? '' : 's'}` : QUICK_FIND_NO_MATCH) : '\u00a0'}
          </p>
          <div className="flex justify-end gap-2">
            <Button onClick={cancel}>Cancel</Button>
            <Button variant="primary" onClick={apply}>
              Apply
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}

/** Case-insensitive literal match of the text in any searchable column. */
function matchesFind<R>(row: R, columns: readonly DataColumn<R>[], find: string): boolean {
  const q = find.trim().toLowerCase();
  return !q || columns.some((c) => c.text?.(row).toLowerCase().includes(q));
}

function TabMenu<R>({ label, tabs, active, onChange }: { label: string; tabs: readonly DataTab<R>[]; active: string; onChange(id: string): void }) {
  const refs = useRef(new Map<string, HTMLButtonElement>());
  const onKey = (e: KeyboardEvent) => {
    const i = tabs.findIndex((t) => t.id === active);
    const to = e.key === 'ArrowRight' ? i + 1 : e.key === 'ArrowLeft' ? i - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? tabs.length - 1 : null;
    if (to === null) return;
    e.preventDefault();
    const next = tabs[(to + tabs.length) % tabs.length]!;
    onChange(next.id);
    refs.current.get(next.id)?.focus();
  };
  return (
    <div role="tablist" aria-label={`${label} tabs`} className="flex gap-1" onKeyDown={onKey}>
      {tabs.map((t) => (
        <button
          key={t.id}
          ref={(el) => void (el ? refs.current.set(t.id, el) : refs.current.delete(t.id))}
          type="button"
          role="tab"
          aria-selected={t.id === active}
          tabIndex={t.id === active ? 0 : -1}
          onClick={() => onChange(t.id)}
          className={`rounded-t border-b-2 px-2.5 py-1 text-sm ${t.id === active ? 'border-accent text-ink' : 'border-transparent text-muted hover:text-ink'}`}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}

/** The drag (or arrow-key) handle on a header's right edge: resizes the column against its right neighbour. */
function ResizeHandle({ label, percent, onResize, tableWidth }: { label: string; percent: number; onResize(deltaPx: number): void; tableWidth(): number }) {
  const start = (e: ReactPointerEvent<HTMLDivElement>) => {
    e.preventDefault();
    let last = e.clientX;
    const move = (ev: PointerEvent) => {
      onResize(ev.clientX - last);
      last = ev.clientX;
    };
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  };
  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={`Resize ${label}`}
      aria-valuenow={Math.round(percent)}
      aria-valuemin={Math.round((MIN_COLUMN_PX / Math.max(1, tableWidth())) * 100)}
      aria-valuemax={100}
      tabIndex={0}
      onPointerDown={start}
      onKeyDown={(e) => {
        if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
          e.preventDefault();
          onResize(e.key === 'ArrowRight' ? KEY_STEP_PX : -KEY_STEP_PX);
        }
      }}
      className="absolute top-0 right-0 h-full w-1.5 cursor-col-resize touch-none hover:bg-accent/50 focus-visible:bg-accent focus-visible:outline-none"
    />
  );
}

/** The rows of the table's body: all of them, or (past VIRTUAL_THRESHOLD) the window in view between two spacer rows. */
function useRowWindow(count: number, scrollRef: React.RefObject<HTMLDivElement | null>, allowed: boolean) {
  const virtual = allowed && count > VIRTUAL_THRESHOLD;
  const virtualizer = useVirtualizer({ count: virtual ? count : 0, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_PX, overscan: OVERSCAN_ROWS });
  if (!virtual) return { virtual, indexes: Array.from({ length: count }, (_, i) => i), before: 0, after: 0, scrollTo: () => {} };
  const items = virtualizer.getVirtualItems();
  const first = items[0];
  const last = items[items.length - 1];
  return {
    virtual,
    indexes: items.map((v) => v.index),
    before: first ? first.start : 0,
    after: last ? virtualizer.getTotalSize() - last.end : 0,
    scrollTo: (i: number) => virtualizer.scrollToIndex(i, { align: 'auto' }),
  };
}

export function DataTable<R>({ id, label, columns, rows, rowKey, tabs, refetch, refreshMs = TABLE_REFRESH_MS, perPage: initialPerPage = 10, loading, empty, status, toolbar, selectedKey, onSelect, onOpen, onRowKeyDown, role = 'table', expanded, paged = true, viewportPx = 480 }: DataTableProps<R>) {
  const [tab, setTab] = useState(tabs?.[0]?.id ?? '');
  const [find, setFind] = useState('');
  const paging = usePaging(id, initialPerPage);
  const { setPage } = paging;
  const weights = useMemo(() => columns.map((c) => c.weight ?? 1), [columns]);
  const { widths, resize } = useColumnWidths(id, columns.length, MIN_COLUMN_PX, weights);
  const tableRef = useRef<HTMLTableElement>(null);
  const tableWidth = () => tableRef.current?.getBoundingClientRect().width ?? 0;
  useAutoRefresh(refetch, label, refreshMs);

  const activeTab = tabs?.find((t) => t.id === tab) ?? tabs?.[0];
  const all = rows ?? [];
  const shown = useMemo(() => all.filter((r) => (activeTab?.filter ? activeTab.filter(r) : true) && matchesFind(r, columns, find)), [all, activeTab, columns, find]);
  const perPage = paged ? paging.perPage : Math.max(1, shown.length);
  const pages = Math.max(1, Math.ceil(shown.length / perPage));
  const page = paged ? Math.min(paging.page, pages) : 1;
  const first = (page - 1) * perPage;
  const visible = useMemo(() => (paged ? shown.slice(first, first + perPage) : shown), [paged, shown, first, perPage]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const rowWindow = useRowWindow(visible.length, scrollRef, !expanded);
  // The row to focus once it is rendered (the keyboard moved to it; in a virtual window it may not be yet).
  const [focusIndex, setFocusIndex] = useState<number | null>(null);
  useEffect(() => {
    if (focusIndex === null) return;
    const el = scrollRef.current?.querySelector<HTMLElement>(`tr[data-index="${focusIndex}"]`);
    if (el) {
      el.focus();
      setFocusIndex(null);
    }
  });

  const chooseTab = (next: string) => {
    setTab(next);
    setPage(1);
  };
  const applyFind = (text: string) => {
    setFind(text);
    setPage(1);
  };

  const onRowKey = (e: KeyboardEvent<HTMLTableRowElement>, index: number) => {
    const go = (j: number) => {
      const to = Math.max(0, Math.min(visible.length - 1, j));
      const row = visible[to];
      if (!row) return;
      e.preventDefault();
      onSelect?.(row);
      rowWindow.scrollTo(to);
      setFocusIndex(to);
    };
    const pageRows = Math.max(1, Math.floor(viewportPx / ROW_PX) - 1);
    const to = listKeyTarget(e, index, visible.length, pageRows);
    if (to !== null) go(to);
    else if (e.key === 'Enter' && onOpen && visible[index]) {
      e.preventDefault();
      onOpen(visible[index]);
    } else if (visible[index]) onRowKeyDown?.(e, visible[index]);
  };

  // The row Tab reaches: the selected one when it is rendered, else the first rendered.
  const selectedIndex = selectedKey == null ? -1 : visible.findIndex((r) => rowKey(r) === selectedKey);
  const tabRow = rowWindow.indexes.includes(selectedIndex) ? selectedIndex : rowWindow.indexes[0];

  let body: ReactNode;
  if (!columns.length) body = <p className="p-4 text-sm text-muted">{NO_COLUMNS_TEXT}</p>;
  else if (!rows) body = loading ?? null;
  else if (!all.length && empty) body = <div className="p-4 text-sm text-muted">{empty}</div>;
  else if (!shown.length) body = <NoResults />;
  else
    body = (
      <div ref={scrollRef} className={paged && !rowWindow.virtual ? 'overflow-x-auto' : 'overflow-auto'} style={paged && !rowWindow.virtual ? undefined : { maxHeight: viewportPx }} data-virtual-viewport={rowWindow.virtual ? '' : undefined}>
        <table ref={tableRef} role={role === 'grid' ? 'grid' : undefined} className="w-full table-fixed text-left text-sm" aria-label={label} aria-rowcount={shown.length + 1}>
          <colgroup>
            {widths.map((w, i) => (
              <col key={columns[i]!.key} style={{ width: `${w}%` }} />
            ))}
          </colgroup>
          <thead className={`border-b border-line text-2xs text-muted uppercase ${rowWindow.virtual ? 'sticky top-0 z-10 bg-panel' : ''}`}>
            <tr>
              {columns.map((c, i) => (
                <th key={c.key} aria-label={c.hideLabel ? c.label : undefined} className={`relative truncate py-1 pr-3 pl-1 font-medium ${c.right ? 'text-right' : ''}`} style={{ minWidth: MIN_COLUMN_PX }}>
                  {c.hideLabel ? null : c.label}
                  {i < columns.length - 1 && <ResizeHandle label={c.label} percent={widths[i] ?? 0} tableWidth={tableWidth} onResize={(d) => resize(i, d, tableWidth())} />}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rowWindow.before > 0 && <tr aria-hidden style={{ height: rowWindow.before }} />}
            {rowWindow.indexes.map((i) => {
              const r = visible[i]!;
              const key = rowKey(r);
              const selected = selectedKey !== undefined && key === selectedKey;
              const main = (
                <tr
                  key={key}
                  data-index={i}
                  aria-rowindex={first + i + 2}
                  style={rowWindow.virtual ? { height: ROW_PX } : undefined}
                  aria-selected={onSelect ? selected : undefined}
                  tabIndex={onSelect ? (i === tabRow ? 0 : -1) : undefined}
                  onClick={() => onSelect?.(r)}
                  onDoubleClick={() => onOpen?.(r)}
                  onKeyDown={(e) => onRowKey(e, i)}
                  className={`border-b border-line/50 align-top outline-none focus-visible:ring-1 focus-visible:ring-accent ${selected ? 'bg-accent/15' : ''}`}
                >
                  {columns.map((c) => (
                    <td key={c.key} className={`truncate py-1 pr-3 pl-1 ${c.right ? 'text-right' : ''}`}>
                      {c.render(r)}
                    </td>
                  ))}
                </tr>
              );
              const more = expanded?.(r);
              return more ? (
                <Fragment key={key}>
                  {main}
                  <tr className="border-b border-line/50 bg-raised/40">
                    <td colSpan={columns.length}>{more}</td>
                  </tr>
                </Fragment>
              ) : (
                main
              );
            })}
            {rowWindow.after > 0 && <tr aria-hidden style={{ height: rowWindow.after }} />}
          </tbody>
        </table>
      </div>
    );

  return (
    <section aria-label={label} className="flex min-h-0 flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2 border-b border-line">
        {tabs && tabs.length > 0 && <TabMenu label={label} tabs={tabs} active={activeTab?.id ?? ''} onChange={chooseTab} />}
        <div className="ml-auto flex items-center gap-1.5 pb-1">
          {toolbar}
          {columns.some((c) => c.text) && <QuickFind label={label} rows={all.filter((r) => !activeTab?.filter || activeTab.filter(r))} columns={columns} applied={find} onApply={applyFind} />}
        </div>
      </div>
      {body}
      <footer className="flex flex-wrap items-center gap-3 text-2xs text-muted">
        <span role="status" aria-label={`${label} status`}>
          {shown.length ? `Showing ${first + 1}–${first + visible.length} of ${shown.length}` : `Showing 0 of ${all.length}`}
          {shown.length !== all.length ? ` (${all.length} in all)` : ''}
        </span>
        {status}
        {paged && (
          <span className="ml-auto">
            <Pagination label={label} page={page} perPage={paging.perPage} total={shown.length} onPage={setPage} onPerPage={paging.setPerPage} />
          </span>
        )}
      </footer>
    </section>
  );
}
