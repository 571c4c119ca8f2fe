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

// Reused buffers (the matcher runs for thousands of texts per keystroke).
let prevRow = new Float64Array(64);
let curRow = new Float64Array(64);

/** A query made ready once per keystroke: its characters without spaces, and which must start a word. */
export interface PreparedQuery {
  q: string;
  mustStart: boolean[];
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
  return { q, mustStart };
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
  if (m > prevRow.length) {
    prevRow = new Float64Array(m * 2);
    curRow = new Float64Array(m * 2);
  }
  // prevRow[j]: the best score of q[0..i-1] with q[i-1] matched at j.
  for (let i = 0; i < n; i++) {
    const qc = q.charCodeAt(i);
    const start = mustStart[i];
    let bestBefore = i === 0 ? 0 : NONE; // best prevRow[k] for k < j - 1
    for (let j = 0; j < m; j++) {
      if (i > 0 && j >= 2 && prevRow[j - 2]! > bestBefore) bestBefore = prevRow[j - 2]!;
      let s = NONE;
      if (lowerText.charCodeAt(j) === qc && !(start && !starts[j])) {
        const ws = starts[j] === 1;
        const own = BASE + (ws ? WORD_START + (j === 0 ? FIRST_CHAR : 0) : 0);
        if (i === 0) s = own + (ws ? 0 : WEAK) - j * 0.05;
        else {
          const consecutive = j >= 1 ? prevRow[j - 1]! + BASE + CONSECUTIVE + (ws ? WORD_START : 0) : NONE;
          const gap = bestBefore > NONE / 2 ? bestBefore + own + GAP + (ws ? 0 : WEAK) : NONE;
          s = consecutive > gap ? consecutive : gap;
        }
      }
      curRow[j] = s;
    }
    const t = prevRow;
    prevRow = curRow;
    curRow = t;
  }
  let best = NONE;
  for (let j = 0; j < m; j++) if (prevRow[j]! > best) best = prevRow[j]!;
  return best < n * THRESHOLD_PER_CHAR ? null : best;
}

export function fuzzyScore(query: string, text: string): number | null {
  return scorePrepared(prepareQuery(query), text.toLowerCase(), wordStarts(text));
}
