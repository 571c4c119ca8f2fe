import { slotAtOffset, type IndexEntry, type SortedIndex } from '../library/sorted-index';

/** Between names in the joined text (and before the first, after the last): a name's start and end. */
const SEP = '\u0001';
/** A text of three or more characters carried by at most this many names is ranked from those names alone. */
const FEW_CANDIDATES = 1000;

/** 0 exact (the whole name, the VID, the id), 1 prefix (of the name or of a word in it), 2 substring. */
export interface NameHit<E> {
  entry: E;
  rank: 0 | 1 | 2;
}

interface Joined {
  version: number;
  /** SEP name SEP name … SEP, the lowercased names of the kept entries in name order. */
  text: string;
  /** starts[k]: where the k-th name begins (after its SEP); starts[count] is past the end. */
  starts: Int32Array;
  /** The index slot of the k-th name. */
  slots: Int32Array;
  /** The k-th name. */
  names: string[];
  /** The k-th entry's lowercased name as sorted (the name order is by it, then by id). */
  keys: string[];
  /** By the first two characters of a word after a space: the positions of the names holding such a word, ascending. */
  wordStarts: Map<string, Int32Array>;
  /** The position in name order of an index slot (-1: not kept). */
  positionOf: Int32Array;
}

/** A name as kept in the joined text: a control character in it would read as a separator. */
const cleanName = (nameKey: string) => (/[\u0000-\u001f]/.test(nameKey) ? nameKey.replace(/[\u0000-\u001f]/g, ' ') : nameKey);

/** How `name` meets `q`: 0 the whole name, 1 its start or a word's start, 2 elsewhere, -1 not at all. */
function rankIn(name: string, q: string): -1 | 0 | 1 | 2 {
  const at = name.indexOf(q);
  if (at < 0) return -1;
  if (name === q) return 0;
  return at === 0 || name.includes(` ${q}`) ? 1 : 2;
}

