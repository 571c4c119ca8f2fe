/** Reads the map items (JOB-044) from zones, nodes, devices, device_zones and topology_links. */
import type { Db } from '../db/index';
import { presenceSql } from '../actors/presence';
import type { DeviceInterface, ItemKey, MapDevice, MapLink, MapNode, MapZone, NetworkMap } from '../../src/api/contracts/topology';

type ZoneRow = Omit<MapZone, 'combos'>;
type NodeRow = Omit<MapNode, 'help'>;
type DeviceRow = Omit<MapDevice, 'help' | 'interfaces' | 'zone_ids'> & { interfaces: unknown; zone_ids: number[] | null };

/** Interfaces are stored as jsonb; anything not shaped like one is left out rather than failing the map. */
function interfacesOf(raw: unknown): DeviceInterface[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((i: unknown) => {
    if (typeof i !== 'object' || i === null) return [];
    const r = i as Record<string, unknown>;
    return [{ name: String(r.name ?? ''), ip_address: String(r.ip_address ?? ''), zone_id: typeof r.zone_id === 'number' ? r.zone_id : null }];
  });
}

/** Help files per item type (JOB-026): served under /help/. */
const nodeHelp = (type: string) => `actor-${type}.html`;
const deviceHelp = (type: string) => `device-${type}.html`;

export async function readNetworkMap(db: Db): Promise<NetworkMap> {
  const presence = presenceSql(db, 'nodes');
  const [zones, nodes, devices, links] = await Promise.all([
    db.query<ZoneRow>('select id, name, description, cidr from zones order by id'),
    db.query<NodeRow>(
      `select id, name, node_type, os, ${presence.status} as status, mgmt_address, sim_address, monitor_address, security_zone_id as zone_id
       from nodes order by id`,
    ),
    db.query<DeviceRow>(
      `select d.id, d.name, d.device_type, d.description, d.prevention_enabled, d.interfaces,
              array(select z.zone_id from device_zones z where z.device_id = d.id order by z.zone_id) as zone_ids
       from devices d order by d.id`,
    ),
    db.query<MapLink>('select id, id1, id2, compliment_id from topology_links order by id'),
  ]);
  const members = new Map<number, ItemKey[]>();
  for (const n of nodes) if (n.zone_id !== null) members.set(n.zone_id, [...(members.get(n.zone_id) ?? []), `node_${n.id}`]);
  return {
    zones: zones.map((z) => ({ ...z, combos: members.get(z.id) ?? [] })),
    nodes: nodes.map((n) => ({ ...n, help: nodeHelp(n.node_type) })),
    devices: devices.map((d) => ({ ...d, interfaces: interfacesOf(d.interfaces), zone_ids: d.zone_ids ?? [], help: deviceHelp(d.device_type) })),
    links,
  };
}
