import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { PcapPacketSummary } from '@/api/contracts/pcap';
import { useCommandHotkeys } from '@/commands/command-menu';
import type { PaneProps } from '@/panes/types';
import { PACKET_PAGE, getPacketBytes, getPackets, packetBytesKey, packetsKey } from './api';
import { usePaneContext } from '@/panes/use-pane-context';
import { packetViewPane } from './pane-context';
import { formatTime, hexRows } from './hex';

const ROW = 24;
const COLUMNS = 'grid grid-cols-[5rem_7rem_minmax(8rem,1fr)_minmax(8rem,1fr)_5rem_4.5rem_minmax(12rem,3fr)] gap-2';

/** The list's own keys, then the Packet View commands' keys from their keybindings. */
function KeysHint() {
  const [next, previous, goTo] = useCommandHotkeys(['pcap.nextPacket', 'pcap.previousPacket', 'pcap.goToPacket']);
  const parts = ['↑/↓, Page Up/Down, Home/End move', next && previous && `${next}/${previous} next/previous`, goTo && `${goTo} go to packet`];
  return <span className="ml-auto text-2xs text-muted">{parts.filter(Boolean).join(' · ')}</span>;
}

/**
 * Packet View (/manage_sims/pcaps/inspect/{pcap_library_id}): the packets of a stored capture in a
 * virtualized list (No., Time, Source, Destination, Protocol, Length, Info) and a hex and ASCII view
 * of the selected packet. Arrow keys, Page Up/Down, Home and End move the selection; the selected
 * packet is in the URL (?packet=N).
 */
