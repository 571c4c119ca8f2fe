import { Dialog, DialogPanel } from '@headlessui/react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useSnapshot } from 'valtio';
import { ArgsForm, needsPrompt } from './args-form';
import { hotkeyLabel } from './hotkey-format';
import { hotkeysOf, type CommandRegistry } from './registry';
import { closePalette, paletteStore } from './palette-store';
import { paletteRows } from './palette-rows';
import type { AnyCommand } from './types';
import { useRegistryVersion } from './use-registry';

const ROW_HEIGHT = 32;
const HEADER_HEIGHT = 24;

function Kbd({ hotkey }: { hotkey: string }) {
  return (
    <span className="flex gap-0.5">
      {hotkeyLabel(hotkey).map((k, i) => (
        <kbd key={i} className="rounded border border-line bg-surface px-1 font-mono text-2xs text-muted">
          {k}
        </kbd>
      ))}
    </span>
  );
}

/** The command palette: every visible command, grouped by category, fuzzy filtered, keyboard driven. */
export function CommandPalette({ registry }: { registry: CommandRegistry }) {
  const { open } = useSnapshot(paletteStore);
  return (
    <Dialog open={open} onClose={closePalette} className="relative z-[1060]">
      <div className="fixed inset-0 bg-black/40" aria-hidden="true" />
      <div className="fixed inset-0 flex items-start justify-center p-4 pt-[10vh]">
        <DialogPanel className="w-full max-w-2xl overflow-hidden rounded-lg border border-line bg-panel text-ink shadow-2xl">
          {open && <PaletteBody registry={registry} />}
        </DialogPanel>
      </div>
    </Dialog>
  );
}

function PaletteBody({ registry }: { registry: CommandRegistry }) {
  const version = useRegistryVersion(registry);
  const [query, setQuery] = useState(paletteStore.initialQuery);
  const [active, setActive] = useState(0);
  const [prompting, setPrompting] = useState<AnyCommand | null>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  // `version` is the registry's change signal: recompute the visible commands when it moves.
  const visible = useMemo(() => (version >= 0 ? registry.visible() : []), [registry, version]);
  const { rows, items } = useMemo(() => paletteRows(visible, query), [visible, query]);
  const rowOfItem = useMemo(() => {
    const map: number[] = [];
    rows.forEach((r, i) => r.type === 'item' && (map[r.index] = i));
    return map;
  }, [rows]);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => listRef.current,
    estimateSize: (i) => (rows[i]?.type === 'header' ? HEADER_HEIGHT : ROW_HEIGHT),
    overscan: 8,
    // Render the first rows in the first frame, before the list has been measured.
    initialRect: { width: 640, height: 480 },
  });

  useEffect(() => setActive(0), [query]);
  useEffect(() => {
    const row = rowOfItem[active];
    if (row !== undefined) virtualizer.scrollToIndex(row, { align: 'auto' });
  }, [active, rowOfItem, virtualizer]);

  const choose = (command: AnyCommand | undefined) => {
    if (!command) return;
    if (needsPrompt(command)) {
      setPrompting(command);
      return;
    }
    closePalette();
    void registry.execute(command.id, undefined, 'palette').catch(() => undefined);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setActive((a) => Math.min(items.length - 1, a + 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => Math.max(0, a - 1));
    } else if (e.key === 'PageDown') {
      e.preventDefault();
      setActive((a) => Math.min(items.length - 1, a + 10));
    } else if (e.key === 'PageUp') {
      e.preventDefault();
      setActive((a) => Math.max(0, a - 10));
    } else if (e.key === 'Home' && e.ctrlKey) {
      setActive(0);
    } else if (e.key === 'End' && e.ctrlKey) {
      setActive(items.length - 1);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      choose(items[active]);
    }
  };

  if (prompting) {
    return (
      <ArgsForm
        command={prompting}
        ctx={registry.context()}
        onCancel={() => {
          setPrompting(null);
          setTimeout(() => inputRef.current?.focus());
        }}
        onSubmit={async (args) => {
          await registry.execute(prompting.id, args, 'palette');
          closePalette();
        }}
      />
    );
  }

  const activeId = items[active] ? `palette-item-${items[active]!.id}` : undefined;
  return (
    <div>
      <input
        ref={inputRef}
        autoFocus
        role="combobox"
        aria-expanded="true"
        aria-controls="palette-list"
        aria-activedescendant={activeId}
        aria-label="Command palette"
        placeholder="Type a command…"
        className="w-full border-b border-line bg-transparent px-4 py-3 text-base outline-none"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <div ref={listRef} id="palette-list" role="listbox" aria-label="Commands" className="max-h-[55vh] overflow-y-auto">
        {items.length === 0 ? (
          <div className="px-4 py-6 text-center text-muted">No matching commands</div>
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((v) => {
              const row = rows[v.index]!;
              const style = { position: 'absolute' as const, top: 0, left: 0, right: 0, height: v.size, transform: `translateY(${v.start}px)` };
              if (row.type === 'header') {
                return (
                  <div key={`h-${row.category}`} role="presentation" style={style} className="flex items-end px-4 pb-1 text-2xs font-semibold tracking-wider text-muted uppercase">
                    {row.category}
                  </div>
                );
              }
              const c = row.command;
              const selected = row.index === active;
              return (
                <div
                  key={c.id}
                  id={`palette-item-${c.id}`}
                  role="option"
                  aria-selected={selected}
                  style={style}
                  className={`flex cursor-pointer items-center justify-between gap-3 px-4 ${selected ? 'bg-accent/20' : 'hover:bg-raised'}`}
                  onMouseMove={() => !selected && setActive(row.index)}
                  onClick={() => choose(c)}
                >
                  <span className="truncate">{c.title}</span>
                  <span className="flex shrink-0 gap-2">
                    {hotkeysOf(c).slice(0, 1).map((h) => (
                      <Kbd key={h} hotkey={h} />
                    ))}
                  </span>
                </div>
              );
            })}
          </div>
        )}
      </div>
      <div className="flex justify-between border-t border-line px-4 py-1.5 text-2xs text-muted">
        <span>
          {items.length} command{items.length === 1 ? '' : 's'}
        </span>
        <span>↑↓ to move · Enter to run · Esc to close</span>
      </div>
    </div>
  );
}
