import { Dialog, DialogPanel } from '@headlessui/react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useSnapshot } from 'valtio';
import { ArgsForm, needsPrompt } from './args-form';
import { hotkeyLabel } from './hotkey-format';
import { hotkeysOf, type CommandRegistry } from './registry';
import { closePalette, paletteStore, takeTypeahead } from './palette-store';
import { closeMatch, paletteRows } from './palette-rows';
import type { AnyCommand } from './types';
import { useRegistryVersion } from './use-registry';
import { useObjectSearch } from './object-search';
import { recentCommands, rememberCommand } from './recent-commands';
import { SEARCH_KIND_LABELS, type SearchResult } from '@/api/contracts/search';
import { parseScript } from './script/parse';
import { listKeyTarget } from '@/ui/list-keys';

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

/**
 * The command palette and quick open: visible commands ranked by a fuzzy match (recently used first),
 * and objects (Actions, simulations, jobs, actors, monitors, saved filters, scripts, dashboards) found
 * by one director search call; `>` first lists commands only. Keyboard driven.
 */
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

/** A command typed as a script line (`run.action vid=A000-1000`): its command and literal arguments. */
interface TypedLine {
  command: AnyCommand;
  args: Record<string, string>;
  source: string;
}
type Entry = { type: 'command'; command: AnyCommand } | { type: 'object'; result: SearchResult } | { type: 'line'; line: TypedLine };
type Row = { type: 'header'; label: string } | { type: 'entry'; entry: Entry; index: number };

const COMMANDS_ONLY = '>';
const entryId = (e: Entry) => (e.type === 'command' ? `palette-item-${e.command.id}` : e.type === 'line' ? 'palette-line' : `palette-object-${e.result.kind}-${e.result.id}`);

/**
 * The query as one script line naming a command the user may run here, with literal arguments only
 * (`run.action vid=A000-1000`, `jobs.open id=320`), or null: the palette runs it as typed.
 */
function typedLine(text: string, visible: readonly AnyCommand[]): TypedLine | null {
  const t = text.trim();
  if (!/^[A-Za-z_][\w-]*\.[\w.-]+(\s|$)/.test(t)) return null;
  const parsed = parseScript(t);
  const step = parsed.steps[0];
  if (parsed.errors.length || parsed.steps.length !== 1 || !step || step.bind) return null;
  const command = visible.find((c) => c.id === step.commandId);
  if (!command) return null;
  const args: Record<string, string> = {};
  for (const [k, v] of Object.entries(step.args)) {
    if (v.kind !== 'literal') return null;
    args[k] = v.text;
  }
  return { command, args, source: t };
}

/** Opens a found object through the registry: a saved filter by its own command, anything else by its URL. */
function openObject(registry: CommandRegistry, r: SearchResult): Promise<unknown> {
  const applyFilter = `filters.applySaved.${r.id}`;
  if (r.kind === 'filter' && registry.get(applyFilter)) return registry.execute(applyFilter, undefined, 'palette');
  return registry.execute('pane.openUrl', { url: r.url }, 'palette');
}

