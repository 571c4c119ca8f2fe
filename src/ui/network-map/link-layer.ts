/**
 * The map's canvas layer, drawn under X6's SVG cells: the zones' fills, the links (one bezier per link,
 * the focused job's links over them) and, on a large map, the actors and devices themselves (boxes with
 * their marks and texts; zoomed far out, boxes only), batched by style. A frame costs a few thousand
 * path segments and a few hundred texts culled to the view, not thousands of SVG elements; the SVG
 * keeps the zone borders and labels (and on a small map, or in Tweak, the actors and devices).
 */
import type { NetworkMap } from '@/api/contracts/topology';
import type { Rect } from './bodies';
import { linkKey } from './job-path';

/** X6's view transform: local point p is drawn at (p.x * scale + tx, p.y * scale + ty). */
export interface View {
  scale: number;
  tx: number;
  ty: number;
}

export interface LayerLink {
  a: string;
  b: string;
  /** linkKey of its two ends (a link and its reverse are one). */
  key: string;
}

/** One link per pair of ends (a link and its reverse, compliment_id, are drawn once), no loops. */
export function layerLinks(map: NetworkMap): LayerLink[] {
  const seen = new Set<string>();
  const out: LayerLink[] = [];
  for (const l of map.links) {
    if (l.id1 === l.id2) continue;
    const key = linkKey(l.id1, l.id2);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ a: l.id1, b: l.id2, key });
  }
  return out;
}

/** How an actor or device box is marked (selection, job, sequence): its outline and title colour. */
export interface BoxStyle {
  stroke: string;
  width: number;
  dash: string;
  title: string;
}

/** What an actor or device box shows, as its SVG cell does. */
export interface BoxLook {
  title: string;
  sub: string;
  stripe: string;
  fill: string;
  radius: number;
}

export interface Scene {
  zones: readonly string[];
  links: readonly LayerLink[];
  /** Actors and devices drawn as boxes (none while their SVG cells are shown). */
  boxes: Iterable<string>;
  /** Draw the boxes' texts (not when zoomed far out). */
  detail: boolean;
  /** Draw the zones' outlines and names (while X6's SVG, which draws them otherwise, is hidden). */
  zoneOutlines: boolean;
  rectOf(key: string): Rect | undefined;
  /** Links of the focused job (linkKey), drawn over the others. */
  jobLinks: ReadonlySet<string> | null;
  boxStyle(key: string): BoxStyle;
  look(key: string): BoxLook | undefined;
  /** A zone's name as its cell shows it. */
  zoneName(key: string): string;
}

const ZONE_FILL = 'rgba(15, 23, 42, 0.92)';
const LINK = 'rgba(100, 116, 139, 0.8)';
const JOB = '#f59e0b';
const ZONE_STROKE = '#334155';
const TEXT = '#e2e8f0';
const MUTED = '#94a3b8';
const FONT = 'ui-sans-serif, system-ui, sans-serif';

/** The point where the segment from r's centre towards (tx, ty) leaves r. */
function boundary(r: Rect, tx: number, ty: number): [number, number] {
  const cx = r.x + r.width / 2;
  const cy = r.y + r.height / 2;
  const dx = tx - cx;
  const dy = ty - cy;
  if (!dx && !dy) return [cx, cy];
  const s = Math.min(dx ? r.width / 2 / Math.abs(dx) : Infinity, dy ? r.height / 2 / Math.abs(dy) : Infinity, 1);
  return [cx + dx * s, cy + dy * s];
}

/** X6's smooth connector between two points: a cubic through the middle, bent along the longer axis. */
/** The curve of a link between two boxes, from edge to edge (each end where the line to the other box's centre leaves it). */
function linkCurve(ctx: Context2D, ra: Rect, rb: Rect): void {
  const [ax, ay] = boundary(ra, rb.x + rb.width / 2, rb.y + rb.height / 2);
  const [bx, by] = boundary(rb, ra.x + ra.width / 2, ra.y + ra.height / 2);
  curve(ctx, ax, ay, bx, by);
}

