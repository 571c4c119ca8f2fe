/**
 * The six layout modes (JOB-025) as plain, deterministic functions from the map to item rects
 * (top-left corner and size of every zone, actor and device). Zones are laid out with their actors
 * inside (see bodies.ts); devices and actors outside any zone are placed on their own.
 *
 * - Standard: zones in a grid (about as many columns as rows); each device at the free spot nearest
 *   the middle of the zones it links; items without links in a row below.
 * - Organic: force-directed (Fruchterman-Reingold in a bounded frame from a fixed circle, fixed
 *   iterations, no randomness), then each box moved to the free spot nearest to it, from the middle out.
 * - Sequential: layered left to right along the links: breadth-first layers from the first zone of
 *   each connected part, one column per layer.
 * - Lens: the focused item's box in the centre, its neighbours on a ring around it, the rest on an
 *   outer ring.
 * - Structural: grouped by zone and type: zones side by side (wrapping) with one row per actor type,
 *   devices in a row below grouped by device type, actors outside zones after them.
 * - Tweak: the Standard layout moved by the operator: saved positions win; a zone with actors is
 *   the box around them.
 */
import type { LayoutMode, NetworkMap, Point } from '@/api/contracts/topology';
import { GAP, Taken, ZONE_HEADER, ZONE_MIN_W, ZONE_PAD, adjacency, buildBodies, flatten, gridRows, placeFree, typeRows, type Bodies, type Body, type Rect } from './bodies';

export type { Rect } from './bodies';
export type ItemRects = Record<string, Rect>;

export interface LayoutOptions {
  /** Lens: the item in the centre (a node focuses its zone). */
  focus?: string | null;
  /** Tweak: the operator's saved top-left positions. */
  positions?: Record<string, Point>;
}

const SPACE = 120;
/** Rows of zones (Structural) and of unlinked items wrap at about this width. */
const ROW_WIDTH = 1600;
const center = (p: Point, b: Body): Point => ({ x: p.x + b.width / 2, y: p.y + b.height / 2 });
const rectOf = (p: Point, b: Body): Rect => ({ ...p, width: b.width, height: b.height });

/** Places bodies left to right from y, wrapping at ROW_WIDTH; answers the y below the last row. */
function wrapRows(bodies: Body[], at: Map<string, Point>, y0: number): number {
  let x = 0;
  let y = y0;
  let rowH = 0;
  for (const b of bodies) {
    if (x > 0 && x + b.width > ROW_WIDTH) {
      x = 0;
      y += rowH + SPACE / 2;
      rowH = 0;
    }
    at.set(b.key, { x, y });
    x += b.width + SPACE / 2;
    rowH = Math.max(rowH, b.height);
  }
  return y + rowH;
}

/** Places bodies without links in rows below everything placed so far. */
function rowBelow(bodies: Body[], at: Map<string, Point>): void {
  const placed = bodies.filter((b) => at.has(b.key));
  const y = placed.length ? Math.max(...placed.map((b) => (at.get(b.key)?.y ?? 0) + b.height)) + SPACE : 0;
  wrapRows(bodies.filter((b) => !at.has(b.key)), at, y);
}

function standard({ list, edges }: Bodies): Map<string, Point> {
  const at = new Map<string, Point>();
  const zones = list.filter((b) => b.key.startsWith('zone_'));
  const cols = Math.max(1, Math.ceil(Math.sqrt(zones.length)));
  const colW = Math.max(0, ...zones.map((z) => z.width)) + SPACE * 2;
  let y = 0;
  for (let r = 0; r * cols < zones.length; r++) {
    const row = zones.slice(r * cols, r * cols + cols);
    row.forEach((z, c) => at.set(z.key, { x: c * colW, y }));
    y += Math.max(...row.map((z) => z.height)) + SPACE;
  }
  const taken = new Taken(zones.map((z) => rectOf(at.get(z.key) ?? { x: 0, y: 0 }, z)));
  const neighbours = adjacency(edges);
  const byKey = new Map(list.map((b) => [b.key, b]));
  for (const b of list) {
    if (at.has(b.key)) continue;
    const linked = neighbours(b.key).filter((k) => at.has(k));
    if (!linked.length) continue;
    const cs = linked.map((k) => center(at.get(k) ?? { x: 0, y: 0 }, byKey.get(k) ?? b));
    const mid = { x: cs.reduce((s, c) => s + c.x, 0) / cs.length - b.width / 2, y: cs.reduce((s, c) => s + c.y, 0) / cs.length - b.height / 2 };
    // No free spot near its zones (a crowded middle): it goes in the row below with the unlinked items.
    const p = placeFree(mid, b.width, b.height, taken);
    if (!p) continue;
    at.set(b.key, p);
    taken.add(rectOf(p, b));
  }
  rowBelow(list, at);
  return at;
}

