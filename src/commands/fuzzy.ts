/**
 * The palette's fuzzy matcher, in the manner of VS Code's quick open: every query character must appear
 * in order (case-insensitive); a character scores high at the start of a word (after a space or
 * punctuation, a lower-to-upper case change, a letter-digit change) or right after the previous matched
 * character, and low in the middle of a word after a gap. A space in the query asks for the next
 * character at a word start. The best alignment is found by dynamic programming over (query, text)
 * positions, so "dns" in "Download token CSV" (d at a word start, n and s mid-word after gaps) scores
 * below the acceptance threshold and does not match, while "expt" still finds "Export".
 * Returns null when the text does not match well enough.
 */

const WORD_START = 8;
const FIRST_CHAR = 3;
const CONSECUTIVE = 8;
/** Any character after a gap (not right after the previous match). */
const GAP = -1;
const BASE = 1;
/** A mid-word character after a gap. */
const WEAK = -5;
/** What each query character must score on average for the text to match. */
const THRESHOLD_PER_CHAR = 5;
const NONE = -1e9;

const isLower = (c: number) => c >= 97 && c <= 122;
const isUpper = (c: number) => c >= 65 && c <= 90;
const isDigit = (c: number) => c >= 48 && c <= 57;
const isAlnum = (c: number) => isLower(c) || isUpper(c) || isDigit(c) || c > 127;

/** Whether text[i] starts a word. */
function wordStartAt(text: string, i: number): boolean {
  if (i === 0) return true;
  const c = text.charCodeAt(i);
  const p = text.charCodeAt(i - 1);
  if (!isAlnum(p)) return isAlnum(c);
  if (isUpper(c) && isLower(p)) return true;
  return isDigit(c) !== isDigit(p) && isAlnum(c);
}

// Reused buffers (the matcher runs for thousands of texts per keystroke): one DP row is the positions
// where a query character can be matched, with the best score of the query so far ending there.
let prevPos = new Int32Array(64);
let prevScore = new Float64Array(64);
let curPos = new Int32Array(64);
let curScore = new Float64Array(64);

/** A query made ready once per keystroke: its characters without spaces, and which must start a word. */
export interface PreparedQuery {
  q: string;
  mustStart: boolean[];
  /** The charIndex of each character, and the set of all of them (see TextSets). */
  idx: number[];
  mask: number;
}

/**
 * A character's index in small sets of the characters a text holds: a to z their own, digits one,
 * any other character another (28 in all, one 32-bit word).
 */
function charIndex(c: number): number {
  if (c >= 97 && c <= 122) return c - 97;
  return isDigit(c) ? 26 : 27;
}

/**
 * What a text holds, as bit sets made once per text: its characters, those at its word starts, and
 * its pairs of adjacent characters (pairs[a] has bit b when b follows a; pairs[32 + a] when b also
 * starts a word there). A few AND operations then tell that a query cannot reach the threshold in it,
 * before any string is scanned (see mayMatch).
 */
export interface TextSets {
  mask: number;
  startMask: number;
  pairs: Uint32Array;
}

export function textSets(lowerText: string, starts: Uint8Array): TextSets {
  let mask = 0;
  let startMask = 0;
  const pairs = new Uint32Array(64);
  let prev = -1;
  for (let j = 0; j < lowerText.length; j++) {
    const code = lowerText.charCodeAt(j);
    if (code === 32) {
      prev = -1;
      continue;
    }
    const ci = charIndex(code);
    mask |= 1 << ci;
    if (starts[j]) startMask |= 1 << ci;
    if (prev >= 0) {
      pairs[prev]! |= 1 << ci;
      if (starts[j]) pairs[32 + prev]! |= 1 << ci;
    }
    prev = ci;
  }
  return { mask, startMask, pairs };
}

/** The most a character can add: as the first, at a word start or not; as a later one, after a gap or right after the previous. */
const BEST_FIRST_AT_START = BASE + WORD_START + FIRST_CHAR;
const BEST_FIRST_MID_WORD = BASE + WEAK;
const BEST_GAP_AT_START = BASE + GAP + WORD_START;
const BEST_GAP_MID_WORD = BASE + GAP + WEAK;
const BEST_RUN = BASE + CONSECUTIVE;
const BEST_RUN_AT_START = BASE + CONSECUTIVE + WORD_START;

/**
 * Whether a query can match a text with these sets: every query character is there, and the best each
 * could score reaches the threshold (at a word start only where the text has that character at one,
 * right after the previous character only where the text has that pair). False means scorePrepared
 * would answer null; true means it must be asked.
 */
export function mayMatch(pq: PreparedQuery, t: TextSets): boolean {
  const { idx } = pq;
  if (idx.length === 0) return true;
  if ((t.mask & pq.mask) !== pq.mask) return false;
  const { startMask, pairs } = t;
  let bound = startMask & (1 << idx[0]!) ? BEST_FIRST_AT_START : BEST_FIRST_MID_WORD;
  for (let i = 1; i < idx.length; i++) {
    const bit = 1 << idx[i]!;
    const gap = startMask & bit ? BEST_GAP_AT_START : BEST_GAP_MID_WORD;
    const run = pairs[32 + idx[i - 1]!]! & bit ? BEST_RUN_AT_START : pairs[idx[i - 1]!]! & bit ? BEST_RUN : gap;
    bound += run > gap ? run : gap;
  }
  return bound >= idx.length * THRESHOLD_PER_CHAR;
}

