import { describe, expect, it } from 'vitest';
import { LIBRARY_SORTS } from '@/api/contracts/library';
import { SortedIndex, type IndexEntry, type IndexFilter } from '../../server/library/sorted-index';

const WORDS = ['mimikatz', 'beacon', 'dns', 'tunnel', 'powershell', 'lsass', 'phishing', 'ransom', 'scan', 'exfil'];

function entry(id: number, seed = id): IndexEntry {
  const w = (k: number) => WORDS[(seed * 7 + k * 3) % WORDS.length]!;
  const name = `${w(1)} ${w(2)} ${seed % 13}`;
  return {
    id,
    vid: `A${String(seed % 900).padStart(3, '0')}-${id}`,
    vidKey: `a${String(seed % 900).padStart(3, '0')}-${id}`,
    nameKey: name,
    hay: `${name}\u0001${w(3)} ${w(4)}`,
    type: seed % 3 ? 'dns' : 'host_cli',
    approved: seed % 4 !== 0,
    disabled: seed % 17 === 0,
    decommissioned: false,
    tags: Int32Array.from([seed % 5, 5 + (seed % 3)].sort((a, b) => a - b)),
    dims: null,
    created: (seed * 37) % 1000,
    updated: (seed * 53) % 1000,
    modified: (seed * 71) % 1000,
    lastRun: seed % 6 ? (seed * 11) % 1000 : 0,
    totalRuns: seed % 9,
    pendingFiles: seed % 10 === 0 ? 1 : 0,
    maliciousFiles: 0,
  };
}

const filter = (over: Partial<IndexFilter> = {}): IndexFilter => ({
  search: '',
  tags: [],
  tagMode: 'or',
  types: [],
  status: '',
  dimensions: [],
  contentIds: [],
  includeDisabled: false,
  ...over,
});

function naive(entries: IndexEntry[], f: IndexFilter, sort: (typeof LIBRARY_SORTS)[number], dir: 'asc' | 'desc'): number[] {
  const key = (e: IndexEntry) =>
    ({ name: e.nameKey, vid: e.vidKey, updated: e.updated, modified: e.modified, added: e.created, last_run: e.lastRun, total_runs: e.totalRuns })[sort];
  const term = f.search.trim().toLowerCase();
  const rows = entries
    .filter((e) => f.includeDisabled || !e.disabled)
    .filter((e) => !term || e.hay.includes(term))
    .filter((e) => !f.tags.length || (f.tagMode === 'and' ? f.tags.every((t) => e.tags.includes(t)) : f.tags.some((t) => e.tags.includes(t))))
    .filter((e) => !f.types.length || f.types.includes(e.type))
    .filter((e) => f.status !== 'unapproved' || !e.approved)
    .sort((a, b) => {
      const x = key(a);
      const y = key(b);
      return x < y ? -1 : x > y ? 1 : a.id - b.id;
    })
    .map((e) => e.id);
  return dir === 'asc' ? rows : rows.reverse();
}