/**
 * Removes overlaps: from the middle outwards (nearest the centre first, ties in list order), each box
 * takes the free spot nearest to where the force layout put it (Taken buckets the boxes placed, so a
 * check costs the few boxes near a candidate); a box with no free spot near it goes to the right of
 * everything placed. One pass, each box placed once: no pairwise pushing that crowded maps take
 * hundreds of passes over.
 */
function settleBoxes(list: Body[], at: Map<string, Point>): void {
  const m = GAP * 2;
  const order = list.map((b, i) => ({ b, i, d: Math.hypot(...(Object.values(center(at.get(b.key) as Point, b)) as [number, number])) }));
  order.sort((p, q) => p.d - q.d || p.i - q.i);
  const taken = new Taken();
  let right = -Infinity;
  for (const { b } of order) {
    const want = at.get(b.key) as Point;
    const p = placeFree(want, b.width, b.height, taken, m) ?? { x: right + m * 2, y: want.y };
    at.set(b.key, p);
    taken.add(rectOf(p, b));
    right = Math.max(right, p.x + b.width);
  }
}

/**
 * Fruchterman-Reingold inside a frame about three times the boxes' total area (16:10), as the original
 * algorithm bounds it: without the frame, items with no links drift apart forever and the linked ones
 * end up as a speck in a corner of the fitted view. A gentle pull to the middle keeps the parts together.
 */
const ITERATIONS = 150;
/** The temperature falls to about 1% of its start over the iterations. */
const COOLING = 0.97;

function organic({ list, edges }: Bodies): Map<string, Point> {
  const n = list.length;
  const area = list.reduce((s, b) => s + b.width * b.height, 0);
  const frameW = Math.sqrt(area * 3 * 1.6);
  const frameH = frameW / 1.6;
  const k = Math.sqrt((frameW * frameH) / Math.max(1, n));
  // Positions and displacements in flat arrays, the grid as linked lists (head per cell, next per
  // body): an iteration allocates nothing.
  const px = new Float64Array(n);
  const py = new Float64Array(n);
  const dx = new Float64Array(n);
  const dy = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    px[i] = (Math.cos((2 * Math.PI * i) / n) * frameW) / 3;
    py[i] = (Math.sin((2 * Math.PI * i) / n) * frameH) / 3;
  }
  const index = new Map(list.map((b, i) => [b.key, i]));
  const ea = Int32Array.from(edges, ([a]) => index.get(a) as number);
  const eb = Int32Array.from(edges, ([, b]) => index.get(b) as number);
  let temp = frameW / 10;
  // Repulsion reaches 2k (Fruchterman-Reingold's grid variant): bodies are bucketed on a grid of 2k
  // cells and each is pushed only by those in its own and the eight neighbouring cells, so an
  // iteration costs about the bodies times their neighbours, not every pair. Bodies stay inside the
  // frame, so the grid is the frame's cells (plus a border).
  const cell = 2 * k;
  const cols = Math.ceil(frameW / cell) + 3;
  const rows = Math.ceil(frameH / cell) + 3;
  const head = new Int32Array(cols * rows);
  const next = new Int32Array(n);
  const gx = new Int32Array(n);
  const gy = new Int32Array(n);
  const k2 = k * k;
  for (let it = 0; it < ITERATIONS; it++) {
    dx.fill(0);
    dy.fill(0);
    head.fill(-1);
    for (let i = 0; i < n; i++) {
      const cx = Math.min(cols - 2, Math.max(1, Math.floor((px[i]! + frameW / 2) / cell) + 1));
      const cy = Math.min(rows - 2, Math.max(1, Math.floor((py[i]! + frameH / 2) / cell) + 1));
      gx[i] = cx;
      gy[i] = cy;
      next[i] = head[cy * cols + cx]!;
      head[cy * cols + cx] = i;
    }
    for (let i = 0; i < n; i++) {
      const xi = px[i]!;
      const yi = py[i]!;
      for (let oy = -1; oy <= 1; oy++)
        for (let ox = -1; ox <= 1; ox++) {
          for (let j = head[(gy[i]! + oy) * cols + gx[i]! + ox]!; j !== -1; j = next[j]!) {
            if (j <= i) continue;
            const ddx = xi - px[j]! || 0.01 * (j - i);
            const ddy = yi - py[j]!;
            const d = Math.max(1, Math.sqrt(ddx * ddx + ddy * ddy));
            if (d > cell) continue;
            const f = k2 / d / d;
            dx[i]! += ddx * f;
            dy[i]! += ddy * f;
            dx[j]! -= ddx * f;
            dy[j]! -= ddy * f;
          }
        }
    }
    for (let e = 0; e < ea.length; e++) {
      const i = ea[e]!;
      const j = eb[e]!;
      const ddx = px[i]! - px[j]!;
      const ddy = py[i]! - py[j]!;
      const d = Math.max(1, Math.sqrt(ddx * ddx + ddy * ddy));
      const f = d / k;
      dx[i]! -= ddx * f;
      dy[i]! -= ddy * f;
      dx[j]! += ddx * f;
      dy[j]! += ddy * f;
    }
    for (let i = 0; i < n; i++) {
      // Gravity: a pull to the middle that grows with the distance from it.
      const ddx = dx[i]! - (px[i]! * k) / frameW;
      const ddy = dy[i]! - (py[i]! * k) / frameH;
      const len = Math.max(0.01, Math.sqrt(ddx * ddx + ddy * ddy));
      const step = Math.min(len, temp) / len;
      px[i] = Math.min(frameW / 2, Math.max(-frameW / 2, px[i]! + ddx * step));
      py[i] = Math.min(frameH / 2, Math.max(-frameH / 2, py[i]! + ddy * step));
    }
    temp = Math.max(1, temp * COOLING);
  }
  const at = new Map(list.map((b, i) => [b.key, { x: px[i]! - b.width / 2, y: py[i]! - b.height / 2 }]));
  settleBoxes(list, at);
  return at;
}

