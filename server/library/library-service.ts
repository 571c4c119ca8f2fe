import type { Db } from '../db/index';
import { DEFAULT_DIRECTION, LIBRARY_STATUSES, SORT_LABELS, LIBRARY_SORTS, STATUS_LABELS, TAG_TYPE_LABELS, type LatestJob, type LibraryItem, type LibraryFiltersAnswer, type LibraryTag, type SimulationLibraryItem, type TreeNode } from '../../src/api/contracts/library';
import { ChangeFeed, STALE_AFTER_MS } from './change-feed';
import { JobStatuses } from './job-statuses';
import { AnswerCache } from '../answer-cache';
import { itemJson, type ItemJson } from './item-json';
import { SortedIndex, matchesStatus, type IndexEntry } from './sorted-index';
import type { Dimension } from '../../src/api/contracts/library/answers';
import { loadActionEntries, loadDimensions, loadSimulationEntries, loadTags, type ActionEntry, type SimulationEntry, type TagInfo } from './sources';
import { NameSearch } from '../search/name-search';
import { ACTION_TYPES, ACTION_TYPE_LABELS, DIMENSION_LABELS, DIMENSION_TYPES } from '../../src/api/contracts/vocabulary';

const PRUNE_EVERY_MS = 10 * 60_000;
/**
 * While nothing was written through this director, the change log is read at most this often: writes
 * of other directors (on one PostgreSQL) show within it; writes made here show in the very next call.
 */
const POLL_EVERY_MS = 200;
/** Above this many changed Actions a refresh reloads everything. */
const FULL_RELOAD_ABOVE = 20_000;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The library's in-memory index of Actions and simulations. PGlite (and PostgreSQL without extensions)
 * has no index for case-insensitive substring search, and counting 100,000 matches costs tens of
 * milliseconds, so list calls filter and sort here; pages are slices of cached results. The index is
 * kept in step with the database through library_changes (migrations 005 and 012), whoever writes,
 * and list calls read no database while nothing changed.
 *
 * Size: one class because every list call, the quick-open name search and the change-feed refresh share
 * the index's state (entries, sorted orders, answer cache) and its freshness rule; the pieces that stand
 * alone already live beside it (change-feed, sorted-index, sources, item-json; ../answer-cache).
 */
export class LibraryService {
  readonly actions = new SortedIndex<ActionEntry>();
  /** Quick open's search of Action names (GET /search.json): decommissioned Actions are not found. */
  readonly actionNames = new NameSearch(this.actions, (e) => !e.decommissioned);
  private readonly sims = new SortedIndex<SimulationEntry>();
  private tags = new Map<number, TagInfo>();
  /** Item JSON written with older tags is written again. */
  private tagsGen = 0;
  /** Moves each time the tags and dimension trees are read again (kept answers name tags and filter by trees). */
  private referenceGen = 0;
  private tagsSignature = '';
  private warmToken = 0;
  /** Answers as sent (the legacy pages, list pages, the filters), until the list, the tags, the trees or a job status changes. */
  readonly answers = new AnswerCache(() => `${this.actions.version}:${this.tagsGen}:${this.referenceGen}:${this.jobs.version}`);
  private dimensions: Dimension[] = [];
  private dimensionChildren = new Map<number, number[]>();
  private feed: ChangeFeed;
  private jobs: JobStatuses;
  private built = false;
  private building: Promise<void> | null = null;
  private running: Promise<void> = Promise.resolve();
  private pendingRefresh: Promise<void> | null = null;
  /** The refresh under way and the write count it started at. */
  private current: { writes: number; done: Promise<void> } | null = null;
  /** When the last finished poll started (performance.now()) and the write count it started at. */
  private polledAt = -Infinity;
  private polledWrites = -1;
  private simsStale = true;
  private lastPrune = Date.now();
  private facetsCache = new Map<string, LibraryFiltersAnswer>();
  /**
   * Moves when quick open's small kinds (simulations, actors, monitors, saved filters, scripts,
   * dashboards) may have changed, as the change feed says (migration 020): server/search/small-kinds.ts
   * reads them again then.
   */
  searchVersion = 0;

  constructor(
    private db: Db,
    private onError: (e: unknown) => void = () => undefined,
  ) {
    this.feed = new ChangeFeed(db);
    this.jobs = new JobStatuses(db);
  }

  get ready(): boolean {
    return this.built;
  }

  /** Starts building in the background (the legacy list answers 204 until it is done). */
  warm(): void {
    if (this.built || this.building) return;
    this.building = this.build()
      .catch((e) => this.onError(e))
      .finally(() => (this.building = null));
  }

