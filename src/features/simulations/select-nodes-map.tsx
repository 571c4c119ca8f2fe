import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { CttnActor } from '@/api/contracts/simulations';
import type { NetworkMap } from '@/api/contracts/topology';
import { networkQuery } from '@/api/network-map';
import { Button } from '@/ui/button';
import { layout } from '@/ui/network-map/layouts';
import { MapCanvas, type MapCanvasHandle, type SequenceMarks } from '@/ui/network-map/map-canvas';
import { MapRegion } from '@/ui/network-map/map-region';
import { nextItem, type Direction } from '@/ui/network-map/next-item';

/** The phase of the active step: its attacker to choose, its target, or nothing left. */
export type Phase = 'attacker' | 'target' | 'done';

interface Props {
  /** The simulation is still on its way: the map is drawn, nothing can be chosen yet. */
  loading?: boolean;
  step: number | null;
  phase: Phase;
  attacker: number | null;
  target: number | null;
  /** The actors that can be chosen now (every attacker, or the attacker's valid targets). */
  choosable: readonly number[];
  actors: ReadonlyMap<number, CttnActor>;
  /** The map keeps the focus after a choice made on it (the lists take it otherwise). */
  focusRef: React.RefObject<HTMLDivElement | null>;
  onPick(actor: number): void;
  /** A click or Enter on an actor that cannot be chosen now. */
  onRefused(actor: number): void;
}

const key = (id: number) => `node_${id}`;
const idOf = (k: string | null) => (k?.startsWith('node_') ? Number(k.slice(5)) : null);

function MapArea({ map, loading, step, phase, attacker, target, choosable, actors, focusRef, onPick, onRefused }: Props & { map: NetworkMap }) {
  const canvas = useRef<MapCanvasHandle>(null);
  const rects = useMemo(() => layout('Standard', map, {}), [map]);
  const onMap = useMemo(() => new Set(map.nodes.map((n) => key(n.id))), [map]);
  const choosableKeys = useMemo(() => new Set(choosable.map(key).filter((k) => onMap.has(k))), [choosable, onMap]);
  const marks = useMemo<SequenceMarks>(() => ({ attacker: attacker === null ? null : key(attacker), target: target === null ? null : key(target), choosable: choosableKeys }), [attacker, target, choosableKeys]);
  // The keyboard cursor moves among the actors that can be chosen (all actors when none can).
  const cursorKeys = useMemo(() => (choosableKeys.size ? [...choosableKeys] : map.nodes.map((n) => key(n.id))), [choosableKeys, map]);
  const [cursor, setCursor] = useState<string | null>(null);
  useEffect(() => setCursor((c) => (c && choosableKeys.has(c) ? c : null)), [choosableKeys]);

  const pick = (k: string | null) => {
    const id = idOf(k);
    if (id === null || phase === 'done') return;
    if (choosableKeys.has(key(id))) onPick(id);
    else onRefused(id);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key.startsWith('Arrow')) setCursor((c) => nextItem(rects, cursorKeys, c, e.key as Direction));
    else if (e.key === 'Enter' || e.key === ' ') pick(cursor);
    else if (e.key === 'Escape') setCursor(null);
    else return;
    e.preventDefault();
  };

  const name = (id: number | null) => (id === null ? '' : (actors.get(id)?.name ?? map.nodes.find((n) => n.id === id)?.name ?? `Actor ${id}`));
  const cursorId = idOf(cursor);
  const what = phase === 'attacker' ? 'attacker' : 'target';
  const status =
    loading
      ? 'Loading the steps…'
      : cursorId === null
      ? phase === 'done' || step === null
        ? 'Every step shown has its actors.'
        : `Step ${step}: arrows move among the ${choosableKeys.size} highlighted actors, Enter chooses the ${what}.`
      : `${name(cursorId)}${choosableKeys.has(cursor!) ? `: Enter chooses it as the ${what} of step ${step}` : ' cannot be chosen now'}`;
  return (
    <MapRegion ref={focusRef} label="Sequence map" describedBy="sequence-map-status" onKeyDown={onKeyDown}>
      <MapCanvas map={map} rects={rects} selected={cursor} draggable={false} onSelect={pick} overlay={null} job={null} sequence={marks} handle={canvas} />
      <p id="sequence-map-status" role="status" aria-label="Map cursor" className="pointer-events-none absolute left-3 top-2 z-10 max-w-[85%] rounded bg-slate-950/80 px-2 py-1 text-xs">
        {status}
      </p>
      <div className="absolute bottom-2 left-3 z-10 flex gap-3 rounded bg-slate-950/80 px-2 py-1 text-2xs text-muted" aria-label="Legend">
        <span><span aria-hidden className="mr-1 inline-block size-2 rounded-sm bg-[#ef4444]" />Attacker</span>
        <span><span aria-hidden className="mr-1 inline-block size-2 rounded-sm bg-[#f97316]" />Target</span>
        <span><span aria-hidden className="mr-1 inline-block size-2 rounded-sm bg-[#22c55e]" />Can be chosen</span>
      </div>
      <div className="absolute bottom-2 right-3 z-10">
        <Button onClick={() => canvas.current?.fit()}>Fit to view</Button>
      </div>
    </MapRegion>
  );
}

/**
 * The network map's sequence mode (JOB-023, JOB-060): the active step's attacker and target marked,
 * the actors that can be chosen now highlighted, a click or Enter on one chooses it.
 */
export function SequenceMap(props: Props) {
  const network = useQuery(networkQuery);
  if (network.isPending) return <p className="text-muted" role="status">Loading the network map…</p>;
  if (network.isError) return <p role="alert">Could not load the network map: {network.error.message}</p>;
  if (!network.data.nodes.length) return <p className="text-muted">No actors on the network map yet: choose from the lists.</p>;
  return <MapArea map={network.data} {...props} />;
}