function curve(ctx: Context2D, x1: number, y1: number, x2: number, y2: number): void {
  ctx.moveTo(x1, y1);
  if (Math.abs(x2 - x1) >= Math.abs(y2 - y1)) {
    const mx = (x1 + x2) / 2;
    ctx.bezierCurveTo(mx, y1, mx, y2, x2, y2);
  } else {
    const my = (y1 + y2) / 2;
    ctx.bezierCurveTo(x1, my, x2, my, x2, y2);
  }
}

const inView = (r: Rect, x0: number, y0: number, x1: number, y1: number) => r.x <= x1 && r.x + r.width >= x0 && r.y <= y1 && r.y + r.height >= y0;

/** Clears the canvas and sets it to draw `view`; answers the area in view in local coordinates. */
function begin(ctx: CanvasRenderingContext2D, cssWidth: number, cssHeight: number, dpr: number, view: View): [number, number, number, number] {
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height);
  ctx.setTransform(dpr * view.scale, 0, 0, dpr * view.scale, dpr * view.tx, dpr * view.ty);
  return [-view.tx / view.scale, -view.ty / view.scale, (cssWidth - view.tx) / view.scale, (cssHeight - view.ty) / view.scale];
}

/** A 2D context on the page's canvas, or on an OffscreenCanvas in a worker (the overview). */
type Context2D = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

/** The links meeting the area (x0, y0)-(x1, y1), as curves: the focused job's over the others. */
function drawLinks(ctx: Context2D, scene: Pick<Scene, 'links' | 'rectOf' | 'jobLinks'>, x0: number, y0: number, x1: number, y1: number): void {
  const job: LayerLink[] = [];
  ctx.beginPath();
  for (const l of scene.links) {
    const ra = scene.rectOf(l.a);
    const rb = scene.rectOf(l.b);
    if (!ra || !rb) continue;
    const left = Math.min(ra.x, rb.x);
    const top = Math.min(ra.y, rb.y);
    const span = { x: left, y: top, width: Math.max(ra.x + ra.width, rb.x + rb.width) - left, height: Math.max(ra.y + ra.height, rb.y + rb.height) - top };
    if (!inView(span, x0, y0, x1, y1)) continue;
    if (scene.jobLinks?.has(l.key)) {
      job.push(l);
      continue;
    }
    linkCurve(ctx, ra, rb);
  }
  ctx.strokeStyle = LINK;
  ctx.lineWidth = 1.5;
  ctx.stroke();
  if (!job.length) return;
  ctx.beginPath();
  for (const l of job) {
    const ra = scene.rectOf(l.a) as Rect;
    const rb = scene.rectOf(l.b) as Rect;
    linkCurve(ctx, ra, rb);
  }
  ctx.strokeStyle = JOB;
  ctx.lineWidth = 3;
  ctx.stroke();
}

/** The links of the whole map drawn once into a bitmap of at most `side` pixels a side, to stand in while the view moves. */
export interface Overview {
  bitmap: CanvasImageSource;
  /** The area of the map (local coordinates) the bitmap covers. */
  box: Rect;
}

/**
 * Draws the overview's links on a canvas made by `canvas` (the page's, or an OffscreenCanvas in the
 * map's worker, map-worker.ts), answering it, or null without a 2D context.
 */
export function drawOverview<C extends HTMLCanvasElement | OffscreenCanvas>(scene: Pick<Scene, 'links' | 'rectOf' | 'jobLinks'>, box: Rect, side: number, canvas: (w: number, h: number) => C): C | null {
  const k = Math.min(1, side / Math.max(1, box.width), side / Math.max(1, box.height));
  const bitmap = canvas(Math.max(1, Math.ceil(box.width * k)), Math.max(1, Math.ceil(box.height * k)));
  const ctx = bitmap.getContext('2d') as Context2D | null;
  if (!ctx) return null;
  ctx.setTransform(k, 0, 0, k, -box.x * k, -box.y * k);
  drawLinks(ctx, scene, box.x, box.y, box.x + box.width, box.y + box.height);
  return bitmap;
}

