/**
 * The map drawn with @antv/x6: zones as group boxes holding their actors, devices between them,
 * links as edges; wheel zoom, drag to pan, fit to view; actors and devices draggable in Tweak only.
 * Cell ids are the item keys ('zone_1', 'node_3', 'device_2'). The only module that touches x6.
 */
import { Graph } from '@antv/x6';
import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import type { MapDevice, MapNode, NetworkMap, Point } from '@/api/contracts/topology';
import type { ItemRects } from './layouts';
import { DEVICE_COLOURS, STATUS_COLOURS } from './colours';
import { drawOverlay, type MonitorOverlay } from './monitor-overlay';
import { linkKey, type JobHighlight } from './job-path';

export interface MapCanvasHandle {
  fit(): void;
  /** The item's centre in client (viewport) coordinates, e.g. to open its context menu. */
  clientCenter(key: string): Point | null;
}

interface Props {
  map: NetworkMap;
  rects: ItemRects;
  selected: string | null;
  draggable: boolean;
  onSelect(key: string | null): void;
  onContextMenu?(key: string, at: Point): void;
  /** After a drag: the new top-left corners of what moved (a dragged zone moves its actors too). */
  onMoved?(positions: Record<string, Point>): void;
  /** The aeda mode's monitor paths and zone counts, or null in the default mode. */
  overlay: MonitorOverlay | null;
  /** The focused job's actors and path, or null. */
  job: JobHighlight | null;
  /** The sequence mode's marks, or null in the other modes. */
  sequence?: SequenceMarks | null;

  handle: Ref<MapCanvasHandle>;
}

const SELECTED = '#38bdf8';
/** The focused job's actors and the way between them. */
const JOB = '#f59e0b';
const TEXT = '#e2e8f0';
const MUTED = '#94a3b8';
const FONT = 'ui-sans-serif, system-ui, sans-serif';

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function zoneCell(z: NetworkMap['zones'][number]) {
  return {
    id: `zone_${z.id}`,
    shape: 'rect',
    zIndex: 0,
    markup: [
      { tagName: 'rect', selector: 'body' },
      { tagName: 'text', selector: 'label' },
      { tagName: 'text', selector: 'cidr' },
    ],
    attrs: {
      body: { refWidth: '100%', refHeight: '100%', fill: '#0f172a', fillOpacity: 0.92, stroke: '#334155', strokeWidth: 1.5, rx: 10, ry: 10, strokeDasharray: '' },
      label: { text: clip(z.name, 26), fill: TEXT, fontSize: 13, fontWeight: 600, fontFamily: FONT, refX: 14, refY: 20, textAnchor: 'start', textVerticalAnchor: 'middle' },
      cidr: { text: z.cidr, fill: MUTED, fontSize: 11, fontFamily: 'ui-monospace, monospace', refX: '100%', refX2: -14, refY: 20, textAnchor: 'end', textVerticalAnchor: 'middle' },
    },
  };
}

const itemMarkup = [
  { tagName: 'rect', selector: 'body' },
  { tagName: 'rect', selector: 'stripe' },
  { tagName: 'text', selector: 'title' },
  { tagName: 'text', selector: 'sub' },
];

function itemAttrs(title: string, sub: string, stripe: string, fill: string, rx: number, chars = 22) {
  return {
    body: { refWidth: '100%', refHeight: '100%', fill, stroke: '#475569', strokeWidth: 1, rx, ry: rx },
    stripe: { x: 0, y: 0, width: 5, refHeight: '100%', fill: stripe, rx: 2, ry: 2 },
    title: { text: clip(title, chars), refX: 16, refY: 18, fill: TEXT, fontSize: 12.5, fontWeight: 600, fontFamily: FONT, textAnchor: 'start', textVerticalAnchor: 'middle' },
    sub: { text: clip(sub, 28), refX: 16, refY: 36, fill: MUTED, fontSize: 11, fontFamily: FONT, textAnchor: 'start', textVerticalAnchor: 'middle' },
  };
}