  /** Brings the index up to date with everything committed before this call. */
  async fresh(): Promise<void> {
    if (!this.built) {
      await (this.building ??= this.build().finally(() => (this.building = null)));
      return;
    }
    const writes = this.db.writes.version;
    if (writes === this.polledWrites && performance.now() - this.polledAt < POLL_EVERY_MS) return;
    // A refresh that started after this caller's last write covers it.
    if (this.current && this.current.writes === writes) return this.current.done;
    // One refresh runs at a time; callers arriving meanwhile share the next one, which starts after it.
    if (this.pendingRefresh) return this.pendingRefresh;
    const next = this.running.then(() => {
      this.pendingRefresh = null;
      const started = { writes: this.db.writes.version, at: performance.now() };
      const done = this.refresh().then(() => {
        this.polledWrites = started.writes;
        this.polledAt = started.at;
      });
      this.current = { writes: started.writes, done };
      return done.finally(() => {
        if (this.current?.done === done) this.current = null;
      });
    });
    this.pendingRefresh = next;
    this.running = next.catch(() => undefined);
    return next;
  }

  /**
   * For reads that may lag other directors' writes by about a poll (quick open, per keystroke): writes
   * made through this director are waited for, as fresh() does; the periodic read of the change log
   * for the others' runs beside the caller instead of before it (a keystroke then reads no table, where
   * the poll every 200 ms was the wall clock's tail: bench:palette).
   */
  async freshForKeystroke(): Promise<void> {
    if (!this.built || this.db.writes.version !== this.polledWrites) return this.fresh();
    if (performance.now() - this.polledAt >= POLL_EVERY_MS && !this.pendingRefresh && !this.current) void this.fresh().catch((e) => this.onError(e));
  }

  private async build(): Promise<void> {
    const started = { writes: this.db.writes.version, at: performance.now() };
    await this.feed.start();
    this.jobs.clear();
    await this.loadReferenceData();
    const { entries } = await loadActionEntries(this.db, null, this.tags);
    this.actions.replaceAll(entries);
    this.actions.prepare();
    this.simsStale = true;
    this.searchVersion++;
    this.facetsCache.clear();
    this.built = true;
    this.polledWrites = started.writes;
    this.polledAt = started.at;
    this.warmItemJson();
  }

  private async refresh(): Promise<void> {
    if (Date.now() - this.feed.lastPollAt > STALE_AFTER_MS) {
      await this.build();
      return;
    }
    const batch = await this.feed.poll();
    if (batch.jobIds.size) this.jobs.forget(batch.jobIds);
    if (batch.search || batch.simulations) this.searchVersion++;
    if (!batch.actionIds.size && !batch.simulations && !batch.reference) return;
    const tagsGen = this.tagsGen;
    if (batch.reference) await this.loadReferenceData();
    let simsAffected = batch.simulations || batch.reference;
    if (batch.actionIds.size > FULL_RELOAD_ABOVE) {
      const { entries } = await loadActionEntries(this.db, null, this.tags);
      this.actions.replaceAll(entries);
      this.actions.prepare();
      this.warmItemJson();
      simsAffected = true;
    } else if (batch.actionIds.size) {
      const before = new Map([...batch.actionIds].map((id) => [id, this.actions.byId(id)]));
      const { entries, missing } = await loadActionEntries(this.db, [...batch.actionIds], this.tags);
      this.actions.apply(entries, missing);
      // A simulation shows its Actions' VIDs and names and is approved when they all are; other changes
      // (runs, tags, files, descriptions) and new Actions leave every simulation as it was. An Action
      // removed from a simulation is logged as a simulation change by the step triggers.
      simsAffected ||= entries.some((e) => changedForSimulations(before.get(e.id), e));
    }
    if (tagsGen !== this.tagsGen) this.warmItemJson();
    if (simsAffected) this.simsStale = true;
    this.facetsCache.clear();
    if (Date.now() - this.lastPrune > PRUNE_EVERY_MS) {
      this.lastPrune = Date.now();
      await this.feed.prune();
    }
  }

  private async loadReferenceData(): Promise<void> {
    this.tags = await loadTags(this.db);
    const signature = JSON.stringify([...this.tags.values()]);
    if (signature !== this.tagsSignature) {
      // Changed tags are logged for their Actions (migration 005); starting over also covers writers that bypass that.
      this.tagsSignature = signature;
      this.tagsGen++;
    }
    this.dimensions = await loadDimensions(this.db);
    this.dimensionChildren = new Map();
    for (const d of this.dimensions) {
      if (d.parent_id === null) continue;
      const list = this.dimensionChildren.get(d.parent_id) ?? [];
      list.push(d.id);
      this.dimensionChildren.set(d.parent_id, list);
    }
    // Last: an answer built while these were read is not kept (its stamp moved meanwhile).
    this.referenceGen++;
  }