/** A new path of the rounded rects of the zones in view (filled on the lower canvas, outlined on the upper). */
function zonesPath(ctx: CanvasRenderingContext2D, scene: Scene, x0: number, y0: number, x1: number, y1: number): void {
  ctx.beginPath();
  for (const z of scene.zones) {
    const r = scene.rectOf(z);
    if (r && inView(r, x0, y0, x1, y1)) ctx.roundRect(r.x, r.y, r.width, r.height, 10);
  }
}

/**
 * The lower canvas, drawn when the view, the layout or the focused job change: the zones' fills and the
 * links (vector; or, while the view moves, the overview bitmap scaled, a copy instead of rasterizing
 * thousands of curves again).
 */
export function drawBase(ctx: CanvasRenderingContext2D, cssWidth: number, cssHeight: number, dpr: number, view: View, scene: Scene, overview: Overview | null = null): void {
  const [x0, y0, x1, y1] = begin(ctx, cssWidth, cssHeight, dpr, view);
  ctx.fillStyle = ZONE_FILL;
  zonesPath(ctx, scene, x0, y0, x1, y1);
  ctx.fill();
  if (!overview) return drawLinks(ctx, scene, x0, y0, x1, y1);
  const { bitmap, box } = overview;
  ctx.drawImage(bitmap, box.x, box.y, box.width, box.height);
}

/**
 * The upper canvas, drawn also when the marks change (selection, sequence): the actors and devices
 * drawn as boxes and, while X6's SVG is hidden, the zones' outlines and names. Answers the boxes drawn.
 */
export function drawTop(ctx: CanvasRenderingContext2D, cssWidth: number, cssHeight: number, dpr: number, view: View, scene: Scene): number {
  const [x0, y0, x1, y1] = begin(ctx, cssWidth, cssHeight, dpr, view);
  if (scene.zoneOutlines) {
    ctx.font = `600 13px ${FONT}`;
    ctx.textBaseline = 'middle';
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = ZONE_STROKE;
    zonesPath(ctx, scene, x0, y0, x1, y1);
    ctx.stroke();
    ctx.fillStyle = TEXT;
    for (const z of scene.zones) {
      const r = scene.rectOf(z);
      if (r && inView(r, x0, y0, x1, y1)) ctx.fillText(scene.zoneName(z), r.x + 14, r.y + 20);
    }
  }
  return drawBoxes(ctx, scene, x0, y0, x1, y1);
}

/** Pushes `v` onto the list kept under `key`. */
function group<T>(groups: Map<string, T[]>, key: string, v: T): void {
  const list = groups.get(key);
  if (list) list.push(v);
  else groups.set(key, [v]);
}

/**
 * The actors and devices in view as boxes, batched: one path per fill, per stripe colour and per
 * outline style (a few draw calls for hundreds of boxes), then their texts. Answers how many were drawn.
 */
