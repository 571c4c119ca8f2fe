import type { ReactElement } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API, useMswServer } from '../../../tests/msw';
import type { LibraryListAnswer } from '@/api/contracts/library';
import type { SimulationPreview } from '@/api/contracts/simulations';
import { SimulationPreviewHost } from './preview';
import { SimulationsPane } from './simulations-pane';
import { simStore } from './store';

const server = useMswServer();

function renderWithQuery(ui: ReactElement) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);
}

const preview: SimulationPreview = {
  id: 7, vid: 'S104-762', name: 'Ransomware Kill Chain - LockBit 3.0', description: 'Follows an affiliate.', simulation_type: 'sequence', disabled: false,
  steps: [
    { id: 1, name: 'Initial Access', actions: [{ id: 11, vid: 'A101-393', name: 'Email - Phishing', action_type: 'email', disabled: false }], dns_found: false, host_cli_found: false, cloud_validation_found: false, can_run: true },
    { id: 2, name: 'Later', actions: [], dns_found: false, host_cli_found: false, cloud_validation_found: false, can_run: false },
  ],
  tags: [{ id: 3, name: 'Impact', tagType: 'user' }],
  options: { empty_steps: 1, cttn_attackers: [], cttn_targets: [], cttn_authorized_actors: {} },
  latest_jobs: [{ id: 90, name: 'Ransomware Kill Chain - LockBit 3.0', created_at: '2026-11-01T10:00:00.000Z', status: 'completed', user: null }],
  total_jobs: 11,
  can_edit: true,
  version: 3,
  simType: 'sequence',
  title: 'Ransomware Kill Chain - LockBit 3.0',
};

const emptyList: LibraryListAnswer = { actions: [], simulations: [], total_count: 0, total_pages: 0, start: 0, page_number: 1, page_size: 100 };

afterEach(() => {
  simStore.preview = null;
  simStore.current = null;
});

describe('Simulations panes', () => {
  it('shows the empty state of the list, and the error message of the director', async () => {
    server.use(http.get(`${API}/v2/simulations/library_simulations_list`, () => HttpResponse.json(emptyList)));
    const view = renderWithQuery(<SimulationsPane params={{ sim_type: 'eval' }} setParams={vi.fn()} />);
    expect(await screen.findByText('No Evaluations yet.')).toBeTruthy();
    view.unmount();
    server.use(http.get(`${API}/v2/simulations/library_simulations_list`, () => HttpResponse.json({ error: 'simulation_type must be sequence or eval' }, { status: 400 })));
    renderWithQuery(<SimulationsPane params={{ sim_type: 'sequence' }} setParams={vi.fn()} />);
    expect((await screen.findByRole('alert')).textContent).toBe('simulation_type must be sequence or eval');
  });

  it("MON-018 MON-001 the preview modal is titled from the simulation, says 'Loading Details', then lists each step's Actions as links opening in a new tab", async () => {
    let answer: (() => void) | null = null;
    server.use(http.get(`${API}/library/simulations.json`, () => new Promise<Response>((resolve) => (answer = () => resolve(HttpResponse.json({ data: { preview_props: preview } }))))));
    renderWithQuery(<SimulationPreviewHost />);
    act(() => {
      simStore.preview = { id: 7, vid: 'S104-762', name: 'Ransomware Kill Chain - LockBit 3.0', simulation_type: 'sequence' };
    });
    const dialog = await screen.findByRole('dialog', { name: 'Ransomware Kill Chain - LockBit 3.0 (S104-762)' });
    expect(within(dialog).getByText('Loading Details')).toBeTruthy();
    await vi.waitFor(() => expect(answer).not.toBeNull());
    act(() => answer?.());
    const steps = await within(dialog).findByRole('list', { name: 'Steps' });
    const link = within(steps).getByRole('link', { name: 'A101-393' });
    expect(link.getAttribute('href')).toBe('/manage_sims/action/A101-393');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(within(steps).getByText('Empty step')).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'View All (11)' }).getAttribute('href')).toBe('/jobs?vid=S104-762');
    expect(within(dialog).getByText('Scheduled Process')).toBeTruthy();
  });
});
