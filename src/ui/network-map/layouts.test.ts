import { describe, expect, it } from 'vitest';
import { LAYOUT_MODES, type NetworkMap } from '@/api/contracts/topology';
import { overlaps } from './bodies';
import { layout, positionsOf } from './layouts';

const zone = (id: number, name: string) => ({ id, name, description: '', cidr: `10.${id}.0.0/16`, combos: [] });
const node = (id: number, zone_id: number | null, node_type = 'endpoint') => ({
  id, name: `N${id}`, node_type, os: 'Linux', status: 'online' as const, mgmt_address: `10.0.0.${id}`, sim_address: '', monitor_address: '', zone_id, help: 'x.html',
});
const device = (id: number, zone_ids: number[], device_type = 'firewall') => ({
  id, name: `D${id}`, device_type, description: '', interfaces: [], prevention_enabled: false, zone_ids, help: 'y.html',
});

/** Seven zones (one empty), 17 actors (one outside any zone), 5 devices (one unlinked). */
const MAP: NetworkMap = {
  zones: [1, 2, 3, 4, 5, 6, 7].map((i) => zone(i, `Zone ${i}`)),
  nodes: [...Array.from({ length: 16 }, (_, i) => node(i + 1, (i % 6) + 1, i % 4 ? 'endpoint' : 'network')), node(17, null)],
  devices: [device(1, [1, 2]), device(2, [2, 3, 4], 'ids'), device(3, [5]), device(4, [1, 6], 'router'), device(5, [])],
  links: [{ id: 1, id1: 'device_4', id2: 'node_2', compliment_id: 2 }, { id: 2, id1: 'node_2', id2: 'device_4', compliment_id: 1 }],
};
const KEYS = [...MAP.zones.map((z) => `zone_${z.id}`), ...MAP.nodes.map((n) => `node_${n.id}`), ...MAP.devices.map((d) => `device_${d.id}`)].sort();

describe('network map layouts', () => {
  it.each(LAYOUT_MODES)('JOB-025 %s places every item, the same way every time, actors inside their zone without overlaps', (mode) => {
    const rects = layout(mode, MAP, { focus: 'node_3' });
    expect(Object.keys(rects).sort()).toEqual(KEYS);
    expect(layout(mode, MAP, { focus: 'node_3' })).toEqual(rects);
    for (const r of Object.values(rects)) expect([r.x, r.y, r.width, r.height].every(Number.isFinite)).toBe(true);
    for (const z of MAP.zones) {
      const box = rects[`zone_${z.id}`];
      const members = MAP.nodes.filter((n) => n.zone_id === z.id).map((n) => rects[`node_${n.id}`]);
      for (const m of members) {
        expect(m && box && m.x >= box.x && m.y >= box.y && m.x + m.width <= box.x + box.width && m.y + m.height <= box.y + box.height).toBe(true);
      }
      members.forEach((a, i) => members.slice(i + 1).forEach((b) => expect(a && b && overlaps(a, b)).toBe(false)));
    }
  });

  it.each(['Standard', 'Organic', 'Sequential', 'Lens', 'Structural'] as const)('JOB-025 %s: no two zones or devices overlap', (mode) => {
    const rects = layout(mode, MAP, { focus: 'device_2' });
    const boxes = Object.entries(rects).filter(([k]) => !k.startsWith('node_') || k === 'node_17');
    boxes.forEach(([ka, a], i) => boxes.slice(i + 1).forEach(([kb, b]) => expect(overlaps(a, b), `${ka} overlaps ${kb}`).toBe(false)));
  });

  it('JOB-025 the modes differ; Lens centres the focused item; Structural puts one actor type per row', () => {
    const all = LAYOUT_MODES.slice(0, 5).map((m) => JSON.stringify(positionsOf(layout(m, MAP, { focus: 'device_2' }))));
    expect(new Set(all).size).toBe(5);
    const lens = layout('Lens', MAP, { focus: 'device_2' });
    const d2 = lens.device_2;
    expect(d2 && Math.abs(d2.x + d2.width / 2) < 1 && Math.abs(d2.y + d2.height / 2) < 1).toBe(true);
    // Focusing an actor centres its zone.
    const z3 = layout('Lens', MAP, { focus: 'node_3' }).zone_3;
    expect(z3 && Math.abs(z3.x + z3.width / 2) < 1).toBe(true);
    const s = layout('Structural', MAP);
    // Zone 1 holds N1 (network), N7 (endpoint), N13 (network): endpoints on one row, networks on the next.
    expect(s.node_1?.y).toBe(s.node_13?.y);
    expect(s.node_7?.y).toBeLessThan(s.node_1?.y ?? 0);
  });

  it('JOB-025 Sequential lays the linked zones and devices out left to right in layers', () => {
    const r = layout('Sequential', MAP);
    // zone_1 is the first layer, devices 1 and 4 the second, zones 2 and 6 the third.
    expect(r.zone_1?.x).toBe(0);
    expect(r.device_1?.x).toBe(r.device_4?.x);
    expect(r.device_1?.x).toBeGreaterThan(r.zone_1?.x ?? 0);
    expect(r.zone_2?.x).toBeGreaterThan(r.device_1?.x ?? 0);
  });

  it('JOB-025 Tweak keeps the saved positions and fits a zone around its moved actors', () => {
    const base = layout('Standard', MAP);
    const tweaked = layout('Tweak', MAP, { positions: { node_1: { x: 5000, y: 4000 }, device_5: { x: -300, y: -200 } } });
    expect(tweaked.node_1).toMatchObject({ x: 5000, y: 4000 });
    expect(tweaked.device_5).toMatchObject({ x: -300, y: -200 });
    expect(tweaked.node_2).toEqual(base.node_2);
    const z = tweaked.zone_1;
    expect(z && z.x + z.width >= 5000 + (tweaked.node_1?.width ?? 0)).toBe(true);
    expect(layout('Tweak', MAP)).toEqual(base);
  });

  it.each(LAYOUT_MODES)('JOB-025 %s spreads readably: the boxes fill at least a sixth of the area they span (Organic no longer drifts apart)', (mode) => {
    const r = Object.values(layout(mode, MAP, { focus: 'node_3' }));
    const w = Math.max(...r.map((q) => q.x + q.width)) - Math.min(...r.map((q) => q.x));
    const h = Math.max(...r.map((q) => q.y + q.height)) - Math.min(...r.map((q) => q.y));
    const boxes = r.reduce((sum, q) => sum + q.width * q.height, 0);
    expect((w * h) / boxes).toBeLessThan(6);
    expect(Math.max(w / h, h / w)).toBeLessThan(4);
  });

  it('JOB-025 an empty map lays out to nothing in every mode', () => {
    for (const m of LAYOUT_MODES) expect(layout(m, { zones: [], nodes: [], devices: [], links: [] })).toEqual({});
  });
});
