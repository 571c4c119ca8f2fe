/**
 * The map as blocks to lay out ("bodies"): a zone with its actors is one body (the zone box and its
 * members, positioned relative to the body's top-left corner); a device, and an actor outside any
 * zone, is a body of its own. Layouts only place bodies, so members never leave their zone box.
 */
import type { MapNode, NetworkMap, Point } from '@/api/contracts/topology';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const NODE_W = 184;
export const NODE_H = 52;
export const DEVICE_W = 232;
export const DEVICE_H = 52;
export const ZONE_PAD = 18;
export const ZONE_HEADER = 40;
export const ZONE_MIN_W = 300;
export const GAP = 14;

export interface Body {
  key: string;
  width: number;
  height: number;
  /** Every item of the body (itself included) relative to the body's top-left corner. */
  members: Record<string, Rect>;
}

export interface Bodies {
  list: Body[];
  /** Edges between bodies (keys sorted, no duplicates, no loops), in a stable order. */
  edges: [string, string][];
}

/** How a zone arranges its actors: rows of actors, each row left to right. */
export type Arrange = (members: MapNode[]) => MapNode[][];

/** A square-ish grid in id order (at most 3 columns). */
export const gridRows: Arrange = (members) => {
  const cols = Math.min(3, Math.max(1, Math.ceil(Math.sqrt(members.length))));
  const rows: MapNode[][] = [];
  members.forEach((m, i) => {
    if (i % cols === 0) rows.push([]);
    rows[rows.length - 1]?.push(m);
  });
  return rows;
};

/** One row per actor type (types and names sorted), for the Structural layout. */
export const typeRows: Arrange = (members) => {
  const byType = new Map<string, MapNode[]>();
  for (const m of [...members].sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id)) byType.set(m.node_type, [...(byType.get(m.node_type) ?? []), m]);
  return [...byType.keys()].sort().map((t) => byType.get(t) ?? []);
};

function zoneBody(key: string, members: MapNode[], arrange: Arrange): Body {
  const rows = members.length ? arrange(members) : [];
  const cols = Math.max(1, ...rows.map((r) => r.length));
  const width = Math.max(ZONE_MIN_W, cols * NODE_W + (cols - 1) * GAP + 2 * ZONE_PAD);
  const height = ZONE_HEADER + Math.max(1, rows.length) * NODE_H + Math.max(0, rows.length - 1) * GAP + ZONE_PAD;
  const rects: Record<string, Rect> = { [key]: { x: 0, y: 0, width, height } };
  rows.forEach((row, r) =>
    row.forEach((m, c) => {
      rects[`node_${m.id}`] = { x: ZONE_PAD + c * (NODE_W + GAP), y: ZONE_HEADER + r * (NODE_H + GAP), width: NODE_W, height: NODE_H };
    }),
  );
  return { key, width, height, members: rects };
}

const single = (key: string, width: number, height: number): Body => ({ key, width, height, members: { [key]: { x: 0, y: 0, width, height } } });

export function buildBodies(map: NetworkMap, arrange: Arrange = gridRows): Bodies {
  const zoneIds = new Set(map.zones.map((z) => z.id));
  const bodyOf = new Map<string, string>();
  const list: Body[] = map.zones.map((z) => {
    const members = map.nodes.filter((n) => n.zone_id === z.id);
    for (const n of members) bodyOf.set(`node_${n.id}`, `zone_${z.id}`);
    return zoneBody(`zone_${z.id}`, members, arrange);
  });
  for (const d of map.devices) list.push(single(`device_${d.id}`, DEVICE_W, DEVICE_H));
  for (const n of map.nodes) if (n.zone_id === null || !zoneIds.has(n.zone_id)) list.push(single(`node_${n.id}`, NODE_W, NODE_H));
  const known = new Set(list.map((b) => b.key));
  const seen = new Set<string>();
  const edges: [string, string][] = [];
  const add = (a: string, b: string) => {
    const x = bodyOf.get(a) ?? a;
    const y = bodyOf.get(b) ?? b;
    if (x === y || !known.has(x) || !known.has(y)) return;
    const pair: [string, string] = x < y ? [x, y] : [y, x];
    const id = pair.join('|');
    if (!seen.has(id)) {
      seen.add(id);
      edges.push(pair);
    }
  };
  for (const d of map.devices) for (const z of d.zone_ids) add(`device_${d.id}`, `zone_${z}`);
  for (const l of map.links) add(l.id1, l.id2);
  return { list, edges };
}

/** Each body's neighbours, in edge order (built once: a lookup per body would cost the edges each time). */
export function adjacency(edges: [string, string][]): (key: string) => string[] {
  const out = new Map<string, string[]>();
  for (const [a, b] of edges) {
    (out.get(a) ?? out.set(a, []).get(a)!).push(b);
    (out.get(b) ?? out.set(b, []).get(b)!).push(a);
  }
  return (key) => out.get(key) ?? [];
}