const nodeCell = (n: MapNode) => ({
  id: `node_${n.id}`,
  shape: 'rect',
  zIndex: 2,
  markup: itemMarkup,
  attrs: itemAttrs(n.name, `${n.status} · ${n.sim_address || n.mgmt_address || n.os}`, STATUS_COLOURS[n.status], '#1e293b', 6),
});

const deviceCell = (d: MapDevice) => ({
  id: `device_${d.id}`,
  shape: 'rect',
  zIndex: 2,
  markup: itemMarkup,
  attrs: itemAttrs(d.name, `${d.device_type.replace(/_/g, ' ')}${d.prevention_enabled ? ' · prevention' : ''}`, d.prevention_enabled ? DEVICE_COLOURS.prevention : DEVICE_COLOURS.detection, '#1c1a33', 16, 28),
});

/** One edge per link and its reverse (compliment_id). */
function edgesOf(map: NetworkMap) {
  const seen = new Set<string>();
  return map.links.flatMap((l) => {
    const pair = [l.id1, l.id2].sort().join('|');
    if (seen.has(pair) || l.id1 === l.id2) return [];
    seen.add(pair);
    return [{ id: `link_${l.id}`, source: l.id1, target: l.id2 }];
  });
}

/**
 * Draws the map again: every cell made first and handed to X6 at once (one reset of its model, not a
 * model change and a view per cell added), zones holding their actors as children.
 */
function build(graph: Graph, map: NetworkMap, rects: ItemRects): void {
  const at = (key: string) => rects[key] ?? { x: 0, y: 0, width: 10, height: 10 };
  const zoneIds = new Set(map.zones.map((z) => `zone_${z.id}`));
  const children = new Map<string, string[]>();
  const parentOf = new Map<string, string>();
  for (const n of map.nodes) {
    const zone = `zone_${n.zone_id}`;
    if (n.zone_id === null || !zoneIds.has(zone)) continue;
    parentOf.set(`node_${n.id}`, zone);
    (children.get(zone) ?? children.set(zone, []).get(zone)!).push(`node_${n.id}`);
  }
  const nodes = [...map.zones.map(zoneCell), ...map.nodes.map(nodeCell), ...map.devices.map(deviceCell)].map((c) => {
    const r = at(c.id);
    return { ...c, x: r.x, y: r.y, width: r.width, height: r.height, parent: parentOf.get(c.id), children: children.get(c.id) };
  });
  const ids = new Set(nodes.map((n) => n.id));
  const edges = edgesOf(map)
    .filter((e) => ids.has(e.source) && ids.has(e.target))
    .map((e) => ({
      ...e,
      zIndex: 1,
      connector: { name: 'smooth' },
      attrs: { line: { stroke: '#64748b', strokeWidth: 1.5, strokeOpacity: 0.8, targetMarker: null } },
    }));
  graph.fromJSON({ nodes, edges });
}

function place(graph: Graph, rects: ItemRects): void {
  graph.batchUpdate(() => {
    for (const [key, r] of Object.entries(rects)) {
      const cell = graph.getCellById(key);
      if (!cell?.isNode()) continue;
      cell.setPosition(r.x, r.y, { deep: false });
      cell.resize(r.width, r.height);
    }
  });
}

/**
 * The sequence mode's marks (JOB-023, JOB-060): the active step's attacker and target, the actors that
 * can be chosen now (every attacker, or the attacker's valid targets), the others dimmed.
 */
export interface SequenceMarks {
  attacker: string | null;
  target: string | null;
  choosable: ReadonlySet<string>;
}

const ATTACKER = '#ef4444';
const TARGET = '#f97316';
const CHOOSABLE = '#22c55e';
const DIMMED = '#475569';

interface NodeStyle {
  stroke: string;
  width: number;
  dash: string;
  title: string;
}

