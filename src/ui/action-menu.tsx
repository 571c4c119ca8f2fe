import { Menu, MenuButton, MenuItem, MenuItems, MenuSeparator } from '@headlessui/react';
import type { ReactNode } from 'react';

export interface MenuEntry {
  label: string;
  onSelect(): void;
  disabled?: boolean;
  /** Why it is disabled (shown as a tooltip). */
  reason?: string;
  hotkey?: string;
  separatorBefore?: boolean;
}

/** A small Headless UI menu: keyboard (arrows, Enter, Escape, typeahead) and screen-reader ready. */
export function ActionMenu({ label, button, entries, className = '' }: { label: string; button: ReactNode; entries: readonly MenuEntry[]; className?: string }) {
  return (
    <Menu>
      <MenuButton aria-label={label} title={label} className={`inline-flex items-center gap-1 rounded border border-transparent px-1.5 py-0.5 text-sm hover:border-line hover:bg-raised data-[open]:border-line data-[open]:bg-raised ${className}`}>
        {button}
      </MenuButton>
      <MenuItems anchor="bottom end" className="z-[1055] min-w-52 rounded-md border border-line bg-panel p-1 text-sm text-ink shadow-xl focus:outline-none">
        {entries.map((e) => [
          e.separatorBefore ? <MenuSeparator key={`${e.label}-sep`} className="my-1 h-px bg-line" /> : null,
          <MenuItem key={e.label} disabled={!!e.disabled}>
            <button
              type="button"
              title={e.disabled ? e.reason : undefined}
              onClick={e.onSelect}
              className="flex w-full items-center justify-between gap-4 rounded px-2 py-1 text-left data-[disabled]:cursor-not-allowed data-[disabled]:opacity-45 data-[focus]:bg-accent/15"
            >
              <span>{e.label}</span>
              {e.hotkey && <kbd className="font-mono text-2xs text-muted">{e.hotkey}</kbd>}
            </button>
          </MenuItem>,
        ])}
      </MenuItems>
    </Menu>
  );
}
