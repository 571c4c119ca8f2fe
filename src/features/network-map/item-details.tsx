import type { NetworkMap } from '@/api/contracts/topology';
import { STATUS_COLOURS } from '@/ui/network-map/colours';

function Row({ label, value }: { label: string; value: string }) {
  if (!value) return null;
  return (
    <>
      <dt className="text-muted">{label}</dt>
      <dd className="truncate font-mono text-xs leading-5">{value}</dd>
    </>
  );
}

/** The selected item's fields (JOB-044), in a card over the map. */
export function ItemDetails({ map, selected }: { map: NetworkMap; selected: string }) {
  const [kind, raw] = selected.split('_');
  const id = Number(raw);
  const zoneName = (zid: number | null) => map.zones.find((z) => z.id === zid)?.name ?? '';
  const node = kind === 'node' ? map.nodes.find((n) => n.id === id) : undefined;
  const device = kind === 'device' ? map.devices.find((d) => d.id === id) : undefined;
  const zone = kind === 'zone' ? map.zones.find((z) => z.id === id) : undefined;
  const title = node?.name ?? device?.name ?? zone?.name;
  if (!title) return null;
  return (
    <section aria-label="Selected item" className="absolute bottom-3 left-3 z-10 w-96 rounded-md border border-line bg-raised/95 p-3 text-sm shadow-lg shadow-black/40">
      <h3 className="mb-1 flex items-center gap-2 font-semibold">
        {node && <span aria-hidden className="inline-block size-2.5 rounded-full" style={{ background: STATUS_COLOURS[node.status] }} />}
        <span className="truncate">{title}</span>
        <span className="ml-auto text-xs font-normal text-muted">{node ? `Actor · ${node.status}` : device ? 'Device' : 'Zone'}</span>
      </h3>
      <dl className="grid grid-cols-[7rem_1fr] gap-x-2 text-xs leading-5">
        {node && (
          <>
            <Row label="OS" value={node.os} />
            <Row label="Zone" value={zoneName(node.zone_id)} />
            <Row label="Management" value={node.mgmt_address} />
            <Row label="Simulation" value={node.sim_address} />
            <Row label="Monitor" value={node.monitor_address} />
          </>
        )}
        {device && (
          <>
            <Row label="Type" value={device.device_type.replace(/_/g, ' ')} />
            <Row label="Prevention" value={device.prevention_enabled ? 'Enabled' : 'Disabled'} />
            <Row label="Zones" value={device.zone_ids.map(zoneName).join(', ')} />
            {device.interfaces.map((i) => (
              <Row key={i.name} label={`Interface ${i.name}`} value={i.ip_address} />
            ))}
          </>
        )}
        {zone && (
          <>
            <Row label="CIDR" value={zone.cidr} />
            <Row label="Actors" value={String(zone.combos.length)} />
          </>
        )}
      </dl>
      {(device?.description || zone?.description) && <p className="mt-1 text-xs text-muted">{device?.description || zone?.description}</p>}
    </section>
  );
}
