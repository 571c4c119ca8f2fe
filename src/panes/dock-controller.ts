import type { DockviewApi, IDockviewPanel, SerializedDockview } from 'dockview-react';
import type { QueryClient } from '@tanstack/react-query';
import type { Permission } from '@/api/contracts/permissions';
import type { DockControl } from '@/commands/types';
import { isLazy } from './lazy';
import { paneKey, paneTitle, paneUrl } from './route-match';
import type { PaneRegistry } from './registry';
import { ROUTE_REDIRECTS } from './spec-routes';
import type { PaneParams, PaneRef } from './types';

export const PANE_COMPONENT = 'pane';

/** The URL a redirected path (ROUTE_REDIRECTS) leads to, with its query kept; null when it is not redirected. */
export function redirectOf(url: string): string | null {
  const [path = '', query] = url.split('?');
  const to = ROUTE_REDIRECTS[path.replace(/\/+$/, '') || '/'];
  return to ? `${to}${query !== undefined ? `?${query}` : ''}` : null;
}
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
  private recent: string[] = [];
  onLayoutReset: (() => void) | null = null;

  constructor(
    private panes: PaneRegistry,
    private history: UrlHistory,
    /** Where a pane's first calls are prefetched (see `warm`); none in tests of the dock alone. */
    private queryClient: QueryClient | null = null,
    /** Whether the user holds a pane's permission: a pane they may not open starts no calls (they would answer 403). */
    private permitted: (permission: Permission) => boolean = () => true,
  ) {}

  /**
   * Fetches a pane's code and starts its first calls (its kind's `prefetch`) ahead of rendering it, so
   * the two run side by side: called for the deep link before the dock is drawn, on open, and by commands
   * on hover of their buttons. Idempotent and never throws.
   */
  warm(ref: PaneRef): void {
    const kind = this.panes.get(ref.kind);
    if (!kind || (kind.permission && !this.permitted(kind.permission))) return;
    if (isLazy(kind.component)) void kind.component.preload().catch(() => undefined);
    if (kind.prefetch && this.queryClient) {
      try {
        kind.prefetch(ref.params, this.queryClient);
      } catch {
        // A prefetch is only a head start: the pane asks again and shows its own error.
      }
    }
  }

  /** `warm` for the pane a URL opens. */
  warmUrl(url: string): void {
    this.warm(this.refFor(redirectOf(url) ?? url));
  }

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
      const id = api.activePanel?.id;
      if (id) this.recent = [id, ...this.recent.filter((x) => x !== id)].slice(0, 50);
      if (!this.quiet) this.syncUrl();
      this.listeners.forEach((l) => l());
    });
  }

  /** Panel ids, most recently focused first (panels since closed are left out). */
  recentPanelIds(): string[] {
    return this.recent.filter((id) => !!this.api?.getPanel(id));
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

  /**
   * A saved layout in which the pane a URL names (when the layout has it) already carries the URL's
   * params, so a reload's deep link is what that pane first renders with. Updating the params after
   * `fromJSON` is not enough: dockview holds an update to a panel not yet mounted until its first
   * render has committed, and that render (with the saved params) would run the pane's effects, which
   * write the pane's remembered state over the URL's (the Jobs pane dropped `job=` on reload).
   */
  layoutWithUrl(layout: SerializedDockview, url: string): SerializedDockview {
    const ref = this.refFor(redirectOf(url) ?? url);
    const id = this.keyFor(ref);
    const panel = layout.panels[id];
    if (!panel) return layout;
    const params: PanelParams = { kind: ref.kind, params: ref.params };
    return { ...layout, panels: { ...layout.panels, [id]: { ...panel, params, title: this.titleFor(params) } } };
  }

  /** Opens the pane of a URL; `exact` (back/forward, a deep link) also restores its view state as the URL says. */
  openUrl(url: string, opts: { exact?: boolean } = {}): void {
    const target = redirectOf(url);
    if (target) {
      // A redirect replaces the old path in the address bar, so Back does not bounce through it again.
      if (this.history.current() === url) this.history.replace(target);
      this.open(this.refFor(target), opts);
      return;
    }
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
    this.warm(params);
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

  /** Panels that ask before they close (a pane with unsaved work), by panel id. */
  private closeGuards = new Map<string, () => boolean | Promise<boolean>>();

  /** While registered, closing the panel (tab button, Close Pane) first asks `guard`; false keeps it open. */
  guardClose(panelId: string, guard: () => boolean | Promise<boolean>): () => void {
    this.closeGuards.set(panelId, guard);
    return () => {
      if (this.closeGuards.get(panelId) === guard) this.closeGuards.delete(panelId);
    };
  }

  /** Closes a panel unless its guard says no; resolves whether it closed. */
  async requestClose(panelId: string): Promise<boolean> {
    const guard = this.closeGuards.get(panelId);
    if (guard && !(await guard())) return false;
    const panel = this.api?.getPanel(panelId);
    if (!panel) return false;
    panel.api.close();
    return true;
  }

  closeActive(): Promise<boolean> | void {
    const panel = this.api?.activePanel;
    if (panel) return this.requestClose(panel.id);
  }

  /**
   * A dock for work started from panel `homeId` (a running script): panes it opens go to another group
   * (a new one to the right when there is none), never over the home panel, and it cannot close the home
   * panel or reset the layout away from under it.
   */
  keepingInPlace(homeId: string, homeTitle: string): DockControl {
    let besideGroupId: string | null = null;
    const refuse = (what: string) => {
      throw new Error(`${what} would close the ${homeTitle} pane running this script, so the step was refused.`);
    };
    const openKeeping = (url: string) => {
      const api = this.api;
      const home = api?.getPanel(homeId);
      const ref = this.refFor(url);
      const id = this.keyFor(ref);
      if (!api || !home || id === homeId) {
        this.open(ref);
        return;
      }
      const remembered = besideGroupId ? api.groups.find((g) => g.id === besideGroupId) : undefined;
      const target = remembered ?? api.groups.find((g) => g !== home.group);
      const existing = api.getPanel(id);
      if (existing && existing.group === home.group) {
        if (target) existing.api.moveTo({ group: target });
        else existing.api.moveTo({ group: home.group, position: 'right' });
      }
      if (existing) {
        this.open(ref);
        besideGroupId = existing.group.id;
        return;
      }
      const panel = api.addPanel<PanelParams>({
        id,
        component: PANE_COMPONENT,
        title: this.titleFor(ref),
        params: { kind: ref.kind, params: ref.params },
        position: target ? { referenceGroup: target, direction: 'within' } : { referenceGroup: home.group, direction: 'right' },
      });
      besideGroupId = panel.group.id;
    };
    return {
      openUrl: openKeeping,
      openBeside: openKeeping,
      focusNext: (step) => this.focusNext(step),
      moveActive: (direction) => this.moveActive(direction),
      closeActive: () => {
        if (this.api?.activePanel?.id === homeId) refuse('pane.close');
        return this.closeActive();
      },
      resetLayout: () => refuse('layout.reset'),
    };
  }

  resetLayout(): void {
    this.onLayoutReset?.();
  }
}
