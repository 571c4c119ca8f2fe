/**
 * The map drawn with @antv/x6 over a canvas layer: zones as group boxes holding their actors, devices
 * between them; wheel zoom, drag to pan, fit to view; actors and devices draggable in Tweak only. The
 * links and the zones' fills are drawn on the canvas under the SVG (link-layer.ts); on a large map the
 * actors and devices are drawn on the canvas too (X6 holds only the zones, and in Tweak the actors and
 * devices in view, to be dragged), so a pan, zoom, highlight or layout switch redraws a canvas instead
 * of restyling or moving hundreds of SVG cells.
 * Cell ids are the item keys ('zone_1', 'node_3', 'device_2'). The only module that touches x6.
 *
 * Size: kept whole so x6 stays behind one module: the cell builders, highlight and culling helpers all
 * act on the Graph this component owns; the canvas layer and layouts already live apart.
 */
import { Graph, type Node } from '@antv/x6';
import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import type { MapDevice, MapNode, MapZone, NetworkMap, Point } from '@/api/contracts/topology';
import type { ItemRects, Rect } from './layouts';
import { mapWorker, warmLayouts } from './worker-client';
import { DEVICE_COLOURS, STATUS_COLOURS } from './colours';
import { drawOverlay, type MonitorOverlay } from './monitor-overlay';
import type { JobHighlight } from './job-path';
import { RectIndex, drawBase, drawOverview, drawTop, layerLinks, type BoxLook, type LayerLink, type Overview, type Scene as LayerScene, type View } from './link-layer';

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

