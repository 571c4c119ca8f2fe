import type { MapDevice, MapLink, MapNode, MapZone, NetworkMap } from '@/api/contracts/topology';

/** A deterministic map: actors spread over zones, devices between pairs of zones, links actor-device, device-zone and zone-zone. */
export function generateMap({ actors: ACTORS, devices: DEVICES, links: LINKS, zones: ZONES }: { actors: number; devices: number; links: number; zones: number }): NetworkMap {
  let seed = 42;
  const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
  const nodes: MapNode[] = Array.from({ length: ACTORS }, (_, i) => ({
    id: i + 1,
    name: `actor-${String(i + 1).padStart(4, '0')}`,
    node_type: 'endpoint',
    os: 'linux',
    status: (['online', 'offline', 'pending'] as const)[i % 7 === 0 ? 1 : i % 11 === 0 ? 2 : 0],
    mgmt_address: `10.${(i >> 8) & 255}.${i & 255}.10`,
    sim_address: `10.${(i >> 8) & 255}.${i & 255}.11`,
    monitor_address: '',
    zone_id: (i % ZONES) + 1,
    help: '',
  }));
  const zones: MapZone[] = Array.from({ length: ZONES }, (_, z) => ({
    id: z + 1,
    name: `zone ${z + 1}`,
    description: '',
    cidr: `10.${z}.0.0/16`,
    combos: nodes.filter((n) => n.zone_id === z + 1).map((n) => `node_${n.id}` as const),
  }));
  const devices: MapDevice[] = Array.from({ length: DEVICES }, (_, d) => ({
    id: d + 1,
    name: `device-${d + 1}`,
    device_type: d % 2 ? 'firewall' : 'ips',
    description: '',
    interfaces: [],
    prevention_enabled: d % 3 === 0,
    zone_ids: [(d % ZONES) + 1, ((d + 1) % ZONES) + 1],
    help: '',
  }));
  const links: MapLink[] = [];
  const seen = new Set<string>();
  const add = (a: MapLink['id1'], b: MapLink['id1']) => {
    const k = [a, b].sort().join('|');
    if (a === b || seen.has(k)) return;
    seen.add(k);
    links.push({ id: links.length + 1, id1: a, id2: b, compliment_id: null });
  };
  for (const d of devices) for (const z of d.zone_ids) add(`device_${d.id}`, `zone_${z}`);
  for (let z = 1; z <= ZONES; z++) add(`zone_${z}`, `zone_${(z % ZONES) + 1}`);
  while (links.length < LINKS) {
    const r = rnd(3);
    if (r === 0) add(`node_${rnd(ACTORS) + 1}`, `device_${rnd(DEVICES) + 1}`);
    else if (r === 1) add(`node_${rnd(ACTORS) + 1}`, `node_${rnd(ACTORS) + 1}`);
    else add(`node_${rnd(ACTORS) + 1}`, `zone_${rnd(ZONES) + 1}`);
  }
  return { zones, nodes, devices, links };
}
