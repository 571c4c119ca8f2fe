import { useState } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { API, useMswServer } from '../../../tests/msw';
import type { SimulationPreview, SimulationStep } from '@/api/contracts/simulations';
import type { ActionType } from '@/api/contracts/vocabulary';
import type { NetworkMap } from '@/api/contracts/topology';
import type { SequenceMarks } from '@/ui/network-map/map-canvas';
import { SelectNodesPane } from './select-nodes-pane';

// x6 does not load under Node's module rules (it is drawn in the browser, e2e/select-nodes.e2e.ts): the
// canvas is replaced by one that keeps what the pane asks it to show and lets a test click an actor.
const drawn = vi.hoisted(() => ({ sequence: null as SequenceMarks | null, selected: null as string | null, onSelect: (_key: string | null) => {} }));
vi.mock('@/ui/network-map/map-canvas', () => ({
  MapCanvas: (props: { sequence: SequenceMarks | null; selected: string | null; onSelect: (key: string | null) => void }) => {
    Object.assign(drawn, { sequence: props.sequence, selected: props.selected, onSelect: props.onSelect });
    return null;
  },
}));

const server = useMswServer();
const mapNode = (id: number, name: string, zone: number) => ({ id, name, node_type: 'endpoint', os: 'linux', status: 'online' as const, mgmt_address: '', sim_address: `10.0.0.${id}`, monitor_address: '', zone_id: zone, help: '' });
const network: NetworkMap = {
  zones: [{ id: 1, name: 'Users', cidr: '10.0.0.0/24' }, { id: 2, name: 'Lab', cidr: '10.9.0.0/24' }] as NetworkMap['zones'],
  nodes: [mapNode(1, 'alpha', 1), mapNode(2, 'bravo', 1), mapNode(3, 'island', 2)],
  devices: [],
  links: [],
};

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

const serve = () =>
  server.use(
    http.get(`${API}/library/simulations.json`, () => HttpResponse.json({ data: { preview_props: preview } })),
    http.get(`${API}/topology/network.json`, () => HttpResponse.json(network)),
  );
const marked = () => ({ attacker: drawn.sequence?.attacker ?? null, target: drawn.sequence?.target ?? null, choosable: [...(drawn.sequence?.choosable ?? [])].sort() });

/** The pane with its params in state, as the workbench keeps them in the URL. */
const history = { set: (_p: Record<string, string>) => {} };
function Harness({ seen }: { seen: Record<string, string>[] }) {
  const [params, setParams] = useState<Record<string, string>>({ sim_id: '5' });
  history.set = setParams;
  return <SelectNodesPane params={params} setParams={(next) => { seen.push(next); setParams(next); }} />;
}

describe('Assign Actors (select_nodes)', () => {
  it('JOB-060 JOB-070 JOB-071 JOB-027 assigns each step by keyboard; removed, DISABLED and no-valid-target cases say so', async () => {
    serve();
    const seen: Record<string, string>[] = [];
    const user = userEvent.setup();
    render(<QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}><Harness seen={seen} /></QueryClientProvider>);

    // JOB-071: the empty group is removed with the spec's message; the others are numbered as the run call numbers them.
    expect(await screen.findByText("Group 2 was removed since it doesn't contain any actions.")).toBeTruthy();
    const steps = screen.getByRole('listbox', { name: 'Steps' });
    const options = within(steps).getAllByRole('option');
    expect(options.map((o) => o.getAttribute('title'))).toEqual(['Step 1: Recon', 'Step 2: Resolve (single actor)', 'DISABLED: Old: every Action of this step is disabled']);
    expect(options[2]!.textContent).toContain('DISABLED Old');
    // The reason is shown, not only in the title (a tooltip the keyboard never sees).
    expect(options[2]!.textContent).toContain('Cannot run: every Action of this step is disabled');

    // JOB-070: an attacker that reaches no target is refused with the spec's message.
    const attackers = await screen.findByRole('listbox', { name: 'Attackers for step 1' });
    expect(document.activeElement).toBe(attackers);
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect((await screen.findByRole('alert')).textContent).toBe('There are no Actors selectable as valid targets for the current group. Check that existing Actors can talk to each other and try again.');
    expect(seen).toEqual([]);

    // Type-ahead: letters highlight the next actor whose name starts with them (from island, 'b' finds bravo).
    await user.keyboard('b');
    expect(attackers.getAttribute('aria-activedescendant')).toBe('assign-actor-2');
    // A pause ends the search; the next letters start a new one (typed quickly, 'al' is one prefix).
    await new Promise((r) => setTimeout(r, 750));
    await user.keyboard('al');
    expect(attackers.getAttribute('aria-activedescendant')).toBe('assign-actor-1');

    // JOB-060: attacker, then a target among those it reaches.
    await user.keyboard('{Enter}');
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

  it('JOB-023 JOB-060 JOB-070 sequence mode on the map: the active step\'s choosable actors are highlighted; arrows and Enter on the map choose attacker then target; a click on an unreachable actor says why', async () => {
    serve();
    const seen: Record<string, string>[] = [];
    const user = userEvent.setup();
    render(<QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}><Harness seen={seen} /></QueryClientProvider>);
    const map = await screen.findByRole('application', { name: 'Sequence map' });
    // Attacker phase: every actor that connected can attack.
    expect(marked()).toEqual({ attacker: null, target: null, choosable: ['node_1', 'node_2', 'node_3'] });
    map.focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('status', { name: 'Map cursor' }).textContent).toBe('alpha: Enter chooses it as the attacker of step 1');
    await user.keyboard('{Enter}');
    expect(seen.at(-1)).toEqual({ sim_id: '5', attack_node_id_1: '1' });
    // Target phase: only what alpha reaches is highlighted; the map keeps the focus.
    expect(marked()).toEqual({ attacker: 'node_1', target: null, choosable: ['node_2'] });
    expect(document.activeElement).toBe(map);
    // A click on an actor alpha cannot reach is refused with the reason.
    await act(async () => drawn.onSelect('node_3'));
    expect((await screen.findByRole('alert')).textContent).toBe('island (Lab) cannot be reached from alpha (Users): choose one of the highlighted actors.');
    await user.keyboard('{ArrowRight}');
    expect(drawn.selected).toBe('node_2');
    await user.keyboard('{Enter}');
    expect(seen.at(-1)).toEqual({ sim_id: '5', attack_node_id_1: '1', target_node_id_1: '2' });
    // Step 2 (single actor) is active next; island attacks alone; JOB-070 applies to two-actor steps only.
    expect(marked().choosable).toEqual(['node_1', 'node_2', 'node_3']);
    await act(async () => drawn.onSelect('node_3'));
    expect(seen.at(-1)).toEqual({ sim_id: '5', attack_node_id_1: '1', target_node_id_1: '2', attack_node_id_2: '3' });
    expect(screen.getByTestId('assignment-2').textContent).toBe('Attacker: island (Lab)');
    // Back (the URL without step 1's target): step 1 is active again, its target phase on the map.
    await act(async () => history.set({ sim_id: '5', attack_node_id_1: '1', attack_node_id_2: '3' }));
    await screen.findByRole('listbox', { name: 'Targets for step 1' });
    expect(marked()).toEqual({ attacker: 'node_1', target: null, choosable: ['node_2'] });
  });
});
