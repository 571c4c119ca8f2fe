import { LISTBOX_CLASS, ROW_CLASS, RowPlaceholder, useVirtualRows } from '@/ui/virtual-list';
import { useRef, type KeyboardEvent, type MouseEvent, type RefObject } from 'react';
import { LIBRARY_LIMITS, cutLabel, isFinishedJobStatus, type LibraryItem } from '@/api/contracts/library';
import { relative } from './format';
import { NewPill, StatusPill } from '@/ui/content-pills';
import { BugIcon, NetworkIcon, ShieldIcon, WarningIcon } from './icons';
import { Badge } from './ui';
import { ACTION_TYPE_LABELS } from '@/api/contracts/vocabulary';

const ROW = LIBRARY_LIMITS.tileHeightPx;

export interface ListProps {
  total: number;
  itemAt(index: number): LibraryItem | undefined;
  /** Index of the row the detail shows, or -1. */
  focusIndex: number;
  selectedIds: ReadonlySet<number>;
  onRange(range: [number, number]): void;
  onClick(index: number, item: LibraryItem, e: { shift: boolean; toggle: boolean }): void;
  onKey(e: KeyboardEvent<HTMLDivElement>): void;
  onOpen(index: number): void;
  listRef?: RefObject<HTMLDivElement | null>;
  scrollToIndex: number | null;
}

function Tile({ item, focused, selected }: { item: LibraryItem; focused: boolean; selected: boolean }) {
  const running = item.latest_job && !isFinishedJobStatus(item.latest_job.status);
  return (
    <div
      className={`flex h-full flex-col justify-center gap-0.5 border-b border-line/60 border-l-2 px-3 ${
        focused ? 'border-l-accent bg-accent/15' : selected ? 'border-l-accent/60 bg-accent/8' : 'border-l-transparent hover:bg-raised'
      }`}
    >
      <div className="flex items-center gap-2">
        <span className="min-w-0 flex-1 truncate font-medium" title={item.name}>
          {cutLabel(item.name)}
        </span>
        <NewPill updatedAt={item.updated_at} />
        {!item.approved && (
          <Badge tone="warn" title="Awaiting approval">
            Pending
          </Badge>
        )}
        {(item.disabled || item.decommissioned) && <Badge tone="bad">{item.disabled ? 'Disabled' : 'Decommissioned'}</Badge>}
      </div>
      <div className="flex items-center gap-2 text-2xs text-muted">
        <span className="font-mono text-ink">{item.vid}</span>
        <span>{ACTION_TYPE_LABELS[item.action_type]}</span>
        {item.require_protected && <ShieldIcon title="Requires a Protected Theater actor" className="text-accent" />}
        {item.monitor_connections && <NetworkIcon title="Monitors network connections" className="text-accent" />}
        {item.pending_files > 0 && <WarningIcon title={`${item.pending_files} file(s) pending approval`} className="text-amber-500" />}
        {item.malicious_files > 0 && <BugIcon title="Restricted Malicious file attached" className="text-red-500" />}
      </div>
      <div className="truncate text-2xs text-muted" title={item.desc}>
        {item.desc || '\u00a0'}
      </div>
      <div className="flex items-center gap-2 text-2xs whitespace-nowrap text-muted">
        <span title={item.last_run ?? undefined}>{item.last_run ? `Ran ${relative(item.last_run)}` : 'Never Run'}</span>
        <span>·</span>
        <span>
          {item.total_runs} run{item.total_runs === 1 ? '' : 's'}
        </span>
        {running && item.latest_job && <StatusPill status={item.latest_job.status} />}
        <span className="ml-auto flex min-w-0 gap-1 overflow-hidden">
          {item.tags.slice(0, 2).map((t) => (
            <span key={t.id} className="truncate rounded bg-raised px-1" title={t.name}>
              {cutLabel(t.name, 18)}
            </span>
          ))}
          {item.tags.length > 2 && <span>+{item.tags.length - 2}</span>}
        </span>
      </div>
    </div>
  );
}

/** The virtualized list of Action tiles (92 px each): single, shift-range and ctrl/meta selection. */
export function LibraryList({ total, itemAt, focusIndex, selectedIds, onRange, onClick, onKey, onOpen, listRef, scrollToIndex }: ListProps) {
  const ownRef = useRef<HTMLDivElement | null>(null);
  const scrollRef = listRef ?? ownRef;
  const { items, totalSize } = useVirtualRows({ count: total, rowHeight: ROW, scrollRef: scrollRef, onRange, scrollToIndex });

  const click = (index: number, item: LibraryItem | undefined) => (e: MouseEvent) => {
    if (!item) return;
    if (e.shiftKey) e.preventDefault();
    onClick(index, item, { shift: e.shiftKey, toggle: e.ctrlKey || e.metaKey });
  };

  const focusedItem = focusIndex >= 0 ? itemAt(focusIndex) : undefined;
  return (
    <div
      ref={scrollRef}
      role="listbox"
      aria-label="Actions"
      aria-multiselectable="true"
      aria-activedescendant={focusedItem ? `library-row-${focusedItem.id}` : undefined}
      tabIndex={0}
      onKeyDown={onKey}
      className={LISTBOX_CLASS}
    >
      <div style={{ height: totalSize, position: 'relative' }}>
        {items.map((v) => {
          const item = itemAt(v.index);
          return (
            <div
              key={v.key}
              id={item ? `library-row-${item.id}` : undefined}
              role="option"
              aria-selected={item ? selectedIds.has(item.id) || v.index === focusIndex : false}
              aria-current={v.index === focusIndex ? 'true' : undefined}
              aria-label={item ? `${item.vid} ${item.name}` : 'Loading'}
              data-vid={item?.vid}
              data-index={v.index}
              onClick={click(v.index, item)}
              onDoubleClick={() => item && onOpen(v.index)}
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
