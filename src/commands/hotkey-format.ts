/** Hotkey strings: lowercase parts joined by '+', modifiers first in the order mod, ctrl, alt, shift. */
const MOD_ORDER = ['mod', 'ctrl', 'alt', 'shift'] as const;

export const isMac = (): boolean => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

export function normalizeHotkey(hotkey: string): string {
  const parts = hotkey.toLowerCase().split('+').map((p) => p.trim()).filter(Boolean);
  const mods = MOD_ORDER.filter((m) => parts.includes(m));
  const keys = parts.filter((p) => !(MOD_ORDER as readonly string[]).includes(p));
  if (keys.length !== 1) throw new Error(`Hotkey "${hotkey}" must name exactly one key`);
  return [...mods, keys[0]].join('+');
}

const CODE_KEYS: Record<string, string> = {
  BracketLeft: '[',
  BracketRight: ']',
  Comma: ',',
  Period: '.',
  Slash: '/',
  Backslash: '\\',
  Semicolon: ';',
  Quote: "'",
  Minus: '-',
  Equal: '=',
  Backquote: '`',
};

/** The hotkey string a keyboard event stands for; letters, digits and punctuation read from the physical key. */
export function eventToHotkey(e: Pick<KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>, mac = isMac()): string | null {
  if (['Control', 'Meta', 'Alt', 'Shift'].includes(e.key)) return null;
  // `?` opens the shortcut sheet on every layout: Shift+/ on a US keyboard, Shift+ß on a German one, Shift+, on a French one.
  if (e.key === '?' && !e.ctrlKey && !e.metaKey && !e.altKey) return 'shift+/';
  let key: string;
  if (/^Key[A-Z]$/.test(e.code)) key = e.code.slice(3).toLowerCase();
  else if (/^Digit[0-9]$/.test(e.code)) key = e.code.slice(5);
  else if (CODE_KEYS[e.code]) key = CODE_KEYS[e.code]!;
  else key = e.key.length === 1 ? e.key.toLowerCase() : e.key.toLowerCase();
  const mods: string[] = [];
  const modKey = mac ? e.metaKey : e.ctrlKey;
  if (modKey) mods.push('mod');
  if (mac ? e.ctrlKey : e.metaKey) mods.push('ctrl');
  if (e.altKey) mods.push('alt');
  if (e.shiftKey) mods.push('shift');
  return [...mods, key].join('+');
}

const LABELS: Record<string, string> = { arrowleft: '←', arrowright: '→', arrowup: '↑', arrowdown: '↓', escape: 'Esc', enter: 'Enter', delete: 'Del', backspace: 'Backspace', pageup: 'Page Up', pagedown: 'Page Down', home: 'Home', end: 'End' };

/** 'mod+shift+k' -> ['Ctrl', 'Shift', 'K'] (or ⌘ ⇧ K on a Mac). */
export function hotkeyLabel(hotkey: string, mac = isMac()): string[] {
  return normalizeHotkey(hotkey)
    .split('+')
    .map((p) => {
      if (p === 'mod') return mac ? '⌘' : 'Ctrl';
      if (p === 'ctrl') return mac ? '⌃' : 'Win';
      if (p === 'alt') return mac ? '⌥' : 'Alt';
      if (p === 'shift') return mac ? '⇧' : 'Shift';
      return LABELS[p] ?? p.toUpperCase();
    });
}

/** 'mod+shift+k' -> 'Ctrl+Shift+K' (⌘⇧K on a Mac): the one text form of a hotkey in menus, buttons and hints. */
export function hotkeyText(hotkey: string, mac = isMac()): string {
  return hotkeyLabel(hotkey, mac).join(mac ? '' : '+');
}

const ARIA_KEYS: Record<string, string> = { arrowleft: 'ArrowLeft', arrowright: 'ArrowRight', arrowup: 'ArrowUp', arrowdown: 'ArrowDown', escape: 'Escape', enter: 'Enter', delete: 'Delete', backspace: 'Backspace', pageup: 'PageUp', pagedown: 'PageDown', home: 'Home', end: 'End', ' ': 'Space', space: 'Space' };

/** 'mod+s' -> 'Control+S' ('Meta+S' on a Mac): a hotkey as the value of `aria-keyshortcuts`. */
export function hotkeyAria(hotkey: string, mac = isMac()): string {
  return normalizeHotkey(hotkey)
    .split('+')
    .map((p) => {
      if (p === 'mod') return mac ? 'Meta' : 'Control';
      if (p === 'ctrl') return mac ? 'Control' : 'Meta';
      if (p === 'alt') return 'Alt';
      if (p === 'shift') return 'Shift';
      return ARIA_KEYS[p] ?? p.toUpperCase();
    })
    .join('+');
}