  async simulations(): Promise<SortedIndex<SimulationEntry>> {
    await this.fresh();
    if (this.simsStale) {
      this.sims.replaceAll(await loadSimulationEntries(this.db, this.tags));
      this.simsStale = false;
    }
    return this.sims;
  }

  hasTag(id: number): boolean {
    return this.tags.has(id);
  }

  /**
   * Selected tree nodes as per-dimension allowed sets: a node stands for itself and its descendants;
   * nodes of one tree are alternatives (or), trees combine with and. Unknown ids are returned apart.
   */
  expandDimensions(ids: readonly number[]): { groups: { position: number; ids: Set<number> }[]; unknown: number[] } {
    const byId = new Map(this.dimensions.map((d) => [d.id, d]));
    const groups = new Map<number, Set<number>>();
    const unknown: number[] = [];
    for (const id of ids) {
      const node = byId.get(id);
      if (!node) {
        unknown.push(id);
        continue;
      }
      const position = (DIMENSION_TYPES as readonly string[]).indexOf(node.type);
      const set = groups.get(position) ?? new Set<number>();
      const stack = [id];
      while (stack.length) {
        const n = stack.pop()!;
        if (set.has(n)) continue;
        set.add(n);
        stack.push(...(this.dimensionChildren.get(n) ?? []));
      }
      groups.set(position, set);
    }
    return { groups: [...groups].map(([position, set]) => ({ position, ids: set })), unknown };
  }

  tagsOf(entry: IndexEntry): LibraryTag[] {
    const out: LibraryTag[] = [];
    for (const id of entry.tags) {
      const t = this.tags.get(id);
      if (t) out.push({ id: t.id, name: t.name, tagType: t.tag_type });
    }
    return out;
  }

  /** The list items of these entries as a JSON array (LibraryItem). */
  async actionItemsJson(entries: readonly ActionEntry[]): Promise<string> {
    const latest = await this.latestJobs(entries);
    // One join over all the pieces: a page is one flat string, with no string per item in between.
    const parts: string[] = ['['];
    entries.forEach((e, i) => {
      const json = this.itemJsonOf(e);
      parts.push(i ? ',' : '', json.head, JSON.stringify(latest(e)), json.tail);
    });
    parts.push(']');
    return parts.join('');
  }

  /** The latest job of each entry (statuses from memory; the ones not known yet are read in one query). */
  private async latestJobs<E extends { latestJobId: number }>(entries: readonly E[]): Promise<(e: E) => LatestJob | null> {
    const statuses = await this.jobs.of(entries.filter((e) => e.latestJobId).map((e) => e.latestJobId));
    return (e) => {
      const state = e.latestJobId ? statuses.get(e.latestJobId) : null;
      return state ? { id: e.latestJobId, status: state.status, updated_at: state.updated_at } : null;
    };
  }

  /**
   * The entry's item JSON, kept on the entry (about 80 MB at 100,000 Actions once all are written):
   * a page of 1,000 items is then a join of kept strings instead of 1,000 objects serialised per call.
   */
  private itemJsonOf(e: ActionEntry): ItemJson {
    if (e.json?.gen !== this.tagsGen) e.json = itemJson(this.actionItem(e), this.tagsGen);
    return e.json;
  }

  /**
   * Writes the item JSON of every Action in the background after a full load, a few hundred at a time
   * between other work, so no list call pays for it (the legacy client asks for every page at start).
   */
  private warmItemJson(): void {
    const token = ++this.warmToken;
    const entries = this.actions.live();
    let at = 0;
    const step = () => {
      if (token !== this.warmToken) return;
      for (const end = Math.min(entries.length, at + 250); at < end; at++) this.itemJsonOf(entries[at]!);
      if (at < entries.length) setImmediate(step);
    };
    setImmediate(step);
  }

  private actionItem(e: ActionEntry): LibraryItem & { latest_job: null } {
    return {
      id: e.id,
      vid: e.vid,
      name: e.name,
      desc: e.desc,
      action_type: e.type,
      approved: e.approved,
      tags: this.tagsOf(e),
      disabled: e.disabled,
      decommissioned: e.decommissioned,
      updated_at: iso(e.updated),
      date_modified: iso(e.modified),
      last_added: iso(e.created),
      last_run: e.lastRun ? iso(e.lastRun) : null,
      total_runs: e.totalRuns,
      latest_job: null,
      require_protected: e.requireProtected,
      monitor_connections: e.monitorConnections,
      pending_files: e.pendingFiles,
      malicious_files: e.maliciousFiles,
      vendor: e.vendor,
    };
  }

