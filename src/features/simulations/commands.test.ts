import * as yup from 'yup';
import { QueryClient } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { API, useMswServer } from '../../../tests/msw';
import { permissionsOf, type Role } from '@/api/contracts/permissions';
import type { SimulationPreview } from '@/api/contracts/simulations';
import { commands, defineCommand, emptyContext } from '@/commands/registry';
import type { CommandContext } from '@/commands/types';
import { clearToasts } from '@/ui/toasts';
import { simulationCommands } from './commands';
import { simStore } from './store';

const server = useMswServer();
const openUrl = vi.fn();
const ran: { id: string; args: unknown }[] = [];
let disposers: (() => void)[] = [];

function as(role: Role, activePane: CommandContext['activePane'] = { kind: 'simulations', params: { sim_type: 'eval' } }) {
  const ctx: CommandContext = {
    ...emptyContext(),
    permissions: new Set(permissionsOf(role)),
    queryClient: new QueryClient(),
    dock: { openUrl, focusNext: vi.fn(), moveActive: vi.fn(), closeActive: vi.fn(), resetLayout: vi.fn() },
    activePane,
  };
  commands.setContextProvider(() => ctx);
}

const preview: SimulationPreview = {
  id: 41, vid: 'S250-138', name: 'Cloud Control Plane Checks - AWS', description: '', simulation_type: 'eval', disabled: false,
  steps: [], tags: [], options: { empty_steps: 0, cttn_attackers: [], cttn_targets: [], cttn_authorized_actors: {} }, latest_jobs: [], total_jobs: 0, can_edit: false,
  version: 1, simType: 'eval', title: 'Cloud Control Plane Checks - AWS',
};

beforeEach(() => {
  ran.length = 0;
  openUrl.mockReset();
  // Stand-ins for the Run feature's commands: the simulations feature reaches them through the registry only.
  const fakeRun = (id: 'run.sequence' | 'run.evaluation') => defineCommand<{ id: number }>({ id, title: id, category: 'Run', args: yup.object({ id: yup.number().required(), attack_node_id_1: yup.number().optional(), target_node_id_1: yup.number().optional() }), run: (args) => void ran.push({ id, args }) });
  disposers = [commands.registerAll(simulationCommands), commands.register(fakeRun('run.sequence')), commands.register(fakeRun('run.evaluation'))];
});
afterEach(() => {
  disposers.forEach((d) => d());
  simStore.current = null;
  simStore.preview = null;
  commands.setContextProvider(emptyContext);
  clearToasts();
});

describe('simulation commands', () => {
  it('Run runs the Run feature\'s command of the selected simulation\'s type through the registry, and is hidden without jobs.run', async () => {
    as('operator');
    simStore.current = { id: 41, vid: 'S250-138', name: 'Cloud Control Plane Checks - AWS', simulation_type: 'eval' };
    await commands.execute('simulations.run');
    simStore.current = { id: 7, vid: 'S104-762', name: 'Ransomware Kill Chain', simulation_type: 'sequence' };
    await commands.execute('simulations.run');
    await commands.execute('simulations.run', { id: 7, attack_node_id_1: 3, target_node_id_1: 4 });
    expect(ran).toEqual([
      { id: 'run.evaluation', args: { id: 41 } },
      { id: 'run.sequence', args: { id: 7 } },
      { id: 'run.sequence', args: { id: 7, attack_node_id_1: 3, target_node_id_1: 4 } },
    ]);
    as('viewer');
    expect(commands.visible().map((c) => c.id)).not.toContain('simulations.run');
    expect(commands.visible().map((c) => c.id)).toContain('simulations.preview');
  });

  it('MON-127 Preview by id asks the director for the simulation and opens the modal on it; View Runs opens /jobs?vid=', async () => {
    as('viewer');
    server.use(http.get(`${API}/library/simulations.json`, ({ request }) => (new URL(request.url).searchParams.get('id') === '41' ? HttpResponse.json({ data: { preview_props: preview } }) : HttpResponse.json({ error: 'nope' }, { status: 404 }))));
    await commands.execute('simulations.preview', { id: 41 });
    expect(simStore.preview).toEqual({ id: 41, vid: 'S250-138', name: 'Cloud Control Plane Checks - AWS', simulation_type: 'eval' });
    await commands.execute('simulations.viewRuns');
    expect(openUrl).toHaveBeenCalledWith('/jobs?vid=S250-138');
    expect(simStore.preview).toBeNull();
  });

  it('without a selection the commands say what to do', async () => {
    as('viewer');
    await expect(commands.execute('simulations.copyVid')).rejects.toThrow('Select a Sequence or Evaluation first.');
  });
});
