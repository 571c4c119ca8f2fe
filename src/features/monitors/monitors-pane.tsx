import { NoResults } from '@/ui/no-results';
import { useCallback, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSnapshot } from 'valtio';
import { LIST_SORTS, type MonitorListItem, type MonitorListSort } from '@/api/contracts/monitors';
import type { PaneProps } from '@/panes/types';
import { CommandMenu, CommandToolbar, commandHotkeyText, runFrom, usePaneCommandContext } from '@/commands/command-menu';
import { commands } from '@/commands/registry';
import { usePaneContext } from '@/panes/use-pane-context';
import { useDebounced } from '@/ui/use-debounced';
import { LISTBOX_CLASS, ROW_CLASS, useVirtualRows } from '@/ui/virtual-list';
import { fetchMonitors, monitorKeys } from './api';
import { MONITOR_ROW_MENU, MONITOR_TOOLBAR_MENU } from './commands';
import { MonitorDetailPanel } from './monitor-detail';
import { DriftPanel } from './drift-panel';
import { monitorStore } from './store';
import { monitorsListPane } from './pane-context';
import { StatusPill, when } from './ui';

const SORT_LABELS: Record<MonitorListSort, string> = { name: 'Name', next_run_at: 'Next Run', last_run: 'Last Run', failed: 'Failed Steps', drift: 'Drift', monitor_group: 'Monitor Group' };
const ROW_HEIGHT = 64;
const control = 'rounded border border-line bg-surface px-1.5 py-1 text-sm text-ink';
const noop = () => {};

/**
 * Monitors (/monitors): a searchable, sortable, virtualized list of monitors (schedule in words, next
 * run, last run status, pass/fail and drift counts) with the selected monitor's detail and run history
 * beside it. The selected id is the pane's `id` param, so the URL follows the selection.
 */
