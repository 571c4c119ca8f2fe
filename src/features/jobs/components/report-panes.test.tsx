import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { API, useMswServer } from '../../../../tests/msw';
import type { SummaryReportAnswer, SummaryTotals } from '@/api/contracts/jobs';
import { SummaryReportPane } from './report-panes';

const server = useMswServer();

const totals = (blocked: number): SummaryTotals => ({ actions: 4, blocked, detected: 1, alerted: 0, not_run: 1, percent_blocked: Math.round((blocked / 3) * 100) });
const ANSWER: SummaryReportAnswer = {
  jobs: [{ id: 812, name: 'Nightly', status: 'completed', job_user: 'admin@example.com', job_time: '2026-11-20T10:00:00Z', totals: totals(2), steps: [{ id: 1, group_order: 1, name: 'Recon', totals: totals(2) }] }],
};

describe('the Job Summary Report pane', () => {
  it('heads each job’s steps with Step, the five counts and Percent Blocked, and lists the steps under them', async () => {
    server.use(http.get(`${API}/reports/summary.json`, () => HttpResponse.json(ANSWER)));
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <SummaryReportPane params={{ job_ids: '812' }} setParams={() => undefined} />
      </QueryClientProvider>,
    );
    const job = await screen.findByRole('region', { name: 'Job 812' });
    const table = within(job).getByRole('table');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Step', 'Actions', 'Blocked', 'Detected', 'Alerted', 'Not Run', 'Percent Blocked']);
    const step = within(table).getByRole('row', { name: /Step 1: Recon/ });
    expect(within(step).getAllByRole('cell').slice(0, 6).map((c) => c.textContent)).toEqual(['Step 1: Recon', '4', '2', '1', '0', '1']);
  });
});
