import { RouteTable } from './route-match';
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