export function prepareQuery(query: string): PreparedQuery {
  const lower = query.toLowerCase();
  let q = '';
  const mustStart: boolean[] = [];
  let afterSpace = false;
  for (let i = 0; i < lower.length; i++) {
    const ch = lower[i]!;
    if (ch === ' ') {
      afterSpace = q.length > 0;
      continue;
    }
    q += ch;
    mustStart.push(afterSpace);
    afterSpace = false;
  }
  const idx = Array.from(q, (_, i) => charIndex(q.charCodeAt(i)));
  return { q, mustStart, idx, mask: idx.reduce((m, i) => m | (1 << i), 0) };
}

/** Which characters of a text start a word (computed once per text). */
export function wordStarts(text: string): Uint8Array {
  const starts = new Uint8Array(text.length);
  for (let j = 0; j < text.length; j++) starts[j] = wordStartAt(text, j) ? 1 : 0;
  return starts;
}

/** The score of a prepared query in a lower-cased text with its word starts, or null. */
export function scorePrepared(pq: PreparedQuery, lowerText: string, starts: Uint8Array): number | null {
  const { q, mustStart } = pq;
  const n = q.length;
  const m = lowerText.length;
  if (n === 0) return 0;
  if (n > m) return null;
  // Quick rejection: the characters in order at all.
  for (let i = 0, j = 0; i < n; i++, j++) {
    j = lowerText.indexOf(q[i]!, j);
    if (j < 0) return null;
  }
  // One character: the best single position, no alignment to find (the commonest keystroke: the first).
  if (n === 1) {
    let best = NONE;
    for (let j = lowerText.indexOf(q, 0); j >= 0; j = lowerText.indexOf(q, j + 1)) {
      const ws = starts[j] === 1;
      const s = BASE + (ws ? WORD_START + (j === 0 ? FIRST_CHAR : 0) : WEAK) - j * 0.05;
      if (s > best) best = s;
      // A word start is the best there is after the first character; later ones only lose 0.05 a step.
      if (ws) break;
    }
    return best < THRESHOLD_PER_CHAR ? null : best;
  }
  if (m > prevPos.length) {
    prevPos = new Int32Array(m * 2);
    prevScore = new Float64Array(m * 2);
    curPos = new Int32Array(m * 2);
    curScore = new Float64Array(m * 2);
  }
  // A sparse DP over (query character, text position): only the positions where the character occurs,
  // so a text costs its occurrences of the query's letters, not query length × text length.
  // Row 0: where q[0] can be matched.
  const q0 = q[0]!;
  let prevLen = 0;
  for (let j = lowerText.indexOf(q0); j >= 0; j = lowerText.indexOf(q0, j + 1)) {
    const ws = starts[j] === 1;
    prevPos[prevLen] = j;
    prevScore[prevLen++] = BASE + (ws ? WORD_START + (j === 0 ? FIRST_CHAR : 0) : WEAK) - j * 0.05;
  }
  for (let i = 1; i < n; i++) {
    const qi = q[i]!;
    const start = mustStart[i];
    let curLen = 0;
    let p = 0;
    let bestBefore = NONE; // the best previous-row score at a position <= j - 2
    for (let j = lowerText.indexOf(qi, prevPos[0]! + 1); j >= 0; j = lowerText.indexOf(qi, j + 1)) {
      const ws = starts[j] === 1;
      if (start && !ws) continue;
      while (p < prevLen && prevPos[p]! <= j - 2) {
        if (prevScore[p]! > bestBefore) bestBefore = prevScore[p]!;
        p++;
      }
      // Right after the previous character (the previous row at j - 1), or after a gap.
      const consecutive = p < prevLen && prevPos[p] === j - 1 ? prevScore[p]! + BASE + CONSECUTIVE + (ws ? WORD_START : 0) : NONE;
      const gap = bestBefore > NONE ? bestBefore + BASE + GAP + (ws ? WORD_START : WEAK) : NONE;
      const s = consecutive > gap ? consecutive : gap;
      if (s > NONE) {
        curPos[curLen] = j;
        curScore[curLen++] = s;
      }
    }
    if (curLen === 0) return null;
    [prevPos, curPos] = [curPos, prevPos];
    [prevScore, curScore] = [curScore, prevScore];
    prevLen = curLen;
  }
  let best = NONE;
  for (let k = 0; k < prevLen; k++) if (prevScore[k]! > best) best = prevScore[k]!;
  return best < n * THRESHOLD_PER_CHAR ? null : best;
}

export function fuzzyScore(query: string, text: string): number | null {
  return scorePrepared(prepareQuery(query), text.toLowerCase(), wordStarts(text));
}
