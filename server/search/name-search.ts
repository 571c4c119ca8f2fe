import { slotAtOffset, type IndexEntry, type SortedIndex } from '../library/sorted-index';

/** Between names in the joined text (and before the first, after the last): a name's start and end. */
const SEP = '\u0001';
/** A text of three or more characters carried by at most this many names is ranked from those names alone. */
const FEW_CANDIDATES = 4000;

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
  /** The position in name order of an index slot (-1: not kept). */
  positionOf: Int32Array;
}

/**
 * Quick open over the library's in-memory index (the Actions): which kept entries' names contain a
 * text, ranked as the search call ranks (server/search/service.ts), the best `limit` in order of rank,
 * lowercased name, id. The kept entries' names are joined, in name order, into one string, so each
 * rank is one or two native `indexOf` walks over it that stop once `limit` names are found: the
 * names that start with the text (`SEP text`), those where a word starts with it (` text`), then
 * any other occurrence. A text of three or more characters that few entries carry (the library's
 * trigram index says which may) is ranked from those names alone, without a walk; a shorter one found
 * nowhere costs three walks over the string (a few milliseconds for 100,000 names). No database read;
 * the string is joined again after the index changes.
 */
export class NameSearch<E extends IndexEntry> {
  private joined: Joined | null = null;

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
    const { text, starts, slots, names } = this.current();
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
    const ranked = (rank: 0 | 1 | 2) => (entry: E): NameHit<E> => ({ entry, rank });
    if (/[\u0000-\u001f]/.test(q)) return exact.sort(byName).map(ranked(0)).slice(0, limit);
    // A rarer text (three or more characters): the few names that may hold it, from their trigrams, in
    // name order, each ranked where it is; no walk over the joined text.
    const few = q.length >= 3 ? this.candidates(q) : null;
    if (few) {
      const prefixed: E[] = [];
      const later: E[] = [];
      for (const k of few) {
        const name = names[k]!;
        const at = name.indexOf(q);
        if (at < 0) continue;
        const e = entryAt(k);
        if (name === q) add(e);
        else if (seen.has(e.id)) continue;
        else if (at === 0 || name.includes(` ${q}`)) prefixed.push(e);
        else later.push(e);
      }
      return [...exact.sort(byName).map(ranked(0)), ...prefixed.map(ranked(1)), ...later.map(ranked(2))].slice(0, limit);
    }
    for (const k of walk(text, starts, [`${SEP}${q}${SEP}`], Infinity, () => true)) add(entryAt(k));
    const hits: NameHit<E>[] = exact.sort(byName).map(ranked(0));
    if (hits.length >= limit) return hits.slice(0, limit);
    const fresh = (k: number) => !seen.has(entryAt(k).id);
    // The name's start or a word's start, in name order: the two walks merged.
    const prefixed = [...new Set(walk(text, starts, [`${SEP}${q}`, ` ${q}`], limit - hits.length, fresh))].sort((a, b) => a - b).slice(0, limit - hits.length);
    for (const k of prefixed) {
      seen.add(entryAt(k).id);
      hits.push({ entry: entryAt(k), rank: 1 });
    }
    if (hits.length >= limit) return hits;
    for (const k of walk(text, starts, [q], limit - hits.length, fresh)) hits.push({ entry: entryAt(k), rank: 2 });
    return hits;
  }

  /**
   * Positions (in name order, ascending) of the names that may contain `q`, when there are few; null
   * otherwise. The candidates come from the library's trigram index of its search text (which holds
   * the name), kept up to date on writes, so nothing is built here.
   */
  private candidates(q: string): number[] | null {
    const slots = this.index.mayContain(q);
    if (!slots || slots.length > FEW_CANDIDATES) return null;
    const { positionOf } = this.joined!;
    const found = new Set<number>();
    for (const slot of slots) {
      const k = slot < positionOf.length ? positionOf[slot]! : -1;
      if (k >= 0) found.add(k);
    }
    return [...found].sort((a, b) => a - b);
  }

  private current(): Joined {
    const version = this.index.version;
    if (this.joined?.version === version) return this.joined;
    const order = this.index.sorted('name');
    const names: string[] = [];
    const slots: number[] = [];
    const positionOf = new Int32Array(order.reduce((m, s) => Math.max(m, s + 1), 0)).fill(-1);
    for (const slot of order) {
      const e = this.index.get(slot);
      if (!e || !this.keep(e)) continue;
      positionOf[slot] = names.length;
      // A control character in a name would read as a separator: it is kept out of the text.
      names.push(/[\u0000-\u001f]/.test(e.nameKey) ? e.nameKey.replace(/[\u0000-\u001f]/g, ' ') : e.nameKey);
      slots.push(slot);
    }
    const starts = new Int32Array(names.length + 1);
    let at = 1;
    names.forEach((n, k) => {
      starts[k] = at;
      at += n.length + 1;
    });
    starts[names.length] = at;
    this.joined = { version, text: `${SEP}${names.join(SEP)}${SEP}`, starts, slots: Int32Array.from(slots), names, positionOf };
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
