import { mayMatch, prepareQuery, scorePrepared, textSets, wordStarts, type PreparedQuery, type TextSets } from './fuzzy';
import type { AnyCommand } from './types';

export type PaletteRow = { type: 'header'; category: string } | { type: 'item'; command: AnyCommand; index: number };

/** A title match counts about one well-placed character more than the same match in the keywords. */
const TITLE_BONUS = 10;
/** A recently used command outranks equally good matches (less than the title bonus); the most recent most. */
const RECENT_BONUS = 5;
const RECENT_CATEGORY = 'Recently used';
/** How many matching commands a query lists at most (the best; `total` counts them all). */
export const MAX_RANKED = 500;

export interface PaletteCommands {
  rows: PaletteRow[];
  items: AnyCommand[];
  /** How many commands match (more than items when the list stops at MAX_RANKED). */
  total: number;
}

interface Texts {
  lowerTitle: string;
  titleStarts: Uint8Array;
  lowerRest: string;
  restStarts: Uint8Array;
  /** The character sets of the rest (which holds the title). */
  sets: TextSets;
}

// Lowered once per command, not per keystroke.
const textsOf = new WeakMap<AnyCommand, Texts>();
function texts(c: AnyCommand): Texts {
  let t = textsOf.get(c);
  if (!t) {
    const rest = `${c.category} ${c.title} ${c.keywords?.join(' ') ?? ''}`;
    const lowerRest = rest.toLowerCase();
    const restStarts = wordStarts(rest);
    t = { lowerTitle: c.title.toLowerCase(), titleStarts: wordStarts(c.title), lowerRest, restStarts, sets: textSets(lowerRest, restStarts) };
    textsOf.set(c, t);
  }
  return t;
}

/**
 * What the palette keeps per list of commands (one list per registry change): each command's texts,
 * its place in title order (the tie-break, computed once instead of comparing strings per keystroke),
 * the commands the last query's characters were found in (a longer query can only match among them:
 * typing narrows the scan), and the grouped list of the empty query.
 */
interface Prepared {
  texts: Texts[];
  titleOrder: Uint32Array;
  last: { q: string; candidates: Uint32Array } | null;
  empty: { recent: readonly string[]; rows: PaletteRow[]; items: AnyCommand[] } | null;
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });
const preparedOf = new WeakMap<readonly AnyCommand[], Prepared>();
function prepared(commands: readonly AnyCommand[]): Prepared {
  let p = preparedOf.get(commands);
  if (!p) {
    const all = commands.map(texts);
    // Sort by the lower-cased title with a plain comparison, then give each command its rank.
    const byTitle = commands.map((_, i) => i).sort((a, b) => (all[a]!.lowerTitle < all[b]!.lowerTitle ? -1 : all[a]!.lowerTitle > all[b]!.lowerTitle ? 1 : a - b));
    const titleOrder = new Uint32Array(commands.length);
    byTitle.forEach((i, rank) => (titleOrder[i] = rank));
    p = { texts: all, titleOrder, last: null, empty: null };
    preparedOf.set(commands, p);
  }
  return p;
}

/** Whether every character of q appears in order in text (what any match needs). */
function inOrder(q: string, text: string): boolean {
  for (let i = 0, j = 0; i < q.length; i++, j++) {
    j = text.indexOf(q[i]!, j);
    if (j < 0) return false;
  }
  return true;
}

/**
 * How well a command matches a query, or null: a match in the title gets a bonus over the same match
 * in the category and keywords (matched together with the title, so "jobs cancel" finds Cancel Job in
 * Jobs); a scattered title match ("dns" in "Edit Action Name, Description or Notes", about 2 points a
 * character) still ranks below a keyword matched whole ("dns" of New Action, about 9).
 */
function scoreTexts(pq: PreparedQuery, t: Texts): number | null {
  const title = scorePrepared(pq, t.lowerTitle, t.titleStarts);
  // A title match stands (the rest holds the title too, and rarely does better): one scan, not two.
  if (title !== null) return title + TITLE_BONUS;
  return scorePrepared(pq, t.lowerRest, t.restStarts);
}


/**
 * The palette's commands for a query. Empty query: recently used first (most recent first), then the
 * rest grouped by category. Otherwise one ranked list: score, then recency, then title.
 * `recent` holds command ids, most recent first. Pass the same array while the commands do not change:
 * the work done for it (lower-cased texts, word starts, title order, the last query's candidates) is
 * kept with it, so a keystroke scans only the commands the previous one found.
 */
