/**
 * The map's canvas layer, drawn under X6's SVG cells: the zones' fills, the links (one bezier per link,
 * the focused job's links over them) and, on a large map zoomed far out, the actors and devices as
 * plain boxes (level of detail: the SVG cells are then not drawn at all). A frame costs a few thousand
 * path segments culled to the view, not thousands of SVG elements; the SVG keeps what is read and
 * clicked: zone borders and labels, the actors and devices in view.
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
  /** Draw the boxes' texts and the zones' outlines and names (while the SVG is hidden during a pan or zoom). */
  detail: boolean;
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
function curve(ctx: CanvasRenderingContext2D, x1: number, y1: number, x2: number, y2: number): void {
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

/** Draws the scene for a canvas of cssWidth x cssHeight CSS pixels at device pixel ratio dpr. */
export function drawLayer(ctx: CanvasRenderingContext2D, cssWidth: number, cssHeight: number, dpr: number, view: View, scene: Scene): void {
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height);
  ctx.setTransform(dpr * view.scale, 0, 0, dpr * view.scale, dpr * view.tx, dpr * view.ty);
  // The view in local (map) coordinates.
  const x0 = -view.tx / view.scale;
  const y0 = -view.ty / view.scale;
  const x1 = (cssWidth - view.tx) / view.scale;
  const y1 = (cssHeight - view.ty) / view.scale;

  ctx.fillStyle = ZONE_FILL;
  ctx.beginPath();
  for (const z of scene.zones) {
    const r = scene.rectOf(z);
    if (r && inView(r, x0, y0, x1, y1)) ctx.roundRect(r.x, r.y, r.width, r.height, 10);
  }
  ctx.fill();

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
    const [ax, ay] = boundary(ra, rb.x + rb.width / 2, rb.y + rb.height / 2);
    const [bx, by] = boundary(rb, ra.x + ra.width / 2, ra.y + ra.height / 2);
    curve(ctx, ax, ay, bx, by);
  }
  ctx.strokeStyle = LINK;
  ctx.lineWidth = 1.5;
  ctx.stroke();
  if (job.length) {
    ctx.beginPath();
    for (const l of job) {
      const ra = scene.rectOf(l.a) as Rect;
      const rb = scene.rectOf(l.b) as Rect;
      const [ax, ay] = boundary(ra, rb.x + rb.width / 2, rb.y + rb.height / 2);
      const [bx, by] = boundary(rb, ra.x + ra.width / 2, ra.y + ra.height / 2);
      curve(ctx, ax, ay, bx, by);
    }
    ctx.strokeStyle = JOB;
    ctx.lineWidth = 3;
    ctx.stroke();
  }

  if (scene.detail) {
    ctx.font = `600 13px ${FONT}`;
    ctx.textBaseline = 'middle';
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = ZONE_STROKE;
    for (const z of scene.zones) {
      const r = scene.rectOf(z);
      if (!r || !inView(r, x0, y0, x1, y1)) continue;
      ctx.beginPath();
      ctx.roundRect(r.x, r.y, r.width, r.height, 10);
      ctx.stroke();
      ctx.fillStyle = TEXT;
      ctx.fillText(scene.zoneName(z), r.x + 14, r.y + 20);
    }
  }

  for (const k of scene.boxes) {
    const r = scene.rectOf(k);
    const look = scene.look(k);
    if (!r || !look || !inView(r, x0, y0, x1, y1)) continue;
    const st = scene.boxStyle(k);
    ctx.beginPath();
    ctx.roundRect(r.x, r.y, r.width, r.height, look.radius);
    ctx.fillStyle = look.fill;
    ctx.fill();
    ctx.setLineDash(st.dash ? st.dash.split(' ').map(Number) : []);
    ctx.strokeStyle = st.stroke;
    ctx.lineWidth = st.width;
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = look.stripe;
    ctx.fillRect(r.x, r.y, 5, r.height);
    if (!scene.detail) continue;
    ctx.font = `600 12.5px ${FONT}`;
    ctx.fillStyle = st.title;
    ctx.fillText(look.title, r.x + 16, r.y + 18);
    ctx.font = `11px ${FONT}`;
    ctx.fillStyle = MUTED;
    ctx.fillText(look.sub, r.x + 16, r.y + 36);
  }
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
