import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LatestRuns } from './detail-panel';

describe('Action detail: Latest Runs', () => {
  it('ACT-002 issue 21 shows each run with its status as the Jobs pane words it (Completed, Cancelled), and Scheduled Process for no user', () => {
    const a = {
      id: 7,
      vid: 'A201-807',
      total_jobs: 2,
      latest_jobs: [
        { id: 290, name: 'Command and Control Channels', created_at: '2026-11-19T06:17:00.000Z', status: 'completed', user: { first_name: 'Avery', last_name: 'Approver' } },
        { id: 294, name: 'Command and Control Channels', created_at: '2026-11-20T20:33:00.000Z', status: 'cancelled', user: null },
      ],
    };
    render(
      <QueryClientProvider client={new QueryClient()}>
        <LatestRuns a={a} dataUpdatedAt={Date.now()} />
      </QueryClientProvider>,
    );
    const rows = within(screen.getByRole('table', { name: 'Latest Runs' })).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell').slice(0, 4).map((c) => c.textContent))).toEqual([
      ['294', 'Command and Control Channels', 'Cancelled', 'Scheduled Process'],
      ['290', 'Command and Control Channels', 'Completed', 'Avery Approver'],
    ]);
    expect(screen.getByRole('link', { name: 'View All (2)' }).getAttribute('href')).toBe('/jobs?vid=A201-807');
  });
});
