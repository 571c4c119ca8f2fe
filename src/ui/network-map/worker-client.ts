/**
 * The page's side of map-worker.ts: two workers for the page, each started on first use, one for the
 * layouts and one for the overviews (an overview is not held up behind a large map's layouts); each
 * request's answers go to its own callback. Where a worker cannot be started (no Worker or OffscreenCanvas, as
 * in unit tests), `mapWorker()` answers null and the callers do the work themselves.
 */
import type { LayoutMode, NetworkMap } from '@/api/contracts/topology';
import { layout, layoutsOf } from './layouts';
import type { MapWorkerAnswer, MapWorkerRequest } from './map-worker';
import { cancelIdle, whenIdle, type IdleHandle } from '../idle';

type Listener = (answer: MapWorkerAnswer) => void;

interface MapWorker {
  /** Sends a request (its id is set here); `listen` gets its answers until the returned function is called. */
  send(request: DistributiveOmit<MapWorkerRequest, 'id'>, listen: Listener): () => void;
}

type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

type Purpose = 'layouts' | 'overview';

const started = new Map<Purpose, MapWorker | null>();

export function mapWorker(purpose: Purpose): MapWorker | null {
  const known = started.get(purpose);
  if (known !== undefined) return known;
  started.set(purpose, null);
  if (typeof Worker !== 'function' || typeof OffscreenCanvas !== 'function') return null;
  let worker: Worker;
  try {
    worker = new Worker(new URL('./map-worker.ts', import.meta.url), { type: 'module', name: `network-map ${purpose}` });
  } catch {
    return null;
  }
  const listeners = new Map<number, Listener>();
  let next = 1;
  worker.onmessage = (e: MessageEvent<MapWorkerAnswer>) => listeners.get(e.data.id)?.(e.data);
  // A worker that fails (its script not served, say) is not asked again: the page does the work.
  worker.onerror = () => {
    started.set(purpose, null);
    listeners.clear();
    worker.terminate();
  };
  const client: MapWorker = {
    send(request, listen) {
      const id = next++;
      listeners.set(id, listen);
      worker.postMessage({ ...request, id });
      return () => listeners.delete(id);
    },
  };
  started.set(purpose, client);
  return client;
}

/** The modes a large map computes ahead (Lens depends on its focus, Tweak on the saved positions). */
const AHEAD: LayoutMode[] = ['Standard', 'Organic', 'Structural', 'Sequential'];


/**
 * Computes the map's other layouts ahead, so that switching to one of them only moves the map: in the
 * map's worker (a large map's Organic layout takes a few hundred ms, which on the page's thread would
 * hold up the first frames and the first keys), or where there is none, one per idle period. Answers a
 * function that stops it.
 */
export function warmLayouts(map: NetworkMap): () => void {
  const known = layoutsOf(map);
  const queue = AHEAD.filter((m) => !known.has(m));
  let stop = () => {};
  let handle: IdleHandle;
  const next = () => {
    const mode = queue.shift();
    if (!mode) return;
    layout(mode, map);
    handle = whenIdle(next);
  };
  // Started once the page is idle (the map drawn): the worker too, so that starting it does not
  // compete with the first draw. Each answer fills the cache unless the page got there first.
  handle = whenIdle(() => {
    const worker = mapWorker('layouts');
    if (!worker) return next();
    stop = worker.send({ kind: 'layouts', map, modes: queue }, (a) => {
      if (a.kind === 'layout' && !known.has(a.mode)) known.set(a.mode, a.rects);
    });
  });
  return () => {
    cancelIdle(handle);
    stop();
  };
}
