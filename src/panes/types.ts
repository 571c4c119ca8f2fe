import type { ComponentType } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { Permission } from '@/api/contracts/permissions';
import type { SearchKind } from '@/api/contracts/search';

export type PaneParams = Record<string, string>;

/**
 * Starts the calls a pane needs first (react-query prefetches under the keys its components read), so
 * they run beside its code's download instead of after it: on a deep link, on open, on hover of a command
 * that opens it. Must be cheap and idempotent (prefetchQuery is).
 */
export type PanePrefetch = (params: PaneParams, queryClient: QueryClient) => void;

export interface PaneProps {
  params: PaneParams;
  /** Replace this pane's params (and so its URL), e.g. when a selection changes; `replace` adds no history entry. */
  setParams(next: PaneParams, opts?: { replace?: boolean }): void;
}

/** A kind of pane: where it lives in the URL space and what it shows. */
export interface PaneKind {
  id: string;
  /** Title in its tab; `{name}` placeholders read from params. */
  title: string;
  /** Spec route patterns, e.g. '/jobs/:id'. The first one is used to build the pane's URL. */
  routes: string[];
  /** Query parameters the pane reads from its URL. */
  query?: string[];
  /**
   * Query params that hold the pane's view state (filters, searches; see src/ui/use-url-state.ts): opening
   * the pane without them (palette, a plain link) keeps its current ones; back/forward restore them exactly.
   */
  viewState?: string[];
  /** Params that make two panes of this kind different (default: every path param). */
  identity?: string[];
  /** Opening this pane needs this permission. */
  permission?: Permission;
  /** Absent while the pane's feature is not built: the workbench says so plainly. */
  component?: ComponentType<PaneProps>;
  /**
   * The entity its path param names (`/jobs/:id`: a job; `/simulation/:vid`: a simulation): the
   * palette's `pane.open.<id>` asks for it with a searchable pick list, never a raw id; scripts still type it.
   */
  entity?: SearchKind;
  /** The pane's first calls, started ahead (see PanePrefetch). */
  prefetch?: PanePrefetch;
  /** One line for the start pane and the palette. */
  description?: string;
  /** Hidden from the palette's open-pane commands (e.g. it needs params). */
  listed?: boolean;
  /** The feature command that opens this pane (with a pick list or a picker): no `pane.open.<id>` beside it in the palette. */
  openedBy?: string;
}

export interface PaneRef {
  kind: string;
  params: PaneParams;
  /** The dock panel's id, when the pane is open. */
  id?: string;
}
