import type { DockviewApi, IDockviewPanel } from 'dockview-react';
import type { DockControl } from '@/commands/types';
import { paneKey, paneTitle, paneUrl } from './route-match';
import type { PaneRegistry } from './registry';
import type { PaneParams, PaneRef } from './types';

export const PANE_COMPONENT = 'pane';
export const NOT_FOUND_KIND = 'not-found';
export const START_KIND = 'start';

export interface PanelParams {
  kind: string;
  params: PaneParams;
}

export interface UrlHistory {
  push(url: string): void;
  replace(url: string): void;
  current(): string;
}

/**
 * Keeps the URL and the dock in agreement: opening a URL opens or focuses the pane whose key it names;
 * focusing a pane writes its URL to the address bar (so back and forward walk the focus history).
 */
export class DockController implements DockControl {
  private api: DockviewApi | null = null;
  private listeners = new Set<() => void>();
  onLayoutReset: (() => void) | null = null;

  constructor(
    private panes: PaneRegistry,
    private history: UrlHistory,
  ) {}

  /** While true (restoring a layout), focus changes do not write the URL. */
  private quiet = false;

  /** Runs layout work without writing the URL on each focus change it causes. */
  quietly(fn: () => void): void {
    this.quiet = true;
    try {
      fn();
    } finally {
      this.quiet = false;
    }
  }

  attach(api: DockviewApi): void {
    this.api = api;
    api.onDidActivePanelChange(() => {
      if (!this.quiet) this.syncUrl();
      this.listeners.forEach((l) => l());
    });
  }

  get dock(): DockviewApi | null {
    return this.api;
  }

  /** Notified when the focused pane changes. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  refFor(url: string): PaneRef {
    const path = url.split('?')[0] ?? '/';
    if (path === '/' || path === '') return { kind: START_KIND, params: {} };
    return this.panes.routes().match(url) ?? { kind: NOT_FOUND_KIND, params: { path: url } };
  }

  urlFor(ref: PaneRef): string {
    if (ref.kind === NOT_FOUND_KIND) return ref.params.path ?? '/';
    if (ref.kind === START_KIND) return '/';
    const kind = this.panes.get(ref.kind);
    return kind ? paneUrl(kind, ref.params) : '/';
  }

  keyFor(ref: PaneRef): string {
    if (ref.kind === NOT_FOUND_KIND) return `${NOT_FOUND_KIND}:${ref.params.path ?? ''}`;
    const kind = this.panes.get(ref.kind);
    return kind ? paneKey(kind, ref.params) : ref.kind;
  }

  titleFor(ref: PaneRef): string {
    if (ref.kind === NOT_FOUND_KIND) return 'Not Found';
    if (ref.kind === START_KIND) return 'Start';
    const kind = this.panes.get(ref.kind);
    return kind ? paneTitle(kind, ref.params) : ref.kind;
  }

  /** Opens the pane of a URL; `exact` (back/forward, a deep link) also restores its view state as the URL says. */
  openUrl(url: string, opts: { exact?: boolean } = {}): void {
    this.open(this.refFor(url), opts);
  }

  /** Opens the pane of a URL in a new group to the right of the focused pane, or focuses it when already open. */
  openBeside(url: string): void {
    const api = this.api;
    const ref = this.refFor(url);
    if (!api || api.getPanel(this.keyFor(ref)) || !api.activePanel) {
      this.open(ref);
      return;
    }
    api.addPanel<PanelParams>({
      id: this.keyFor(ref),
      component: PANE_COMPONENT,
      title: this.titleFor(ref),
      params: { kind: ref.kind, params: ref.params },
      position: { referenceGroup: api.activePanel.group, direction: 'right' },
    });
  }