/** A zone's border and labels (its fill is on the canvas layer, under the links). */
function zoneCell(z: MapZone) {
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
      body: { refWidth: '100%', refHeight: '100%', fill: 'transparent', stroke: '#334155', strokeWidth: 1.5, rx: 10, ry: 10, strokeDasharray: '' },
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

/** What an actor shows (on its SVG cell or its canvas box). */
const nodeLook = (n: MapNode): BoxLook => ({ title: clip(n.name, 22), sub: clip(`${n.status} · ${n.sim_address || n.mgmt_address || n.os}`, 28), stripe: STATUS_COLOURS[n.status], fill: '#1e293b', radius: 6 });

const deviceLook = (d: MapDevice): BoxLook => ({
  title: clip(d.name, 28),
  sub: clip(`${d.device_type.replace(/_/g, ' ')}${d.prevention_enabled ? ' · prevention' : ''}`, 28),
  stripe: d.prevention_enabled ? DEVICE_COLOURS.prevention : DEVICE_COLOURS.detection,
  fill: '#1c1a33',
  radius: 16,
});

/** An actor's or device's SVG cell (unplaced, unstyled). */
const boxCell = (id: string, look: BoxLook) => ({
  id,
  shape: 'rect',
  zIndex: 2,
  markup: itemMarkup,
  attrs: {
    body: { refWidth: '100%', refHeight: '100%', fill: look.fill, stroke: '#475569', strokeWidth: 1, rx: look.radius, ry: look.radius },
    stripe: { x: 0, y: 0, width: 5, refHeight: '100%', fill: look.stripe, rx: 2, ry: 2 },
    title: { text: look.title, refX: 16, refY: 18, fill: TEXT, fontSize: 12.5, fontWeight: 600, fontFamily: FONT, textAnchor: 'start', textVerticalAnchor: 'middle' },
    sub: { text: look.sub, refX: 16, refY: 36, fill: MUTED, fontSize: 11, fontFamily: FONT, textAnchor: 'start', textVerticalAnchor: 'middle' },
  },
});

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

const sig = (st: NodeStyle) => `${st.stroke}|${st.width}|${st.dash}|${st.title}`;

/** The attrs that show a style (merged into a cell's attrs). */
const styleAttrs = (id: string, st: NodeStyle) => ({
  body: { stroke: st.stroke, strokeWidth: st.width, strokeDasharray: st.dash },
  ...(id.startsWith('node_') ? { title: { fill: st.title } } : {}),
});

/** The marks that style the cells. */
interface Marks {
  selected: string | null;
  job: JobHighlight | null;
  seq: SequenceMarks | null;
}

/**
 * Styles the cells drawn for the selection, the focused job and the sequence marks. Only cells whose
 * style changed are touched (`applied` remembers what each cell shows), each with one attrs change;
 * on a large map only the cells in view are X6 cells, so a highlight costs what is in view at most.
 */
function highlight(graph: Graph, applied: Map<string, string>, m: Marks): void {
  graph.batchUpdate(() => {
    for (const n of graph.getNodes()) {
      if (n.id.startsWith('aeda_')) continue;
      const st = nodeStyle(n.id, m.selected, m.job, m.seq);
      const s = sig(st);
      if (applied.get(n.id) === s) continue;
      applied.set(n.id, s);
      n.setAttrs(styleAttrs(n.id, st));
    }
  });
}

/** The smallest scale a large map opens at. */
const LARGE_MIN_SCALE = 0.6;
/**
 * Above this many actors and devices a map is large (read when the canvas is made): its actors and
 * devices are drawn on the canvas (found under a click by a rect index), X6 cells only in Tweak (those
 * in view and a margin, added and removed as the view moves); the first view is no smaller than
 * LARGE_MIN_SCALE, so a map of thousands of actors draws what can be read.
 */
const LARGE_MAP = 400;
/** Below this scale a large map draws its actors and devices as boxes without texts (and no SVG cells in Tweak). */
const FAR_SCALE = 0.4;
/** How long a large map's view stays still before X6 takes it (and its SVG is shown again) after a pan or zoom. */
const SETTLE = 150;
const MIN_SCALE = 0.2;
/** The canvas reaches this far (CSS pixels) past each edge of the view, to be moved by CSS while panning. */
const MARGIN = 192;
/** While zooming in, the canvas is scaled by CSS up to this factor before it is drawn again. */
const MAX_STRETCH = 1.6;
/** How long a large map stays still before it draws the overview of its links for the next pan or zoom. */
const DETAIL_AFTER = 300;
/** The overview bitmap's longer side, in pixels (a stand-in while moving, blurred when zoomed in). */
const OVERVIEW_SIDE = 2048;
const MAX_SCALE = 3;
/** The zoom factor of a wheel step. */
const WHEEL = 1.1;

/** What the canvas layer and the cells in view are made from, rebuilt when the map or the layout changes. */
interface Scene {
  map: NetworkMap;
  rects: ItemRects;
  /** Positions moved by a drag in progress (and the zone's actors moved with it), until new rects come. */
  moved: Map<string, Rect>;
  zones: string[];
  items: string[];
  links: LayerLink[];
  index: RectIndex;
  zoneOf: Map<string, string>;
  /** What each actor and device shows (its canvas box, or its SVG cell). */
  look: Map<string, BoxLook>;
  zoneName: Map<string, string>;
}

function sceneOf(map: NetworkMap, rects: ItemRects, prev: Scene | null): Scene {
  const same = prev?.map === map;
  const zoneKeys = new Set(map.zones.map((z) => `zone_${z.id}`));
  const zoneOf = same ? prev.zoneOf : new Map(map.nodes.filter((n) => zoneKeys.has(`zone_${n.zone_id}`)).map((n) => [`node_${n.id}`, `zone_${n.zone_id}`]));
  const look = same ? prev.look : new Map<string, BoxLook>([...map.nodes.map((n) => [`node_${n.id}`, nodeLook(n)] as const), ...map.devices.map((d) => [`device_${d.id}`, deviceLook(d)] as const)]);
  const items = same ? prev.items : [...look.keys()];
  const scene: Scene = {
    map,
    rects,
    moved: new Map(),
    zones: [...zoneKeys],
    items,
    links: same ? prev.links : layerLinks(map),
    index: new RectIndex(items, (k) => rects[k]),
    zoneOf,
    look,
    zoneName: same ? prev.zoneName : new Map(map.zones.map((z) => [`zone_${z.id}`, clip(z.name, 26)])),
  };
  return scene;
}

const rectIn = (s: Scene, key: string): Rect | undefined => s.moved.get(key) ?? s.rects[key];

function contentBox(rects: ItemRects): Rect | null {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const r of Object.values(rects)) {
    x0 = Math.min(x0, r.x);
    y0 = Math.min(y0, r.y);
    x1 = Math.max(x1, r.x + r.width);
    y1 = Math.max(y1, r.y + r.height);
  }
  return x0 === Infinity ? null : { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

const fitView = (graph: Graph, rects: ItemRects, large: boolean) => {
  const box = contentBox(rects);
  if (box) graph.zoomToRect(box, { padding: 32, maxScale: 1.1, ...(large ? { minScale: LARGE_MIN_SCALE } : {}) });
};

/** The area in view (local coordinates) grown by `k` times its larger side on each edge. */
function viewArea(graph: Graph, k: number): Rect {
  const a = graph.getGraphArea();
  const m = Math.max(a.width, a.height) * k;
  return { x: a.x - m, y: a.y - m, width: a.width + 2 * m, height: a.height + 2 * m };
}

const far = (graph: Graph, large: boolean) => large && graph.zoom() < FAR_SCALE;

/** A cell for an actor or device at its rect, styled for the marks, inside its zone's cell when drawn. */
function itemCell(s: Scene, key: string, m: Marks) {
  const r = rectIn(s, key) ?? { x: 0, y: 0, width: 10, height: 10 };
  const c = boxCell(key, s.look.get(key) as BoxLook);
  const st = styleAttrs(key, nodeStyle(key, m.selected, m.job, m.seq));
  return { ...c, x: r.x, y: r.y, width: r.width, height: r.height, attrs: { ...c.attrs, body: { ...c.attrs.body, ...st.body }, title: { ...c.attrs.title, ...st.title } } };
}

/** Zones, and the actors and devices to draw as cells (all of them on a small map). */
function build(graph: Graph, s: Scene, shown: Set<string>, m: Marks, applied: Map<string, string>): void {
  const children = new Map<string, string[]>();
  for (const k of shown) {
    const z = s.zoneOf.get(k);
    if (z) (children.get(z) ?? children.set(z, []).get(z)!).push(k);
  }
  const zones = s.map.zones.map((z) => {
    const c = zoneCell(z);
    const r = rectIn(s, c.id) ?? { x: 0, y: 0, width: 10, height: 10 };
    const st = nodeStyle(c.id, m.selected, m.job, m.seq);
    applied.set(c.id, sig(st));
    return { ...c, ...r, attrs: { ...c.attrs, body: { ...c.attrs.body, ...styleAttrs(c.id, st).body } }, children: children.get(c.id) };
  });
  const items = [...shown].map((k) => {
    applied.set(k, sig(nodeStyle(k, m.selected, m.job, m.seq)));
    return { ...itemCell(s, k, m), parent: s.zoneOf.get(k) };
  });
  now(graph, () => graph.fromJSON({ nodes: [...zones, ...items] }));
}

/**
 * Runs a change of cells with X6 drawing them at once (not spread over later frames), so the SVG shown
 * after a pan or zoom, or a first draw, has every cell in view.
 */
function now(graph: Graph, act: () => void): void {
  const async = graph.options.async;
  graph.options.async = false;
  try {
    act();
  } finally {
    graph.options.async = async;
  }
}

/** The actors and devices of a large map to be X6 cells now: those in view, in Tweak (to be dragged) only. */
const cellsWanted = (graph: Graph, s: Scene, draggable: boolean, k: number) => (!draggable || far(graph, true) ? new Set<string>() : s.index.within(viewArea(graph, k)));

/** On a large map: adds the actors and devices coming into view, removes those far out of it (all of them but in Tweak). */
function syncShown(graph: Graph, s: Scene, shown: Set<string>, m: Marks, applied: Map<string, string>, draggable: boolean): void {
  const want = cellsWanted(graph, s, draggable, 0.05);
  const keep = want.size ? s.index.within(viewArea(graph, 0.3)) : want;
  const gone = [...shown].filter((k) => !keep.has(k));
  const come = [...want].filter((k) => !shown.has(k));
  if (!gone.length && !come.length) return;
  now(graph, () => graph.batchUpdate(() => {
    if (gone.length) graph.removeCells(gone);
    for (const k of gone) {
      shown.delete(k);
      applied.delete(k);
    }
    if (!come.length) return;
    graph.addNodes(come.map((k) => itemCell(s, k, m)));
    for (const k of come) {
      const n = graph.getCellById(k);
      if (!n) continue;
      shown.add(n.id);
      applied.set(n.id, sig(nodeStyle(n.id, m.selected, m.job, m.seq)));
      const z = s.zoneOf.get(n.id);
      const zone = z ? graph.getCellById(z) : null;
      if (zone) zone.addChild(n, { silent: true });
    }
  }));
}

function place(graph: Graph, rects: ItemRects): void {
  graph.batchUpdate(() => {
    for (const n of graph.getNodes()) {
      const r = rects[n.id];
      if (!r) continue;
      n.setPosition(r.x, r.y, { deep: false });
      n.resize(r.width, r.height);
    }
  });
}

export function MapCanvas({ map, rects, selected, draggable, onSelect, onContextMenu, onMoved, overlay, job, sequence = null, handle }: Props) {
  const largeRef = useRef(map.nodes.length + map.devices.length > LARGE_MAP);
  const container = useRef<HTMLDivElement>(null);
  const graphRef = useRef<Graph | null>(null);
  const sceneRef = useRef<Scene | null>(null);
  /** The actors and devices that are X6 cells now. */
  const shown = useRef(new Set<string>());
  const applied = useRef(new Map<string, string>());
  const marks = useRef<Marks>({ selected, job, seq: sequence });
  marks.current = { selected, job, seq: sequence };
  /**
   * Schedules one canvas frame (and, on a large map, the cells in view): the marks only ('top'), or all;
   * `now` draws it before the task ends (a change of the marks by a key or click is drawn in the frame
   * that follows it, not one later), several calls in one task drawing once.
   */
  const redraw = useRef<(what?: 'top' | 'all', now?: boolean) => void>(() => {});
  /** A monitor overlay is drawn on the current cells (a new map's cells are built without one). */
  const overlaid = useRef(false);
  /** Runs a transform of the view made by the map itself (not a pan or zoom), then redraws. */
  const quietly = useRef<(act: (graph: Graph) => void) => void>(() => {});
  const dragRef = useRef(draggable);
  dragRef.current = draggable;
  const callbacks = useRef({ onSelect, onContextMenu, onMoved });
  callbacks.current = { onSelect, onContextMenu, onMoved };

  useEffect(() => {
    const host = container.current;
    if (!host) return undefined;
    const large = largeRef.current;
    const graph = new Graph({
      container: host,
      autoResize: true,
      background: { color: '#020617' },
      grid: { visible: true, size: 24, type: 'dot', args: { color: '#1e293b', thickness: 1.5 } },
      // A large map pans and zooms itself (see moveTo below).
      panning: { enabled: !large, eventTypes: ['leftMouseDown'] },
      mousewheel: { enabled: !large, zoomAtMousePosition: true, minScale: MIN_SCALE, maxScale: MAX_SCALE, factor: WHEEL },
      interacting: () => ({ nodeMovable: dragRef.current, edgeMovable: false, edgeLabelMovable: false }),
      embedding: false,
    });
    // Two canvases sit above X6's background and grid, under its SVG: the lower one with the zones'
    // fills and the links, the upper one with the actors and devices and their marks, so a change of
    // the marks (a selection, a sequence step) redraws the boxes in view, not thousands of links.
    const layer = () => {
      const c = document.createElement('canvas');
      c.setAttribute('aria-hidden', 'true');
      c.style.cssText = `position:absolute;left:${-MARGIN}px;top:${-MARGIN}px;pointer-events:none;transform-origin:${MARGIN}px ${MARGIN}px`;
      graph.view.svg.before(c);
      return c;
    };
    const base = layer();
    const top = layer();
    const baseCtx = base.getContext('2d');
    const topCtx = top.getContext('2d');
    let frame = 0;
    /** What the next frame draws: the upper canvas (the marks changed) or both. */
    let dirty: 'top' | 'all' = 'all';
    let size = { w: host.clientWidth, h: host.clientHeight };
    // A large map is panned and zoomed here, not by X6: while the view moves, X6's SVG is hidden and
    // left untouched, and the canvases drawn for the last view are moved and scaled by CSS (a compositor
    // transform, no drawing), drawn again only when they no longer cover the view, the links then copied
    // from the overview bitmap. Once the view has been still for SETTLE ms, X6 takes the new transform,
    // the SVG (the zones' borders) is shown again and the links are drawn in full.
    let moving: View | null = null;
    let settle: ReturnType<typeof setTimeout> | undefined;
    /** The view X6 has. */
    const xView = (): View => {
      const t = graph.translate();
      return { scale: graph.zoom(), tx: t.tx, ty: t.ty };
    };
    const viewOf = (): View => moving ?? xView();
    /** The view the canvases were last drawn for (while moving they are moved and scaled by CSS from there). */
    let drawn: View | null = null;
    /** The lower canvas shows the links copied from the overview (while moving), to be drawn in full once still. */
    let rough = false;
    /** The whole map's links in one bitmap (large maps), made while idle for the scene and job it was drawn for. */
    let overview: { of: Scene; job: JobHighlight | null; image: Overview | null } | null = null;
    let overviewTask: ReturnType<typeof setTimeout> | undefined;
    let overviewIdle = 0;
    /** The overview asked of the map's worker, not answered yet. */
    let asked: { of: Scene; job: JobHighlight | null; stop: () => void } | null = null;
    /** What the upper canvas shows, on its data attributes (for tests and benches): written when changed. */
    const state = (name: string, value: string) => {
      if (top.getAttribute(name) !== value) top.setAttribute(name, value);
    };
    const layerScene = (s: Scene, boxes: string[], view: View): LayerScene => {
      const m = marks.current;
      return {
        zones: s.zones,
        links: s.links,
        boxes,
        detail: !(large && view.scale < FAR_SCALE),
        zoneOutlines: !!moving,
        rectOf: (k) => rectIn(s, k),
        jobLinks: m.job?.links ?? null,
        boxStyle: (k) => nodeStyle(k, m.selected, m.job, m.seq),
        look: (k) => s.look.get(k),
        zoneName: (k) => s.zoneName.get(k) ?? '',
      };
    };
    const render = (view: View, what: 'top' | 'all') => {
      const s = sceneRef.current;
      if (!s || !baseCtx || !topCtx) return;
      const dpr = window.devicePixelRatio || 1;
      const { w, h } = size;
      const cw = w + 2 * MARGIN;
      const ch = h + 2 * MARGIN;
      for (const c of [base, top]) {
        if (c.width !== Math.round(cw * dpr) || c.height !== Math.round(ch * dpr)) {
          c.width = Math.round(cw * dpr);
          c.height = Math.round(ch * dpr);
          c.style.width = `${cw}px`;
          c.style.height = `${ch}px`;
          what = 'all';
        }
        c.style.transform = '';
      }
      const m = marks.current;
      const at = { scale: view.scale, tx: view.tx + MARGIN, ty: view.ty + MARGIN };
      const area = { x: -at.tx / at.scale, y: -at.ty / at.scale, width: cw / at.scale, height: ch / at.scale };
      // The actors and devices on the canvas: all those of a large map but its X6 cells (in Tweak), which
      // the SVG draws over them; while moving the SVG is hidden, so all of them.
      const cells = moving ? null : shown.current;
      const boxes = large ? [...s.index.within(area)].filter((k) => !cells?.has(k)) : [];
      const scene = layerScene(s, boxes, view);
      if (what === 'all') {
        const copy = moving && overview?.of === s && overview.job === m.job ? overview.image : null;
        drawBase(baseCtx, cw, ch, dpr, at, scene, copy);
        rough = !!copy;
      }
      const count = drawTop(topCtx, cw, ch, dpr, at, scene);
      drawn = view;
      state('data-boxes', String(count));
      state('data-selected', m.selected ?? '');
      state('data-attacker', m.seq?.attacker ?? '');
      state('data-target', m.seq?.target ?? '');
      state('data-choosable', String(m.seq?.choosable.size ?? 0));
      if (moving) return;
      const a = graph.getGraphArea();
      state('data-view', [a.x, a.y, a.width, a.height].map(Math.round).join(' '));
      // The overview for the next pan or zoom, made once the view is still: by the map's worker (drawn
      // and rasterized there, nothing on this thread but the copy of the links and rects), or while idle.
      if (large && (overview?.of !== s || overview.job !== m.job) && (asked?.of !== s || asked.job !== m.job)) {
        clearTimeout(overviewTask);
        if (typeof cancelIdleCallback === 'function') cancelIdleCallback(overviewIdle);
        overviewTask = setTimeout(() => {
          const box = contentBox(s.rects);
          if (sceneRef.current !== s || !box) return;
          const job = m.job;
          const worker = mapWorker('overview');
          if (worker) {
            asked?.stop();
            const request = { kind: 'overview', links: s.links, rects: s.rects, jobLinks: job ? [...job.links] : null, box, side: OVERVIEW_SIDE } as const;
            const stop = worker.send(request, (a) => {
              stop();
              asked = null;
              if (a.kind === 'overview' && sceneRef.current === s) overview = { of: s, job, image: a.bitmap ? { bitmap: a.bitmap, box } : null };
            });
            asked = { of: s, job, stop };
            return;
          }
          const make = () => {
            if (sceneRef.current !== s || moving) return;
            const bitmap = drawOverview(layerScene(s, [], view), box, OVERVIEW_SIDE, (w, h) => Object.assign(document.createElement('canvas'), { width: w, height: h }));
            // Rasterized now (reading a pixel flushes the drawing), not in the first frame that copies it.
            bitmap?.getContext('2d')?.getImageData(0, 0, 1, 1);
            overview = { of: s, job, image: bitmap ? { bitmap, box } : null };
          };
          if (typeof requestIdleCallback === 'function') overviewIdle = requestIdleCallback(make, { timeout: 2000 });
          else make();
        }, DETAIL_AFTER);
      }
    };
    const same = (a: View, b: View) => a.scale === b.scale && a.tx === b.tx && a.ty === b.ty;
    const draw = () => {
      frame = 0;
      const what = dirty;
      dirty = 'top';
      const s = sceneRef.current;
      if (!s || !baseCtx) return;
      // While moving, X6's SVG and grid are hidden (and left untouched): the canvases show the view.
      const hide = moving ? 'hidden' : '';
      if (graph.view.svg.style.visibility !== hide) {
        graph.view.svg.style.visibility = hide;
        graph.view.grid.style.visibility = hide;
      }
      if (moving && drawn) {
        // The canvases drawn for `drawn`, moved and scaled to `moving` while they still cover the view
        // and are not blown up past MAX_STRETCH.
        const k = moving.scale / drawn.scale;
        const dx = moving.tx - drawn.tx * k;
        const dy = moving.ty - drawn.ty * k;
        const { w, h } = size;
        const covers = -MARGIN * k + dx <= 0 && -MARGIN * k + dy <= 0 && (w + MARGIN) * k + dx >= w && (h + MARGIN) * k + dy >= h;
        if (covers && k <= MAX_STRETCH) {
          base.style.transform = top.style.transform = `translate(${dx}px, ${dy}px) scale(${k})`;
          return;
        }
      }
      if (!moving && large) syncShown(graph, s, shown.current, marks.current, applied.current, dragRef.current);
      const view = viewOf();
      render(view, what === 'all' || !drawn || !same(drawn, view) || (rough && !moving) ? 'all' : 'top');
    };
    let soon = false;
    let disposed = false;
    redraw.current = (what = 'all', now = false) => {
      if (what === 'all') dirty = 'all';
      if (now && !soon) {
        soon = true;
        queueMicrotask(() => {
          soon = false;
          if (disposed) return;
          cancelAnimationFrame(frame);
          draw();
        });
      } else if (!now && !frame && !soon) frame = requestAnimationFrame(draw);
    };
    quietly.current = (act) => {
      act(graph);
      redraw.current();
    };
    /** The view moved to `next` by the operator: drawn on the canvas now, handed to X6 once still. */
    const moveTo = (next: View) => {
      moving = next;
      clearTimeout(settle);
      clearTimeout(overviewTask);
      if (typeof cancelIdleCallback === 'function') cancelIdleCallback(overviewIdle);
      settle = setTimeout(() => {
        const v = moving;
        moving = null;
        if (v) graph.matrix({ a: v.scale, b: 0, c: 0, d: v.scale, e: v.tx, f: v.ty });
        redraw.current();
      }, SETTLE);
      redraw.current();
    };
    if (large) {
      host.addEventListener('wheel', (e) => {
        e.preventDefault();
        const v = viewOf();
        const box = host.getBoundingClientRect();
        const mx = e.clientX - box.left;
        const my = e.clientY - box.top;
        const scale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, e.deltaY < 0 ? v.scale * WHEEL : v.scale / WHEEL));
        const k = scale / v.scale;
        moveTo({ scale, tx: mx - (mx - v.tx) * k, ty: my - (my - v.ty) * k });
      }, { passive: false });
      graph.on('blank:mousedown', ({ e }) => {
        if (e.button !== 0) return;
        const from = { x: e.clientX ?? 0, y: e.clientY ?? 0, view: viewOf() };
        const move = (ev: MouseEvent) => moveTo({ ...from.view, tx: from.view.tx + ev.clientX - from.x, ty: from.view.ty + ev.clientY - from.y });
        const up = () => {
          window.removeEventListener('mousemove', move);
          window.removeEventListener('mouseup', up);
        };
        window.addEventListener('mousemove', move);
        window.addEventListener('mouseup', up);
      });
    }
    graph.on('translate', () => redraw.current());
    graph.on('scale', () => redraw.current());
    graph.on('resize', () => redraw.current());

    // On a large map the actors and devices are drawn on the canvas: a click finds the box under it.
    const boxAt = (x: number, y: number) => (large ? (sceneRef.current?.index.at(x, y) ?? null) : null);
    graph.on('node:click', ({ node, x, y }) => callbacks.current.onSelect(node.id.startsWith('zone_') ? (boxAt(x, y) ?? node.id) : node.id));
    graph.on('blank:click', ({ x, y }) => callbacks.current.onSelect(boxAt(x, y)));
    const menu = (e: { preventDefault(): void; clientX?: number; clientY?: number }, key: string | null) => {
      e.preventDefault();
      if (key && !key.startsWith('zone_')) callbacks.current.onContextMenu?.(key, { x: e.clientX ?? 0, y: e.clientY ?? 0 });
    };
    graph.on('node:contextmenu', ({ e, node, x, y }) => menu(e, node.id.startsWith('zone_') ? boxAt(x, y) : node.id));
    graph.on('blank:contextmenu', ({ e, x, y }) => {
      const key = boxAt(x, y);
      if (key) menu(e, key);
    });
    // While dragging (Tweak), the canvas follows: a zone moves its actors, drawn or not.
    const delta = (node: Node) => {
      const s = sceneRef.current;
      const was = s?.rects[node.id];
      const p = node.getPosition();
      return s && was ? { s, dx: p.x - was.x, dy: p.y - was.y } : null;
    };
    const membersMoved = (node: Node): Record<string, Point> => {
      const d = delta(node);
      const moved: Record<string, Point> = { [node.id]: node.getPosition() };
      if (!d || !node.id.startsWith('zone_')) return moved;
      for (const [k, z] of d.s.zoneOf) {
        const r = d.s.rects[k];
        if (z === node.id && r) moved[k] = { x: r.x + d.dx, y: r.y + d.dy };
      }
      return moved;
    };
    graph.on('node:change:position', ({ node }) => {
      const s = sceneRef.current;
      if (!s || !dragRef.current) return;
      for (const [k, p] of Object.entries(membersMoved(node))) {
        const r = s.rects[k];
        if (r) s.moved.set(k, { ...r, ...p });
      }
      redraw.current();
    });
    graph.on('node:moved', ({ node }) => callbacks.current.onMoved?.(membersMoved(node)));
    graphRef.current = graph;
    // A split, a resized pane or window: fit the map to its new size once the size settles.
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last = { w: host.clientWidth, h: host.clientHeight };
    const resized = new ResizeObserver(([entry]) => {
      const w = Math.round(entry?.contentRect.width ?? 0);
      const h = Math.round(entry?.contentRect.height ?? 0);
      if (!w || !h || (w === last.w && h === last.h)) return;
      last = { w, h };
      size = { w, h };
      clearTimeout(timer);
      timer = setTimeout(() => {
        quietly.current((g) => {
          g.resize(w, h);
          if (sceneRef.current) fitView(g, sceneRef.current.rects, large);
        });
      }, 120);
    });
    resized.observe(host);
    return () => {
      clearTimeout(timer);
      clearTimeout(settle);
      clearTimeout(overviewTask);
      if (typeof cancelIdleCallback === 'function') cancelIdleCallback(overviewIdle);
      asked?.stop();
      cancelAnimationFrame(frame);
      resized.disconnect();
      graph.dispose();
      base.remove();
      top.remove();
      graphRef.current = null;
      sceneRef.current = null;
      disposed = true;
      redraw.current = () => {};
      quietly.current = () => {};
      shown.current.clear();
      applied.current.clear();
    };
  }, []);

  useEffect(() => {
    const graph = graphRef.current;
    if (!graph) return;
    const large = largeRef.current;
    const prev = sceneRef.current;
    const s = sceneOf(map, rects, prev);
    sceneRef.current = s;
    if (prev?.map !== map) {
      // A refreshed map is drawn again in place; only the first drawing fits the view.
      if (!prev) quietly.current((g) => fitView(g, rects, large));
      applied.current.clear();
      shown.current = large ? cellsWanted(graph, s, dragRef.current, 0.05) : new Set(s.items);
      build(graph, s, shown.current, marks.current, applied.current);
      overlaid.current = false;
    } else place(graph, rects);
    redraw.current();
  }, [map, rects]);

  // A large map's other layouts are computed while idle, so a layout switch only moves the map.
  useEffect(() => (largeRef.current ? warmLayouts(map) : undefined), [map]);

  useEffect(() => {
    // A map without an overlay has nothing to undo (its zone cells were built plain).
    if (!graphRef.current || (!overlay && !overlaid.current)) return;
    drawOverlay(graphRef.current, map, overlay);
    overlaid.current = !!overlay;
  }, [map, overlay]);

  useEffect(() => {
    if (graphRef.current) highlight(graphRef.current, applied.current, { selected, job, seq: sequence });
    redraw.current('top', true);
  }, [selected, map, rects, job, sequence]);

  // The focused job's links are on the lower canvas.
  useEffect(() => redraw.current(), [job]);

  // Tweak on a large map makes the actors and devices in view X6 cells (to be dragged); other modes drop them.
  useEffect(() => redraw.current(), [draggable]);

  // An item chosen out of view (by keyboard, or from a list) is brought into view.
  useEffect(() => {
    const graph = graphRef.current;
    const r = selected ? rects[selected] : undefined;
    if (!graph || !r) return;
    const a = graph.getGraphArea();
    if (r.x > a.x + a.width || r.x + r.width < a.x || r.y > a.y + a.height || r.y + r.height < a.y) quietly.current((g) => g.centerPoint(r.x + r.width / 2, r.y + r.height / 2));
  }, [selected, rects]);

  useImperativeHandle(handle, () => ({
    fit: () => quietly.current((g) => fitView(g, rects, largeRef.current)),
    clientCenter: (key) => {
      const graph = graphRef.current;
      const r = sceneRef.current ? rectIn(sceneRef.current, key) : rects[key];
      if (!graph || !r) return null;
      const p = graph.localToClient(r.x + r.width / 2, r.y + r.height / 2);
      return { x: p.x, y: p.y };
    },
  }));

  return <div ref={container} className="absolute inset-0" data-testid="network-map-canvas" />;
}
