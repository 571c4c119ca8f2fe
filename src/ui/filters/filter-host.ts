import { definePaneContext, paneContexts } from '@/commands/pane-contexts';
import type { FilterTarget, SavedFilterBody } from '@/api/contracts/filters';

/**
 * What a pane showing a filter panel (the Jobs pane, the Action library) offers the filter commands,
 * which live in their own feature: `ctx.pane(filterHostPane)`. Features never import each other, so
 * both sides meet here. A pane provides it with `useFilterHost` (`use-filter-host.ts`).
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

export const filterHostPane = definePaneContext<FilterHost>('filters.host');

/** The pane kind that shows each target's filter panel. */
const TARGET_PANE_KINDS: Record<FilterTarget, string> = { jobs: 'jobs', actions: 'actions' };

/** Where the pane of a target opens. */
const TARGET_URLS: Record<FilterTarget, string> = { jobs: '/jobs', actions: '/manage_sims/actions' };

/** A filter to load into a target's pane when it mounts. */
const pending = new Map<FilterTarget, SavedFilterBody>();

/** The mounted pane of a target, focused or not. */
function mountedHostOf(target: FilterTarget): FilterHost | null {
  const host = paneContexts.lookup(filterHostPane, { kind: TARGET_PANE_KINDS[target] });
  return host?.target === target ? host : null;
}

/** A pane that just mounted loads the filter waiting for its target, once. */
export function loadPendingFilter(host: FilterHost): void {
  const waiting = pending.get(host.target);
  if (!waiting) return;
  pending.delete(host.target);
  host.load(waiting);
}

/**
 * Loads a filter into the pane of its target: at once when that pane is mounted, else when it mounts.
 * Returns the URL that shows the pane. A filter loaded at once leaves nothing pending, so a later mount
 * of the pane does not apply it again.
 */
export function loadIntoTarget(target: FilterTarget, body: SavedFilterBody): string {
  const mounted = mountedHostOf(target);
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
