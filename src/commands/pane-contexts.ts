/**
 * Pane contexts: how a command reaches the state of the pane it acts on, without React in `run` and
 * without ad-hoc "bridge" modules.
 *
 * A feature declares a typed key once (`definePaneContext<ScriptsPaneApi>('scripts.editor')`). The
 * pane's component provides a value while it is mounted (`usePaneContext(key, value)` from
 * `src/panes/use-pane-context.ts`), and a command reads the focused pane's value with
 * `ctx.pane(key)`. Values are kept per pane instance (the dock's panel id), so two open panes of one
 * kind never see each other's state: the focused one wins.
 */

/** A typed name for one kind of pane context. */
export interface PaneContextKey<T> {
  readonly name: string;
  /** Type witness only; never set. */
  readonly __type?: T;
}

export function definePaneContext<T>(name: string): PaneContextKey<T> {
  return { name };
}

/** Where a value was provided: the dock panel's id and the pane kind ('*' outside a workbench, e.g. a component test). */
export interface PaneInstance {
  id: string;
  kind: string;
  params?: Record<string, string>;
}

interface Entry {
  instance: PaneInstance;
  value: unknown;
}

export type PaneRef = { kind: string; id?: string } | null;

/** The registry of provided pane contexts (one per workbench page). */
export class PaneContextStore {
  private entries = new Map<string, Entry[]>();
  private listeners = new Set<() => void>();
  private version = 0;

  /** Menus and buttons re-render when a pane provides or withdraws a context. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  getVersion(): number {
    return this.version;
  }

  private changed(): void {
    this.version++;
    this.listeners.forEach((l) => l());
  }

  /** Provides `value` for `key` from one pane instance; returns the disposer. */
  provide<T>(key: PaneContextKey<T>, instance: PaneInstance, value: T): () => void {
    const entry: Entry = { instance, value };
    const list = (this.entries.get(key.name) ?? []).filter((e) => e.instance.id !== instance.id);
    list.push(entry);
    this.entries.set(key.name, list);
    this.changed();
    return () => {
      const now = this.entries.get(key.name);
      if (now) this.entries.set(key.name, now.filter((e) => e !== entry));
      this.changed();
    };
  }

  /**
   * The value the focused pane provides: the entry of its panel id, else the latest of its kind,
   * else (a pane rendered outside a workbench) the latest standalone one.
   */
  lookup<T>(key: PaneContextKey<T>, active: PaneRef): T | undefined {
    const list = this.entries.get(key.name) ?? [];
    const pick = (p: (e: Entry) => boolean) => [...list].reverse().find(p)?.value as T | undefined;
    if (!active) return pick((e) => e.instance.kind === '*');
    return (
      (active.id !== undefined ? pick((e) => e.instance.id === active.id) : undefined) ??
      pick((e) => e.instance.kind === active.kind) ??
      pick((e) => e.instance.kind === '*')
    );
  }
}

export const paneContexts = new PaneContextStore();
