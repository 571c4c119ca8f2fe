import type { ItemRects } from './layouts';

export type Direction = 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown';

/**
 * Keyboard selection: from the selected actor or device, the nearest other one in the arrow's
 * direction (distance along the arrow plus twice the sideways distance); with nothing selected, the first.
 */
export function nextItem(rects: ItemRects, keys: string[], from: string | null, dir: Direction): string | null {
  const start = from ? rects[from] : undefined;
  if (!start) return keys[0] ?? null;
  const cx = start.x + start.width / 2;
  const cy = start.y + start.height / 2;
  let best: string | null = null;
  let bestScore = Infinity;
  for (const k of keys) {
    const r = rects[k];
    if (!r || k === from) continue;
    const dx = r.x + r.width / 2 - cx;
    const dy = r.y + r.height / 2 - cy;
    const [along, side] = dir === 'ArrowRight' ? [dx, dy] : dir === 'ArrowLeft' ? [-dx, dy] : dir === 'ArrowDown' ? [dy, dx] : [-dy, dx];
    if (along <= 0) continue;
    const score = along + 2 * Math.abs(side);
    if (score < bestScore) {
      bestScore = score;
      best = k;
    }
  }
  return best ?? from;
}
