import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import type { ReactElement } from 'react';
import { API, useMswServer } from '../../../tests/msw';
import { PanelLibrary } from './panel-library';

const server = useMswServer();
const NOTE = 'Some panels shown with a disabled button below are not available to add in this location.';
const panels = [
  { key: 'bullet', id: 1, name: 'Results Summary', description: 'Bullets', logo: 'bullet' },
  { key: 'radar', id: 6, name: 'Tactic Radar', description: 'Tactics', logo: 'radar' },
];

function renderLib(ui: ReactElement) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);
}

describe('Panel Library modal', () => {
  it('MON-023 MON-052 MON-136 lists a flat library with name, description and Add to Dashboard; adds the chosen panel', async () => {
    server.use(http.get(`${API}/lib.json`, () => HttpResponse.json(panels)));
    const onAdd = vi.fn();
    renderLib(<PanelLibrary open onClose={vi.fn()} onAdd={onAdd} path="/lib.json" />);
    expect(await screen.findByRole('dialog', { name: 'Panel Library' })).toBeTruthy();
    await screen.findByText('Results Summary');
    expect(screen.getByText('Bullets')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /^Add to Dashboard/ })).toHaveLength(2);
    expect(screen.queryByText(NOTE)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Add to Dashboard: Tactic Radar' }));
    expect(onAdd).toHaveBeenCalledWith(panels[1]);
  });

  it('MON-091 MON-023 panels outside a non-empty enabled list get a disabled button and the note; groups are named', async () => {
    server.use(http.get(`${API}/lib.json`, () => HttpResponse.json([{ name: 'Summary', panels: [panels[0]] }, { name: 'ATT&CK', panels: [panels[1]] }])));
    renderLib(<PanelLibrary open onClose={vi.fn()} onAdd={vi.fn()} path="/lib.json" enabledIds={[6]} buttonLabel="Add" />);
    await screen.findByRole('heading', { name: 'ATT&CK' });
    expect(screen.getByRole('heading', { name: 'Summary' })).toBeTruthy();
    expect(screen.getByText(NOTE)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Add: Results Summary' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Add: Tactic Radar' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('MON-091 with every panel enabled the note is not shown', async () => {
    server.use(http.get(`${API}/lib.json`, () => HttpResponse.json(panels)));
    renderLib(<PanelLibrary open onClose={vi.fn()} onAdd={vi.fn()} path="/lib.json" enabledIds={[1, 6]} />);
    await screen.findByText('Tactic Radar');
    expect(screen.queryByText(NOTE)).toBeNull();
  });

  it('MON-164 MON-136 a non-array library answer is treated as an empty list', async () => {
    server.use(http.get(`${API}/lib.json`, () => HttpResponse.json({ panels })));
    renderLib(<PanelLibrary open onClose={vi.fn()} onAdd={vi.fn()} path="/lib.json" />);
    expect(await screen.findByText('No panels are available.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Add to Dashboard/ })).toBeNull();
  });
});
