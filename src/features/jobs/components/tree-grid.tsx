import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import type { RowRef } from '@/features/jobs/pane-state';

/** Row heights per kind (px): fixed, so the virtual list needs no measuring. */
export const ROW_HEIGHT: Record<RowRef['kind'], number> = { job: 44, step: 40, action: 36, note: 32 };
const HEADER_HEIGHT = 32;

export interface TreeGridProps {
  label: string;
  rows: readonly RowRef[];
  activeKey: string | null;
  onActivate(key: string): void;
  /** The cells of a row (grid children). */
  renderRow(row: RowRef): ReactNode;
  /** grid-template-columns shared by the header and every row. */
  columns: string;
  header: ReactNode;
  /** Keys on the grid itself (arrows, Enter, Space); return true when handled. */
  onKey?(e: KeyboardEvent<HTMLDivElement>, row: RowRef | null): boolean;
  /** Shown instead of rows (loading, empty, error). */
  placeholder?: ReactNode;
  selectedJobs?: readonly number[];
}

const domKey = (k: string) => k.replace(/[^A-Za-z0-9_-]/g, '_');

/** A row's cells, rendered again only when the row or the renderer changes (not on every scroll frame). */
const Cells = memo(function Cells({ row, render }: { row: RowRef; render(row: RowRef): ReactNode }) {
  return <>{render(row)}</>;
});

/**
 * A virtualized tree grid (WAI-ARIA treegrid): one focusable element whose active row is announced with
 * aria-activedescendant, rows absolutely positioned by @tanstack/react-virtual so hundreds of expanded
 * steps and actions stay smooth. Controls inside rows stay reachable with Tab.
 */
export function TreeGrid({ label, rows, activeKey, onActivate, renderRow, columns, header, onKey, placeholder, selectedJobs = [] }: TreeGridProps) {
  const id = useId();
  const scrollRef = useRef<HTMLDivElement>(null);
  const v = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => ROW_HEIGHT[rows[i]?.kind ?? 'note'],
    getItemKey: (i) => rows[i]?.key ?? i,
    overscan: 12,
    scrollMargin: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
  });
  const activeIndex = rows.findIndex((r) => r.key === activeKey);

  useEffect(() => {
    if (activeIndex >= 0) v.scrollToIndex(activeIndex, { align: 'auto' });
  }, [activeIndex, v]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.target !== e.currentTarget || e.altKey || e.ctrlKey || e.metaKey) return;
    const row = activeIndex >= 0 ? (rows[activeIndex] ?? null) : null;
    const focusable = rows.filter((r) => r.kind !== 'note');
    if (e.key === 'Home' || e.key === 'End') {
      const r = e.key === 'Home' ? focusable[0] : focusable[focusable.length - 1];
      if (r) onActivate(r.key);
      e.preventDefault();
      return;
    }
    if (onKey?.(e, row)) e.preventDefault();
  };

  return (
    <div
      ref={scrollRef}
      role="treegrid"
      aria-label={label}
      aria-rowcount={rows.length + 1}
      aria-activedescendant={activeIndex >= 0 ? `${id}-${domKey(rows[activeIndex]!.key)}` : undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
      className="relative min-h-0 flex-1 overflow-auto focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent/60 focus-visible:ring-inset"
    >
      <div role="row" aria-rowindex={1} className="sticky top-0 z-10 grid items-center gap-x-2 border-b border-line bg-raised px-2 text-2xs font-semibold tracking-wide text-muted uppercase" style={{ gridTemplateColumns: columns, height: HEADER_HEIGHT }}>
        {header}
      </div>
      {placeholder ?? (
        <div role="rowgroup" className="relative" style={{ height: v.getTotalSize() }}>
          {v.getVirtualItems().map((item) => {
            const row = rows[item.index]!;
            const active = row.key === activeKey;
            const selected = row.kind === 'job' && selectedJobs.includes(row.jobId);
            const expandable = row.kind === 'job' || row.kind === 'step';
            return (
              <div
                key={item.key}
                id={`${id}-${domKey(row.key)}`}
                role="row"
                aria-rowindex={item.index + 2}
                aria-level={row.level}
                aria-expanded={expandable ? (row as { expanded: boolean }).expanded : undefined}
                aria-selected={row.kind === 'job' ? selected : undefined}
                data-row-kind={row.kind}
                data-row-key={row.key}
                data-active={active || undefined}
                onMouseDown={(e) => {
                  onActivate(row.key);
                  // A click on the row itself (not a control) focuses the grid, so the arrow keys work next.
                  if (!(e.target as HTMLElement).closest('a, button, input, select, label')) {
                    e.preventDefault();
                    scrollRef.current?.focus();
                  }
                }}
                className={`absolute top-0 left-0 grid w-full items-center gap-x-2 border-b border-line/50 px-2 ${row.kind === 'job' ? 'bg-panel' : row.kind === 'step' ? 'bg-raised/40' : 'bg-surface/40'} ${active ? '!bg-accent/10 shadow-[inset_3px_0_0_rgb(var(--accent))]' : ''} ${selected ? 'bg-accent/5' : ''}`}
                style={{ gridTemplateColumns: columns, height: item.size, transform: `translateY(${item.start - HEADER_HEIGHT}px)` }}
              >
                <Cells row={row} render={renderRow} />
              </div>
            );
          })}
        </div>
      )}
    </div>
  );
}

/** The expander of a job or step row. */
export function Expander({ expanded, label, onToggle }: { expanded: boolean; label: string; onToggle(): void }) {
  return (
    <button
      type="button"
      tabIndex={-1}
      aria-label={`${expanded ? 'Collapse' : 'Expand'} ${label}`}
      className="inline-flex h-5 w-5 shrink-0 items-center justify-center rounded text-muted hover:bg-line/60 hover:text-ink"
      onClick={onToggle}
    >
      <span className={`transition-transform ${expanded ? 'rotate-90' : ''}`} aria-hidden="true">
        ▸
      </span>
    </button>
  );
}
