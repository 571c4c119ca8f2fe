/**
 * A small fuzzy matcher for the palette: every query character must appear in order; consecutive
 * runs, word starts and an early first match score higher. Case-insensitive. Returns null on no match.
 */
export function fuzzyScore(query: string, text: string): number | null {
  if (!query) return 0;
  const q = query.toLowerCase();
  const t = text.toLowerCase();
  const direct = t.indexOf(q);
  if (direct >= 0) return 1000 - direct * 2 + (direct === 0 || !isWordChar(t.charCodeAt(direct - 1)) ? 200 : 0) - t.length * 0.1;
  let score = 0;
  let ti = 0;
  let run = 0;
  let first = -1;
  for (let qi = 0; qi < q.length; qi++) {
    const ch = q.charCodeAt(qi);
    if (ch === 32) continue;
    let found = -1;
    for (; ti < t.length; ti++) {
      if (t.charCodeAt(ti) === ch) {
        found = ti;
        break;
      }
    }
    if (found < 0) return null;
    if (first < 0) first = found;
    const wordStart = found === 0 || !isWordChar(t.charCodeAt(found - 1));
    run = found > 0 && qi > 0 && t.charCodeAt(found - 1) === q.charCodeAt(qi - 1) ? run + 1 : 0;
    score += 10 + run * 8 + (wordStart ? 12 : 0);
    ti = found + 1;
  }
  return score - first * 0.5 - t.length * 0.05;
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}
