import { useState } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { API, useMswServer } from '../../../tests/msw';
import type { MitreMatrixAnswer } from '@/api/contracts/reports';
import { MitrePane } from './mitre-pane';
import { setDisplayTimeZone } from '@/ui/datetime';

const server = useMswServer();

/** The pane with params it writes back, as the workbench gives them (a later render, like the router). */
function Harness({ start, written }: { start: Record<string, string>; written: Record<string, string>[] }) {
  const [params, setParams] = useState(start);
  return (
    <MitrePane
      params={params}
      setParams={(next) => {
        written.push(next);
        setParams(next);
      }}
    />
  );
}

function serveMatrix(asked: URLSearchParams[]) {
  server.use(
    http.get(`${API}/reports/mitre_matrix.json`, ({ request }) => {
      asked.push(new URL(request.url).searchParams);
      return HttpResponse.json<MitreMatrixAnswer>({ start: null, end: null, techniques: [] });
    }),
  );
}

const renderPane = (start: Record<string, string>, written: Record<string, string>[]) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <Harness start={start} written={written} />
    </QueryClientProvider>,
  );

describe('the ATT&CK view keeps its range in the URL', () => {
  it('MON-051 a relative range chosen in the view is written as last=COUNT-UNIT, asked of the matrix call, and read back', async () => {
    const asked: URLSearchParams[] = [];
    serveMatrix(asked);
    const written: Record<string, string>[] = [];
    renderPane({ active_tactics: 'TA0002' }, written);
    await screen.findByRole('grid', { name: 'ATT&CK matrix' });
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Count' }), { target: { value: '7' } });
    await act(async () => undefined);
    expect(written.at(-1)).toEqual({ active_tactics: 'TA0002', last: '7-day' });
    expect(screen.getByText(/^Last 7 days ·/)).toBeTruthy();
    const last = asked.at(-1)!;
    expect((Date.parse(last.get('end')!) - Date.parse(last.get('start')!)) / 86_400_000).toBeCloseTo(7, 1);

    // The address read back (a reload, a bookmark) gives the same range.
    const again: Record<string, string>[] = [];
    renderPane({ last: '7-day' }, again);
    expect(await screen.findAllByText(/^Last 7 days ·/)).toHaveLength(2);
  });

  it('MON-051 an absolute range by whole days from the address: its dates shown, its instants asked, days=1 kept', async () => {
    const asked: URLSearchParams[] = [];
    serveMatrix(asked);
    const start = new Date(2026, 2, 1).toISOString();
    const end = new Date(2026, 2, 30, 23, 59, 59, 999).toISOString();
    renderPane({ start, end, days: '1' }, []);
    await screen.findByText(/^2026-03-01 to 2026-03-30 ·/);
    expect((screen.getByRole('checkbox', { name: 'Times of day' }) as HTMLInputElement).checked).toBe(false);
    expect(asked.at(-1)?.get('start')).toBe(start);
    expect(asked.at(-1)?.get('end')).toBe(end);
  });

  it('MON-051 days of the week chosen in the view are written as wd, asked as week_days with the time zone, and read back', async () => {
    const asked: URLSearchParams[] = [];
    serveMatrix(asked);
    const written: Record<string, string>[] = [];
    renderPane({}, written);
    await screen.findByRole('grid', { name: 'ATT&CK matrix' });
    fireEvent.click(screen.getByRole('button', { name: 'Days: Every day' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Saturday' }));
    fireEvent.click(screen.getByRole('button', { name: 'Sunday' }));
    await act(async () => undefined);
    expect(written.at(-1)).toEqual({ wd: 'Su,S' });
    expect(screen.getByText(/^Last 30 days on Su, S ·/)).toBeTruthy();
    expect(asked.at(-1)?.get('week_days')).toBe('Su,S');
    expect(asked.at(-1)?.get('tz')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);

    const again: Record<string, string>[] = [];
    renderPane({ wd: 'Su,S' }, again);
    expect(await screen.findAllByText(/^Last 30 days on Su, S ·/)).toHaveLength(2);
  });

  it("MON-051 the days are the user's days: with a profile time zone set, it is the tz asked", async () => {
    const asked: URLSearchParams[] = [];
    serveMatrix(asked);
    setDisplayTimeZone('Pacific/Auckland');
    try {
      renderPane({ wd: 'M' }, []);
      await screen.findByRole('grid', { name: 'ATT&CK matrix' });
      expect(asked.at(-1)?.get('week_days')).toBe('M');
      expect(asked.at(-1)?.get('tz')).toBe('Pacific/Auckland');
    } finally {
      setDisplayTimeZone(null);
    }
  });

  it('an address that does not parse (a bad instant, an end before the start, an unknown unit) shows the default range', async () => {
    serveMatrix([]);
    const bads: Record<string, string>[] = [{ start: 'yesterday' }, { start: '2026-03-02T00:00:00.000Z', end: '2026-03-01T00:00:00.000Z' }, { last: '7-fortnight' }, { last: '0-day' }];
    for (const bad of bads) {
      const { unmount } = renderPane(bad, []);
      await screen.findByText(/^Last 30 days ·/);
      unmount();
    }
  });
});