function nodeStyle(id: string, selected: string | null, job: JobHighlight | null, seq: SequenceMarks | null): NodeStyle {
  const on = id === selected;
  const zone = id.startsWith('zone_');
  if (seq && !zone) {
    const base = id === seq.attacker ? ATTACKER : id === seq.target ? TARGET : seq.choosable.has(id) ? CHOOSABLE : null;
    const actor = id.startsWith('node_');
    return {
      stroke: on ? SELECTED : (base ?? '#475569'),
      width: on ? 3 : base ? 3 : 1,
      dash: base === CHOOSABLE && !on ? '5 3' : '',
      title: actor && !base ? DIMMED : TEXT,
    };
  }
  const actor = job?.actors.has(id) ?? false;
  const onPath = job?.path.has(id) ?? false;
  return {
    stroke: on ? SELECTED : actor || onPath ? JOB : zone ? '#334155' : '#475569',
    width: on ? 2.5 : actor ? 3 : onPath ? 2.5 : zone ? 1.5 : 1,
    dash: onPath && !on ? '6 3' : '',
    title: TEXT,
  };
}

/**
 * Styles the cells for the selection, the focused job and the sequence marks. Only cells whose style
 * changed are touched (`applied` remembers what each cell shows), so a highlight on a map of thousands
 * of actors costs what changed, not the map's size.
 */
function highlight(graph: Graph, applied: Map<string, string>, selected: string | null, job: JobHighlight | null, seq: SequenceMarks | null): void {
  graph.batchUpdate(() => {
    for (const n of graph.getNodes()) {
      const st = nodeStyle(n.id, selected, job, seq);
      const sig = `${st.stroke}|${st.width}|${st.dash}|${st.title}`;
      if ((applied.get(n.id) ?? defaultSig(n.id)) === sig) continue;
      applied.set(n.id, sig);
      n.setAttrByPath('body/stroke', st.stroke);
      n.setAttrByPath('body/strokeWidth', st.width);
      n.setAttrByPath('body/strokeDasharray', st.dash);
      if (n.id.startsWith('node_')) n.setAttrByPath('title/fill', st.title);
    }
    for (const e of graph.getEdges()) {
      if (!e.id.startsWith('link_')) continue;
      const on = job?.links.has(linkKey(String(e.getSourceCellId()), String(e.getTargetCellId()))) ?? false;
      const sig = on ? 'on' : 'off';
      if ((applied.get(e.id) ?? 'off') === sig) continue;
      applied.set(e.id, sig);
      e.setAttrByPath('line/stroke', on ? JOB : '#64748b');
      e.setAttrByPath('line/strokeWidth', on ? 3 : 1.5);
      e.setAttrByPath('line/strokeOpacity', on ? 1 : 0.8);
    }
  });
}

/** What a freshly built cell shows (see zoneCell, nodeCell, deviceCell). */
const defaultSig = (id: string) => (id.startsWith('zone_') ? `#334155|1.5||${TEXT}` : `#475569|1||${TEXT}`);

/** The smallest scale a large map opens at. */
const LARGE_MIN_SCALE = 0.6;
/**
 * Above this many actors and devices a map is large (read when the canvas is made): only the cells in
 * view are drawn (X6 virtual rendering), and the first view is no smaller than LARGE_MIN_SCALE, so a
 * map of thousands of actors draws what can be read at once and the rest as it is panned into view.
 */
const LARGE_MAP = 400;
const fitView = (graph: Graph, large: boolean) => graph.zoomToFit({ padding: 32, maxScale: 1.1, ...(large ? { minScale: LARGE_MIN_SCALE } : {}) });

