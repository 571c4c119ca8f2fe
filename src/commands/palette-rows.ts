import { fuzzyScore } from './fuzzy';
import type { AnyCommand } from './types';

export type PaletteRow = { type: 'header'; category: string } | { type: 'item'; command: AnyCommand; index: number };

const extraText = (c: AnyCommand) => `${c.category} ${c.keywords?.join(' ') ?? ''} ${c.id}`;

/** The title counts most; category, keywords and id still find a command, ranked lower. */
export function commandScore(c: AnyCommand, query: string): number | null {
  const title = fuzzyScore(query, c.title);
  if (title !== null) return title + 500;
  const combined = fuzzyScore(query, `${c.title} ${extraText(c)}`);
  return combined;
}

/** Commands filtered by the query and grouped by category (categories ordered by their best match). */
export function paletteRows(commands: readonly AnyCommand[], query: string): { rows: PaletteRow[]; items: AnyCommand[] } {
  const q = query.trim();
  const ranked = q
    ? commands
        .map((item) => ({ item, score: commandScore(item, q) }))
        .filter((r): r is { item: AnyCommand; score: number } => r.score !== null)
        .sort((a, b) => b.score - a.score)
        .map((r) => r.item)
    : [...commands].sort((a, b) => a.category.localeCompare(b.category) || a.title.localeCompare(b.title));
  const groups = new Map<string, AnyCommand[]>();
  for (const c of ranked) {
    const g = groups.get(c.category);
    if (g) g.push(c);
    else groups.set(c.category, [c]);
  }
  const rows: PaletteRow[] = [];
  const items: AnyCommand[] = [];
  for (const [category, list] of groups) {
    rows.push({ type: 'header', category });
    for (const command of list) {
      rows.push({ type: 'item', command, index: items.length });
      items.push(command);
    }
  }
  return { rows, items };
}