/** The item rects of bodies placed at their top-left corners. */
export function flatten(bodies: Body[], at: Map<string, Point>): Record<string, Rect> {
  const out: Record<string, Rect> = {};
  for (const b of bodies) {
    const p = at.get(b.key) ?? { x: 0, y: 0 };
    for (const [k, r] of Object.entries(b.members)) out[k] = { ...r, x: Math.round(p.x + r.x), y: Math.round(p.y + r.y) };
  }
  return out;
}

export const overlaps = (a: Rect, b: Rect, margin = 0) =>
  a.x < b.x + b.width + margin && b.x < a.x + a.width + margin && a.y < b.y + b.height + margin && b.y < a.y + a.height + margin;

/**
 * Rects already placed, bucketed on a coarse grid, so a free-spot search looks at the few rects near
 * it instead of every rect placed.
 */
export class Taken {
  private readonly cells = new Map<number, Rect[]>();
  private static readonly SIZE = 256;
  constructor(rects: Rect[] = []) {
    for (const r of rects) this.add(r);
  }
  private static key = (x: number, y: number) => (x + 32768) * 65536 + (y + 32768);
  add(r: Rect): void {
    const s = Taken.SIZE;
    for (let x = Math.floor(r.x / s); x <= Math.floor((r.x + r.width) / s); x++)
      for (let y = Math.floor(r.y / s); y <= Math.floor((r.y + r.height) / s); y++) {
        const k = Taken.key(x, y);
        const list = this.cells.get(k);
        if (list) list.push(r);
        else this.cells.set(k, [r]);
      }
  }
  /** The rects placed in the buckets under `area` (each once): every rect that meets it, and a few near it. */
  near(area: Rect): Rect[] {
    const s = Taken.SIZE;
    const out = new Set<Rect>();
    for (let x = Math.floor(area.x / s); x <= Math.floor((area.x + area.width) / s); x++)
      for (let y = Math.floor(area.y / s); y <= Math.floor((area.y + area.height) / s); y++) {
        const list = this.cells.get(Taken.key(x, y));
        if (list) for (const t of list) out.add(t);
      }
    return [...out];
  }
}

/**
 * The steps i in [-n, n] at which a box starting at `from + i * step`, `size` long, comes within
 * `margin` of the span [lo, lo + len) (overlaps' test on one axis), as [first, last]; first > last when none.
 */
function blockedSteps(from: number, step: number, size: number, lo: number, len: number, margin: number, n: number): [number, number] {
  const hi = lo + len + margin;
  let first = Math.max(-n, Math.floor((lo - size - margin - from) / step));
  let last = Math.min(n, Math.ceil((hi - from) / step));
  // The estimates may be one step wide of the exact test at the ends: narrowed with it.
  while (first <= last && !(from + first * step < hi && lo < from + first * step + size + margin)) first++;
  while (last >= first && !(from + last * step < hi && lo < from + last * step + size + margin)) last--;
  return [first, last];
}

/**
 * The free spot nearest to `want` (a top-left corner) for a w × h box: candidates on growing square
 * rings around it (at most `rings` of them), in a fixed order, so the answer is deterministic; null
 * when none of them is free.
 */
export function placeFree(want: Point, w: number, h: number, taken: Taken, margin = 12, rings = 48): Point | null {
  const step = 24;
  // Which candidates are taken, worked out once for the whole search: each rect near the rings blocks
  // a rectangle of the candidates' lattice (overlaps' test with the margin, candidate by candidate), then
  // the rings are walked over the lattice. A crowded search costs the rects near it, not thousands of
  // candidates times the rects near each.
  const n = rings - 1;
  const side = 2 * n + 1;
  const blocked = new Uint8Array(side * side);
  const reach = n * step + margin;
  for (const t of taken.near({ x: want.x - reach, y: want.y - reach, width: 2 * reach + w, height: 2 * reach + h })) {
    const [x0, x1] = blockedSteps(want.x, step, w, t.x, t.width, margin, n);
    if (x0 > x1) continue;
    const [y0, y1] = blockedSteps(want.y, step, h, t.y, t.height, margin, n);
    for (let dy = y0; dy <= y1; dy++) blocked.fill(1, (dy + n) * side + x0 + n, (dy + n) * side + x1 + n + 1);
  }
  for (let ring = 0; ring < rings; ring++) {
    for (let dx = -ring; dx <= ring; dx++) {
      const edge = Math.abs(dx) === ring;
      for (let dy = -ring; dy <= ring; dy += edge || ring === 0 ? 1 : 2 * ring) {
        if (!blocked[(dy + n) * side + dx + n]) return { x: want.x + dx * step, y: want.y + dy * step };
      }
    }
  }
  return null;
}
