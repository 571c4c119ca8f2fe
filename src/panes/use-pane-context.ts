import { useEffect, useRef } from 'react';
import { paneContexts, type PaneContextKey } from '@/commands/pane-contexts';
import { usePaneInstance } from '@/commands/pane-instance';

/**
 * Offers `value` to commands while this pane is mounted: a command reads it with `ctx.pane(key)` when
 * this pane is the focused one. The latest value is always read (a ref), so handlers may close over
 * fresh state without re-registering on every render.
 */
export function usePaneContext<T extends object>(key: PaneContextKey<T>, value: T): void {
  const instance = usePaneInstance();
  const latest = useRef(value);
  latest.current = value;
  useEffect(() => {
    const proxy = new Proxy({} as T, {
      get: (_t, prop) => Reflect.get(latest.current, prop) as unknown,
      has: (_t, prop) => Reflect.has(latest.current, prop),
    });
    return paneContexts.provide(key, instance, proxy);
  }, [key, instance]);
}
