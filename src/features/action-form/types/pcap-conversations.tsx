/**
 * The conversations of a PCAP upload (section 9's columns, sortable, timestamp ascending by default),
 * virtualized: only the rows in view are rendered, with spacer rows above and below, so a capture with
 * thousands of conversations scrolls smoothly.
 */
import { useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { PCAP_CONVERSATION_COLUMNS, type PcapConversation } from '@/api/contracts/pcap';
import { Button } from '@/ui/button';
import { tableClass, tdClass, thClass, EmptyRow, RemoveHeader } from '@/features/action-form/table-parts';
import { SortHeader, type SortState } from '@/ui/table-head';

export type SortKey = 'timestamp' | 'source_address' | 'dest_address' | 'protocol' | 'service' | 'source_port' | 'dest_port' | 'data_size' | 'info';
const SORT_KEYS: SortKey[] = ['timestamp', 'source_address', 'dest_address', 'protocol', 'service', 'source_port', 'dest_port', 'data_size', 'info'];
const ROW = 28;

export function sortConversations(rows: readonly PcapConversation[], key: SortKey, dir: 'asc' | 'desc'): PcapConversation[] {
  const sorted = [...rows].sort((a, b) => {
    const x = a[key];
    const y = b[key];
    const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return c || a.id - b.id;
  });
  return dir === 'asc' ? sorted : sorted.reverse();
}

interface Props {
  conversations: PcapConversation[];
  /** Shown when there are no rows. */
  emptyText: string;
  /** Removing is offered when allowed and more than one conversation remains. */
  canRemove: boolean;
  onRemove: (id: number) => void;
}

export function ConversationTable({ conversations, emptyText, canRemove, onRemove }: Props) {
  const [sort, setSort] = useState<SortState<SortKey>>({ key: 'timestamp', dir: 'asc' });
  const rows = useMemo(() => sortConversations(conversations, sort.key, sort.dir), [conversations, sort]);
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW, overscan: 10 });
  const items = virtualizer.getVirtualItems();
  const top = items[0]?.start ?? 0;
  const bottom = items.length ? virtualizer.getTotalSize() - items[items.length - 1]!.end : 0;
  return (
    <div ref={scrollRef} className="max-h-96 overflow-auto rounded border border-line/50">
      <table className={tableClass} aria-label="Conversations" aria-rowcount={rows.length + 1}>
        <thead className="sticky top-0 z-10 bg-surface">
          <tr aria-rowindex={1}>
            {PCAP_CONVERSATION_COLUMNS.map((h, i) => (
              <SortHeader key={h} label={h} sortKey={SORT_KEYS[i]!} sort={sort} setSort={setSort} className={thClass} />
            ))}
            <RemoveHeader />
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <EmptyRow columns={10} className="py-2 text-muted">
              {emptyText}
            </EmptyRow>
          )}
          {top > 0 && <tr aria-hidden style={{ height: top }} />}
          {items.map((v) => {
            const c = rows[v.index]!;
            return (
              <tr key={c.id} aria-rowindex={v.index + 2} className="border-t border-line/50" style={{ height: ROW }}>
                <td className={`${tdClass} whitespace-nowrap`}>{c.timestamp}</td>
                <td className={`${tdClass} font-mono`}>{c.source_address}</td>
                <td className={`${tdClass} font-mono`}>{c.dest_address}</td>
                <td className={tdClass}>{c.protocol.toUpperCase()}</td>
                <td className={tdClass}>{c.service}</td>
                <td className={tdClass}>{c.source_port}</td>
                <td className={tdClass}>{c.dest_port}</td>
                <td className={tdClass}>{c.data_size}</td>
                <td className={tdClass}>{c.info}</td>
                <td className={`${tdClass} text-right`}>
                  <Button variant="ghost" disabled={!canRemove || conversations.length <= 1} onClick={() => onRemove(c.id)} aria-label={`Remove conversation ${c.id}`}>
                    Remove
                  </Button>
                </td>
              </tr>
            );
          })}
          {bottom > 0 && <tr aria-hidden style={{ height: bottom }} />}
        </tbody>
      </table>
    </div>
  );
}
