import { proxy } from 'valtio';

/** `prompt`: the id of a command whose argument form the palette opens on (a hotkey of a command missing arguments). */
export const paletteStore = proxy({ open: false, initialQuery: '', pendingEnter: false, prompt: null as string | null });

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
  paletteStore.prompt = null;
  paletteStore.open = true;
  keepTypeahead();
}

/**
 * Opens the palette on one command's argument form (what choosing it in the palette shows): a hotkey
 * of a command whose required arguments are missing asks for them here. Keys typed before the form
 * has the focus are dropped, not run as a query.
 */
export function openPaletteFor(commandId: string): void {
  openPalette();
  paletteStore.prompt = commandId;
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
  paletteStore.prompt = null;
}

/** The keyboard shortcut sheet (`?`). */
export const shortcutSheet = proxy({ open: false });
