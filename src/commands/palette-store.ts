import { proxy } from 'valtio';

export const paletteStore = proxy({ open: false, initialQuery: '' });

export function openPalette(initialQuery = ''): void {
  paletteStore.initialQuery = initialQuery;
  paletteStore.open = true;
}

export function closePalette(): void {
  paletteStore.open = false;
}

/** The keyboard shortcut sheet (`?`). */
export const shortcutSheet = proxy({ open: false });
