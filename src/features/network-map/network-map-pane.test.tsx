import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { API, useMswServer } from '../../../tests/msw';
import { RETRIEVE_FAILED } from '@/api/contracts/topology';
import type { MonitorStatsAnswer } from '@/api/contracts/monitors';
import { clearToasts, toastStore } from '@/ui/toasts';
import { NetworkMapPane } from './network-map-pane';
import { networkMapStore } from './store';

// These states never draw the map; x6 itself is proven in the browser (e2e/network-map.e2e.ts),
// and its package does not load under Node's module rules.
vi.mock('@/ui/network-map/map-canvas', () => ({ MapCanvas: () => null }));

const server = useMswServer();
const EMPTY = { zones: [], nodes: [], devices: [], links: [] };

function renderPane(params: Record<string, string> = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <NetworkMapPane params={params} setParams={() => undefined} />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  clearToasts();
  Object.assign(networkMapStore, { mode: 'Standard', focus: null, selected: null, positions: {}, fitRequests: 0 });
});

describe('Network Map pane states', () => {
  it('an empty network says so; the saved mode is shown as the pressed layout button', async () => {
    server.use(
      http.get(`${API}/topology/network.json`, () => HttpResponse.json(EMPTY)),
      http.get(`${API}/topology/layout.json`, () => HttpResponse.json({ mode: 'Lens', positions: {}, updated_at: null })),
    );
    renderPane();
    expect(screen.getByText('Loading the network map…')).toBeTruthy();
    await screen.findByText('No zones, actors or devices yet');
    expect(screen.getByText('0 zones · 0 actors · 0 devices')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Lens' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'Standard' }).getAttribute('aria-pressed')).toBe('false');
  });

  it('JOB-110 a layout that cannot be read flashes the verbatim message and the map stays in Standard', async () => {
    server.use(
      http.get(`${API}/topology/network.json`, () => HttpResponse.json(EMPTY)),
      http.get(`${API}/topology/layout.json`, () => HttpResponse.json({ error: 'Internal Server Error' }, { status: 500 })),
    );
    renderPane();
    await screen.findByText('No zones, actors or devices yet');
    expect(toastStore.toasts.map((t) => [t.kind, t.message])).toEqual([['error', RETRIEVE_FAILED]]);
    expect(screen.getByRole('button', { name: 'Standard' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('a map that cannot be read shows the reason with Retry, which reads it again', async () => {
    let calls = 0;
    server.use(
      http.get(`${API}/topology/network.json`, () => (++calls === 1 ? HttpResponse.json({ error: 'The director is starting.' }, { status: 503 }) : HttpResponse.json(EMPTY))),
      http.get(`${API}/topology/layout.json`, () => HttpResponse.json({ mode: 'Standard', positions: {}, updated_at: null })),
    );
    renderPane();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The director is starting.');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByText('No zones, actors or devices yet');
    expect(calls).toBe(2);
  });

  it('JOB-028 JOB-045 the aeda chart mode (?chart=aeda) polls /monitor/update_data and lists its counts and paths; the default mode does not ask', async () => {
    const asked = vi.fn();
    const stats: MonitorStatsAnswer = {
      map_data: {
        alert_paths: [{ source_zone_id: 1, source_zone: 'DMZ', target_zone_id: 2, target_zone: 'Internal', count: 2, monitors: ['DMZ perimeter checks'] }],
        green_paths: [{ source_zone_id: 2, source_zone: 'Internal', target_zone_id: 2, target_zone: 'Internal', count: 1, monitors: ['Weekly lateral movement'] }],
        zone_stats: [],
      },
      stats: { monitor_count: 2, unique_count: 3, alert_count: 1 },
    };
    server.use(
      http.get(`${API}/topology/network.json`, () => HttpResponse.json(EMPTY)),
      http.get(`${API}/topology/layout.json`, () => HttpResponse.json({ mode: 'Standard', positions: {}, updated_at: null })),
      http.get(`${API}/monitor/update_data`, () => {
        asked();
        return HttpResponse.json(stats);
      }),
    );
    const first = renderPane();
    await screen.findByText('No zones, actors or devices yet');
    expect(asked).not.toHaveBeenCalled();
    expect(screen.queryByRole('region', { name: 'Monitor stats on the map' })).toBeNull();
    first.unmount();
    renderPane({ chart: 'aeda' });
    const bar = await screen.findByRole('region', { name: 'Monitor stats on the map' });
    await within(bar).findByRole('list', { name: 'Monitor paths' });
    expect(bar.textContent).toContain('2 Active Security Monitors');
    expect(bar.textContent).toContain('3 Unique Checks');
    expect(bar.textContent).toContain('1 Active Security Alerts');
    expect(within(bar).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Alert path: DMZ → Internal, 2 steps (DMZ perimeter checks)',
      'Green path: Internal → Internal, 1 step (Weekly lateral movement)',
    ]);
    expect(asked).toHaveBeenCalledTimes(1);
  });
});
