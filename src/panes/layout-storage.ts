import type { SerializedDockview } from 'dockview-react';

/** Bump when the saved shape changes: older layouts are then ignored and the default is used. */
export const LAYOUT_VERSION = 1;

export const layoutKey = (userId: number | string) => `vigil.layout.v${LAYOUT_VERSION}:${userId}`;

export type LoadedLayout = { status: 'none' } | { status: 'ok'; layout: SerializedDockview } | { status: 'corrupt'; reason: string };

export function loadLayout(key: string, storage: Storage = localStorage): LoadedLayout {
  const raw = storage.getItem(key);
  if (raw === null) return { status: 'none' };
  try {
    const parsed = JSON.parse(raw) as { version?: unknown; layout?: unknown };
    if (parsed?.version !== LAYOUT_VERSION) return { status: 'corrupt', reason: 'it was saved by another version' };
    const layout = parsed.layout as SerializedDockview | undefined;
    if (!layout || typeof layout !== 'object' || !layout.grid || !layout.panels) return { status: 'corrupt', reason: 'it is incomplete' };
    return { status: 'ok', layout };
  } catch {
    return { status: 'corrupt', reason: 'it is not readable' };
  }
}

export function saveLayout(key: string, layout: SerializedDockview, storage: Storage = localStorage): void {
  try {
    storage.setItem(key, JSON.stringify({ version: LAYOUT_VERSION, layout }));
  } catch {
    // Storage full or disabled: the layout simply is not remembered.
  }
}