export function MapCanvas({ map, rects, selected, draggable, onSelect, onContextMenu, onMoved, overlay, job, sequence = null, handle }: Props) {
  const largeRef = useRef(map.nodes.length + map.devices.length > LARGE_MAP);
  const container = useRef<HTMLDivElement>(null);
  const graphRef = useRef<Graph | null>(null);
  const builtFor = useRef<NetworkMap | null>(null);
  const applied = useRef(new Map<string, string>());
  const dragRef = useRef(draggable);
  dragRef.current = draggable;
  const callbacks = useRef({ onSelect, onContextMenu, onMoved });
  callbacks.current = { onSelect, onContextMenu, onMoved };

  useEffect(() => {
    if (!container.current) return undefined;
    const graph = new Graph({
      container: container.current,
      autoResize: true,
      background: { color: '#020617' },
      grid: { visible: true, size: 24, type: 'dot', args: { color: '#1e293b', thickness: 1.5 } },
      panning: { enabled: true, eventTypes: ['leftMouseDown'] },
      mousewheel: { enabled: true, zoomAtMousePosition: true, minScale: 0.2, maxScale: 3, factor: 1.1 },
      interacting: () => ({ nodeMovable: dragRef.current, edgeMovable: false, edgeLabelMovable: false }),
      embedding: false,
      virtual: largeRef.current,
    });
    graph.on('node:click', ({ node }) => callbacks.current.onSelect(node.id));
    graph.on('blank:click', () => callbacks.current.onSelect(null));
    graph.on('node:contextmenu', ({ e, node }) => {
      e.preventDefault();
      if (node.id.startsWith('zone_')) return;
      callbacks.current.onContextMenu?.(node.id, { x: e.clientX ?? 0, y: e.clientY ?? 0 });
    });
    graph.on('node:moved', ({ node }) => {
      const moved: Record<string, Point> = {};
      for (const n of [node, ...node.getDescendants()]) if (n.isNode()) moved[n.id] = n.getPosition();
      callbacks.current.onMoved?.(moved);
    });
    graphRef.current = graph;
    // A split, a resized pane or window: fit the map to its new size once the size settles.
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last = { w: container.current.clientWidth, h: container.current.clientHeight };
    const resized = new ResizeObserver(([entry]) => {
      const w = Math.round(entry?.contentRect.width ?? 0);
      const h = Math.round(entry?.contentRect.height ?? 0);
      if (!w || !h || (w === last.w && h === last.h)) return;
      last = { w, h };
      clearTimeout(timer);
      timer = setTimeout(() => {
        graph.resize(w, h);
        fitView(graph, largeRef.current);
      }, 120);
    });
    resized.observe(container.current);
    return () => {
      clearTimeout(timer);
      resized.disconnect();
      graph.dispose();
      graphRef.current = null;
      builtFor.current = null;
      applied.current.clear();
    };
  }, []);

  useEffect(() => {
    const graph = graphRef.current;
    if (!graph) return;
    if (builtFor.current !== map) {
      // A refreshed map is drawn again in place; only the first drawing fits the view.
      const first = builtFor.current === null;
      build(graph, map, rects);
      applied.current.clear();
      builtFor.current = map;
      if (first) fitView(graph, largeRef.current);
    } else place(graph, rects);
  }, [map, rects]);

  useEffect(() => {
    if (graphRef.current) drawOverlay(graphRef.current, map, overlay);
  }, [map, overlay]);

  useEffect(() => {
    if (graphRef.current) highlight(graphRef.current, applied.current, selected, job, sequence);
  }, [selected, map, rects, job, sequence]);

  useImperativeHandle(handle, () => ({
    fit: () => {
      if (graphRef.current) fitView(graphRef.current, largeRef.current);
    },
    clientCenter: (key) => {
      const graph = graphRef.current;
      const cell = graph?.getCellById(key);
      if (!graph || !cell?.isNode()) return null;
      const p = graph.localToClient(cell.getBBox().getCenter());
      return { x: p.x, y: p.y };
    },
  }));

  return <div ref={container} className="absolute inset-0" data-testid="network-map-canvas" />;
}
