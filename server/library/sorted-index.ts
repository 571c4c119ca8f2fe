/**
 * The action library's in-memory index: one entry per Action or simulation, kept sorted by each sort
 * key, filtered by status flags and searched through a trigram index, and updated in place from the
 * change feed (upserts and removals) instead of being rebuilt.
 *
 * Size: over 400 lines on purpose: one class whose sorted orders, slots and filters must change together
 * on every update; its pure helpers are small functions above it.
 */
import type { LibrarySort, LibraryStatus, SortDirection } from '../../src/api/contracts/library';
import { TrigramIndex, trigramsAreExact } from './trigram-index';

/** What the library filters and sorts on; one entry per Action or simulation. */
export interface IndexEntry {
  id: number;
  vid: string;
  /** Lowercased VID and name, the sort keys. */
  vidKey: string;
  nameKey: string;
  /** Lowercased searchable text: the spec's searchable fields, separated by \u0001. */
  hay: string;
  type: string;
  approved: boolean;
  disabled: boolean;
  decommissioned: boolean;
  /** Tag ids, ascending. */
  tags: Int32Array;
  /** One selected tree node per dimension type (DIMENSION_TYPES order), 0 when none. */
  dims: Int32Array | null;
  created: number;
  updated: number;
  modified: number;
  /** 0 when never run. */
  lastRun: number;
  totalRuns: number;
  pendingFiles: number;
  maliciousFiles: number;
}

export interface IndexFilter {
  search: string;
  tags: readonly number[];
  tagMode: 'and' | 'or';
  types: readonly string[];
  status: LibraryStatus | '';
  /** Per dimension position, the allowed node ids (a selected node and its descendants). */
  dimensions: readonly { position: number; ids: ReadonlySet<number> }[];
  /** VIDs (lowercased) or ids as strings. */
  contentIds: readonly string[];
  includeDisabled: boolean;
}

type Compare<E> = (a: E, b: E) => number;
const byNumber = <E extends IndexEntry>(key: (e: E) => number): Compare<E> => (a, b) => key(a) - key(b) || a.id - b.id;
const byString = <E extends IndexEntry>(key: (e: E) => string): Compare<E> => (a, b) => {
  const x = key(a);
  const y = key(b);
  return x < y ? -1 : x > y ? 1 : a.id - b.id;
};

const COMPARATORS: Record<LibrarySort, Compare<IndexEntry>> = {
  name: byString((e) => e.nameKey),
  vid: byString((e) => e.vidKey),
  updated: byNumber((e) => e.updated),
  modified: byNumber((e) => e.modified),
  added: byNumber((e) => e.created),
  last_run: byNumber((e) => e.lastRun),
  total_runs: byNumber((e) => e.totalRuns),
};

export function matchesStatus(e: IndexEntry, status: LibraryStatus | ''): boolean {
  switch (status) {
    case 'approved':
      return e.approved;
    case 'unapproved':
      return !e.approved;
    case 'pending_files':
      return e.pendingFiles > 0;
    case 'malicious_files':
      return e.maliciousFiles > 0;
    default:
      return true;
  }
}

function isEmptyFilter(f: IndexFilter): boolean {
  return !f.search && !f.tags.length && !f.types.length && !f.status && !f.dimensions.length && !f.contentIds.length && f.includeDisabled;
}

const CACHE_SIZE = 32;
/** Beyond this many changed slots the search text is joined again. */
const STALE_TEXT_MAX = 5000;
const TERM_CACHE_SIZE = 16;
/** How many recent small changes touchedSince() can report. */
const TOUCHED_LOG_SIZE = 256;
/** Between entries in the joined search text; search terms holding a control character match nothing. */
const ENTRY_SEP = '\u0002';

/**
 * Every slot's search text joined into one string, so a term is found with a few native indexOf calls
 * over the whole text instead of one call per entry; starts[slot] is where the slot's text begins.
 */
interface SearchText {
  text: string;
  starts: Int32Array;
  /** The same texts' trigrams: a term of three or more characters is looked up instead of scanned for. */
  trigrams: TrigramIndex;
}

