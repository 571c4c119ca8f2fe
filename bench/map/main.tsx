/**
 * The network map's canvas (src/ui/network-map/map-canvas.tsx, the workbench's own component and
 * layout) on a generated map, for bench/map.bench.ts: BENCH_* sizes come in the query string. The page
 * records when it started, and exposes select(key), mode(m), the actors in view and cold layout times.
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
    mapBench: {
      cells: number;
      start: number;
      select(key: string | null): void;
      mode(m: LayoutMode): void;
      layoutMs: number[];
      /** The actors whose rect meets the area in view (the canvas's data-view). */
      inView(): string[];
      /** Computes a layout of a fresh copy of the map (nothing computed ahead), in ms. */
      coldLayout(m: LayoutMode): number;
    };
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
  window.mapBench.inView = () => {
    const [x, y, w, h] = (document.querySelector('#map canvas[data-boxes]')?.getAttribute('data-view') ?? '0 0 0 0').split(' ').map(Number) as [number, number, number, number];
    return map.nodes.map((n) => `node_${n.id}`).filter((k) => {
      const r = rects[k];
      return !!r && r.x < x + w && r.x + r.width > x && r.y < y + h && r.y + r.height > y;
    });
  };
  return (
    <MapCanvas map={map} rects={rects} selected={selected} draggable={false} onSelect={setSelected} onContextMenu={() => {}} onMoved={() => {}} overlay={null} job={null} handle={handle} />
  );
}

const edges = new Set(map.links.map((l) => [l.id1, l.id2].sort().join('|'))).size;
const coldLayout = (m: LayoutMode) => {
  const copy = { ...map };
  const t = performance.now();
  layout(m, copy, { focus: m === 'Lens' ? 'zone_1' : null });
  return performance.now() - t;
};
window.mapBench = { cells: map.zones.length + map.nodes.length + map.devices.length + edges, start: performance.now(), select: () => {}, mode: () => {}, layoutMs: [], inView: () => [], coldLayout };
createRoot(document.getElementById('map')!).render(<Bench map={map} />);
