import type { FilterTarget, SavedFilterBody } from '@/api/contracts/filters';

/**
 * Where a pane showing a filter panel (the Jobs pane, the Action library) offers it to the filter
 * commands, which live in their own feature: features never import each other, so both sides meet here.
 */
export interface FilterHost {
  target: FilterTarget;
  /** The URL that opens the pane (a saved filter applied elsewhere opens it first). */
  url: string;
  focus(): void;
  clear(): void;
  /** Applies the panel's draft, as Update Filter does. */
  apply(): void;
  load(body: SavedFilterBody): void;
  current(): SavedFilterBody;
}

const hosts = new Map<string, FilterHost>();
/** A filter to load into a target's pane when it mounts. */
const pending = new Map<FilterTarget, SavedFilterBody>();

/** Registers the mounted pane of a kind; a filter waiting for its target is loaded at once. */
export function registerFilterHost(paneKind: string, host: FilterHost): () => void {
  hosts.set(paneKind, host);
  const waiting = pending.get(host.target);
  if (waiting) {
    pending.delete(host.target);
    host.load(waiting);
  }
  return () => {
    if (hosts.get(paneKind) === host) hosts.delete(paneKind);
  };
}

export const filterHostFor = (pane: { kind: string } | null): FilterHost | null => (pane ? (hosts.get(pane.kind) ?? null) : null);

export const filterHostOfTarget = (target: FilterTarget): FilterHost | null => [...hosts.values()].find((h) => h.target === target) ?? null;

/**
 * Loads a filter into the pane of its target: at once when that pane is mounted, else when it mounts.
 * Returns the URL that shows the pane. A filter loaded at once leaves nothing pending, so a later mount
 * of the pane does not apply it again.
 */
export function loadIntoTarget(target: FilterTarget, body: SavedFilterBody): string {
  const mounted = filterHostOfTarget(target);
  if (mounted) {
    pending.delete(target);
    mounted.load(body);
    return mounted.url;
  }
  pending.set(target, body);
  return TARGET_URLS[target];
}

/** The filter waiting for a target's pane to mount (tests). */
export const pendingFilterOf = (target: FilterTarget): SavedFilterBody | null => pending.get(target) ?? null;

/** Where the pane of a target opens. */
export const TARGET_URLS: Record<FilterTarget, string> = { jobs: '/jobs', actions: '/manage_sims/actions' };
