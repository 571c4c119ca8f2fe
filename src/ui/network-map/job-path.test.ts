import { describe, expect, it } from 'vitest';
import type { NetworkMap } from '@/api/contracts/topology';
import { jobHighlight } from './job-path';

const zone = (id: number) => ({ id, name: `Zone ${id}`, description: '', cidr: `10.${id}.0.0/16`, combos: [] });
const node = (id: number, zone_id: number | null) => ({ id, name: `N${id}`, node_type: 'endpoint', os: 'Linux', status: 'online' as const, mgmt_address: '', sim_address: '', monitor_address: '', zone_id, help: '' });
const device = (id: number, zone_ids: number[]) => ({ id, name: `FW${id}`, device_type: 'firewall', description: '', interfaces: [], prevention_enabled: true, zone_ids, help: '' });

/** Zone 1 (N1, N2) - FW1 - Zone 2 (N3) - FW2 - Zone 3 (N4); N5 outside any zone, linked to FW2. */
const MAP: NetworkMap = {
  zones: [zone(1), zone(2), zone(3)],
  nodes: [node(1, 1), node(2, 1), node(3, 2), node(4, 3), node(5, null)],
  devices: [device(1, [1, 2]), device(2, [2, 3])],
  links: [{ id: 1, id1: 'node_5', id2: 'device_2', compliment_id: 2 }, { id: 2, id1: 'device_2', id2: 'node_5', compliment_id: 1 }],
};

describe('the focused job on the map', () => {
  it("highlights a job's actors and the zones, devices and links between each source and destination", () => {
    const h = jobHighlight(MAP, { id: 9, name: 'Segmentation', pairs: [{ source: 1, destination: 4 }] });
    expect([...h.actors].sort()).toEqual(['node_1', 'node_4']);
    expect([...h.path].sort()).toEqual(['device_1', 'device_2', 'zone_1', 'zone_2', 'zone_3']);
    expect([...h.links]).toEqual([]);
    const linked = jobHighlight(MAP, { id: 9, name: 'x', pairs: [{ source: 3, destination: 5 }] });
    expect([...linked.path].sort()).toEqual(['device_2', 'zone_2']);
    expect([...linked.links]).toEqual(['device_2|node_5']);
  });

  it('a one-actor step highlights its actor only; actors the map does not show are left out', () => {
    const h = jobHighlight(MAP, { id: 3, name: 'DNS', pairs: [{ source: 2, destination: null }, { source: 99, destination: 1 }] });
    expect([...h.actors]).toEqual(['node_2', 'node_1']);
    expect(h.path.size).toBe(0);
    expect(jobHighlight(MAP, { id: 4, name: 'y', pairs: [{ source: 1, destination: 2 }] }).path).toEqual(new Set(['zone_1']));
  });
});
