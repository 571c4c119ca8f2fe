import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { DEFAULT_DIRECTION, LIBRARY_LIMITS, LIBRARY_SORTS, SORT_LABELS, type LibrarySort, type SimulationLibraryItem, type SortDirection } from '@/api/contracts/library';
import { SIMULATION_TYPES, SIMULATION_TYPE_LABELS, SIMULATION_VID_PATTERN, type SimulationType } from '@/api/contracts/simulations';
import { ApiError } from '@/api/http';
import { commands } from '@/commands/registry';
import type { PaneProps } from '@/panes/types';
import { SimulationDetail } from './simulation-pane';
import { SimList } from './sim-list';
import { simPaneHandlers, simStore } from './store';
import { useSimulationPages } from './use-sim-pages';
import { useDebounced } from '@/ui/use-debounced';
import { tagTargets } from '@/commands/tag-targets';
import { usePaneContext } from '@/panes/use-pane-context';
import { useMultiSelect } from '@/ui/use-multi-select';
import { SlideTransition } from '@/ui/slide-transition';

const control = 'rounded border border-line bg-surface px-1.5 py-1 text-sm text-ink';
const run = (id: string, args?: Record<string, unknown>) => commands.execute(id, args, 'button').catch(() => undefined);

const simTypeOf = (raw: string | undefined): SimulationType => (raw === 'eval' ? 'eval' : 'sequence');

/**
 * Sequences or Evaluations (/simulations?sim_type=sequence|eval): a searchable, sortable, virtualized
 * list with the selected simulation's detail beside it; Shift+arrows, Shift/Ctrl+click and Space
 * select several (for tags.add / tags.remove), Escape goes back to one. The selected VID is the pane's `vid` param, so
 * the URL follows the selection.
 */
