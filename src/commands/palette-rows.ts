import { prepareQuery, scorePrepared, wordStarts, type PreparedQuery } from './fuzzy';
import type { AnyCommand } from './types';

export type PaletteRow = { type: 'header'; category: string } | { type: 'item'; command: AnyCommand; index: number };

/** A title match counts about one well-placed character more than the same match in the keywords. */
const TITLE_BONUS = 10;
/** A recently used command outranks equally good matches (less than the title bonus); the most recent most. */
const RECENT_BONUS = 5;
const RECENT_CATEGORY = 'Recently used';

interface Texts {
  lowerTitle: string;
  titleStarts: Uint8Array;
  lowerRest: string;
  restStarts: Uint8Array;
}

// Lowered once per command, not per keystroke.
const textsOf = new WeakMap<AnyCommand, Texts>();
function texts(c: AnyCommand): Texts {
  let t = textsOf.get(c);
  if (!t) {
    const rest = `${c.category} ${c.title} ${c.keywords?.join(' ') ?? ''}`;
    t = { lowerTitle: c.title.toLowerCase(), titleStarts: wordStarts(c.title), lowerRest: rest.toLowerCase(), restStarts: wordStarts(rest) };
    textsOf.set(c, t);
  }
  return t;
}

/**
 * How well a command matches a query, or null: a match in the title gets a bonus over the same match
 * in the category and keywords (matched together with the title, so "jobs cancel" finds Cancel Job in
 * Jobs); a scattered title match ("dns" in "Edit Action Name, Description or Notes", about 2 points a
 * character) still ranks below a keyword matched whole ("dns" of New Action, about 9).
 */
export function commandScore(c: AnyCommand, query: string | PreparedQuery): number | null {
  const pq = typeof query === 'string' ? prepareQuery(query) : query;
  const t = texts(c);
  const title = scorePrepared(pq, t.lowerTitle, t.titleStarts);
  // A title match stands (the rest holds the title too, and rarely does better): one scan, not two.
  if (title !== null) return title + TITLE_BONUS;
  return scorePrepared(pq, t.lowerRest, t.restStarts);
}

/**
 * The palette's commands for a query. Empty query: recently used first (most recent first), then the
 * rest grouped by category. Otherwise one ranked list: score, then recency, then title.
 * `recent` holds command ids, most recent first.
 */
export function paletteRows(commands: readonly AnyCommand[], query: string, recent: readonly string[] = []): { rows: PaletteRow[]; items: AnyCommand[] } {
  const q = query.trim().toLowerCase();
  const recentRank = new Map(recent.map((id, i) => [id, i]));
  const rows: PaletteRow[] = [];
  const items: AnyCommand[] = [];
  const push = (command: AnyCommand) => {
    rows.push({ type: 'item', command, index: items.length });
    items.push(command);
  };
  if (!q) {
    const used = commands.filter((c) => recentRank.has(c.id)).sort((a, b) => recentRank.get(a.id)! - recentRank.get(b.id)!);
    if (used.length) {
      rows.push({ type: 'header', category: RECENT_CATEGORY });
      used.forEach(push);
    }
    const rest = commands.filter((c) => !recentRank.has(c.id)).sort((a, b) => a.category.localeCompare(b.category) || a.title.localeCompare(b.title));
    let category: string | null = null;
    for (const c of rest) {
      if (c.category !== category) rows.push({ type: 'header', category: (category = c.category) });
      push(c);
    }
    return { rows, items };
  }
  const scored: { c: AnyCommand; s: number }[] = [];
  const pq = prepareQuery(q);
  for (const c of commands) {
    let s = commandScore(c, pq);
    if (s === null) continue;
    const r = recentRank.get(c.id);
    if (r !== undefined) s += RECENT_BONUS * (1 - r / (recent.length + 1));
    scored.push({ c, s });
  }
  scored.sort((a, b) => b.s - a.s || a.c.title.localeCompare(b.c.title));
  for (const { c } of scored) push(c);
  return { rows, items };
}
