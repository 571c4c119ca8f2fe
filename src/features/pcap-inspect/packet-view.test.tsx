import { useState, type ReactElement } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { API, useMswServer } from '../../../tests/msw';
import type { PcapPacketBytesAnswer, PcapPacketsAnswer } from '@/api/contracts/pcap';
import type { PaneParams } from '@/panes/types';
import { paneContexts } from '@/commands/pane-contexts';
import { packetViewPane } from './pane-context';
import { hexRows } from './hex';
import { PacketViewPane } from './packet-view-pane';

// jsdom has no layout, so the real virtualizer renders no rows: list them all here.
vi.mock('@tanstack/react-virtual', () => ({
  useVirtualizer: ({ count, estimateSize }: { count: number; estimateSize: (i: number) => number }) => {
    const items = Array.from({ length: count }, (_, index) => ({ index, key: index, start: index * 24, size: estimateSize(index), end: (index + 1) * 24, lane: 0 }));
    return { getVirtualItems: () => items, getTotalSize: () => count * 24, scrollToIndex: () => undefined };
  },
}));

const server = useMswServer();

const packets: PcapPacketsAnswer['data'] = {
  pcap_library_id: 5,
  orig_filename: 'beacon.pcapng',
  source: 'upload',
  total: 3,
  offset: 0,
  packets: [
    { no: 1, time: 0, source: '10.0.0.1', destination: '10.0.0.2', protocol: 'TCP', length: 60, summary: '49152 → 80 [SYN] Seq=1000 Len=0' },
    { no: 2, time: 0.001, source: '10.0.0.2', destination: '10.0.0.1', protocol: 'TCP', length: 60, summary: '80 → 49152 [SYN, ACK] Seq=5000 Ack=1001 Len=0' },
    { no: 3, time: 0.0025, source: '10.0.0.1', destination: '10.0.0.2', protocol: 'HTTP', length: 120, summary: '49152 → 80 [PSH, ACK] Seq=1001 Ack=5001 Len=66 HTTP GET / HTTP/1.1 (Host: x)' },
  ],
};

const bytesOf = (no: number): PcapPacketBytesAnswer => ({
  data: { no, caplen: 20, length: 60, link_type: 1, bytes_base64: Buffer.from(`GET / HTTP/1.1\r\n#${no}\x00\x01`).toString('base64') },
});

function Harness({ initial }: { initial: PaneParams }) {
  const [params, setParams] = useState(initial);
  return (
    <>
      <output data-testid="params">{JSON.stringify(params)}</output>
      <PacketViewPane params={params} setParams={setParams} />
    </>
  );
}

function renderWithClient(ui: ReactElement) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);
}

describe('hexRows', () => {
  it('ACT-023 lays out 16 bytes per row with offsets, two hex groups and ASCII', () => {
    const rows = hexRows(new Uint8Array([...Buffer.from('GET / HTTP/1.1\r\nHost'), 0, 255]));
    expect(rows[0]).toEqual({ offset: '0000', hex: '47 45 54 20 2f 20 48 54  54 50 2f 31 2e 31 0d 0a', ascii: 'GET / HTTP/1.1..' });
    expect(rows[1]).toMatchObject({ offset: '0010', ascii: 'Host..' });
    // A short last row keeps the columns aligned.
    expect(rows[1]!.hex.startsWith('48 6f 73 74 00 ff ')).toBe(true);
    expect(rows[1]!.hex.length).toBe(rows[0]!.hex.length);
  });
});

describe('Packet View pane', () => {
  it('ACT-023 lists packets and shows the selected packet in hex and ASCII; keys move the selection into the URL', async () => {
    server.use(
      http.get(`${API}/manage_sims/pcaps/5/packets.json`, () => HttpResponse.json({ data: packets })),
      http.get(`${API}/manage_sims/pcaps/5/packets/:no`, ({ params }) => HttpResponse.json(bytesOf(Number(String(params.no).replace('.json', ''))))),
    );
    renderWithClient(<Harness initial={{ id: '5' }} />);
    const list = await screen.findByRole('listbox', { name: 'Packets' });
    expect(within(list).getAllByRole('option')).toHaveLength(3);
    expect(screen.getByText('beacon.pcapng')).toBeTruthy();
    expect(within(list).getByRole('option', { name: /Packet 3: HTTP 10\.0\.0\.1 to 10\.0\.0\.2, 120 bytes/ })).toBeTruthy();
    const hex = await screen.findByRole('table', { name: 'Hex and ASCII' });
    await waitFor(() => expect(hex.textContent).toContain('47 45 54 20'));
    expect(hex.textContent).toContain('GET / HTTP/1.1..');
    expect(hex.textContent).toContain('#1..');

    fireEvent.keyDown(list, { key: 'ArrowDown' });
    expect(JSON.parse(screen.getByTestId('params').textContent!)).toEqual({ id: '5', packet: '2' });
    await waitFor(() => expect(screen.getByRole('table', { name: 'Hex and ASCII' }).textContent).toContain('#2'));
    fireEvent.keyDown(list, { key: 'End' });
    expect(JSON.parse(screen.getByTestId('params').textContent!).packet).toBe('3');
    expect(within(list).getByRole('option', { name: /Packet 3/ }).getAttribute('aria-selected')).toBe('true');
    // Pane-local commands reach the pane through its pane context.
    paneContexts.lookup(packetViewPane, null)?.move(-2);
    await waitFor(() => expect(JSON.parse(screen.getByTestId('params').textContent!).packet).toBe('1'));
    fireEvent.click(within(list).getByRole('option', { name: /Packet 2/ }));
    expect(JSON.parse(screen.getByTestId('params').textContent!).packet).toBe('2');
  });

  it('shows the director’s message when the capture does not exist, and says so when it has no packets', async () => {
    server.use(http.get(`${API}/manage_sims/pcaps/9/packets.json`, () => HttpResponse.json({ error: 'PCAP upload 9 does not exist.' }, { status: 404 })));
    renderWithClient(<Harness initial={{ id: '9' }} />);
    expect((await screen.findByRole('alert')).textContent).toBe('PCAP upload 9 does not exist.');
  });

  it('an empty capture says it holds no packets', async () => {
    server.use(http.get(`${API}/manage_sims/pcaps/6/packets.json`, () => HttpResponse.json({ data: { ...packets, pcap_library_id: 6, total: 0, packets: [] } })));
    renderWithClient(<Harness initial={{ id: '6' }} />);
    expect(await screen.findByText('This capture holds no packets.')).toBeTruthy();
  });
});
