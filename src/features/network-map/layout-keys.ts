import { LAYOUT_MODES, type LayoutMode } from '@/api/contracts/topology';

/** JOB-025: the second key of a shortcut counts within this many ms of the first. */
export const LAYOUT_KEY_DELAY_MS = 1000;

/**
 * The two-key buffer of the layout shortcuts L1 to L6: 'l' then a digit 1..6 within 1000 ms picks
 * a mode. Feed it every key; it answers the mode when a shortcut completes, else null.
 */
export function layoutKeyBuffer(now: () => number = Date.now) {
  let armedAt: number | null = null;
  return (key: string): LayoutMode | null => {
    const t = now();
    if (key === 'l' || key === 'L') {
      armedAt = t;
      return null;
    }
    const armed = armedAt !== null && t - armedAt <= LAYOUT_KEY_DELAY_MS;
    armedAt = null;
    const digit = /^[1-6]$/.test(key) ? Number(key) : 0;
    return armed && digit ? (LAYOUT_MODES[digit - 1] ?? null) : null;
  };
}
