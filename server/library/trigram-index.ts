/**
 * Which entries may contain a search term, from the three-character sequences (trigrams) of every
 * entry's search text, so a term seen for the first time costs a few set intersections and a check of
 * the candidates instead of a scan of every entry's text.
 *
 * Characters are folded into 64 classes (letters and digits keep their own), so a trigram is an 18-bit
 * code and the tables are plain typed arrays. Folding only adds candidates: the caller checks each one
 * against the real text. A trigram carried by many entries is a bitset over the slots (n / 8 bytes);
 * a rarer one is a sorted list of slots (4 bytes each), whichever is smaller.
 */

const CODES = 1 << 18;

function charClass(c: number): number {
  if (c >= 97 && c <= 122) return c - 96; // a-z: 1..26
  if (c >= 48 && c <= 57) return c - 21; // 0-9: 27..36
  switch (c) {
    case 32:
      return 37;
    case 45: // -
      return 38;
    case 46: // .
      return 39;
    case 95: // _
      return 40;
    case 47: // /
      return 41;
    case 58: // :
      return 42;
    case 92: // \
      return 43;
    default:
      return c < 32 ? 0 : 44 + (c % 20);
  }
}

/** Whether a term's trigrams say exactly whether a text contains it: three characters, none folded. */
export function trigramsAreExact(term: string): boolean {
  if (term.length !== 3) return false;
  for (let i = 0; i < 3; i++) {
    const k = charClass(term.charCodeAt(i));
    if (k === 0 || k >= 44) return false;
  }
  return true;
}

/** The trigram codes of a text, in order (repeats included). */
export function trigramCodes(text: string): number[] {
  const out: number[] = [];
  let code = 0;
  for (let i = 0; i < text.length; i++) {
    code = ((code << 6) | charClass(text.charCodeAt(i))) & (CODES - 1);
    if (i >= 2) out.push(code);
  }
  return out;
}

export class TrigramIndex {
  /** Slots indexed (the texts given to the constructor). */
  readonly size: number;
  private bitsets = new Map<number, Uint32Array>();
  private postings = new Map<number, Int32Array>();

  /** texts[slot] is the slot's search text (undefined: an empty slot). */
  constructor(texts: readonly (string | undefined)[]) {
    const n = texts.length;
    this.size = n;
    const counts = new Int32Array(CODES);
    // Pass 1: how many slots carry each trigram.
    forEachSlotTrigram(texts, (_slot, code) => {
      counts[code]!++;
    });
    const words = Math.ceil(n / 32);
    const bitsets: (Uint32Array | undefined)[] = new Array(CODES);
    const postings: (Int32Array | undefined)[] = new Array(CODES);
    for (let code = 0; code < CODES; code++) {
      const c = counts[code]!;
      if (!c) continue;
      if (c > words) bitsets[code] = new Uint32Array(words);
      else postings[code] = new Int32Array(c);
    }
    const fill = counts.fill(0);
    // Pass 2: fill them; slots come in ascending order, so every posting list is sorted.
    forEachSlotTrigram(texts, (s, code) => {
      const bits = bitsets[code];
      if (bits) bits[s >>> 5]! |= 1 << (s & 31);
      else postings[code]![fill[code]!++] = s;
    });
    for (let code = 0; code < CODES; code++) {
      if (bitsets[code]) this.bitsets.set(code, bitsets[code]!);
      else if (postings[code]) this.postings.set(code, postings[code]!);
    }
  }

  /**
   * Slots whose text may contain `term` (a superset of those that do), ascending; null when the term
   * is too short to say (under three characters) or there are more than `max` (then nothing is listed).
   */
  candidates(term: string, max = Infinity): Int32Array | null {
    const codes = [...new Set(trigramCodes(term))];
    if (!codes.length) return null;
    const lists: Int32Array[] = [];
    const sets: Uint32Array[] = [];
    for (const code of codes) {
      const list = this.postings.get(code);
      const bits = this.bitsets.get(code);
      if (list) lists.push(list);
      else if (bits) sets.push(bits);
      else return new Int32Array(0);
    }
    const has = (s: number) => sets.every((bits) => (bits[s >>> 5]! & (1 << (s & 31))) !== 0);
    if (lists.length) {
      lists.sort((a, b) => a.length - b.length);
      const smallest = lists[0]!;
      const out = new Int32Array(smallest.length);
      let k = 0;
      for (const s of smallest) if (has(s) && lists.every((l, i) => i === 0 || contains(l, s))) out[k++] = s;
      return k > max ? null : out.subarray(0, k);
    }
    const words = Math.ceil(this.size / 32);
    const and = new Uint32Array(words);
    and.set(sets[0]!);
    for (let i = 1; i < sets.length; i++) {
      const b = sets[i]!;
      for (let w = 0; w < words; w++) and[w]! &= b[w]!;
    }
    if (max < Infinity) {
      let count = 0;
      for (let w = 0; w < words && count <= max; w++) count += popcount(and[w]!);
      if (count > max) return null;
    }
    const out: number[] = [];
    for (let w = 0; w < words; w++) {
      let word = and[w]!;
      while (word) {
        const bit = 31 - Math.clz32(word & -word);
        out.push(w * 32 + bit);
        word &= word - 1;
      }
    }
    return Int32Array.from(out);
  }
}

/** Calls fn once per distinct trigram of each slot's text, slots in ascending order. */
function forEachSlotTrigram(texts: readonly (string | undefined)[], fn: (slot: number, code: number) => void): void {
  const lastSlot = new Int32Array(CODES).fill(-1);
  for (let s = 0; s < texts.length; s++) {
    const text = texts[s];
    if (!text) continue;
    let code = 0;
    for (let i = 0; i < text.length; i++) {
      code = ((code << 6) | charClass(text.charCodeAt(i))) & (CODES - 1);
      if (i < 2 || lastSlot[code] === s) continue;
      lastSlot[code] = s;
      fn(s, code);
    }
  }
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Binary search in a sorted list. */
function contains(list: Int32Array, s: number): boolean {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = list[mid]!;
    if (v === s) return true;
    if (v < s) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
