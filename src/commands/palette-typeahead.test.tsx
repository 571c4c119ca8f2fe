import { afterEach, describe, expect, it } from 'vitest';
import { closePalette, openPalette, paletteStore, takeTypeahead } from './palette-store';

const key = (k: string, init: KeyboardEventInit = {}) => {
  const e = new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true, ...init });
  document.body.dispatchEvent(e);
  return e;
};

afterEach(() => closePalette());

describe('palette typeahead', () => {
  it('keeps the keys typed before the palette input has the focus, Backspace and Enter included, then lets go', () => {
    openPalette();
    for (const k of 'New Actiom') key(k);
    key('Backspace');
    key('n');
    expect(key('Enter').defaultPrevented).toBe(true);
    expect(key('k', { ctrlKey: true }).defaultPrevented).toBe(false);
    expect(takeTypeahead()).toEqual({ query: 'New Action', enter: true });
    // Once the palette has the keys, they are the input's again.
    expect(key('x').defaultPrevented).toBe(false);
    expect(paletteStore.initialQuery).toBe('New Action');
  });

  it('Escape before the palette is there closes it, and a closed palette keeps no key', () => {
    openPalette('run');
    key('Escape');
    expect(paletteStore.open).toBe(false);
    expect(key('a').defaultPrevented).toBe(false);
    expect(paletteStore.initialQuery).toBe('run');
  });
});
