import type { NetworkMap } from '@/api/contracts/topology';
import type { MenuTarget } from './context-menu';

/** What the context menu needs to know about an actor or device. */
export function menuTargetOf(map: NetworkMap, key: string, at: MenuTarget['at']): MenuTarget | null {
  const [kind, raw] = key.split('_');
  const id = Number(raw);
  if (kind === 'node') {
    const n = map.nodes.find((x) => x.id === id);
    return n ? { key, name: n.name, kind: 'actor', address: n.sim_address || n.mgmt_address, help: n.help, href: `/topology/nodes/${n.id}/edit`, at } : null;
  }
  if (kind === 'device') {
    const d = map.devices.find((x) => x.id === id);
    return d ? { key, name: d.name, kind: 'device', address: d.interfaces.find((i) => i.ip_address)?.ip_address ?? '', help: d.help, href: null, at } : null;
  }
  return null;
}