export function SimulationsPane({ params, setParams }: PaneProps) {
  const simType = simTypeOf(params.sim_type);
  const vid = params.vid && SIMULATION_VID_PATTERN.test(params.vid) ? params.vid : undefined;
  const label = `${SIMULATION_TYPE_LABELS[simType]}s`;
  const [searchText, setSearchText] = useState('');
  const [sort, setSort] = useState<{ sort: LibrarySort; direction: SortDirection }>({ sort: 'name', direction: DEFAULT_DIRECTION.name });
  const search = useDebounced(searchText.trim(), LIBRARY_LIMITS.searchDebounceMs);
  const filter = useMemo(() => ({ simType, search, ...sort }), [simType, search, sort]);
  const pages = useSimulationPages(filter);
  const listRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const [scrollTo, setScrollTo] = useState<number | null>(null);
  const focusIndex = vid ? pages.indexOfVid(vid) : -1;

  const multi = useMultiSelect(pages.itemsBetween);
  /** The VID this pane last put in its params (another one comes from a link or back/forward). */
  const ownVid = useRef(vid);
  const show = useCallback(
    (index: number, item: SimulationLibraryItem) => {
      ownVid.current = item.vid;
      simStore.current = { id: item.id, vid: item.vid, name: item.name, simulation_type: item.simulation_type };
      setScrollTo(index);
      if (item.vid !== vid) setParams({ sim_type: simType, vid: item.vid });
    },
    [vid, simType, setParams],
  );
  /** A plain click or arrow: this one alone. Shift extends from the anchor; ctrl/meta (or Space) toggles. */
  const select = useCallback(
    (index: number, item: SimulationLibraryItem, how: { shift?: boolean; toggle?: boolean } = {}) => {
      if (how.shift) void multi.extendTo(index, item, how.toggle);
      else if (how.toggle) multi.toggle(index, item);
      else multi.only(index, item);
      show(index, item);
    },
    [multi, show],
  );

  // The selected row as the commands' current simulation (also after a deep link or back/forward).
  const selected = focusIndex >= 0 ? pages.itemAt(focusIndex) : undefined;
  useEffect(() => {
    if (selected) simStore.current = { id: selected.id, vid: selected.vid, name: selected.name, simulation_type: selected.simulation_type };
  }, [selected]);
  // A deep link or back/forward to a row outside the selection selects it alone.
  const { collapse } = multi;
  const selectedRef = useRef(multi.selected);
  selectedRef.current = multi.selected;
  useEffect(() => {
    if (!selected || (vid === ownVid.current && selectedRef.current.size > 0)) return;
    ownVid.current = vid;
    if (!selectedRef.current.has(selected.id)) collapse(selected);
    // Only a new VID (or its row arriving) re-syncs; the selection itself is the user's.
  }, [vid, selected?.id, collapse]);
  // tags.add / tags.remove act on every selected simulation (Shift+arrows, Shift/Ctrl+click or Space build the selection).
  const selectedItems = useMemo(() => [...multi.selected.values()].map(({ id, name }) => ({ id, name })), [multi.selected]);
  usePaneContext(tagTargets, { taggable: 'simulations', items: () => (selectedItems.length ? selectedItems : selected ? [{ id: selected.id, name: selected.name }] : []) });

  const move = useCallback(
    (step: 1 | -1, shift = false) => {
      if (!pages.total) return;
      const from = focusIndex >= 0 ? focusIndex : step === 1 ? -1 : pages.total;
      const index = Math.max(0, Math.min(pages.total - 1, from + step));
      const item = pages.itemAt(index);
      if (item) select(index, item, { shift });
      else void pages.fetchAt(index).then((it) => it && select(index, it, { shift }));
    },
    [pages, focusIndex, select],
  );

  useEffect(() => {
    simPaneHandlers.move = move;
    simPaneHandlers.focusSearch = () => {
      searchRef.current?.focus();
      searchRef.current?.select();
    };
    return () => {
      simPaneHandlers.move = null;
      simPaneHandlers.focusSearch = null;
    };
  }, [move]);

  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      move(e.key === 'ArrowDown' ? 1 : -1, e.shiftKey);
    } else if (e.key === ' ' && selected) {
      e.preventDefault();
      select(focusIndex, selected, { toggle: true });
    } else if (e.key === 'Escape' && multi.selected.size > 1) {
      e.preventDefault();
      collapse(selected);
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      const index = e.key === 'Home' ? 0 : pages.total - 1;
      void pages.fetchAt(index).then((it) => it && select(index, it));
    } else if (e.key === 'Enter' && selected) {
      e.preventDefault();
      void run('simulations.preview', { id: selected.id });
    }
  };

  const onSearchKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'Enter') {
      e.preventDefault();
      listRef.current?.focus();
      if (focusIndex < 0) move(1);
    } else if (e.key === 'Escape' && searchText) {
      e.preventDefault();
      setSearchText('');
    }
  };

  const typing = searchText.trim() !== search;
  return (
    <div className="flex h-full min-h-0" data-testid="simulations">
      <div className="flex w-[27rem] max-w-[48%] min-w-[18rem] shrink-0 flex-col border-r border-line">
        <div className="flex flex-col gap-2 border-b border-line p-2">
          <div className="flex gap-1" role="radiogroup" aria-label="Simulation type">
            {SIMULATION_TYPES.map((t) => (
              <button
                key={t}
                type="button"
                role="radio"
                aria-checked={t === simType}
                onClick={() => t !== simType && setParams({ sim_type: t })}
                className={`rounded border px-2 py-0.5 text-sm ${t === simType ? 'border-accent bg-accent/15 text-accent' : 'border-line text-muted hover:text-ink'}`}
              >
                {SIMULATION_TYPE_LABELS[t]}s
              </button>
            ))}
          </div>
          <div className="flex gap-2">
            <input
              ref={searchRef}
              type="search"
              aria-label={`Search ${label}`}
              placeholder={`Search ${label}`}
              value={searchText}
              onChange={(e) => setSearchText(e.target.value)}
              onKeyDown={onSearchKeyDown}
              className="min-w-0 flex-1 rounded border border-line bg-surface px-2 py-1 text-sm"
            />
            <select
              aria-label="Sort by"
              className={control}
              value={sort.sort}
              onChange={(e) => {
                const s = e.target.value as LibrarySort;
                setSort({ sort: s, direction: DEFAULT_DIRECTION[s] });
              }}
            >
              {LIBRARY_SORTS.map((s) => (
                <option key={s} value={s}>
                  {SORT_LABELS[s]}
                </option>
              ))}
            </select>
            <button
              type="button"
              className={control}
              aria-label={sort.direction === 'asc' ? 'Ascending' : 'Descending'}
              title="Sort direction"
              onClick={() => setSort((o) => ({ ...o, direction: o.direction === 'asc' ? 'desc' : 'asc' }))}
            >
              {sort.direction === 'asc' ? '↑' : '↓'}
            </button>
          </div>
        </div>
        {pages.error && !pages.total ? (
          <p role="alert" className="m-3 rounded border border-red-500/60 bg-red-500/10 p-2">
            {pages.error instanceof ApiError ? pages.error.message : 'The simulations could not be loaded.'}
          </p>
        ) : pages.loading ? (
          <p className="p-3 text-muted" role="status">
            Loading {label}…
          </p>
        ) : pages.total === 0 ? (
          <p className="p-3 text-muted" role="status">
            {search ? `No ${label} match "${search}".` : `No ${label} yet.`}
          </p>
        ) : (
          <SimList
            label={label}
            total={pages.total}
            itemAt={pages.itemAt}
            focusIndex={focusIndex}
            selectedIds={multi.selected}
            onRange={pages.setRange}
            onSelect={select}
            onOpen={(item) => void run('simulations.preview', { id: item.id })}
            onKey={onKey}
            listRef={listRef}
            scrollToIndex={scrollTo}
          />
        )}
        <footer className="flex items-center gap-2 border-t border-line px-3 py-1 text-2xs text-muted" aria-live="polite">
          <span data-testid="simulations-count">
            {pages.total.toLocaleString()} {pages.total === 1 ? SIMULATION_TYPE_LABELS[simType] : label}
          </span>
          {multi.selected.size > 1 && <span data-testid="simulations-selected">· {multi.selected.size} selected</span>}
          {(typing || pages.refreshing) && <span className="ml-auto">Filtering…</span>}
        </footer>
      </div>
      <div className="min-w-0 flex-1 overflow-auto">
        {/* MON-177: the selected content list item slides in (600 ms). */}
        {vid ? (
          <SlideTransition slideKey={vid}>
            <SimulationDetail vid={vid} />
          </SlideTransition>
        ) : (
          <p className="p-4 text-muted">Select a {SIMULATION_TYPE_LABELS[simType]} to see its steps. j and k move, Enter or p previews.</p>
        )}
      </div>
    </div>
  );
}