  /**
   * Opens the pane, or focuses it (with its new params) when its key is already open. Unless `exact`,
   * an open pane keeps the view state (filters, searches) the URL does not name.
   */
  open(ref: PaneRef, opts: { exact?: boolean } = {}): IDockviewPanel | null {
    const api = this.api;
    if (!api) return null;
    const id = this.keyFor(ref);
    const existing = api.getPanel(id);
    const current = existing?.params as PanelParams | undefined;
    const kept = opts.exact || !current ? {} : Object.fromEntries((this.panes.get(ref.kind)?.viewState ?? []).filter((k) => current.params[k] && !(k in ref.params)).map((k) => [k, current.params[k]!]));
    const params: PanelParams = { kind: ref.kind, params: { ...ref.params, ...kept } };
    if (existing) {
      if (JSON.stringify(current?.params) !== JSON.stringify(params.params)) {
        existing.api.updateParameters(params);
        existing.api.setTitle(this.titleFor(params));
      }
      if (api.activePanel !== existing) existing.api.setActive();
      else this.syncUrl();
      return existing;
    }
    const active = api.activePanel;
    const panel = api.addPanel<PanelParams>({
      id,
      component: PANE_COMPONENT,
      title: this.titleFor(ref),
      params,
      ...(active ? { position: { referenceGroup: active.group, direction: 'within' as const } } : {}),
    });
    return panel;
  }

  /** Replaces a pane's params (e.g. a selection or a filter) and, when it is focused, its URL: a new history entry unless `replace`. */
  updateParams(panelId: string, next: PaneParams, opts: { replace?: boolean } = {}): void {
    const api = this.api;
    const panel = api?.getPanel(panelId);
    if (!api || !panel) return;
    const { kind } = panel.params as PanelParams;
    const ref = { kind, params: next };
    const nextId = this.keyFor(ref);
    if (nextId !== panelId) {
      // The pane now shows another item (a new monitor once saved is 'Monitor N'): its tab becomes that
      // item's, in place, so the URL it pushes finds it instead of opening a second tab for it.
      const replacement =
        api.getPanel(nextId) ??
        api.addPanel<PanelParams>({ id: nextId, component: PANE_COMPONENT, title: this.titleFor(ref), params: ref, position: { referencePanel: panel, direction: 'within' } });
      const wasActive = api.activePanel === panel;
      panel.api.close();
      if (wasActive) {
        replacement.api.setActive();
        this.syncUrl();
      }
      return;
    }
    panel.api.updateParameters({ kind, params: next });
    panel.api.setTitle(this.titleFor({ kind, params: next }));
    if (this.api?.activePanel === panel) {
      const url = this.urlFor({ kind, params: next });
      if (url === this.history.current()) return;
      if (opts.replace) this.history.replace(url);
      else this.history.push(url);
    }
  }

  activeRef(): PaneRef | null {
    const p = this.api?.activePanel;
    if (!p) return null;
    const { kind, params } = p.params as PanelParams;
    return { kind, params, id: p.id };
  }

  syncUrl(): void {
    const ref = this.activeRef();
    const url = ref ? this.urlFor(ref) : '/';
    if (url !== this.history.current()) this.history.push(url);
  }

  focusNext(step: 1 | -1): void {
    const api = this.api;
    if (!api) return;
    const panels = api.panels;
    if (panels.length < 2) return;
    // Visual order: group by group (as laid out), then tab order within a group.
    const ordered = api.groups.flatMap((g) => g.panels);
    const i = api.activePanel ? ordered.indexOf(api.activePanel) : -1;
    const next = ordered[(i + step + ordered.length) % ordered.length];
    next?.api.setActive();
  }

  moveActive(direction: 'left' | 'right'): void {
    const api = this.api;
    const panel = api?.activePanel;
    if (!api || !panel) return;
    const groups = api.groups;
    const gi = groups.indexOf(panel.group);
    const target = groups[gi + (direction === 'right' ? 1 : -1)];
    if (target) panel.api.moveTo({ group: target });
    else if (panel.group.panels.length > 1) panel.api.moveTo({ group: panel.group, position: direction });
    panel.api.setActive();
  }

  closeActive(): void {
    this.api?.activePanel?.api.close();
  }

  resetLayout(): void {
    this.onLayoutReset?.();
  }
}
