import { LISTBOX_CLASS, ROW_CLASS, RowPlaceholder, useVirtualRows } from '@/ui/virtual-list';
import { type KeyboardEvent, type RefObject } from 'react';
import { LIBRARY_LIMITS, cutLabel, isFinishedJobStatus, type SimulationLibraryItem } from '@/api/contracts/library';
import { relative } from './ui';
import { NewPill, StatusPill } from '@/ui/content-pills';

const ROW = LIBRARY_LIMITS.tileHeightPx;

function Tile({ item, focused, selected }: { item: SimulationLibraryItem; focused: boolean; selected: boolean }) {
  const running = item.latest_job && !isFinishedJobStatus(item.latest_job.status);
  return (
    <div className={`flex h-full flex-col justify-center gap-0.5 border-b border-l-2 border-line/60 px-3 ${focused ? 'border-l-accent bg-accent/15' : selected ? 'border-l-accent/60 bg-accent/10' : 'border-l-transparent hover:bg-raised'}`}>
      <div className="flex items-center gap-2">
        <span className="min-w-0 flex-1 truncate font-medium" title={item.name}>
          {cutLabel(item.name)}
        </span>
        <NewPill updatedAt={item.updated_at} />
        {(item.disabled || item.decommissioned) && <span className="rounded border border-red-500/40 px-1 text-2xs text-red-500">{item.disabled ? 'Disabled' : 'Decommissioned'}</span>}
      </div>
      <div className="flex items-center gap-2 text-2xs text-muted">
        <span className="font-mono text-ink">{item.vid}</span>
        <span>
          {item.group_names.length} step{item.group_names.length === 1 ? '' : 's'} · {item.action_vids.length} Action{item.action_vids.length === 1 ? '' : 's'}
        </span>
      </div>
      <div className="truncate text-2xs text-muted" title={item.desc}>
        {item.desc || '\u00a0'}
      </div>
      <div className="flex items-center gap-2 text-2xs whitespace-nowrap text-muted">
        <span>
          {item.last_run ? `Ran ${relative(item.last_run)}` : 'Never Run'} · {item.total_runs} run{item.total_runs === 1 ? '' : 's'}
        </span>
        {running && item.latest_job && <StatusPill status={item.latest_job.status} />}
        {item.tags.length > 0 && (
          <span className="ml-auto min-w-0 truncate" title={item.tags.map((t) => t.name).join(', ')}>
            {item.tags.map((t) => cutLabel(t.name, 18)).join(' · ')}
          </span>
        )}
      </div>
    </div>
  );
}

export interface SimListProps {
  label: string;
  total: number;
  itemAt(index: number): SimulationLibraryItem | undefined;
  focusIndex: number;
  selectedIds: ReadonlyMap<number, unknown>;
  onRange(range: [number, number]): void;
  onSelect(index: number, item: SimulationLibraryItem, how: { shift: boolean; toggle: boolean }): void;
  onOpen(item: SimulationLibraryItem): void;
  onKey(e: KeyboardEvent<HTMLDivElement>): void;
  listRef: RefObject<HTMLDivElement | null>;
  scrollToIndex: number | null;
}

/** The virtualized list of simulation tiles: single, shift-range and ctrl/meta selection. */
export function SimList({ label, total, itemAt, focusIndex, selectedIds, onRange, onSelect, onOpen, onKey, listRef, scrollToIndex }: SimListProps) {
  const { items, totalSize } = useVirtualRows({ count: total, rowHeight: ROW, scrollRef: listRef, onRange, scrollToIndex });
  const focused = focusIndex >= 0 ? itemAt(focusIndex) : undefined;
  const activeId = focused ? `sim-row-${focused.id}` : undefined;
  return (
    <div role="listbox" aria-label={label} aria-multiselectable="true" aria-activedescendant={activeId} tabIndex={0} ref={listRef} onKeyDown={onKey} className={LISTBOX_CLASS}>
      <div className="relative" style={{ height: totalSize }}>
        {items.map((v) => {
          const item = itemAt(v.index);
          return (
            <div
              key={v.key}
              id={item ? `sim-row-${item.id}` : undefined}
              role="option"
              aria-selected={v.index === focusIndex || (!!item && selectedIds.has(item.id))}
              aria-label={item ? `${item.vid} ${item.name}` : 'Loading'}
              data-vid={item?.vid}
              onMouseDown={(e) => e.shiftKey && e.preventDefault()}
              onClick={(e) => {
                if (!item) return;
                onSelect(v.index, item, { shift: e.shiftKey, toggle: e.ctrlKey || e.metaKey });
                listRef.current?.focus({ preventScroll: true });
              }}
              onDoubleClick={() => item && onOpen(item)}
              className={ROW_CLASS}
              style={{ height: ROW, transform: `translateY(${v.start}px)` }}
            >
              {item ? (
                <Tile item={item} focused={v.index === focusIndex} selected={selectedIds.has(item.id)} />
              ) : <RowPlaceholder />}
            </div>
          );
        })}
      </div>
    </div>
  );
}