/** Which entry of text joined at `starts` (ascending offsets, one past the end last) the position `at` falls in. */
export function slotAtOffset(starts: Int32Array, at: number): number {
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Where `e` belongs in a sorted order of slots (the first position not before it). */
function lowerBound<E>(order: readonly number[], e: E, entryOf: (slot: number) => E, cmp: Compare<E>): number {
  let lo = 0;
  let hi = order.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cmp(entryOf(order[mid]!), e) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A copy of a sorted order without the changed slots, each found by binary search with the entries
 * the order was sorted by (`before` holds the old entry of each changed slot; undefined: it is new).
 */
function withoutSlots<E>(order: readonly number[], before: ReadonlyMap<number, E | undefined>, current: (slot: number) => E | undefined, cmp: Compare<E>): number[] {
  const kept = order.slice();
  const old = (slot: number) => (before.has(slot) ? before.get(slot) : current(slot))!;
  for (const [slot, e] of before) {
    if (!e) continue;
    let at = lowerBound(kept, e, old, cmp);
    if (kept[at] !== slot) at = kept.indexOf(slot);
    if (at >= 0) kept.splice(at, 1);
  }
  return kept;
}

// Per-slot flags, so the walk over a sort order reads one byte per entry instead of the entry object.
const F_LIVE = 1;
const F_HIDDEN = 2; // disabled or decommissioned
const F_APPROVED = 4;
const F_PENDING = 8;
const F_MALICIOUS = 16;

function flagsOf(e: IndexEntry): number {
  return F_LIVE | (e.disabled || e.decommissioned ? F_HIDDEN : 0) | (e.approved ? F_APPROVED : 0) | (e.pendingFiles > 0 ? F_PENDING : 0) | (e.maliciousFiles > 0 ? F_MALICIOUS : 0);
}

function statusMask(status: LibraryStatus | ''): [mask: number, want: number] {
  switch (status) {
    case 'approved':
      return [F_APPROVED, F_APPROVED];
    case 'unapproved':
      return [F_APPROVED, 0];
    case 'pending_files':
      return [F_PENDING, F_PENDING];
    case 'malicious_files':
      return [F_MALICIOUS, F_MALICIOUS];
    default:
      return [0, 0];
  }
}

/**
 * Entries kept in memory with one ascending order per sort key (built lazily, kept up to date on
 * small changes by binary insertion), per-slot columns (flags, type) and per-tag postings for the
 * cheap filters, and a small cache of filtered results, so a page of a filtered and sorted list of
 * 100,000 entries is a slice of a cached array. A new search term of three or more characters is
 * looked up in a trigram index and only its candidates are read (shorter or very common terms scan the
 * joined text); a longer term reuses the result of a shorter one it contains.
 */
export class SortedIndex<E extends IndexEntry> {
  private entries: (E | undefined)[] = [];
  private slotOf = new Map<number, number>();
  private orders = new Map<LibrarySort, number[]>();
  private cache = new Map<string, number[]>();
  private liveCount = 0;
  private flags = new Uint8Array(0);
  private typeOf = new Uint8Array(0);
  private typeCodes = new Map<string, number>();
  private postings: Map<number, number[]> | null = null;
  private vidSlots: Map<string, number> | null = null;
  private searchText: SearchText | null = null;
  private termMasks = new Map<string, Uint8Array>();
  /** Slots changed since the search text was joined: their text there is out of date. */
  private staleText = new Set<number>();
  /** Moves on every change; results cached before are dropped. */
  version = 0;
  /**
   * The slots each recent small change touched, by the version it made (oldest first), so a reader
   * that prepared something at an older version can correct those slots only; `logFrom` is the oldest
   * version the log covers (a full change, or a trimmed log, starts it again).
   */
  private touchedLog: { version: number; slots: readonly number[] }[] = [];
  private logFrom = 0;

  get size(): number {
    return this.liveCount;
  }

  replaceAll(entries: readonly E[]): void {
    this.entries = [...entries];
    this.slotOf = new Map(entries.map((e, i) => [e.id, i]));
    this.liveCount = entries.length;
    this.flags = new Uint8Array(Math.max(16, entries.length));
    this.typeOf = new Uint8Array(Math.max(16, entries.length));
    entries.forEach((e, i) => this.setColumns(i, e));
    this.orders.clear();
    this.changed();
  }

  private setColumns(slot: number, e: E | undefined): void {
    if (slot >= this.flags.length) {
      const grow = (a: Uint8Array) => {
        const b = new Uint8Array(Math.max(slot + 1, a.length * 2));
        b.set(a);
        return b;
      };
      this.flags = grow(this.flags);
      this.typeOf = grow(this.typeOf);
    }
    if (!e) {
      this.flags[slot] = 0;
      return;
    }
    this.flags[slot] = flagsOf(e);
    let code = this.typeCodes.get(e.type);
    if (code === undefined) this.typeCodes.set(e.type, (code = this.typeCodes.size + 1));
    this.typeOf[slot] = code;
  }

  /** Inserts or replaces entries and removes ids. */
  apply(upserts: readonly E[], removedIds: readonly number[]): void {
    if (!upserts.length && !removedIds.length) return;
    const touched = new Set<number>();
    // What each touched slot held before, to patch the postings, VID map and search masks.
    const before = new Map<number, E | undefined>();
    for (const id of removedIds) {
      const slot = this.slotOf.get(id);
      if (slot === undefined) continue;
      if (!before.has(slot)) before.set(slot, this.entries[slot]);
      this.entries[slot] = undefined;
      this.setColumns(slot, undefined);
      this.slotOf.delete(id);
      this.liveCount--;
      touched.add(slot);
    }
    for (const e of upserts) {
      let slot = this.slotOf.get(e.id);
      if (slot !== undefined && !before.has(slot)) before.set(slot, this.entries[slot]);
      if (slot === undefined) {
        slot = this.entries.length;
        before.set(slot, undefined);
        this.entries.push(e);
        this.slotOf.set(e.id, slot);
        this.liveCount++;
      } else this.entries[slot] = e;
      this.setColumns(slot, e);
      touched.add(slot);
    }
    if (touched.size > 2000) this.orders.clear();
    else {
      for (const [key, order] of this.orders) {
        const cmp = COMPARATORS[key] as Compare<E>;
        const kept = touched.size > 64 ? order.filter((s) => !touched.has(s)) : withoutSlots(order, before, (s) => this.entries[s], cmp);
        for (const slot of touched) {
          const e = this.entries[slot];
          if (!e) continue;
          kept.splice(lowerBound(kept, e, (s) => this.entries[s]!, cmp), 0, slot);
        }
        this.orders.set(key, kept);
      }
    }
    if (touched.size > 2000) this.changed();
    else this.patched(before);
  }

  /** Builds every sort order and the search text now, so no list call pays for them (after a full load). */
  prepare(): void {
    for (const sort of Object.keys(COMPARATORS) as LibrarySort[]) this.order(sort);
    this.joinedSearchText();
  }

  get(slot: number): E | undefined {
    return this.entries[slot];
  }

  byId(id: number): E | undefined {
    const slot = this.slotOf.get(id);
    return slot === undefined ? undefined : this.entries[slot];
  }

  /** The entry with this VID (lowercased), if any. */
  byVid(vidKey: string): E | undefined {
    if (!this.vidSlots) {
      this.vidSlots = new Map();
      this.entries.forEach((e, slot) => e && this.vidSlots!.set(e.vidKey, slot));
    }
    const slot = this.vidSlots.get(vidKey);
    return slot === undefined ? undefined : this.entries[slot];
  }

  /**
   * The slots changed since `version` (inserted, updated or removed), or null when that is not known
   * any more (a full change since, or more changes than the log keeps): the reader starts over.
   */
  touchedSince(version: number): Set<number> | null {
    if (version < this.logFrom) return null;
    const out = new Set<number>();
    for (const entry of this.touchedLog) if (entry.version > version) for (const slot of entry.slots) out.add(slot);
    return out;
  }

  /**
   * Slots whose search text may contain `term` (a superset of those that do, repeats possible): the
   * trigram index's candidates plus the slots changed or added since the search text was joined;
   * null when the term is under three characters, or when the trigram index has more than `max`
   * candidates (counted before any list is made).
   */
  mayContain(term: string, max = Infinity): number[] | null {
    const { starts, trigrams } = this.joinedSearchText();
    const found = trigrams.candidates(term, max);
    if (!found) return null;
    const out = Array.from(found);
    for (const slot of this.staleText) out.push(slot);
    for (let slot = starts.length - 1; slot < this.entries.length; slot++) out.push(slot);
    return out;
  }

  /** Every live slot in one sort order, ascending (kept up to date on changes). The array must not be changed. */
  sorted(sort: LibrarySort): readonly number[] {
    return this.order(sort);
  }

  live(): E[] {
    return this.entries.filter((e): e is E => e !== undefined);
  }

  /** Slots carrying a tag (built on first use after a change). */
  private tagSlots(tag: number): number[] {
    if (!this.postings) {
      const p = new Map<number, number[]>();
      this.entries.forEach((e, slot) => {
        if (!e) return;
        for (const t of e.tags) {
          const list = p.get(t);
          if (list) list.push(slot);
          else p.set(t, [slot]);
        }
      });
      this.postings = p;
    }
    return this.postings.get(tag) ?? [];
  }

  /**
   * The entries a filter keeps apart from the cheap per-slot columns: null when no such condition
   * applies, otherwise a byte per slot (1 = keep). Search text is read here, in slot order.
   */
  private selectiveMask(f: IndexFilter, term: string, within: readonly number[] | null): Uint8Array | null {
    const n = this.entries.length;
    let mask: Uint8Array | null = null;
    const narrow = (keep: (slot: number) => boolean) => {
      const next = new Uint8Array(n);
      if (mask) {
        for (let s = 0; s < n; s++) if (mask[s] && keep(s)) next[s] = 1;
      } else if (within) {
        for (const s of within) if (keep(s)) next[s] = 1;
      } else for (let s = 0; s < n; s++) if (this.flags[s] && keep(s)) next[s] = 1;
      mask = next;
    };
    if (f.contentIds.length) {
      const wanted = new Uint8Array(n);
      for (const c of f.contentIds) {
        const key = c.toLowerCase();
        const byVid = this.byVid(key);
        const slot = byVid ? this.slotOf.get(byVid.id) : /^\d+$/.test(key) ? this.slotOf.get(Number(key)) : undefined;
        if (slot !== undefined) wanted[slot] = 1;
      }
      mask = wanted;
    }
    if (f.tags.length) {
      const counts = new Uint8Array(n);
      for (const t of new Set(f.tags)) for (const s of this.tagSlots(t)) counts[s] = counts[s]! + 1;
      const need = f.tagMode === 'and' ? new Set(f.tags).size : 1;
      narrow((s) => counts[s]! >= need);
    }
    for (const d of f.dimensions) narrow((s) => !!this.entries[s]?.dims && d.ids.has(this.entries[s]!.dims![d.position] ?? 0));
    if (term) {
      const hits = this.termMask(term);
      narrow((s) => hits[s] === 1);
    }
    return mask;
  }

  /** A byte per slot (1 = the slot's search text contains the term), cached for the last few terms. */
  private termMask(term: string): Uint8Array {
    const hit = this.termMasks.get(term);
    if (hit) {
      this.termMasks.delete(term);
      this.termMasks.set(term, hit);
      return hit;
    }
    const { text, starts, trigrams } = this.joinedSearchText();
    const mask = new Uint8Array(this.entries.length);
    const candidates = trigrams.candidates(term);
    if (candidates && candidates.length <= this.entries.length / 2) {
      if (trigramsAreExact(term)) for (const slot of candidates) mask[slot] = 1;
      else for (const slot of candidates) mask[slot] = this.entries[slot]?.hay.includes(term) ? 1 : 0;
    } else {
      for (let p = text.indexOf(term); p !== -1; ) {
        const slot = slotAtOffset(starts, p);
        mask[slot] = 1;
        p = text.indexOf(term, starts[slot + 1]!);
      }
    }
    // Slots changed or added since the text was joined are read from their entries.
    for (const slot of this.staleText) mask[slot] = this.entries[slot]?.hay.includes(term) ? 1 : 0;
    for (let slot = starts.length - 1; slot < this.entries.length; slot++) mask[slot] = this.entries[slot]?.hay.includes(term) ? 1 : 0;
    this.termMasks.set(term, mask);
    if (this.termMasks.size > TERM_CACHE_SIZE) this.termMasks.delete(this.termMasks.keys().next().value as string);
    return mask;
  }

  private joinedSearchText(): SearchText {
    if (!this.searchText) {
      const parts: string[] = [];
      const starts = new Int32Array(this.entries.length + 1);
      let at = 0;
      for (let s = 0; s < this.entries.length; s++) {
        starts[s] = at;
        const hay = this.entries[s]?.hay ?? '';
        parts.push(hay);
        at += hay.length + ENTRY_SEP.length;
      }
      starts[this.entries.length] = at;
      this.searchText = { text: parts.join(ENTRY_SEP), starts, trigrams: new TrigramIndex(parts) };
      this.staleText.clear();
    }
    return this.searchText;
  }

  /** Slots of the entries that pass the filter, in the requested order. The array must not be changed. */
  query(f: IndexFilter, sort: LibrarySort, direction: SortDirection): number[] {
    // Control characters separate the searchable fields: a term holding one matches nothing.
    const term = f.search.trim().toLowerCase();
    const rest = JSON.stringify([f.tags, f.tagMode, f.types, f.status, f.dimensions.map((d) => [d.position, [...d.ids]]), f.contentIds, f.includeDisabled, sort, direction]);
    const key = `${rest}\u0000${term}`;
    const hit = this.cache.get(key);
    if (hit) {
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit;
    }
    let out: number[];
    // Typing narrows a search: the result of a shorter term contained in this one is a superset, in the
    // same order, so only its entries need checking.
    const narrower = term ? this.bestPrefixResult(rest, term) : null;
    if (/[\u0000-\u0002]/.test(term)) out = [];
    else if (narrower && narrower.length < this.entries.length / 4) out = narrower.filter((s) => this.entries[s]!.hay.includes(term));
    else if (narrower) {
      const hits = this.termMask(term);
      out = narrower.filter((s) => hits[s] === 1);
    }
    else {
      const order = this.order(sort);
      if (isEmptyFilter(f)) out = direction === 'asc' ? order : [...order].reverse();
      else {
        const mask = this.selectiveMask(f, term, null);
        const types = f.types.length ? new Set(f.types.map((t) => this.typeCodes.get(t) ?? -1)) : null;
        const [sm, sw] = statusMask(f.status);
        const hidden = f.includeDisabled ? 0 : F_HIDDEN;
        const flags = this.flags;
        const typeOf = this.typeOf;
        const keep = (s: number) => {
          const fl = flags[s]!;
          return (fl & F_LIVE) !== 0 && (fl & hidden) === 0 && (fl & sm) === sw && (!mask || mask[s] === 1) && (!types || types.has(typeOf[s]!));
        };
        out = [];
        if (direction === 'asc') {
          for (let i = 0; i < order.length; i++) if (keep(order[i]!)) out.push(order[i]!);
        } else {
          for (let i = order.length - 1; i >= 0; i--) if (keep(order[i]!)) out.push(order[i]!);
        }
      }
    }
    this.cache.set(key, out);
    if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as string);
    return out;
  }

  /** The cached result of the same filter with the longest search term contained in `term`. */
  private bestPrefixResult(rest: string, term: string): number[] | null {
    let best: number[] | null = null;
    let bestLength = -1;
    for (const [key, slots] of this.cache) {
      const at = key.indexOf('\u0000');
      if (key.slice(0, at) !== rest) continue;
      const cached = key.slice(at + 1);
      if (cached.length > bestLength && cached.length < term.length && term.includes(cached)) {
        best = slots;
        bestLength = cached.length;
      }
    }
    return best;
  }

  private order(sort: LibrarySort): number[] {
    let order = this.orders.get(sort);
    if (!order) {
      const cmp = COMPARATORS[sort] as Compare<E>;
      order = [];
      for (let s = 0; s < this.entries.length; s++) if (this.entries[s]) order.push(s);
      order.sort((a, b) => cmp(this.entries[a]!, this.entries[b]!));
      this.orders.set(sort, order);
    }
    return order;
  }

  private changed(): void {
    this.version++;
    this.touchedLog = [];
    this.logFrom = this.version;
    this.cache.clear();
    this.postings = null;
    this.vidSlots = null;
    this.searchText = null;
    this.staleText.clear();
    this.termMasks.clear();
  }

  /**
   * After a few changed slots: cached results go, but the tag postings, the VID map and the kept term
   * masks are corrected for those slots only, and the joined search text stays (the changed slots are
   * read from their entries until it is joined again), so the next search or tag filter after a write
   * does not rebuild them over every entry.
   */
  private patched(before: ReadonlyMap<number, E | undefined>): void {
    this.version++;
    this.touchedLog.push({ version: this.version, slots: [...before.keys()] });
    if (this.touchedLog.length > TOUCHED_LOG_SIZE) this.logFrom = this.touchedLog.shift()!.version;
    this.cache.clear();
    for (const [slot, old] of before) {
      const now = this.entries[slot];
      if (this.postings) {
        for (const t of old?.tags ?? []) {
          const list = this.postings.get(t);
          const at = list ? list.indexOf(slot) : -1;
          if (at >= 0) list!.splice(at, 1);
        }
        for (const t of now?.tags ?? []) {
          const list = this.postings.get(t);
          if (list) list.push(slot);
          else this.postings.set(t, [slot]);
        }
      }
      if (this.vidSlots) {
        if (old && this.vidSlots.get(old.vidKey) === slot) this.vidSlots.delete(old.vidKey);
        if (now) this.vidSlots.set(now.vidKey, slot);
      }
      if (this.searchText && slot < this.searchText.starts.length - 1) this.staleText.add(slot);
    }
    if (this.staleText.size > STALE_TEXT_MAX) {
      this.searchText = null;
      this.staleText.clear();
    }
    for (const [term, mask] of this.termMasks) {
      const next = mask.length >= this.entries.length ? mask : new Uint8Array(this.entries.length);
      if (next !== mask) next.set(mask);
      for (const slot of before.keys()) next[slot] = this.entries[slot]?.hay.includes(term) ? 1 : 0;
      this.termMasks.set(term, next);
    }
  }
}