/** Breadth-first layers over the body graph; each connected part starts at its first body (zones first). */
function layers({ list, edges }: Bodies): string[][] {
  const layerOf = new Map<string, number>();
  const out: string[][] = [];
  const neighbours = adjacency(edges);
  for (const root of list) {
    if (layerOf.has(root.key)) continue;
    const queue = [root.key];
    layerOf.set(root.key, 0);
    while (queue.length) {
      const key = queue.shift() as string;
      const l = layerOf.get(key) as number;
      (out[l] ??= []).push(key);
      for (const nb of neighbours(key)) {
        if (!layerOf.has(nb)) {
          layerOf.set(nb, l + 1);
          queue.push(nb);
        }
      }
    }
  }
  return out;
}

function sequential(bodies: Bodies): Map<string, Point> {
  const byKey = new Map(bodies.list.map((b) => [b.key, b]));
  const at = new Map<string, Point>();
  const columns = layers(bodies).map((keys) => keys.map((k) => byKey.get(k) as Body));
  const heights = columns.map((col) => col.reduce((s, b) => s + b.height, 0) + (col.length - 1) * SPACE / 2);
  const tallest = Math.max(0, ...heights);
  let x = 0;
  columns.forEach((col, i) => {
    let y = (tallest - (heights[i] ?? 0)) / 2;
    for (const b of col) {
      at.set(b.key, { x, y });
      y += b.height + SPACE / 2;
    }
    x += Math.max(...col.map((b) => b.width)) + SPACE * 1.5;
  });
  return at;
}

const diag = (b: Body) => Math.hypot(b.width, b.height);

/** A ring radius at which adjacent boxes (centres on the ring) cannot touch. */
function ringRadius(ring: Body[], inner: number): number {
  if (!ring.length) return inner;
  const d = Math.max(...ring.map(diag)) + GAP * 2;
  const chord = ring.length > 1 ? d / (2 * Math.sin(Math.PI / ring.length)) : 0;
  return Math.max(inner + d / 2, chord);
}

function lens(bodies: Bodies, focus: string | null | undefined, map: NetworkMap): Map<string, Point> {
  const { list, edges } = bodies;
  const at = new Map<string, Point>();
  if (!list.length) return at;
  const node = focus?.startsWith('node_') ? map.nodes.find((n) => `node_${n.id}` === focus) : undefined;
  const focusKey = node?.zone_id != null && list.some((b) => b.key === `zone_${node.zone_id}`) ? `zone_${node.zone_id}` : focus;
  const neighbours = adjacency(edges);
  const degree = (b: Body) => neighbours(b.key).length;
  const centre = list.find((b) => b.key === focusKey) ?? list.reduce((best, b) => (degree(b) > degree(best) ? b : best));
  const near = new Set(neighbours(centre.key));
  const ring1 = list.filter((b) => near.has(b.key));
  const ring2 = list.filter((b) => b !== centre && !near.has(b.key));
  at.set(centre.key, { x: -centre.width / 2, y: -centre.height / 2 });
  const r1 = ringRadius(ring1, diag(centre) / 2);
  const r2 = ringRadius(ring2, r1 + Math.max(0, ...ring1.map(diag)) / 2);
  for (const [ring, r] of [[ring1, r1], [ring2, r2]] as const) {
    ring.forEach((b, i) => {
      const a = (2 * Math.PI * i) / ring.length - Math.PI / 2;
      at.set(b.key, { x: Math.cos(a) * r - b.width / 2, y: Math.sin(a) * r - b.height / 2 });
    });
  }
  return at;
}

