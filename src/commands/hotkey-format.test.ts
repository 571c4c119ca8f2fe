import { describe, expect, it } from 'vitest';
import { eventToHotkey, hotkeyAria, hotkeyLabel, normalizeHotkey } from './hotkey-format';

const ev = (key: string, code: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey', boolean>> = {}) => ({
  key,
  code,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...mods,
});

describe('hotkeys', () => {
  it('normalizes modifier order and case', () => {
    expect(normalizeHotkey('Shift+Mod+K')).toBe('mod+shift+k');
    expect(() => normalizeHotkey('mod+shift')).toThrow();
  });

  it('reads Ctrl as mod off a Mac and Cmd as mod on a Mac', () => {
    expect(eventToHotkey(ev('k', 'KeyK', { ctrlKey: true }), false)).toBe('mod+k');
    expect(eventToHotkey(ev('k', 'KeyK', { metaKey: true }), true)).toBe('mod+k');
  });

  it('reads punctuation from the physical key so alt+shift+] survives the shifted character', () => {
    expect(eventToHotkey(ev('}', 'BracketRight', { altKey: true, shiftKey: true }), false)).toBe('alt+shift+]');
    expect(eventToHotkey(ev('Shift', 'ShiftLeft', { shiftKey: true }), false)).toBeNull();
  });

  it('issue 21 reads ? as shift+/ (the shortcut sheet) whatever key types it: US, German and French layouts', () => {
    expect(eventToHotkey(ev('?', 'Slash', { shiftKey: true }), false)).toBe('shift+/');
    expect(eventToHotkey(ev('?', 'Minus', { shiftKey: true }), false)).toBe('shift+/');
    expect(eventToHotkey(ev('?', 'KeyM', { shiftKey: true }), false)).toBe('shift+/');
    expect(eventToHotkey(ev('?', 'Slash', { shiftKey: true, ctrlKey: true }), false)).toBe('mod+shift+/');
  });

  it('labels hotkeys for the palette', () => {
    expect(hotkeyLabel('mod+shift+p', false)).toEqual(['Ctrl', 'Shift', 'P']);
    expect(hotkeyLabel('mod+k', true)).toEqual(['⌘', 'K']);
  });

  it('writes hotkeys as aria-keyshortcuts values (Control off a Mac, Meta on a Mac)', () => {
    expect(hotkeyAria('mod+s', false)).toBe('Control+S');
    expect(hotkeyAria('mod+s', true)).toBe('Meta+S');
    expect(hotkeyAria('shift+alt+r', false)).toBe('Alt+Shift+R');
    expect(hotkeyAria('alt+arrowleft', false)).toBe('Alt+ArrowLeft');
  });
});