  async simulationItems(entries: readonly SimulationEntry[]): Promise<SimulationLibraryItem[]> {
    const latest = await this.latestJobs(entries);
    return entries.map((e) => ({
      id: e.id,
      vid: e.vid,
      name: e.name,
      desc: e.desc,
      simulation_type: e.type,
      approved: e.approved,
      tags: this.tagsOf(e),
      action_vids: e.actionVids,
      group_names: e.groupNames,
      sim_actions: e.simActions,
      disabled: e.disabled,
      decommissioned: e.decommissioned,
      updated_at: iso(e.updated),
      last_added: iso(e.created),
      last_run: e.lastRun ? iso(e.lastRun) : null,
      total_runs: e.totalRuns,
      latest_job: latest(e),
    }));
  }

  /** Filter definitions with counts over the live entries (disabled ones only when asked). */
  filters(kind: 'actions' | 'simulations', index: SortedIndex<IndexEntry>, includeDisabled: boolean): LibraryFiltersAnswer {
    const cacheKey = `${kind}:${includeDisabled}:${index.version}`;
    const hit = this.facetsCache.get(cacheKey);
    if (hit) return hit;
    const typeCounts = new Map<string, number>();
    const tagCounts = new Map<number, number>();
    const statusCounts = new Map<string, number>();
    let total = 0;
    for (const e of index.live()) {
      if (!includeDisabled && (e.disabled || e.decommissioned)) continue;
      total++;
      typeCounts.set(e.type, (typeCounts.get(e.type) ?? 0) + 1);
      for (const t of e.tags) tagCounts.set(t, (tagCounts.get(t) ?? 0) + 1);
      for (const s of LIBRARY_STATUSES) if (matchesStatus(e, s)) statusCounts.set(s, (statusCounts.get(s) ?? 0) + 1);
    }
    const groups = new Map<string, { id: number; name: string; count: number }[]>();
    for (const [id, count] of tagCounts) {
      const t = this.tags.get(id);
      if (!t) continue;
      const list = groups.get(t.tag_type) ?? [];
      list.push({ id, name: t.name, count });
      groups.set(t.tag_type, list);
    }
    const typeOrder = Object.keys(TAG_TYPE_LABELS);
    const tagGroups = [...groups]
      .sort(([a], [b]) => (typeOrder.indexOf(a) + 1 || 99) - (typeOrder.indexOf(b) + 1 || 99) || a.localeCompare(b))
      .map(([tag_type, tags]) => ({ tag_type, label: TAG_TYPE_LABELS[tag_type] ?? tag_type, tags: tags.sort((a, b) => a.name.localeCompare(b.name)) }));
    const types =
      kind === 'actions'
        ? ACTION_TYPES.map((t) => ({ value: t, label: ACTION_TYPE_LABELS[t], count: typeCounts.get(t) ?? 0 }))
        : [
            { value: 'sequence', label: 'Sequence', count: typeCounts.get('sequence') ?? 0 },
            { value: 'eval', label: 'Evaluation', count: typeCounts.get('eval') ?? 0 },
          ];
    const statuses = (kind === 'actions' ? LIBRARY_STATUSES : (['approved', 'unapproved'] as const)).map((s) => ({ value: s, label: STATUS_LABELS[s], count: statusCounts.get(s) ?? 0 }));
    const answer: LibraryFiltersAnswer = {
      total_count: total,
      sort_options: LIBRARY_SORTS.map((s) => ({ value: s, label: SORT_LABELS[s], direction: DEFAULT_DIRECTION[s] })),
      default_sort: 'name',
      types,
      statuses,
      tag_groups: tagGroups,
      tag_modes: ['or', 'and'],
      trees: kind === 'actions' ? this.trees() : [],
    };
    this.facetsCache.set(cacheKey, answer);
    return answer;
  }

  private trees(): LibraryFiltersAnswer['trees'] {
    const nodes = new Map<number, TreeNode>(this.dimensions.map((d) => [d.id, { id: d.id, name: d.name, param_name: d.param_name, children: [] }]));
    const roots = new Map<string, TreeNode[]>();
    for (const d of this.dimensions) {
      const node = nodes.get(d.id)!;
      if (d.parent_id === null) roots.set(d.type, [...(roots.get(d.type) ?? []), node]);
      else nodes.get(d.parent_id)?.children.push(node);
    }
    return DIMENSION_TYPES.map((type) => ({ type, label: DIMENSION_LABELS[type], nodes: roots.get(type) ?? [] }));
  }
}

/** Whether an Action's change shows in the simulations that use it (see loadSimulationEntries). */
function changedForSimulations(before: ActionEntry | undefined, after: ActionEntry): boolean {
  return !!before && (before.vid !== after.vid || before.name !== after.name || before.approved !== after.approved);
}