export function PacketViewPane({ params, setParams }: PaneProps) {
  const id = Number(params.id);
  const valid = Number.isInteger(id) && id > 0;
  const selected = Math.max(1, Number(params.packet) || 1);
  const qc = useQueryClient();
  const first = useQuery({ queryKey: packetsKey(id, 0), queryFn: () => getPackets(id, 0), enabled: valid });
  const total = first.data?.total ?? 0;

  // Pages of packets, fetched as the list scrolls to them.
  const [pages, setPages] = useState<Map<number, PcapPacketSummary[]>>(new Map());
  const loading = useRef(new Set<number>());
  useEffect(() => {
    setPages(new Map());
    loading.current.clear();
  }, [id]);
  useEffect(() => {
    if (first.data) setPages((m) => (m.has(0) ? m : new Map(m).set(0, first.data.packets)));
  }, [first.data]);
  const ensurePage = useCallback(
    (page: number) => {
      if (!valid || page < 0 || pages.has(page) || loading.current.has(page)) return;
      loading.current.add(page);
      qc.fetchQuery({ queryKey: packetsKey(id, page), queryFn: () => getPackets(id, page) })
        .then((d) => setPages((m) => new Map(m).set(page, d.packets)))
        .catch(() => undefined)
        .finally(() => loading.current.delete(page));
    },
    [id, pages, qc, valid],
  );
  const packetAt = (index: number): PcapPacketSummary | undefined => pages.get(Math.floor(index / PACKET_PAGE))?.[index % PACKET_PAGE];

  const scrollRef = useRef<HTMLDivElement | null>(null);
  const virtualizer = useVirtualizer({ count: total, getScrollElement: () => scrollRef.current, estimateSize: () => ROW, overscan: 12 });
  const items = virtualizer.getVirtualItems();
  const firstVisible = items[0]?.index ?? 0;
  const lastVisible = items[items.length - 1]?.index ?? 0;
  useEffect(() => {
    for (let p = Math.floor(firstVisible / PACKET_PAGE); p <= Math.floor(lastVisible / PACKET_PAGE); p++) ensurePage(p);
  }, [firstVisible, lastVisible, ensurePage]);

  const select = useCallback(
    (no: number) => {
      if (total === 0) return;
      const n = Math.min(Math.max(1, no), total);
      setParams({ ...params, packet: String(n) });
      virtualizer.scrollToIndex(n - 1, { align: 'auto' });
    },
    [params, setParams, total, virtualizer],
  );
  useEffect(() => {
    if (total > 0 && selected <= total) ensurePage(Math.floor((selected - 1) / PACKET_PAGE));
  }, [selected, total, ensurePage]);

  const bytes = useQuery({ queryKey: packetBytesKey(id, selected), queryFn: () => getPacketBytes(id, selected), enabled: valid && total > 0 && selected <= total });

  // Pane-local commands act on this pane through its pane context.
  usePaneContext(packetViewPane, {
    id,
    goTo: select,
    move: (delta: number) => select(selected + delta),
    copyHex: async () => {
      const b = bytes.data?.bytes ?? (await getPacketBytes(id, selected)).bytes;
      return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
    },
  });

  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? ROW * 20) / ROW) - 1);
    const moves: Record<string, number> = { ArrowDown: selected + 1, ArrowUp: selected - 1, PageDown: selected + page, PageUp: selected - page, Home: 1, End: total };
    const to = moves[e.key];
    if (to === undefined) return;
    e.preventDefault();
    select(to);
  };

  const rows = useMemo(() => (bytes.data ? hexRows(bytes.data.bytes) : []), [bytes.data]);

  if (!valid) return <p className="p-4 text-sm text-red-500">“{params.id}” is not a capture id.</p>;
  if (first.isPending) return <p className="p-4 text-sm text-muted">Loading packets…</p>;
  if (first.isError) return <p className="p-4 text-sm text-red-500" role="alert">{first.error.message}</p>;
  const d = first.data;
  const sel = packetAt(selected - 1);

  return (
    <div className="flex h-full min-h-0 flex-col text-xs">
      <header className="flex flex-wrap items-baseline gap-x-3 gap-y-1 border-b border-line px-3 py-2">
        <h2 className="text-sm font-medium">{d.orig_filename}</h2>
        <span className="text-muted">
          {d.total} packet{d.total === 1 ? '' : 's'} · {d.source === 'processed' ? 'processed capture (what the Action replays)' : 'capture as uploaded'}
        </span>
        <KeysHint />
      </header>
      {d.total === 0 ? (
        <p className="p-4 text-muted">This capture holds no packets.</p>
      ) : (
        <>
          <div className={`${COLUMNS} border-b border-line bg-raised px-3 py-1 font-medium`} aria-hidden>
            <span>No.</span>
            <span>Time</span>
            <span>Source</span>
            <span>Destination</span>
            <span>Protocol</span>
            <span className="text-right">Length</span>
            <span>Info</span>
          </div>
          <div
            ref={scrollRef}
            role="listbox"
            aria-label="Packets"
            aria-activedescendant={`pcap-packet-${id}-${selected}`}
            tabIndex={0}
            onKeyDown={onKey}
            className="relative min-h-0 flex-[3] overflow-auto font-mono outline-none focus-visible:ring-2 focus-visible:ring-accent/60 focus-visible:ring-inset"
          >
            <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
              {items.map((v) => {
                const p = packetAt(v.index);
                const no = v.index + 1;
                const isSel = no === selected;
                return (
                  <div
                    key={v.key}
                    id={`pcap-packet-${id}-${no}`}
                    role="option"
                    aria-selected={isSel}
                    aria-label={p ? `Packet ${no}: ${p.protocol} ${p.source} to ${p.destination}, ${p.length} bytes, ${p.summary}` : `Packet ${no} (loading)`}
                    onClick={() => select(no)}
                    className={`${COLUMNS} absolute top-0 left-0 w-full cursor-default items-center px-3 whitespace-nowrap select-none ${isSel ? 'bg-accent/20' : 'hover:bg-raised'}`}
                    style={{ height: ROW, transform: `translateY(${v.start}px)` }}
                  >
                    <span>{no}</span>
                    {p ? (
                      <>
                        <span>{formatTime(p.time)}</span>
                        <span className="truncate" title={p.source}>
                          {p.source}
                        </span>
                        <span className="truncate" title={p.destination}>
                          {p.destination}
                        </span>
                        <span>{p.protocol}</span>
                        <span className="text-right">{p.length}</span>
                        <span className="truncate" title={p.summary}>
                          {p.summary}
                        </span>
                      </>
                    ) : (
                      <span className="col-span-6 h-2 w-1/2 animate-pulse rounded bg-raised" aria-hidden />
                    )}
                  </div>
                );
              })}
            </div>
          </div>
          <section aria-label={`Bytes of packet ${selected}`} tabIndex={0} className="min-h-0 flex-[2] overflow-auto border-t border-line px-3 py-2 font-mono outline-none focus-visible:ring-2 focus-visible:ring-accent/60 focus-visible:ring-inset">
            <div className="mb-1 font-sans text-muted">
              Packet {selected}
              {sel ? ` · ${sel.protocol} · ${sel.length} bytes on the wire` : ''}
              {bytes.data && bytes.data.caplen < bytes.data.length ? ` · ${bytes.data.caplen} captured` : ''}
            </div>
            {bytes.isPending ? (
              <p className="font-sans text-muted">Loading bytes…</p>
            ) : bytes.isError ? (
              <p className="font-sans text-red-500" role="alert">
                {bytes.error.message}
              </p>
            ) : (
              <table className="border-separate border-spacing-x-3" aria-label="Hex and ASCII">
                <tbody>
                  {rows.map((r) => (
                    <tr key={r.offset}>
                      <td className="text-muted">{r.offset}</td>
                      <td className="whitespace-pre">{r.hex}</td>
                      <td className="whitespace-pre text-muted">{r.ascii}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        </>
      )}
    </div>
  );
}
