import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { DEFAULT_DIRECTION, LIBRARY_LIMITS, LIBRARY_VID_PATTERN, type LibraryItem } from '@/api/contracts/library';
import { ApiError } from '@/api/http';
import { commands } from '@/commands/registry';
import type { PaneProps } from '@/panes/types';
import type { ListFilter } from './api';
import { DetailPanel } from './detail-panel';
import { SlideTransition } from '@/ui/slide-transition';
import { FilterBar, type FilterState } from './filter-bar';
import { LibraryList } from './library-list';
import { currentActionPane } from '@/commands/entity-picks';
import { usePaneContext } from '@/panes/use-pane-context';
import { tagTargets } from '@/commands/tag-targets';
import { libraryPane } from './pane-context';
import { libraryStore } from './store';
import { useLibraryPages } from './use-library-pages';
import { FilterPanel, loadPanelFilter, savePanelFilter } from '@/ui/filters/filter-panel';
import { useFilterHost } from '@/ui/filters/use-filter-host';
import type { SavedFilterBody } from '@/api/contracts/filters';
import { LIBRARY_PAGE_FILTERS, libraryRulesOf } from './page-filters';
import { useDebounced } from '@/ui/use-debounced';
import { useUrlState } from '@/ui/use-url-state';
import { QueueMenu } from './queue-menu';

const INITIAL: FilterState = {
  searchText: '',
  tags: [],
  tag_mode: 'or',
  action_types: [],
  status: '',
  dimensions: [],
  sort: 'name',
  direction: DEFAULT_DIRECTION.name,
  include_disabled: false,
};
const STORAGE_KEY = 'vigil.library.filter.v1';
const PANEL_KEY = 'vigil.library.panel.v1';

function loadFilter(): FilterState {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    return raw ? { ...INITIAL, ...(JSON.parse(raw) as Partial<FilterState>) } : INITIAL;
  } catch {
    return INITIAL;
  }
}

/**
 * The Action library (/manage_sims/actions, /manage_sims/action/{vid}): a filtered, sorted, virtualized
 * list on the left and the selected Action's detail on the right. The selected VID is the pane's
 * `vid` param, so the URL follows the selection and back/forward restore it.
 */
