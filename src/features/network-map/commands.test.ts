import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { API, useMswServer } from '../../../tests/msw';
import { permissionsOf } from '@/api/contracts/permissions';
import { SAVE_FAILED } from '@/api/contracts/topology';
import { CommandRegistry, emptyContext } from '@/commands/registry';
import { networkMapCommands } from './commands';
import { networkMapStore } from './store';

const server = useMswServer();

function registry(signedIn = true) {
  const r = new CommandRegistry(() => ({
    ...emptyContext(),
    user: signedIn ? { id: 1, email: 'viewer@example.com', first_name: '', last_name: '', role: 'viewer', permissions: permissionsOf('viewer') } : null,
    permissions: new Set(permissionsOf('viewer')),
  }));
  r.registerAll(networkMapCommands);
  return r;
}

beforeEach(() => Object.assign(networkMapStore, { mode: 'Standard', focus: null, selected: null, positions: {}, fitRequests: 0 }));

describe('network map commands', () => {
  it('JOB-025 the palette offers Layout: Standard … Tweak, Fit map to view and Save map layout to every signed-in user, viewers too', () => {
    expect(registry().visible().map((c) => c.title)).toEqual([
      'Layout: Standard', 'Layout: Organic', 'Layout: Sequential', 'Layout: Lens', 'Layout: Structural', 'Layout: Tweak', 'Fit map to view', 'Save map layout',
      'Network Map: Show Monitor Stats', 'Network Map: Hide Monitor Stats',
    ]);
    expect(registry(false).visible()).toEqual([]);
  });

  it('JOB-025 JOB-110 a layout command stores the mode with the operator positions; a failed save says the verbatim message', async () => {
    const bodies: unknown[] = [];
    server.use(http.put(`${API}/topology/layout.json`, async ({ request }) => {
      const body = await request.json();
      bodies.push(body);
      return HttpResponse.json({ ...(body as object), updated_at: '2026-01-01T00:00:00.000Z' });
    }));
    networkMapStore.positions = { node_1: { x: 5, y: 6 } };
    await expect(registry().execute('networkMap.layoutSequential', {}, 'test')).resolves.toMatchObject({ mode: 'Sequential' });
    expect(networkMapStore.mode).toBe('Sequential');
    expect(bodies).toEqual([{ mode: 'Sequential', positions: { node_1: { x: 5, y: 6 } } }]);

    server.use(http.put(`${API}/topology/layout.json`, () => HttpResponse.json({ error: 'Internal Server Error' }, { status: 500 })));
    await expect(registry().execute('networkMap.save', {}, 'test')).rejects.toThrow(SAVE_FAILED);
  });

  it('Fit map to view asks the pane to fit', async () => {
    await registry().execute('networkMap.fit', {}, 'test');
    expect(networkMapStore.fitRequests).toBe(1);
  });
});
