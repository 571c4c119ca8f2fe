import { RouteTable } from './route-match';
import type { PaneComponent } from './feature-module';
import type { PaneKind } from './types';

/** Pane kinds by id: the spec catalog, with features' panes replacing the entries they build. */
export class PaneRegistry {
  private kinds = new Map<string, PaneKind>();
  private table: RouteTable | null = null;

  constructor(kinds: readonly PaneKind[] = []) {
    kinds.forEach((k) => this.add(k));
  }

  add(kind: PaneKind): void {
    const existing = this.kinds.get(kind.id);
    if (existing?.component && kind.component) throw new Error(`Pane "${kind.id}" is built by two features`);
    this.kinds.set(kind.id, existing ? { ...existing, ...kind } : kind);
    this.table = null;
  }

  /** A feature's component for a pane of the table; an id the table does not know is a bug. */
  build(pane: PaneComponent): void {
    if (!this.kinds.has(pane.id)) throw new Error(`Pane "${pane.id}" is not in src/panes/spec-routes.ts: add its route there`);
    this.add({ ...this.kinds.get(pane.id)!, component: pane.component, ...(pane.prefetch ? { prefetch: pane.prefetch } : {}) });
  }

  get(id: string): PaneKind | undefined {
    return this.kinds.get(id);
  }

  list(): PaneKind[] {
    return [...this.kinds.values()];
  }

  routes(): RouteTable {
    return (this.table ??= new RouteTable(this.list()));
  }
}