export function LibraryPane({ params, setParams }: PaneProps) {
  const vid = params.vid && LIBRARY_VID_PATTERN.test(params.vid) ? params.vid : undefined;
  const [f, setF] = useState<FilterState>(loadFilter);
  const search = useDebounced(f.searchText, LIBRARY_LIMITS.searchDebounceMs);
  // The search and the tag filter live in the URL too (deep links, back/forward, bookmarks).
  const paramsRef = useRef(params);
  paramsRef.current = params;
  useUrlState(
    params,
    setParams,
    { q: search.trim(), tags: f.tags.join(','), tag_mode: f.tags.length > 1 && f.tag_mode === 'and' ? 'and' : '' },
    (url) =>
      setF((old) => ({
        ...old,
        searchText: url.q ?? '',
        tags: (url.tags ?? '').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0),
        tag_mode: url.tag_mode === 'and' ? 'and' : 'or',
      })),
  );
  // The filter panel persists to local storage unless a structured filter (a saved one) was supplied.
  const [panel, setPanel] = useState<SavedFilterBody>(() => loadPanelFilter(PANEL_KEY));
  const [supplied, setSupplied] = useState(false);
  const [panelOpen, setPanelOpen] = useState(false);
  const [panelTicks, setPanelTicks] = useState({ focus: 0, apply: 0 });
  useEffect(() => {
    if (!supplied) savePanelFilter(PANEL_KEY, panel);
  }, [panel, supplied]);
  const panelRef = useRef(panel);
  panelRef.current = panel;
  useFilterHost({
    target: 'actions',
    url: '/manage_sims/actions',
    focus: () => setPanelTicks((t) => ({ ...t, focus: t.focus + 1 })),
    clear: () => {
      setSupplied(false);
      setPanel({ rules: [], page: {} });
    },
    apply: () => setPanelTicks((t) => ({ ...t, apply: t.apply + 1 })),
    load: (b) => {
      setSupplied(true);
      setPanelOpen(true);
      setPanel(b);
    },
    current: () => panelRef.current,
  });
  const rules = useMemo(() => libraryRulesOf(panel.rules, panel.page), [panel]);
  const filter: ListFilter = useMemo(
    () => ({ search: search.trim(), tags: f.tags, tag_mode: f.tag_mode, action_types: f.action_types, status: f.status, dimensions: f.dimensions, sort: f.sort, direction: f.direction, include_disabled: f.include_disabled, rules }),
    [search, f.tags, f.tag_mode, f.action_types, f.status, f.dimensions, f.sort, f.direction, f.include_disabled, rules],
  );
  const pages = useLibraryPages(filter);
  const [selectedIds, setSelectedIds] = useState<Set<number>>(new Set());
  const selectedIdsRef = useRef(selectedIds);
  selectedIdsRef.current = selectedIds;
  const anchor = useRef(-1);
  /** The VID this pane last put in its own params (a change from elsewhere is a back/forward or a link). */
  const ownVid = useRef<string | undefined>(vid);
  const searchRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const [scrollTo, setScrollTo] = useState<number | null>(null);

  useEffect(() => {
    libraryStore.activeTagIds = [...f.tags];
  }, [f.tags]);

  useEffect(() => {
    try {
      sessionStorage.setItem(STORAGE_KEY, JSON.stringify(f));
    } catch {
      // storage full or blocked: the filter is simply not remembered
    }
  }, [f]);

  const focusIndex = vid ? pages.indexOfVid(vid) : -1;

  const onChange = useCallback((next: Partial<FilterState>) => {
    setF((old) => {
      const merged = { ...old, ...next };
      if (next.sort && next.sort !== old.sort && !next.direction) merged.direction = DEFAULT_DIRECTION[next.sort];
      return merged;
    });
  }, []);

  const show = useCallback(
    (item: LibraryItem) => {
      libraryStore.current = { id: item.id, vid: item.vid, name: item.name, action_type: item.action_type, approved: item.approved, require_protected: item.require_protected, vendor: item.vendor };
      ownVid.current = item.vid;
      if (item.vid !== vid) setParams({ ...paramsRef.current, vid: item.vid });
    },
    [vid, setParams],
  );

  const selectOnly = useCallback(
    (index: number, item: LibraryItem) => {
      anchor.current = index;
      setSelectedIds(new Set([item.id]));
      show(item);
    },
    [show],
  );

  const selectRange = useCallback(
    async (from: number, to: number, item: LibraryItem, add: boolean) => {
      const [a, b] = from <= to ? [from, to] : [to, from];
      const items = await pages.itemsBetween(a, b);
      setSelectedIds((old) => new Set([...(add ? old : []), ...items.map((i) => i.id)]));
      show(item);
    },
    [pages, show],
  );

  const onClick = useCallback(
    (index: number, item: LibraryItem, e: { shift: boolean; toggle: boolean }) => {
      if (e.shift && anchor.current >= 0) void selectRange(anchor.current, index, item, e.toggle);
      else if (e.toggle) {
        anchor.current = index;
        setSelectedIds((old) => {
          const next = new Set(old);
          if (next.has(item.id)) next.delete(item.id);
          else next.add(item.id);
          return next;
        });
        show(item);
      } else selectOnly(index, item);
      listRef.current?.focus({ preventScroll: true });
    },
    [selectRange, selectOnly, show],
  );

  const move = useCallback(
    (step: 1 | -1, extend = false) => {
      if (!pages.total) return;
      const from = focusIndex >= 0 ? focusIndex : step === 1 ? -1 : pages.total;
      const index = Math.max(0, Math.min(pages.total - 1, from + step));
      setScrollTo(index);
      const item = pages.itemAt(index);
      if (!item) {
        void pages.itemsBetween(index, index).then(([it]) => it && (extend ? void selectRange(anchor.current, index, it, false) : selectOnly(index, it)));
        return;
      }
      if (extend && anchor.current >= 0) void selectRange(anchor.current, index, item, false);
      else selectOnly(index, item);
    },
    [pages, focusIndex, selectOnly, selectRange],
  );

  // Commands reach the pane through its pane context while it is mounted.
  const focusSearch = useCallback(() => {
    searchRef.current?.focus();
    searchRef.current?.select();
  }, []);
  usePaneContext(libraryPane, { move, focusSearch });
  usePaneContext(currentActionPane, { current: () => (libraryStore.current ? { value: libraryStore.current.id, label: libraryStore.current.name, detail: libraryStore.current.vid } : null) });
  // tags.add / tags.remove act on every selected Action (Shift+arrows or Space build a multi-selection).
  usePaneContext(tagTargets, { taggable: 'actions', items: () => libraryStore.selectedItems.map(({ id, name }) => ({ id, name })) });
  useEffect(() => {
    if (libraryStore.focusSearchPending) {
      libraryStore.focusSearchPending = false;
      setTimeout(focusSearch);
    }
  }, [focusSearch]);

  // Back/forward or a link changed the selected VID: select it (alone) when it is not part of the selection.
  useEffect(() => {
    if (vid === ownVid.current && (!vid || focusIndex < 0 || selectedIdsRef.current.size > 0)) return;
    ownVid.current = vid;
    if (!vid) {
      setSelectedIds(new Set());
      anchor.current = -1;
      return;
    }
    const index = pages.indexOfVid(vid);
    if (index >= 0) {
      const item = pages.itemAt(index);
      if (item && !selectedIdsRef.current.has(item.id)) {
        setSelectedIds(new Set([item.id]));
        anchor.current = index;
      }
      setScrollTo(index);
    }
    // Only a new VID (or its row arriving) should re-sync; the selection itself is the user's.
  }, [vid, focusIndex]);

  useEffect(() => {
    const vids: string[] = [];
    const items: { id: number; name: string }[] = [];
    for (let i = 0; i < pages.total && vids.length < selectedIds.size; i++) {
      const it = pages.itemAt(i);
      if (it && selectedIds.has(it.id)) {
        vids.push(it.vid);
        items.push({ id: it.id, name: it.name });
      }
      if (!it && i > 5000) break;
    }
    libraryStore.selectedVids = vids;
    libraryStore.selectedItems = items;
  }, [selectedIds, pages]);

  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      move(e.key === 'ArrowDown' ? 1 : -1, e.shiftKey);
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      const index = e.key === 'Home' ? 0 : pages.total - 1;
      setScrollTo(index);
      void pages.itemsBetween(index, index).then(([it]) => it && selectOnly(index, it));
    } else if (e.key === 'Enter' && focusIndex >= 0) {
      e.preventDefault();
      void commands.execute('actions.preview', undefined, 'hotkey').catch(() => undefined);
    } else if (e.key === ' ' && focusIndex >= 0) {
      e.preventDefault();
      const item = pages.itemAt(focusIndex);
      if (item) onClick(focusIndex, item, { shift: false, toggle: true });
    } else if (e.key === 'Escape' && selectedIds.size > 1) {
      e.preventDefault();
      const item = focusIndex >= 0 ? pages.itemAt(focusIndex) : undefined;
      setSelectedIds(new Set(item ? [item.id] : []));
    }
  };

  const onSearchKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'Enter') {
      e.preventDefault();
      listRef.current?.focus();
      if (focusIndex < 0) move(1);
    } else if (e.key === 'Escape' && f.searchText) {
      e.preventDefault();
      onChange({ searchText: '' });
    }
  };

  const typing = f.searchText.trim() !== search;
  return (
    <div className="flex h-full min-h-0 flex-col" data-testid="action-library">
      <FilterPanel
        target="actions"
        label="Action filters"
        items={LIBRARY_PAGE_FILTERS}
        value={panel}
        onApply={(b) => {
          setSupplied(false);
          setPanel(b);
        }}
        open={panelOpen}
        onOpenChange={setPanelOpen}
        focusTick={panelTicks.focus}
        applyTick={panelTicks.apply}
      />
      <div className="flex min-h-0 flex-1">
      <div className="flex w-[27rem] max-w-[48%] min-w-[18rem] shrink-0 flex-col border-r border-line">
        <FilterBar ref={searchRef} f={f} onChange={onChange} onSearchKeyDown={onSearchKeyDown} />
        <QueueMenu />
        {pages.error && !pages.total ? (
          <p role="alert" className="m-3 rounded border border-red-500/60 bg-red-500/10 p-2">
            {pages.error instanceof ApiError ? pages.error.message : 'The library could not be loaded.'}
          </p>
        ) : pages.loading ? (
          <p className="p-3 text-muted" role="status">
            Loading Actions…
          </p>
        ) : pages.total === 0 ? (
          <p className="p-3 text-muted" role="status">
            No Actions match these filters.
          </p>
        ) : (
          <LibraryList
            total={pages.total}
            itemAt={pages.itemAt}
            focusIndex={focusIndex}
            selectedIds={selectedIds}
            onRange={pages.setRange}
            onClick={onClick}
            onKey={onKey}
            onOpen={(index) => {
              const it = pages.itemAt(index);
              if (it) void commands.execute('actions.preview', { id: it.id }, 'button').catch(() => undefined);
            }}
            listRef={listRef}
            scrollToIndex={scrollTo}
          />
        )}
        <footer className="flex items-center gap-2 border-t border-line px-3 py-1 text-2xs text-muted" aria-live="polite">
          <span data-testid="library-count">
            {pages.total.toLocaleString()} Action{pages.total === 1 ? '' : 's'}
          </span>
          {selectedIds.size > 1 && (
            <>
              <span>· {selectedIds.size} selected</span>
              <button type="button" className="text-accent underline" onClick={() => void commands.execute('actions.copyVid', undefined, 'button').catch(() => undefined)}>
                Copy VIDs
              </button>
            </>
          )}
          {(typing || pages.refreshing) && <span className="ml-auto">Filtering…</span>}
        </footer>
      </div>
      <div className="min-w-0 flex-1 overflow-auto">
        {/* MON-177: the selected content list item slides in (600 ms). */}
        <SlideTransition slideKey={vid ?? null}>
          <DetailPanel vid={vid} />
        </SlideTransition>
      </div>
      </div>
    </div>
  );
}