export function MonitorsPane({ params, setParams }: PaneProps) {
  const selectedId = Number(params.id) || null;
  const [searchText, setSearchText] = useState('');
  const [sort, setSort] = useState<{ sort: MonitorListSort; dir: 'asc' | 'desc' }>({ sort: 'name', dir: 'asc' });
  const search = useDebounced(searchText.trim(), 300);
  const filter = useMemo(() => ({ search, ...sort }), [search, sort]);
  const list = useQuery({ queryKey: monitorKeys.list(filter), queryFn: ({ signal }) => fetchMonitors(filter, signal), refetchInterval: 15_000 });
  const rows = useMemo(() => list.data?.data ?? [], [list.data]);
  const snap = useSnapshot(monitorStore);
  const listRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const index = rows.findIndex((m) => m.id === selectedId);
  const selected = index >= 0 ? rows[index] : undefined;
  const { items, totalSize } = useVirtualRows({ count: rows.length, rowHeight: ROW_HEIGHT, scrollRef: listRef, onRange: noop, scrollToIndex: index >= 0 ? index : null });

  const select = useCallback((m: MonitorListItem) => setParams({ id: String(m.id) }), [setParams]);
  const move = useCallback(
    (step: 1 | -1) => {
      if (!rows.length) return;
      const from = index >= 0 ? index : step === 1 ? -1 : rows.length;
      const next = rows[Math.max(0, Math.min(rows.length - 1, from + step))];
      if (next) select(next);
    },
    [rows, index, select],
  );
  usePaneContext(monitorsListPane, {
    selected: () => (selected ? { id: selected.id, name: selected.name, paused: selected.paused } : null),
    move,
    focusSearch: () => {
      searchRef.current?.focus();
      searchRef.current?.select();
    },
  });
  const { opts } = usePaneCommandContext();
  const edit = (id: number, source: 'hotkey' | 'menu') => runFrom(commands, 'monitors.edit', { id }, source, opts);
  const newHotkey = commandHotkeyText(commands, 'monitors.new');

  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      move(e.key === 'ArrowDown' ? 1 : -1);
    } else if ((e.key === 'Home' || e.key === 'End') && rows.length) {
      e.preventDefault();
      const m = rows[e.key === 'Home' ? 0 : rows.length - 1];
      if (m) select(m);
    } else if (e.key === 'Enter' && selected) {
      e.preventDefault();
      edit(selected.id, 'hotkey');
    }
  };
  const onSearchKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'Enter') {
      e.preventDefault();
      listRef.current?.focus();
      if (index < 0) move(1);
    } else if (e.key === 'Escape' && searchText) {
      e.preventDefault();
      setSearchText('');
    }
  };

  return (
    <div className="flex h-full min-h-0" data-testid="monitors">
      <div className="flex w-[30rem] max-w-[55%] min-w-[18rem] shrink-0 flex-col border-r border-line">
        <div className="flex flex-col gap-2 border-b border-line p-2">
          <div className="flex items-center gap-2">
            <h2 className="flex-1 text-sm font-semibold">Monitors</h2>
            <CommandToolbar menu={MONITOR_TOOLBAR_MENU} label="Monitors actions" />
          </div>
          <div className="flex gap-2">
            <input
              ref={searchRef}
              type="search"
              aria-label="Search Monitors"
              placeholder="Search Monitors"
              value={searchText}
              onChange={(e) => setSearchText(e.target.value)}
              onKeyDown={onSearchKeyDown}
              className="min-w-0 flex-1 rounded border border-line bg-surface px-2 py-1 text-sm"
            />
            <select aria-label="Sort by" className={control} value={sort.sort} onChange={(e) => setSort({ sort: e.target.value as MonitorListSort, dir: sort.dir })}>
              {LIST_SORTS.map((s) => (
                <option key={s} value={s}>
                  {SORT_LABELS[s]}
                </option>
              ))}
            </select>
            <button type="button" className={control} aria-label={sort.dir === 'asc' ? 'Ascending' : 'Descending'} title="Sort direction" onClick={() => setSort({ ...sort, dir: sort.dir === 'asc' ? 'desc' : 'asc' })}>
              {sort.dir === 'asc' ? '↑' : '↓'}
            </button>
          </div>
          <div className="text-2xs text-muted" role="status">
            {list.isLoading ? 'Loading Monitors' : list.isError ? `Could not load the monitors: ${list.error.message}` : `${rows.length} monitor${rows.length === 1 ? '' : 's'}`}
          </div>
        </div>
        {!list.isLoading && !list.isError && rows.length === 0 ? (
          search ? <NoResults /> : <div className="p-4 text-sm text-muted">{`No monitors yet.${newHotkey ? ` Press ${newHotkey} to create one.` : ''}`}</div>
        ) : (
          <div ref={listRef} role="listbox" aria-label="Monitors" tabIndex={0} aria-activedescendant={selected ? `monitor-row-${selected.id}` : undefined} onKeyDown={onKey} className={LISTBOX_CLASS}>
            <div style={{ height: totalSize }}>
              {items.map((v) => {
                const m = rows[v.index];
                if (!m) return null;
                const active = m.id === selectedId;
                return (
                  <div
                    key={m.id}
                    id={`monitor-row-${m.id}`}
                    role="option"
                    aria-selected={active}
                    onClick={() => select(m)}
                    onDoubleClick={() => edit(m.id, 'menu')}
                    className={`${ROW_CLASS} flex flex-col justify-center gap-0.5 border-b border-line/60 px-3 ${active ? 'bg-accent/15' : 'hover:bg-raised'}`}
                    style={{ height: v.size, transform: `translateY(${v.start}px)` }}
                  >
                    <div className="flex items-center gap-2">
                      <span className="truncate font-medium">{m.name}</span>
                      {m.paused && <span className="rounded border border-line px-1 text-2xs text-muted">Paused</span>}
                      <span className="ml-auto">
                        <StatusPill status={m.last_run_status} />
                      </span>
                    </div>
                    <div className="flex items-center gap-2 text-2xs text-muted">
                      <span className="truncate">{m.schedule}</span>
                      <span className="ml-auto shrink-0" title="Latest judged run">
                        <span className="text-emerald-300">{m.passed} pass</span> · <span className="text-red-300">{m.failed} fail</span>
                        {m.drift > 0 && <span className="ml-1 rounded bg-red-500/20 px-1 text-red-200">{m.drift} drift</span>}
                      </span>
                    </div>
                    <div className="text-2xs text-muted">Next run {m.paused ? '— (paused)' : when(m.next_run_at)}</div>
                  </div>
                );
              })}
            </div>
          </div>
        )}
      </div>
      <div className="min-w-0 flex-1 overflow-auto">
        {snap.showDrift ? (
          <DriftPanel onClose={() => (monitorStore.showDrift = false)} onOpen={(id) => setParams({ id: String(id) })} />
        ) : selected ? (
          <MonitorDetailPanel monitor={selected} menu={<CommandMenu menu={MONITOR_ROW_MENU} args={{ id: selected.id }} label="Monitor actions" />} />
        ) : (
          <div className="p-6 text-sm text-muted">Select a monitor to see its steps and run history.</div>
        )}
      </div>
    </div>
  );
}