/** The first position in `keys` (ascending) whose key is not before `q`. */
function lowerBound(keys: readonly string[], q: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (keys[mid]! < q) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const EMPTY = new Int32Array(0);

/** Beyond this many entries changed since the names were joined, they are joined again. */
const REJOIN_ABOVE = 2000;

/**
 * Quick open over the library's in-memory index (the Actions): which kept entries' names contain a
 * text, ranked as the search call ranks (server/search/service.ts), the best `limit` in order of rank,
 * lowercased name, id. The kept entries' names are joined, in name order, into one string, so each
 * rank is one or two native `indexOf` walks over it that stop once `limit` names are found: the
 * names that start with the text (`SEP text`), those where a word starts with it (` text`), then
 * any other occurrence. A text of three or more characters that few entries carry (the library's
 * trigram index says which may) is ranked from those names alone, without a walk; a shorter one found
 * nowhere costs three walks over the string (a few milliseconds for 100,000 names). No database read.
 *
 * A write changes the joined text in no way: the entries changed since it was joined (the index's
 * touchedSince) are left out of the walks and ranked from their current names, then merged in, so a
 * new, renamed or removed Action is found (or not) in the very next call without joining 100,000
 * names again (about 0.5 s under load); the names are joined again only after REJOIN_ABOVE changes.
 */
export class NameSearch<E extends IndexEntry> {
  private joined: Joined | null = null;
  /** Index slots changed since the names were joined, as of `dirtyAt` (the index's version). */
  private dirty = new Set<number>();
  private dirtyAt = -1;

  constructor(
    private index: SortedIndex<E>,
    /** Entries that can be found at all (for Actions: not decommissioned). */
    private keep: (e: E) => boolean,
  ) {}

  /**
   * `q` lowercased and trimmed; `id` an id that is an exact match too (0: none). A text holding a
   * control character matches no name.
   */
  find(q: string, limit: number, id = 0): NameHit<E>[] {
    const { text, starts, slots, names, keys, wordStarts } = this.current();
    const dirty = this.dirty;
    const entryAt = (k: number) => this.index.get(slots[k]!)!;
    const exact: E[] = [];
    const seen = new Set<number>();
    const add = (e: E | undefined) => {
      if (e && this.keep(e) && !seen.has(e.id)) {
        seen.add(e.id);
        exact.push(e);
      }
    };
    add(this.index.byVid(q));
    if (id) add(this.index.byId(id));
    const byName = (a: E, b: E) => (a.nameKey < b.nameKey ? -1 : a.nameKey > b.nameKey ? 1 : a.id - b.id);
    if (/[\u0000-\u001f]/.test(q)) return exact.sort(byName).map((entry) => ({ entry, rank: 0 }));
    // The changed entries, ranked from their names now; the joined text's copies of them are skipped.
    const changed: E[][] = [[], [], []];
    for (const slot of dirty) {
      const e = this.index.get(slot);
      if (!e || !this.keep(e)) continue;
      const rank = rankIn(cleanName(e.nameKey), q);
      if (rank >= 0) changed[rank]!.push(e);
    }
    const clean = (k: number) => !dirty.has(slots[k]!);
    // Per rank, in name order: the joined text's names (at least the best `limit` of each), to be merged with the changed ones.
    const found: E[][] = [[], [], []];
    // A rarer text (three or more characters): the few names that may hold it, from their trigrams, in
    // name order, each ranked where it is; no walk over the joined text.
    const few = q.length >= 3 ? this.candidates(q) : null;
    if (few) {
      for (const k of few) {
        if (!clean(k)) continue;
        const rank = rankIn(names[k]!, q);
        if (rank >= 0) found[rank]!.push(entryAt(k));
      }
    } else {
      const want = limit - exact.length;
      const fresh = (k: number) => clean(k) && !seen.has(entryAt(k).id);
      // The whole name, then names that start with the text: one range of the name order, found by
      // binary search (the whole name first: it sorts before every longer name starting with it).
      const prefixed: number[] = [];
      for (let k = lowerBound(keys, q); k < keys.length && keys[k]!.startsWith(q) && (prefixed.length < want || keys[k] === q); k++) {
        if (!clean(k)) continue;
        if (keys[k] === q) found[0]!.push(entryAt(k));
        else if (fresh(k)) prefixed.push(k);
      }
      if (exact.length + found[0]!.length < limit) {
        // Names where a later word starts with the text: from the trigrams of " text" when few carry
        // them, else a walk over the joined names; merged with the range above, in name order.
        const word = ` ${q}`;
        const words: number[] = [];
        const list = q.length >= 2 ? (wordStarts.get(q.slice(0, 2)) ?? EMPTY) : null;
        if (list) {
          for (let i = 0; i < list.length && words.length < want; i++) if (fresh(list[i]!) && names[list[i]!]!.includes(word)) words.push(list[i]!);
        } else words.push(...walk(text, starts, [word], want, fresh));
        const merged = [...new Set([...prefixed, ...words])].sort((a, b) => a - b).slice(0, want);
        for (const k of merged) found[1]!.push(entryAt(k));
        const taken = new Set(merged);
        if (exact.length + found[0]!.length + merged.length < limit) for (const k of walk(text, starts, [q], want, (k) => fresh(k) && !taken.has(k))) found[2]!.push(entryAt(k));
      }
    }
    for (const e of found[0]!.concat(changed[0]!)) add(e);
    const hits: NameHit<E>[] = exact.sort(byName).map((entry) => ({ entry, rank: 0 }));
    for (const rank of [1, 2] as const) {
      const merged = changed[rank]!.length ? found[rank]!.concat(changed[rank]!).sort(byName) : found[rank]!;
      for (const entry of merged) {
        if (hits.length >= limit) return hits;
        if (seen.has(entry.id)) continue;
        seen.add(entry.id);
        hits.push({ entry, rank });
      }
    }
    return hits.slice(0, limit);
  }

  /**
   * Positions (in name order, ascending) of the names that may contain `q`, when there are few; null
   * otherwise. The candidates come from the library's trigram index of its search text (which holds
   * the name), kept up to date on writes, so nothing is built here.
   */
  private candidates(q: string): number[] | null {
    const slots = this.index.mayContain(q, FEW_CANDIDATES);
    if (!slots || slots.length > FEW_CANDIDATES) return null;
    const { positionOf } = this.joined!;
    const found = new Set<number>();
    for (const slot of slots) {
      const k = slot < positionOf.length ? positionOf[slot]! : -1;
      if (k >= 0) found.add(k);
    }
    return [...found].sort((a, b) => a - b);
  }

  /** The joined names, with `dirty` brought up to the index's version (joined again when too many changed). */
  private current(): Joined {
    const version = this.index.version;
    if (this.joined && this.dirtyAt === version) return this.joined;
    const since = this.joined ? this.index.touchedSince(this.joined.version) : null;
    if (since && since.size <= REJOIN_ABOVE) {
      this.dirty = since;
      this.dirtyAt = version;
      return this.joined!;
    }
    const order = this.index.sorted('name');
    const names: string[] = [];
    const keys: string[] = [];
    const slots: number[] = [];
    const positionOf = new Int32Array(order.reduce((m, s) => Math.max(m, s + 1), 0)).fill(-1);
    for (const slot of order) {
      const e = this.index.get(slot);
      if (!e || !this.keep(e)) continue;
      positionOf[slot] = names.length;
      names.push(cleanName(e.nameKey));
      keys.push(e.nameKey);
      slots.push(slot);
    }
    const starts = new Int32Array(names.length + 1);
    let at = 1;
    names.forEach((n, k) => {
      starts[k] = at;
      at += n.length + 1;
    });
    starts[names.length] = at;
    const words = new Map<string, number[]>();
    names.forEach((n, k) => {
      for (let i = n.indexOf(' '); i !== -1 && i + 2 < n.length + 1; i = n.indexOf(' ', i + 1)) {
        const key = n.slice(i + 1, i + 3);
        if (key.length < 2) continue;
        const list = words.get(key);
        if (!list) words.set(key, [k]);
        else if (list[list.length - 1] !== k) list.push(k);
      }
    });
    const wordStarts = new Map([...words].map(([key, list]) => [key, Int32Array.from(list)]));
    this.joined = { version, text: `${SEP}${names.join(SEP)}${SEP}`, starts, slots: Int32Array.from(slots), names, keys, wordStarts, positionOf };
    this.dirty = new Set();
    this.dirtyAt = version;
    return this.joined;
  }
}

/**
 * The names (by position in name order) in which any of `patterns` occurs, ascending per pattern, at
 * most `max` accepted ones per pattern; the caller merges the patterns' lists. A pattern starting with
 * SEP belongs to the name after that SEP.
 */
function walk(text: string, starts: Int32Array, patterns: readonly string[], max: number, accept: (k: number) => boolean): number[] {
  const out: number[] = [];
  const end = starts[starts.length - 1]!;
  if (starts.length < 2) return out;
  for (const pattern of patterns) {
    let found = 0;
    const lead = pattern.startsWith(SEP) ? 1 : 0;
    for (let p = text.indexOf(pattern); p !== -1 && found < max; ) {
      // The SEP after the last name starts no name.
      if (p + lead >= end) break;
      const k = slotAtOffset(starts, p + lead);
      if (accept(k)) {
        out.push(k);
        found++;
      }
      p = text.indexOf(pattern, starts[k + 1]! - lead);
    }
  }
  return out;
}
