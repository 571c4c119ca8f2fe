import { useState } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API, useMswServer } from '../../../tests/msw';
import type { MonitorStatsAnswer } from '@/api/contracts/monitors';
import { MonitorStatsPane } from './monitor-stats-pane';

const server = useMswServer();
const answer: MonitorStatsAnswer = { map_data: { alert_paths: [], green_paths: [], zone_stats: [] }, stats: { monitor_count: 1, unique_count: 2, alert_count: 0 } };

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
