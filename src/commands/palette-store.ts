import { proxy } from 'valtio';

export const paletteStore = proxy({ open: false, initialQuery: '', pendingEnter: false });

/**
 * Keys typed between asking for the palette and its input taking the focus (its code may still be
 * loading, or the dialog mounting): kept and handed to the palette, so `Ctrl+K`, typing and Enter at
 * full speed never lose a key or run the wrong thing.
 */
let stopTypeahead: (() => void) | null = null;

function keepTypeahead(): void {
  if (typeof window === 'undefined' || stopTypeahead) return;
  const onKey = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
    if (e.key.length === 1) paletteStore.initialQuery += e.key;
    else if (e.key === 'Backspace') paletteStore.initialQuery = paletteStore.initialQuery.slice(0, -1);
    else if (e.key === 'Enter') paletteStore.pendingEnter = true;
    else if (e.key === 'Escape') closePalette();
    else return;
    e.preventDefault();
    e.stopPropagation();
  };
  window.addEventListener('keydown', onKey, true);
  stopTypeahead = () => {
    window.removeEventListener('keydown', onKey, true);
    stopTypeahead = null;
  };
}

export function openPalette(initialQuery = ''): void {
  paletteStore.initialQuery = initialQuery;
  paletteStore.pendingEnter = false;
  paletteStore.open = true;
  keepTypeahead();
}

/** The palette's input has the focus: what was typed before it did, and whether Enter was pressed. */
export function takeTypeahead(): { query: string; enter: boolean } {
  stopTypeahead?.();
  const taken = { query: paletteStore.initialQuery, enter: paletteStore.pendingEnter };
  paletteStore.pendingEnter = false;
  return taken;
}

export function closePalette(): void {
  stopTypeahead?.();
  paletteStore.open = false;
}

/** The keyboard shortcut sheet (`?`). */
export const shortcutSheet = proxy({ open: false });
