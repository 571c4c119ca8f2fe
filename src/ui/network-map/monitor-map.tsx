import { useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { NetworkMap } from '@/api/contracts/topology';
import { getNetwork, networkQueryKey } from '@/api/network-map';
import { Button } from '@/ui/button';
import { layout } from './layouts';
import { MapCanvas, type MapCanvasHandle } from './map-canvas';
import { MapRegion } from './map-region';
import type { MonitorOverlay } from './monitor-overlay';
import { nextItem, type Direction } from './next-item';

function itemName(map: NetworkMap, overlay: MonitorOverlay, key: string): string {
  const [kind, raw] = key.split('_');
  const id = Number(raw);
  if (kind === 'node') return map.nodes.find((n) => n.id === id)?.name ?? key;
  if (kind === 'device') return map.devices.find((d) => d.id === id)?.name ?? key;
  const zone = map.zones.find((z) => z.id === id);
  const stat = overlay.zone_stats.find((s) => s.zone_id === id);
  return `${zone?.name ?? key}${stat ? `, ${stat.passed} pass · ${stat.failed} fail` : ''}`;
}

function MonitorMapView({ map, overlay }: { map: NetworkMap; overlay: MonitorOverlay }) {
  const canvas = useRef<MapCanvasHandle>(null);
  const rects = useMemo(() => layout('Standard', map, {}), [map]);
  const keys = useMemo(() => [...map.zones.map((z) => `zone_${z.id}`), ...map.nodes.map((n) => `node_${n.id}`), ...map.devices.map((d) => `device_${d.id}`)], [map]);
  const [selected, setSelected] = useState<string | null>(null);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key.startsWith('Arrow')) setSelected((s) => nextItem(rects, keys, s, e.key as Direction));
    else if (e.key === 'Escape') setSelected(null);
    else return;
    e.preventDefault();
  };
  return (
    <MapRegion label="Monitor Stats map" describedBy="monitor-map-status" onKeyDown={onKeyDown} className="min-h-[420px]">
      <MapCanvas map={map} rects={rects} selected={selected} draggable={false} onSelect={setSelected} overlay={overlay} job={null} handle={canvas} />
      <p id="monitor-map-status" role="status" aria-label="Map selection" className="pointer-events-none absolute left-3 top-2 z-10 max-w-[85%] rounded bg-slate-950/80 px-2 py-1 text-xs">
        {selected ? `Selected: ${itemName(map, overlay, selected)}` : 'Arrows select a zone, actor or device'}
      </p>
      <div className="absolute bottom-2 right-3 z-10">
        <Button onClick={() => canvas.current?.fit()}>Fit to view</Button>
      </div>
    </MapRegion>
  );
}

/**
 * The monitor results (GET /monitor/update_data's map_data) drawn on the network map, the same X6
 * drawing as the Network Map pane in its aeda mode: alert and green paths as edges between zones,
 * each zone's pass and fail counts on its box.
 */
export function MonitorMap({ overlay }: { overlay: MonitorOverlay }) {
  const network = useQuery({ queryKey: networkQueryKey, queryFn: () => getNetwork(), staleTime: 30_000 });
  if (network.isPending) return <p className="text-sm text-muted" role="status">Loading the network map…</p>;
  if (network.isError) return <p role="alert" className="text-sm text-red-300">Could not load the network map: {network.error.message}</p>;
  if (!network.data.zones.length && !network.data.nodes.length) return <p className="text-sm text-muted">No zones or actors on the network map yet, so the monitor paths cannot be drawn.</p>;
  return <MonitorMapView map={network.data} overlay={overlay} />;
}
