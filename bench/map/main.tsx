/**
 * The network map's canvas (src/ui/network-map/map-canvas.tsx, the workbench's own component and
 * layout) on a generated map, for bench/map.bench.ts: BENCH_* sizes come in the query string. The page
 * records when every cell is in the DOM and painted, and exposes select(key) and mode(m) to the bench.
 */
import { createRoot } from 'react-dom/client';
import { useMemo, useRef, useState } from 'react';
import type { LayoutMode, NetworkMap } from '@/api/contracts/topology';
import { generateMap } from './generate';
import { layout } from '@/ui/network-map/layouts';
import { MapCanvas, type MapCanvasHandle } from '@/ui/network-map/map-canvas';

const q = new URLSearchParams(location.search);
const map = generateMap({ actors: Number(q.get('actors') ?? 2000), devices: Number(q.get('devices') ?? 300), links: Number(q.get('links') ?? 4000), zones: Number(q.get('zones') ?? 100) });

declare global {
  interface Window {
    mapBench: { cells: number; start: number; select(key: string | null): void; mode(m: LayoutMode): void; layoutMs: number[] };
  }
}

function Bench({ map }: { map: NetworkMap }) {
  const [selected, setSelected] = useState<string | null>(null);
  const [mode, setMode] = useState<LayoutMode>('Standard');
  const handle = useRef<MapCanvasHandle>(null);
  const rects = useMemo(() => {
    const t = performance.now();
    const r = layout(mode, map, { focus: mode === 'Lens' ? 'zone_1' : null });
    window.mapBench.layoutMs.push(performance.now() - t);
    return r;
  }, [mode, map]);
  window.mapBench.select = setSelected;
  window.mapBench.mode = setMode;
  return (
    <MapCanvas map={map} rects={rects} selected={selected} draggable={false} onSelect={setSelected} onContextMenu={() => {}} onMoved={() => {}} overlay={null} job={null} handle={handle} />
  );
}

const edges = new Set(map.links.map((l) => [l.id1, l.id2].sort().join('|'))).size;
window.mapBench = { cells: map.zones.length + map.nodes.length + map.devices.length + edges, start: performance.now(), select: () => {}, mode: () => {}, layoutMs: [] };
createRoot(document.getElementById('map')!).render(<Bench map={map} />);
