import { useState } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { API, useMswServer } from '../../../tests/msw';
import type { SimulationPreview, SimulationStep } from '@/api/contracts/simulations';
import type { ActionType } from '@/api/contracts/vocabulary';
import { SelectNodesPane } from './select-nodes-pane';

const server = useMswServer();

const step = (id: number, name: string, type: ActionType | null, disabled = false): SimulationStep => ({
  id, name,
  actions: type ? [{ id: id * 10, vid: `A${id}00-001`, name: `${name} action`, action_type: type, disabled }] : [],
  dns_found: type === 'dns', host_cli_found: false, cloud_validation_found: false, can_run: !!type && !disabled,
});
const actor = (id: number, name: string, zone: string | null) => ({ id, name, status: 'online', sim_address: `10.0.0.${id}`, zone_name: zone });

const preview: SimulationPreview = {
  id: 5, vid: 'S500-001', name: 'Aimed sequence', description: '', simulation_type: 'sequence', disabled: false,
  steps: [step(1, 'Recon', 'port_scan'), step(2, 'Empty', null), step(3, 'Resolve', 'dns'), step(4, 'Old', 'socket', true)],
  tags: [],
  options: {
    empty_steps: 1,
    cttn_attackers: [actor(1, 'alpha', 'Users'), actor(2, 'bravo', 'Users'), actor(3, 'island', 'Lab')],
    cttn_targets: [actor(1, 'alpha', 'Users'), actor(2, 'bravo', 'Users')],
    cttn_authorized_actors: { 1: [2], 2: [1], 3: [] },
  },
  latest_jobs: [], total_jobs: 0, can_edit: false, version: 1, simType: 'sequence', title: 'Aimed sequence',
};

/** The pane with its params in state, as the workbench keeps them in the URL. */
function Harness({ seen }: { seen: Record<string, string>[] }) {
  const [params, setParams] = useState<Record<string, string>>({ sim_id: '5' });
  return <SelectNodesPane params={params} setParams={(next) => { seen.push(next); setParams(next); }} />;
}

describe('Assign Actors (select_nodes)', () => {
  it('JOB-060 JOB-070 JOB-071 JOB-027 assigns each step by keyboard; removed, DISABLED and no-valid-target cases say so', async () => {
    server.use(http.get(`${API}/library/simulations.json`, () => HttpResponse.json({ data: { preview_props: preview } })));
    const seen: Record<string, string>[] = [];
    const user = userEvent.setup();
    render(<QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}><Harness seen={seen} /></QueryClientProvider>);

    // JOB-071: the empty group is removed with the spec's message; the others are numbered as the run call numbers them.
    expect(await screen.findByText("Group 2 was removed since it doesn't contain any actions.")).toBeTruthy();
    const steps = screen.getByRole('listbox', { name: 'Steps' });
    const options = within(steps).getAllByRole('option');
    expect(options.map((o) => o.getAttribute('title'))).toEqual(['Step 1: Recon', 'Step 2: Resolve (single actor)', 'DISABLED: Old: every Action of this step is disabled']);
    expect(options[2]!.textContent).toContain('DISABLED Old');

    // JOB-070: an attacker that reaches no target is refused with the spec's message.
    const attackers = await screen.findByRole('listbox', { name: 'Attackers for step 1' });
    expect(document.activeElement).toBe(attackers);
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect((await screen.findByRole('alert')).textContent).toBe('There are no Actors selectable as valid targets for the current group. Check that existing Actors can talk to each other and try again.');
    expect(seen).toEqual([]);

    // JOB-060: attacker, then a target among those it reaches.
    await user.keyboard('{ArrowUp}{ArrowUp}{Enter}');
    const targets = await screen.findByRole('listbox', { name: 'Targets for step 1' });
    expect(within(targets).getAllByRole('option').map((o) => o.textContent)).toEqual(['bravoUsersonline']);
    await user.keyboard('{Enter}');
    expect(seen.at(-1)).toEqual({ sim_id: '5', attack_node_id_1: '1', target_node_id_1: '2' });

    // The single-actor step needs only its attacker; then every step is assigned.
    await screen.findByRole('listbox', { name: 'Attackers for step 2' });
    await user.keyboard('{ArrowDown}{Enter}');
    expect(seen.at(-1)).toEqual({ sim_id: '5', attack_node_id_1: '1', target_node_id_1: '2', attack_node_id_2: '2' });
    expect(screen.getByTestId('assignment-1').textContent).toBe('Attacker: alpha (Users) → Target: bravo (Users)');
    expect(screen.getByTestId('assignment-2').textContent).toBe('Attacker: bravo (Users)');
    expect(screen.queryByText('Choose the actors of every step to run.')).toBeNull();
  });
});
