import { useState } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API, useMswServer } from '../../../tests/msw';
import userEvent from '@testing-library/user-event';
import type { MonitorStatsAnswer } from '@/api/contracts/monitors';
import type { NetworkMap } from '@/api/contracts/topology';
import type { MonitorOverlay } from '@/ui/network-map/monitor-overlay';
import { MonitorStatsPane } from './monitor-stats-pane';

// x6 does not load under Node's module rules (the real map is drawn in e2e/monitors.e2e.ts): the canvas
// is replaced by one that keeps what the pane asks it to draw.
const drawn = vi.hoisted(() => ({ map: null as NetworkMap | null, overlay: null as MonitorOverlay | null, selected: null as string | null, rects: {} as Record<string, unknown> }));
vi.mock('@/ui/network-map/map-canvas', () => ({
  MapCanvas: (props: { map: NetworkMap; overlay: MonitorOverlay | null; selected: string | null; rects: Record<string, unknown> }) => {
    Object.assign(drawn, { map: props.map, overlay: props.overlay, selected: props.selected, rects: props.rects });
    return null;
  },
}));

const server = useMswServer();
const answer: MonitorStatsAnswer = { map_data: { alert_paths: [], green_paths: [], zone_stats: [] }, stats: { monitor_count: 1, unique_count: 2, alert_count: 0 } };
const mapNode = (id: number, name: string, zone: number) => ({ id, name, node_type: 'endpoint', os: 'linux', status: 'online' as const, mgmt_address: '', sim_address: `10.0.0.${id}`, monitor_address: '', zone_id: zone, help: '' });
const network: NetworkMap = {
  zones: [{ id: 1, name: 'Users', cidr: '10.0.0.0/24' }, { id: 2, name: 'Servers', cidr: '10.9.0.0/24' }] as NetworkMap['zones'],
  nodes: [mapNode(1, 'alpha', 1), mapNode(2, 'bravo', 2)],
  devices: [],
  links: [],
};
const serveMap = () => server.use(http.get(`${API}/topology/network.json`, () => HttpResponse.json(network)));

function Harness({ start, seen }: { start: Record<string, string>; seen: Record<string, string>[] }) {
  const [params, setParams] = useState(start);
  return <MonitorStatsPane params={params} setParams={(next) => { seen.push(next); setParams(next); }} />;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('Monitor Stats polling', () => {
  it('JOB-093 /monitor/update_data is polled at the given refresh interval: the URL\'s refresh (seconds), chosen from Refresh every; 30 s by default', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    let calls = 0;
    serveMap();
    server.use(http.get(`${API}/monitor/update_data`, () => { calls += 1; return HttpResponse.json(answer); }));
    const seen: Record<string, string>[] = [];
    render(<QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}><Harness start={{ refresh: '10' }} seen={seen} /></QueryClientProvider>);
    await screen.findByText('Unique Checks');
    await vi.waitFor(() => expect(calls).toBe(1));
    const select = screen.getByRole('combobox', { name: 'Refresh every' }) as HTMLSelectElement;
    expect(select.value).toBe('10');
    expect([...select.options].map((o) => o.textContent)).toEqual(['10 s', '30 s', '1 min', '5 min']);
    await act(() => vi.advanceTimersByTimeAsync(10_500));
    await vi.waitFor(() => expect(calls).toBe(2));
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    await vi.waitFor(() => expect(calls).toBe(3));

    // 5 min chosen: the URL keeps it, and 1 minute passes without a call.
    await act(async () => {
      select.value = '300';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    expect(seen.at(-1)).toEqual({ refresh: '300' });
    const before = calls;
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(calls).toBe(before);
    await act(() => vi.advanceTimersByTimeAsync(241_000));
    await vi.waitFor(() => expect(calls).toBe(before + 1));
  });

  it('JOB-093 without a valid refresh the default 30 s applies', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    let calls = 0;
    serveMap();
    server.use(http.get(`${API}/monitor/update_data`, () => { calls += 1; return HttpResponse.json(answer); }));
    render(<QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}><Harness start={{ refresh: '7' }} seen={[]} /></QueryClientProvider>);
    await vi.waitFor(() => expect(calls).toBe(1));
    expect((screen.getByRole('combobox', { name: 'Refresh every' }) as HTMLSelectElement).value).toBe('30');
    await act(() => vi.advanceTimersByTimeAsync(20_000));
    expect(calls).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(11_000));
    await vi.waitFor(() => expect(calls).toBe(2));
  });
});

describe('Monitor Stats on the network map', () => {
  it('JOB-028 the monitor results are drawn on the network map: its zones, actors and links with the alert paths, green paths and zone stats of /monitor/update_data', async () => {
    serveMap();
    const withPaths: MonitorStatsAnswer = {
      map_data: {
        alert_paths: [{ source_zone_id: 1, source_zone: 'Users', target_zone_id: 2, target_zone: 'Servers', count: 2, monitors: ['Nightly beacon'] }],
        green_paths: [{ source_zone_id: 2, source_zone: 'Servers', target_zone_id: 2, target_zone: 'Servers', count: 1, monitors: ['Weekly scan'] }],
        zone_stats: [{ zone_id: 1, name: 'Users', passed: 0, failed: 2 }, { zone_id: 2, name: 'Servers', passed: 1, failed: 0 }],
      },
      stats: { monitor_count: 2, unique_count: 3, alert_count: 1 },
    };
    server.use(http.get(`${API}/monitor/update_data`, () => HttpResponse.json(withPaths)));
    render(<QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}><Harness start={{}} seen={[]} /></QueryClientProvider>);
    const map = await screen.findByRole('application', { name: 'Monitor Stats map' });
    await vi.waitFor(() => expect(drawn.overlay).toEqual(withPaths.map_data));
    expect(drawn.map).toEqual(network);
    expect(Object.keys(drawn.rects).sort()).toEqual(['node_1', 'node_2', 'zone_1', 'zone_2']);
    expect(screen.queryByRole('img', { name: 'Monitor paths between zones' })).toBeNull();
    const paths = screen.getByRole('list', { name: 'Monitor paths' });
    expect([...paths.querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      'Alert path: Users → Servers, 2 steps (Nightly beacon)',
      'Green path: Servers → Servers, 1 step (Weekly scan)',
    ]);

    // The keyboard selects on the map; a zone names its counts.
    map.focus();
    await userEvent.keyboard('{ArrowDown}');
    expect(drawn.selected).toBe('zone_1');
    expect(screen.getByRole('status', { name: 'Map selection' }).textContent).toBe('Selected: Users, 0 pass · 2 fail');
    await userEvent.keyboard('{Escape}');
    expect(drawn.selected).toBeNull();
  });

  it('JOB-028 with no monitor judged yet the map is drawn without paths and says so', async () => {
    serveMap();
    server.use(http.get(`${API}/monitor/update_data`, () => HttpResponse.json(answer)));
    render(<QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}><Harness start={{}} seen={[]} /></QueryClientProvider>);
    await screen.findByText('No monitor has been judged yet, so there are no paths to draw.');
    await screen.findByRole('application', { name: 'Monitor Stats map' });
    expect(drawn.overlay).toEqual(answer.map_data);
  });
});