export function paletteRows(commands: readonly AnyCommand[], query: string, recent: readonly string[] = []): PaletteCommands {
  const p = prepared(commands);
  const q = query.trim().toLowerCase();
  if (!q) {
    if (p.empty?.recent !== recent) p.empty = { recent, ...groupedRows(commands, recent) };
    return { rows: p.empty.rows, items: p.empty.items, total: p.empty.items.length };
  }
  const pq = prepareQuery(q);
  // The commands to scan: those the previous query's characters were found in, when this query extends it.
  const previous = p.last && pq.q.startsWith(p.last.q) ? p.last.candidates : null;
  const count = previous ? previous.length : commands.length;
  const candidates = new Uint32Array(count);
  let found = 0;
  const recentRank = new Map(recent.map((id, i) => [id, i]));
  const idx = new Uint32Array(count);
  const scores = new Float64Array(count);
  let matched = 0;
  for (let k = 0; k < count; k++) {
    const i = previous ? previous[k]! : k;
    const t = p.texts[i]!;
    if ((t.sets.mask & pq.mask) !== pq.mask || !inOrder(pq.q, t.lowerRest)) continue;
    candidates[found++] = i;
    if (!mayMatch(pq, t.sets)) continue;
    let s = scoreTexts(pq, t);
    if (s === null) continue;
    const r = recent.length ? recentRank.get(commands[i]!.id) : undefined;
    if (r !== undefined) s += RECENT_BONUS * (1 - r / (recent.length + 1));
    idx[matched] = i;
    scores[matched++] = s;
  }
  p.last = { q: pq.q, candidates: candidates.subarray(0, found) };
  // Only the best MAX_RANKED are ordered and listed: the lowest score that makes the cut, by a numeric sort.
  const cut = matched > MAX_RANKED ? scores.slice(0, matched).sort()[matched - MAX_RANKED]! : -Infinity;
  const order: number[] = [];
  for (let k = 0; k < matched; k++) if (scores[k]! >= cut) order.push(k);
  order.sort((a, b) => scores[b]! - scores[a]! || p.titleOrder[idx[a]!]! - p.titleOrder[idx[b]!]!);
  if (order.length > MAX_RANKED) order.length = MAX_RANKED;
  const rows: PaletteRow[] = new Array(order.length);
  const items: AnyCommand[] = new Array(order.length);
  order.forEach((k, n) => {
    const command = commands[idx[k]!]!;
    items[n] = command;
    rows[n] = { type: 'item', command, index: n };
  });
  return { rows, items, total: matched };
}

/**
 * Whether a command matches a query closely: each word of the query whole in its title, category or
 * keywords ("run seq" in Run Sequence…), or the query the initials of title words in order ("oj" Open
 * Jobs). The palette lists such commands before the objects quick open finds, a scattered match ("dns"
 * in "Delete Threat-Intel Source") after them, as "DNS Query…" is the better answer to "dns".
 */
export function closeMatch(c: AnyCommand, query: string): boolean {
  const q = query.trim().toLowerCase();
  const t = texts(c);
  if (q.split(/\s+/).every((w) => t.lowerRest.includes(w))) return true;
  const initials = q.replace(/\s+/g, '');
  let k = 0;
  for (let j = 0; j < t.lowerTitle.length && k < initials.length; j++) if (t.titleStarts[j] && t.lowerTitle[j] === initials[k]) k++;
  return k === initials.length;
}

/** The empty query's list: recently used first (most recent first), then every other command by category and title. */
function groupedRows(commands: readonly AnyCommand[], recent: readonly string[]): { rows: PaletteRow[]; items: AnyCommand[] } {
  const recentRank = new Map(recent.map((id, i) => [id, i]));
  const rows: PaletteRow[] = [];
  const items: AnyCommand[] = [];
  const push = (command: AnyCommand) => {
    rows.push({ type: 'item', command, index: items.length });
    items.push(command);
  };
  const used = commands.filter((c) => recentRank.has(c.id)).sort((a, b) => recentRank.get(a.id)! - recentRank.get(b.id)!);
  if (used.length) {
    rows.push({ type: 'header', category: RECENT_CATEGORY });
    used.forEach(push);
  }
  // Categories are few: order them once with the collator, then sort by their rank and the title order.
  const categories = [...new Set(commands.map((c) => c.category))].sort(collator.compare);
  const categoryRank = new Map(categories.map((c, i) => [c, i]));
  const { titleOrder } = prepared(commands);
  const rest = commands
    .map((c, i) => ({ c, i, cat: categoryRank.get(c.category)! }))
    .filter(({ c }) => !recentRank.has(c.id))
    .sort((a, b) => a.cat - b.cat || titleOrder[a.i]! - titleOrder[b.i]!)
    .map(({ c }) => c);
  let category: string | null = null;
  for (const c of rest) {
    if (c.category !== category) rows.push({ type: 'header', category: (category = c.category) });
    push(c);
  }
  return { rows, items };
}