describe('the in-memory library index', () => {
  it('filters and sorts like a plain filter-and-sort, for every sort and direction', () => {
    const entries = Array.from({ length: 600 }, (_, i) => entry(i + 1));
    const index = new SortedIndex<IndexEntry>();
    index.replaceAll(entries);
    const ids = (slots: number[]) => slots.map((s) => index.get(s)!.id);
    for (const sort of LIBRARY_SORTS)
      for (const dir of ['asc', 'desc'] as const)
        for (const f of [filter(), filter({ search: 'Beacon' }), filter({ tags: [1, 6], tagMode: 'and' }), filter({ tags: [1, 6] }), filter({ types: ['host_cli'], status: 'unapproved', includeDisabled: true })])
          expect(ids(index.query(f, sort, dir)), `${sort} ${dir} ${JSON.stringify(f)}`).toEqual(naive(entries, f, sort, dir));
  });

  it('narrows a search from the cached result of a shorter term with the same answer', () => {
    const entries = Array.from({ length: 400 }, (_, i) => entry(i + 1));
    const index = new SortedIndex<IndexEntry>();
    index.replaceAll(entries);
    for (const term of ['p', 'ph', 'phi', 'phishing', 'phishing ', 'phishing s']) {
      expect(index.query(filter({ search: term }), 'vid', 'asc').map((s) => index.get(s)!.id)).toEqual(naive(entries, filter({ search: term }), 'vid', 'asc'));
    }
  });

  it('keeps every sort order right through inserts, updates and removals', () => {
    const entries = Array.from({ length: 300 }, (_, i) => entry(i + 1));
    const index = new SortedIndex<IndexEntry>();
    index.replaceAll(entries);
    for (const sort of LIBRARY_SORTS) index.query(filter({ includeDisabled: true }), sort, 'asc');
    const live = new Map(entries.map((e) => [e.id, e]));
    const changed = [entry(5, 999), entry(77, 4), entry(301, 123), entry(302, 7)];
    index.apply(changed, [10, 200, 4242]);
    for (const e of changed) live.set(e.id, e);
    live.delete(10);
    live.delete(200);
    expect(index.size).toBe(live.size);
    for (const sort of LIBRARY_SORTS) {
      const got = index.query(filter({ includeDisabled: true }), sort, 'asc').map((s) => index.get(s)!.id);
      expect(got, sort).toEqual(naive([...live.values()], filter({ includeDisabled: true }), sort, 'asc'));
    }
  });
  it('finds search terms in the joined search text the same way before and after changes, for every sort', () => {
    const entries = Array.from({ length: 500 }, (_, i) => entry(i + 1));
    const index = new SortedIndex<IndexEntry>();
    index.replaceAll(entries);
    const ids = (slots: number[]) => slots.map((s) => index.get(s)!.id);
    const terms = ['Beacon', 'lsass ', 'a01', ' 1', 'exfil\u0001', 'zzz'];
    const check = (live: IndexEntry[]) => {
      for (const sort of LIBRARY_SORTS) {
        // The empty search first: a later term is then narrowed from the whole list (the cached-term path).
        expect(ids(index.query(filter(), sort, 'asc'))).toEqual(naive(live, filter(), sort, 'asc'));
        for (const search of terms)
          for (const f of [filter({ search }), filter({ search, types: ['dns'] })])
            expect(ids(index.query(f, sort, 'desc')), `${sort} ${JSON.stringify(f)}`).toEqual(search.includes('\u0001') ? [] : naive(live, f, sort, 'desc'));
      }
    };
    check(entries);
    const changed = [entry(3, 41), entry(501, 8), entry(502, 9)];
    index.apply(changed, [1, 250, 500]);
    const live = new Map(entries.map((e) => [e.id, e]));
    for (const e of changed) live.set(e.id, e);
    for (const id of [1, 250, 500]) live.delete(id);
    check([...live.values()]);
  });

  it('finds every term like a plain substring search through the trigram lookup, before and after changes', () => {
    // Texts over a small alphabet with folded characters (accents, ellipsis, punctuation), so trigrams
    // repeat, collide and many terms have few matches.
    const ALPHABET = ['a', 'b', 'c', '1', '2', ' ', '-', '.', 'é', '…', '#', 'ü'];
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const text = (length: number) => Array.from({ length }, () => ALPHABET[rand(ALPHABET.length)]!).join('');
    const make = (id: number): IndexEntry => ({ ...entry(id), hay: `${text(4 + rand(20))}\u0001${text(rand(12))}` });
    const entries = Array.from({ length: 800 }, (_, i) => make(i + 1));
    const index = new SortedIndex<IndexEntry>();
    index.replaceAll(entries);
    const ids = (slots: number[]) => slots.map((s) => index.get(s)!.id);
    const terms = Array.from({ length: 60 }, (_, i) => (i % 3 ? text(3 + (i % 5)) : entries[i]!.hay.slice(2, 5 + (i % 4))))
      .concat(['a', 'ab', 'abc', 'é#a', '…', 'a b', '-.-', 'zzzz']);
    const check = (live: IndexEntry[]) => {
      for (const search of terms) {
        if (search.includes('\u0001') || search.trim() !== search) continue;
        expect(ids(index.query(filter({ search, includeDisabled: true }), 'vid', 'asc')), JSON.stringify(search)).toEqual(naive(live, filter({ search, includeDisabled: true }), 'vid', 'asc'));
      }
    };
    check(entries);
    const changed = [make(5), make(801), make(802), { ...make(9), hay: 'abcabc' }];
    index.apply(changed, [2, 400]);
    const live = new Map(entries.map((e) => [e.id, e]));
    for (const e of changed) live.set(e.id, e);
    for (const id of [2, 400]) live.delete(id);
    check([...live.values()]);
  });

  it('keeps tag filters, VID lookups and kept search terms right through many small changes', () => {
    const entries = Array.from({ length: 400 }, (_, i) => entry(i + 1));
    const index = new SortedIndex<IndexEntry>();
    index.replaceAll(entries);
    const live = new Map(entries.map((e) => [e.id, e]));
    const ids = (slots: number[]) => slots.map((s) => index.get(s)!.id);
    const filters = [filter({ tags: [1, 6], tagMode: 'and' }), filter({ tags: [2, 7] }), filter({ search: 'beacon' }), filter({ search: 'lsass', tags: [0] })];
    const check = (round: number) => {
      // A term not asked before each round: found in the joined text, and in the changed entries themselves.
      for (const f of [...filters, filter({ search: `${WORDS[round]!} ` })])
        expect(ids(index.query(f, 'name', 'asc')), `round ${round} ${JSON.stringify(f)}`).toEqual(naive([...live.values()], f, 'name', 'asc'));
      const wanted = [...live.values()].filter((e, i) => i % 37 === 0);
      const got = ids(index.query(filter({ contentIds: wanted.map((e) => e.vid), includeDisabled: true }), 'vid', 'asc'));
      expect(got, `round ${round} VIDs`).toEqual(naive(wanted, filter({ includeDisabled: true }), 'vid', 'asc'));
    };
    check(0);
    for (let round = 1; round <= 6; round++) {
      // New text and tags for some, a VID moved from a removed entry to a new one, removals and inserts.
      const changed = [entry(round * 11, round * 101), entry(round * 13 + 1, round * 7), entry(400 + round, round * 3)];
      const removed = [round * 17, round * 29];
      index.apply(changed, removed);
      for (const e of changed) live.set(e.id, e);
      for (const id of removed) live.delete(id);
      check(round);
    }
  });
});
