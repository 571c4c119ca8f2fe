/**
 * The network map's worker: the work a large map does ahead, off the page's thread, so that neither
 * holds up a first draw, a pan or a key press:
 * - `layouts`: the map's other layouts (a large map's Organic layout takes a few hundred ms), answered
 *   one by one for layouts.ts's cache, so a layout switch only moves the map;
 * - `overview`: the whole map's links drawn on an OffscreenCanvas and rasterized here, answered as an
 *   ImageBitmap, the stand-in the canvas layer scales while the view moves.
 * Started by worker-client.ts (where workers or OffscreenCanvas are missing, the page does both itself).
 */
/// <reference lib="webworker" />
import type { LayoutMode, NetworkMap } from '@/api/contracts/topology';
import type { Rect } from './bodies';
import { layout, type ItemRects } from './layouts';
import { drawOverview, type LayerLink } from './link-layer';

export type MapWorkerRequest =
  | { kind: 'layouts'; id: number; map: NetworkMap; modes: LayoutMode[] }
  | { kind: 'overview'; id: number; links: LayerLink[]; rects: ItemRects; jobLinks: string[] | null; box: Rect; side: number };

export type MapWorkerAnswer =
  | { kind: 'layout'; id: number; mode: LayoutMode; rects: ItemRects }
  | { kind: 'overview'; id: number; bitmap: ImageBitmap | null };

const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = (e: MessageEvent<MapWorkerRequest>) => {
  const req = e.data;
  if (req.kind === 'layouts') {
    for (const mode of req.modes) scope.postMessage({ kind: 'layout', id: req.id, mode, rects: layout(mode, req.map) } satisfies MapWorkerAnswer);
    return;
  }
  const jobLinks = req.jobLinks ? new Set(req.jobLinks) : null;
  const canvas = drawOverview({ links: req.links, rectOf: (k) => req.rects[k], jobLinks }, req.box, req.side, (w, h) => new OffscreenCanvas(w, h));
  const bitmap = canvas?.transferToImageBitmap() ?? null;
  scope.postMessage({ kind: 'overview', id: req.id, bitmap } satisfies MapWorkerAnswer, bitmap ? [bitmap] : []);
};