function structural(bodies: Bodies, map: NetworkMap): Map<string, Point> {
  const at = new Map<string, Point>();
  const byKey = new Map(bodies.list.map((b) => [b.key, b]));
  const zones = bodies.list.filter((b) => b.key.startsWith('zone_'));
  let y = zones.length ? wrapRows(zones, at, 0) + SPACE : 0;
  const devices = [...map.devices].sort((a, b) => a.device_type.localeCompare(b.device_type) || a.name.localeCompare(b.name) || a.id - b.id);
  let type: string | null = null;
  let x = 0;
  for (const d of devices) {
    const b = byKey.get(`device_${d.id}`) as Body;
    if (type !== null && d.device_type !== type) x += SPACE / 2;
    type = d.device_type;
    at.set(b.key, { x, y });
    x += b.width + GAP;
  }
  if (devices.length) y += Math.max(...devices.map((d) => byKey.get(`device_${d.id}`)?.height ?? 0)) + SPACE;
  x = 0;
  for (const b of bodies.list) {
    if (at.has(b.key)) continue;
    at.set(b.key, { x, y });
    x += b.width + GAP;
  }
  return at;
}

/** A zone with actors is the box around them (after the operator moved some). */
function fitZones(map: NetworkMap, rects: ItemRects): void {
  for (const z of map.zones) {
    const zone = rects[`zone_${z.id}`];
    const members = map.nodes.filter((n) => n.zone_id === z.id).map((n) => rects[`node_${n.id}`]).filter((r): r is Rect => !!r);
    if (!zone || !members.length) continue;
    const x = Math.min(...members.map((r) => r.x)) - ZONE_PAD;
    const y = Math.min(...members.map((r) => r.y)) - ZONE_HEADER;
    const right = Math.max(...members.map((r) => r.x + r.width)) + ZONE_PAD;
    const bottom = Math.max(...members.map((r) => r.y + r.height)) + ZONE_PAD;
    rects[`zone_${z.id}`] = { x, y, width: Math.max(ZONE_MIN_W, right - x), height: bottom - y };
  }
}

function tweak(map: NetworkMap, positions: Record<string, Point>): ItemRects {
  const rects = { ...layout('Standard', map) };
  for (const [key, r] of Object.entries(rects)) {
    const p = positions[key];
    if (p) rects[key] = { ...r, x: Math.round(p.x), y: Math.round(p.y) };
  }
  fitZones(map, rects);
  return rects;
}

/**
 * Layouts computed per map (the same NetworkMap object) and mode: a switch back to a mode, or to one
 * computed ahead by warmLayouts, costs nothing. The rects answered are shared: read them, never change them.
 */
const computed = new WeakMap<NetworkMap, Map<string, ItemRects>>();

/** Every zone, actor and device of the map with its rect, for the given mode. */
export function layout(mode: LayoutMode, map: NetworkMap, opts: LayoutOptions = {}): ItemRects {
  if (mode === 'Tweak') return tweak(map, opts.positions ?? {});
  const key = mode === 'Lens' ? `Lens ${opts.focus ?? ''}` : mode;
  const known = layoutsOf(map);
  const done = known.get(key);
  if (done) return done;
  const rects = compute(mode, map, opts);
  known.set(key, rects);
  return rects;
}

/** A map's layouts computed so far, by mode (Lens by focus); a layout computed elsewhere (the map's worker) may be added. */
export const layoutsOf = (map: NetworkMap): Map<string, ItemRects> => computed.get(map) ?? computed.set(map, new Map()).get(map)!;

function compute(mode: Exclude<LayoutMode, 'Tweak'>, map: NetworkMap, opts: LayoutOptions): ItemRects {
  const bodies = buildBodies(map, mode === 'Structural' ? typeRows : gridRows);
  const at =
    mode === 'Organic' ? organic(bodies)
    : mode === 'Sequential' ? sequential(bodies)
    : mode === 'Lens' ? lens(bodies, opts.focus, map)
    : mode === 'Structural' ? structural(bodies, map)
    : standard(bodies);
  return flatten(bodies.list, at);
}

/** Top-left positions of rects, as saved with the layout. */
export const positionsOf = (rects: ItemRects): Record<string, Point> => Object.fromEntries(Object.entries(rects).map(([k, r]) => [k, { x: r.x, y: r.y }]));
