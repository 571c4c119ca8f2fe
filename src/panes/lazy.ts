import { createElement, lazy, useEffect, useState, type ComponentType } from 'react';
import { cancelIdle, whenIdle } from '@/ui/idle';
import type { PaneProps } from './types';

/** A component loaded on first render (its own chunk), which can also be fetched ahead with `preload`. */
export type LazyComponent<P> = ComponentType<P> & { preload: () => Promise<void>; loaded: () => boolean };

/**
 * The named export of a module, split into its own
 * chunk and loaded on first use. Features give their panes and modal globals this way so that
 * nothing but the shell is in the first download; heavy libraries (X6, CodeMirror, uPlot, jsPDF,
 * html2canvas) must only be imported by such modules. A failed load is retried on the next preload.
 */
function lazyNamed<P, K extends string>(load: () => Promise<Record<K, ComponentType<P>>>, name: K): LazyComponent<P> {
  let pending: Promise<{ default: ComponentType<P> }> | undefined;
  let loaded: ComponentType<P> | undefined;
  const get = () =>
    (pending ??= load().then(
      (m) => {
        loaded = m[name];
        return { default: m[name] };
      },
      (e: unknown) => {
        pending = undefined;
        throw e;
      },
    ));
  const Lazy = lazy(get);
  // Once fetched (ahead, by `preload`), render the module's component directly: React.lazy would still
  // suspend once and hold the reveal back (React throttles revealing a suspended boundary by up to 300 ms).
  const Component = (props: P) => createElement((loaded ?? Lazy) as ComponentType<object>, props as object);
  return Object.assign(Component, { preload: () => get().then(() => undefined), loaded: () => loaded !== undefined });
}

/** Any component loaded on first render, with `preload` to fetch it ahead (the signed-in workbench, the palette). */
export const lazyComponent = <P, K extends string>(load: () => Promise<Record<K, ComponentType<P>>>, name: K) => lazyNamed<P, K>(load, name);

/** A pane's component: `{ id: 'jobs', component: lazyPane(() => import('./jobs-pane'), 'JobsPane') }`. */
export const lazyPane = <K extends string>(load: () => Promise<Record<K, ComponentType<PaneProps>>>, name: K) => lazyNamed<PaneProps, K>(load, name);

/** A feature's global mounted once (modal hosts): `globals: [lazyGlobal(() => import('./dialogs'), 'JobsDialogs')]`. */
export const lazyGlobal = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) => lazyNamed<object, K>(load, name);

export const isLazy = (c: unknown): c is { preload: () => Promise<void>; loaded?: () => boolean } => typeof (c as { preload?: unknown } | null)?.preload === 'function';

/** Fetches every lazy component ahead, one at a time while the browser is idle (so first paint never waits on them). */
export function prefetchWhenIdle(components: readonly unknown[]): () => void {
  const queue = components.filter(isLazy);
  let stopped = false;
  const next = () => {
    const c = queue.shift();
    if (stopped || !c) return;
    void c.preload().catch(() => undefined).then(() => whenIdle(next));
  };
  whenIdle(next);
  return () => {
    stopped = true;
  };
}

/**
 * False in the first render, true once the browser is idle after it (the first frame painted, the first
 * pane drawn): what can wait (modal hosts, the user menu) mounts then, so the workbench's first frame does
 * not start their downloads (each lazy import adds its chunk's preload links to the document, about 15 ms
 * apiece under 4x CPU slowdown).
 */
export function useIdleOnce(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    const handle = whenIdle(() => setPainted(true), 1000);
    return () => cancelIdle(handle);
  }, []);
  return painted;
}