function PaletteBody({ registry }: { registry: CommandRegistry }) {
  const version = useRegistryVersion(registry);
  const [query, setQuery] = useState(paletteStore.initialQuery);
  const [active, setActive] = useState(0);
  // Opened on one command's form (openPaletteFor): cancelling it closes the palette, as the hotkey opened no list.
  const [direct] = useState(() => (paletteStore.prompt ? (registry.get(paletteStore.prompt) ?? null) : null));
  const [prompting, setPrompting] = useState<AnyCommand | null>(direct);
  const listRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const userId = registry.context().user?.id;
  const [recent] = useState(() => recentCommands(userId));

  const commandsOnly = query.startsWith(COMMANDS_ONLY);
  const text = commandsOnly ? query.slice(COMMANDS_ONLY.length) : query;
  const objects = useObjectSearch(text, !commandsOnly);

  // `version` is the registry's change signal: recompute the visible commands when it moves.
  const visible = useMemo(() => (version >= 0 ? registry.visible() : []), [registry, version]);
  const commandRows = useMemo(() => paletteRows(visible, text, recent), [visible, text, recent]);
  const line = useMemo(() => typedLine(text, visible), [text, visible]);
  const { rows, items } = useMemo(() => {
    const found = objects.state === 'ready' ? objects.results : [];
    const rows: Row[] = [];
    const items: Entry[] = [];
    const add = (entry: Entry) => {
      rows.push({ type: 'entry', entry, index: items.length });
      items.push(entry);
    };
    // A command typed with its arguments runs as typed: first.
    if (line) {
      rows.push({ type: 'header', label: 'Run as typed' });
      add({ type: 'line', line });
    }
    // An object named exactly (a VID, a job id, a whole name) comes before commands; the commands that
    // match closely next, then the other objects, then the commands matched only scattered (closeMatch).
    const exact = found.filter((r) => r.match === 'exact');
    const others = found.filter((r) => r.match !== 'exact');
    if (exact.length) {
      rows.push({ type: 'header', label: 'Open' });
      exact.forEach((result) => add({ type: 'object', result }));
    }
    const grouped = commandRows.rows.some((r) => r.type === 'header');
    const split = found.length > 0 && !grouped;
    const close = split ? commandRows.items.filter((c) => closeMatch(c, text)) : commandRows.items;
    const scattered = split ? commandRows.items.filter((c) => !closeMatch(c, text)) : [];
    if (found.length && close.length && !grouped) rows.push({ type: 'header', label: 'Commands' });
    if (grouped) {
      for (const r of commandRows.rows) {
        if (r.type === 'header') rows.push({ type: 'header', label: r.category });
        else add({ type: 'command', command: r.command });
      }
    } else close.forEach((command) => add({ type: 'command', command }));
    if (others.length) {
      rows.push({ type: 'header', label: 'Objects' });
      others.forEach((result) => add({ type: 'object', result }));
    }
    if (scattered.length) {
      rows.push({ type: 'header', label: close.length ? 'More Commands' : 'Commands' });
      scattered.forEach((command) => add({ type: 'command', command }));
    }
    return { rows, items };
  }, [commandRows, objects, line, text]);
  const rowOfItem = useMemo(() => {
    const map: number[] = [];
    rows.forEach((r, i) => r.type === 'entry' && (map[r.index] = i));
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

  const choose = (entry: Entry | undefined) => {
    if (!entry) return;
    if (entry.type === 'object') {
      closePalette();
      void openObject(registry, entry.result).catch(() => undefined);
      return;
    }
    if (entry.type === 'line') {
      rememberCommand(userId, entry.line.command.id);
      closePalette();
      // The registry validates (and converts) the typed arguments as a script's; errors show as toasts.
      void registry.execute(entry.line.command.id, entry.line.args, 'palette').catch(() => undefined);
      return;
    }
    const command = entry.command;
    rememberCommand(userId, command.id);
    if (needsPrompt(command)) {
      setPrompting(command);
      return;
    }
    closePalette();
    void registry.execute(command.id, undefined, 'palette').catch(() => undefined);
  };

  // Keys typed before the input had the focus (palette-store's typeahead) become the query; an Enter
  // among them chooses the best row as soon as the rows for that query are there.
  const [enterPending, setEnterPending] = useState(false);
  useLayoutEffect(() => {
    const typed = takeTypeahead();
    if (direct) return;
    setQuery(typed.query);
    if (typed.enter) setEnterPending(true);
  }, [direct]);
  const chooseRef = useRef(choose);
  chooseRef.current = choose;
  useEffect(() => {
    if (!enterPending) return;
    setEnterPending(false);
    chooseRef.current(items[0]);
  }, [enterPending, items]);

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const to = listKeyTarget(e, active, items.length);
    if (to !== null) {
      e.preventDefault();
      setActive(to);
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
        cancelLabel={prompting === direct ? 'Cancel' : 'Back'}
        onCancel={() => {
          if (prompting === direct) return closePalette();
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

  const commandCount = commandRows.total;
  const objectCount = objects.state === 'ready' ? objects.results.length : 0;
  const activeId = items[active] ? entryId(items[active]!) : undefined;
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
        placeholder="Type a command, or a name, VID or job id to open…"
        className="w-full border-b border-line bg-transparent px-4 py-3 text-base outline-none"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <div ref={listRef} id="palette-list" role="listbox" aria-label="Commands" className="max-h-[55vh] overflow-y-auto">
        {items.length === 0 ? (
          <div className="px-4 py-6 text-center text-muted">{objects.state === 'loading' ? 'Searching…' : commandsOnly ? 'No matching commands' : 'No matching commands or objects'}</div>
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((v) => {
              const row = rows[v.index]!;
              const style = { position: 'absolute' as const, top: 0, left: 0, right: 0, height: v.size, transform: `translateY(${v.start}px)` };
              if (row.type === 'header') {
                return (
                  <div key={`h-${row.label}`} role="presentation" style={style} className="flex items-end px-4 pb-1 text-2xs font-semibold tracking-wider text-muted uppercase">
                    {row.label}
                  </div>
                );
              }
              const entry = row.entry;
              const selected = row.index === active;
              const id = entryId(entry);
              return (
                <div
                  key={id}
                  id={id}
                  role="option"
                  aria-selected={selected}
                  style={style}
                  className={`flex cursor-pointer items-center justify-between gap-3 px-4 ${selected ? 'bg-accent/20' : 'hover:bg-raised'}`}
                  onMouseMove={() => !selected && setActive(row.index)}
                  onClick={() => choose(entry)}
                >
                  {entry.type === 'line' ? (
                    <>
                      <span className="truncate font-mono text-sm">{entry.line.source}</span>
                      <span className="shrink-0 text-2xs text-muted">{entry.line.command.title}</span>
                    </>
                  ) : entry.type === 'command' ? (
                    <>
                      <span className="truncate">{entry.command.title}</span>
                      <span className="flex shrink-0 gap-2">
                        {hotkeysOf(entry.command).slice(0, 1).map((h) => (
                          <Kbd key={h} hotkey={h} />
                        ))}
                      </span>
                    </>
                  ) : (
                    <>
                      <span className="truncate">
                        {entry.result.label}
                        <span className="ml-2 text-2xs text-muted">{entry.result.detail}</span>
                      </span>
                      <span className="shrink-0 text-2xs text-muted">{SEARCH_KIND_LABELS[entry.result.kind]}</span>
                    </>
                  )}
                </div>
              );
            })}
          </div>
        )}
      </div>
      <div className="flex justify-between gap-3 border-t border-line px-4 py-1.5 text-2xs text-muted">
        <span>
          {commandCount} command{commandCount === 1 ? '' : 's'}
        </span>
        {commandCount > commandRows.items.length && <span>best {commandRows.items.length} listed</span>}
        {!commandsOnly && text.trim().length >= 2 && (
          <span aria-live="polite">
            {objects.state === 'loading' ? 'Searching objects…' : objects.state === 'error' ? `Object search failed: ${objects.message}` : `${objectCount} object${objectCount === 1 ? '' : 's'}`}
          </span>
        )}
        <span>{commandsOnly ? 'Commands only' : 'Start with > for commands only'} · ↑↓ to move · Enter to open · Esc to close</span>
      </div>
    </div>
  );
}
