import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { API, useMswServer } from '../../../../tests/msw';
import type { JobActionEvidenceAnswer } from '@/api/contracts/jobs';
import { evidenceText } from '@/features/jobs/evidence';
import { jobPaneState, resetPaneStates } from '@/features/jobs/pane-state';
import { EvidencePanel } from './evidence-panel';

const server = useMswServer();

const base: JobActionEvidenceAnswer['job_action'] = {
  id: 55, job_id: 812, job_step_id: 9, position: 1, name: 'Port scan - SQL', sim_action_id: 77, sim_action_vid: 'A201-1', status: 'ran', alerted: false, blocked: true,
  blocked_msg: 'Blocked: 1433 (refused), 3306 (timed out)', detected_msg: 'Detected by Suricata (1 event)', reason: null, events: 1, suspect_events: 0, disabled: false,
  action_type: 'port_scan', started_at: '2026-11-26T10:00:00Z', finished_at: '2026-11-26T10:00:04.500Z',
  step: { id: 9, group_order: 2, name: 'Scan the database zone' }, evidence: { source: { open_ports: [] } }, duration_ms: 4500,
};
const blocked: JobActionEvidenceAnswer = {
  job_action: base,
  work: [{ role: 'source', actor: { id: 3, name: 'lab-win' }, status: 'done', error: null, result: { stdout: 'connect 1433: refused' }, created_at: '2026-11-26T09:59:59Z', claimed_at: '2026-11-26T10:00:00Z', ready_at: null, finished_at: '2026-11-26T10:00:04Z' }],
  events: [{ id: 1, integration: { id: 2, name: 'Suricata' }, description: 'ET SCAN MSSQL probe', raw_event: '{}', suspicious: false, alert: false, severity: 'high', occurred_at: '2026-11-26T10:00:03Z' }],
};
const notRun: JobActionEvidenceAnswer = {
  job_action: { ...base, id: 56, status: 'not run', blocked: null, blocked_msg: null, detected_msg: null, events: 0, reason: 'Skipped: a prerequisite action did not complete.', started_at: null, finished_at: null, evidence: {}, duration_ms: null },
  work: [],
  events: null,
};

function renderPanel(id: number) {
  server.use(http.get(`${API}/jobs/job_actions/:id/evidence.json`, ({ params }) => HttpResponse.json(params.id === '55' ? blocked : notRun)));
  const s = jobPaneState(812);
  s.evidence = { id, name: 'Port scan - SQL' };
  s.evidenceFocusTick += 1;
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <EvidencePanel s={s} />
    </QueryClientProvider>,
  );
  return s;
}

beforeEach(() => resetPaneStates());

describe('the evidence panel of a job action', () => {
  it('shows why it was blocked, per port, the actor\'s output and timings, and its events, as selectable text', async () => {
    renderPanel(55);
    const region = screen.getByRole('region', { name: /^Evidence: Port scan - SQL/ });
    expect(document.activeElement).toBe(region);
    expect(await screen.findByText('Blocked: 1433 (refused), 3306 (timed out)')).toBeTruthy();
    expect(screen.getByText('Detected by Suricata (1 event)')).toBeTruthy();
    expect(screen.getByText(/Duration 4\.5 s/)).toBeTruthy();
    expect(screen.getByText(/^lab-win: done, queued/)).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Output (source)' }).textContent).toContain('connect 1433: refused');
    expect(screen.getByRole('region', { name: 'Events' }).textContent).toContain('ET SCAN MSSQL probe');
  });

  it('shows a Not Run action\'s reason on screen', async () => {
    renderPanel(56);
    expect(await screen.findByText('Not Run: Skipped: a prerequisite action did not complete.')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Events' })).toBeNull();
  });

  it('copies one plain text with the result, the reasons, the output and the events', () => {
    const text = evidenceText(blocked);
    expect(text).toContain('Job action 55: Port scan - SQL (A201-1)');
    expect(text).toContain('Job 812, step 2: Scan the database zone');
    expect(text).toContain('Result: Blocked');
    expect(text).toContain('Blocked: Blocked: 1433 (refused), 3306 (timed out)');
    expect(text).toContain('Source actor lab-win: done, queued');
    expect(text).toContain('"stdout": "connect 1433: refused"');
    expect(text).toMatch(/- \d{4}-\d\d-\d\d \d\d:\d\d:\d\d · Suricata · ET SCAN MSSQL probe/);
    expect(evidenceText(notRun)).toContain('Result: Not Run: Skipped: a prerequisite action did not complete.');
  });
});
