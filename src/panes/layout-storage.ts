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

/**
 * The layout without the panes' view state (filters and searches named by a pane kind's `viewState`):
 * those live in the URL and in each feature's own storage, which knows what may be kept (a supplied
 * filter is not, JOB-015); a remembered layout must not keep them behind its back.
 */
export function withoutViewState(layout: SerializedDockview, viewStateOf: (kind: string) => readonly string[] | undefined): SerializedDockview {
  const panels = Object.fromEntries(
    Object.entries(layout.panels).map(([id, panel]) => {
      const p = panel.params as { kind?: string; params?: Record<string, string> } | undefined;
      const drop = p?.kind ? viewStateOf(p.kind) : undefined;
      if (!p?.params || !drop?.length) return [id, panel];
      const params = Object.fromEntries(Object.entries(p.params).filter(([k]) => !drop.includes(k)));
      return [id, { ...panel, params: { ...p, params } }];
    }),
  );
  return { ...layout, panels };
}