function drawBoxes(ctx: CanvasRenderingContext2D, scene: Scene, x0: number, y0: number, x1: number, y1: number): number {
  const fills = new Map<string, Rect[]>();
  const stripes = new Map<string, Rect[]>();
  const outlines = new Map<string, { st: BoxStyle; radius: number; rects: Rect[] }>();
  const texts: { r: Rect; look: BoxLook; colour: string }[] = [];
  let drawn = 0;
  for (const k of scene.boxes) {
    const r = scene.rectOf(k);
    const look = scene.look(k);
    if (!r || !look || !inView(r, x0, y0, x1, y1)) continue;
    const st = scene.boxStyle(k);
    drawn++;
    group(fills, `${look.fill}|${look.radius}`, r);
    group(stripes, look.stripe, r);
    const sig = `${st.stroke}|${st.width}|${st.dash}|${look.radius}`;
    const o = outlines.get(sig);
    if (o) o.rects.push(r);
    else outlines.set(sig, { st, radius: look.radius, rects: [r] });
    if (scene.detail) texts.push({ r, look, colour: st.title });
  }
  for (const [key, rects] of fills) {
    const [fill, radius] = key.split('|') as [string, string];
    ctx.beginPath();
    for (const r of rects) ctx.roundRect(r.x, r.y, r.width, r.height, Number(radius));
    ctx.fillStyle = fill;
    ctx.fill();
  }
  for (const { st, radius, rects } of outlines.values()) {
    ctx.beginPath();
    for (const r of rects) ctx.roundRect(r.x, r.y, r.width, r.height, radius);
    ctx.setLineDash(st.dash ? st.dash.split(' ').map(Number) : []);
    ctx.strokeStyle = st.stroke;
    ctx.lineWidth = st.width;
    ctx.stroke();
  }
  ctx.setLineDash([]);
  for (const [colour, rects] of stripes) {
    ctx.beginPath();
    for (const r of rects) ctx.rect(r.x, r.y, 5, r.height);
    ctx.fillStyle = colour;
    ctx.fill();
  }
  if (texts.length) {
    ctx.textBaseline = 'middle';
    ctx.font = `600 12.5px ${FONT}`;
    for (const t of texts) {
      if (ctx.fillStyle !== t.colour) ctx.fillStyle = t.colour;
      ctx.fillText(t.look.title, t.r.x + 16, t.r.y + 18);
    }
    ctx.font = `11px ${FONT}`;
    ctx.fillStyle = MUTED;
    for (const t of texts) ctx.fillText(t.look.sub, t.r.x + 16, t.r.y + 36);
  }
  return drawn;
}

/**
 * Rects bucketed on a coarse grid: the items whose rect meets an area, found by looking at the few
 * buckets under it instead of every item.
 */
export class RectIndex {
  private readonly cells = new Map<number, string[]>();
  private static readonly SIZE = 512;
  private static key = (x: number, y: number) => (x + 32768) * 65536 + (y + 32768);
  constructor(
    keys: Iterable<string>,
    private readonly rectOf: (key: string) => Rect | undefined,
  ) {
    const s = RectIndex.SIZE;
    for (const k of keys) {
      const r = rectOf(k);
      if (!r) continue;
      for (let x = Math.floor(r.x / s); x <= Math.floor((r.x + r.width) / s); x++)
        for (let y = Math.floor(r.y / s); y <= Math.floor((r.y + r.height) / s); y++) {
          const c = RectIndex.key(x, y);
          const list = this.cells.get(c);
          if (list) list.push(k);
          else this.cells.set(c, [k]);
        }
    }
  }
  /** The keys whose rect meets `area`. */
  within(area: Rect): Set<string> {
    const s = RectIndex.SIZE;
    const out = new Set<string>();
    for (let x = Math.floor(area.x / s); x <= Math.floor((area.x + area.width) / s); x++)
      for (let y = Math.floor(area.y / s); y <= Math.floor((area.y + area.height) / s); y++) {
        const list = this.cells.get(RectIndex.key(x, y));
        if (!list) continue;
        for (const k of list) {
          const r = this.rectOf(k);
          if (r && inView(r, area.x, area.y, area.x + area.width, area.y + area.height)) out.add(k);
        }
      }
    return out;
  }
  /** The key whose rect holds the point (the last one indexed wins), or null. */
  at(x: number, y: number): string | null {
    const s = RectIndex.SIZE;
    const list = this.cells.get(RectIndex.key(Math.floor(x / s), Math.floor(y / s))) ?? [];
    let hit: string | null = null;
    for (const k of list) {
      const r = this.rectOf(k);
      if (r && x >= r.x && x <= r.x + r.width && y >= r.y && y <= r.y + r.height) hit = k;
    }
    return hit;
  }
}
