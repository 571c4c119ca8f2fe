import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react';
import { useQuery } from '@tanstack/react-query';
import { forwardRef, useMemo, useState, type KeyboardEvent } from 'react';
import { SORT_LABELS, type LibraryFiltersAnswer, type LibrarySort, type LibraryStatus, type TreeNode } from '@/api/contracts/library';
import { useCommandHotkeys } from '@/commands/command-menu';
import { fetchFilters, libraryKeys, type ListFilter } from './api';

const select = 'rounded border border-line bg-surface px-1.5 py-1 text-sm text-ink';

export interface FilterState extends Omit<ListFilter, 'search'> {
  searchText: string;
}

function flatten(nodes: TreeNode[], depth = 0): { node: TreeNode; depth: number }[] {
  return nodes.flatMap((n) => [{ node: n, depth }, ...flatten(n.children, depth + 1)]);
}

function TagsAndDimensions({ f, filters, onChange }: { f: FilterState; filters: LibraryFiltersAnswer | undefined; onChange: (next: Partial<FilterState>) => void }) {
  const [find, setFind] = useState('');
  const needle = find.trim().toLowerCase();
  const groups = useMemo(
    () => (filters?.tag_groups ?? []).map((g) => ({ ...g, tags: g.tags.filter((t) => !needle || t.name.toLowerCase().includes(needle)) })).filter((g) => g.tags.length),
    [filters, needle],
  );
  const trees = useMemo(
    () => (filters?.trees ?? []).map((t) => ({ ...t, rows: flatten(t.nodes).filter((r) => !needle || r.node.name.toLowerCase().includes(needle)) })).filter((t) => t.rows.length),
    [filters, needle],
  );
  const toggle = (list: number[], id: number) => (list.includes(id) ? list.filter((x) => x !== id) : [...list, id]);
  const count = f.tags.length + f.dimensions.length;
  return (
    <Popover className="relative">
      <PopoverButton className={`${select} ${count ? 'border-accent text-accent' : ''}`} aria-label={`Tags and dimensions${count ? `, ${count} selected` : ''}`}>
        Tags{count ? ` (${count})` : ''} ▾
      </PopoverButton>
      <PopoverPanel className="absolute left-0 z-[1040] mt-1 flex max-h-[60vh] w-80 flex-col rounded border border-line bg-panel shadow-xl" aria-label="Filter by tags and dimensions">
        <div className="flex flex-col gap-2 border-b border-line p-2">
          <input
            autoFocus
            value={find}
            onChange={(e) => setFind(e.target.value)}
            placeholder="Find a tag or dimension"
            aria-label="Find a tag or dimension"
            className="rounded border border-line bg-surface px-2 py-1 text-sm"
          />
          <div className="flex items-center gap-3 text-2xs" role="radiogroup" aria-label="Match tags">
            <span className="text-muted">Match</span>
            {(['or', 'and'] as const).map((m) => (
              <label key={m} className="flex items-center gap-1">
                <input type="radio" name="tag-mode" checked={f.tag_mode === m} onChange={() => onChange({ tag_mode: m })} />
                {m === 'or' ? 'any tag (OR)' : 'all tags (AND)'}
              </label>
            ))}
            <button type="button" className="ml-auto text-accent underline disabled:opacity-40" disabled={!count} onClick={() => onChange({ tags: [], dimensions: [] })}>
              Clear
            </button>
          </div>
        </div>
        <div className="min-h-0 flex-1 overflow-auto p-2 text-sm">
          {!filters && <p className="text-muted">Loading filters…</p>}
          {groups.map((g) => (
            <fieldset key={g.tag_type} className="mb-2 min-w-0">
              <legend className="text-2xs font-semibold tracking-wide text-muted uppercase">{g.label}</legend>
              {g.tags.map((t) => (
                <label key={t.id} className="flex items-center gap-2 rounded px-1 hover:bg-raised">
                  <input type="checkbox" checked={f.tags.includes(t.id)} onChange={() => onChange({ tags: toggle(f.tags, t.id) })} />
                  <span className="min-w-0 flex-1 truncate" title={t.name}>
                    {t.name}
                  </span>
                  <span className="text-2xs text-muted">{t.count}</span>
                </label>
              ))}
            </fieldset>
          ))}
          {trees.map((t) => (
            <fieldset key={t.type} className="mb-2 min-w-0">
              <legend className="text-2xs font-semibold tracking-wide text-muted uppercase">Dimension: {t.label}</legend>
              {t.rows.map(({ node, depth }) => (
                <label key={node.id} className="flex items-center gap-2 rounded px-1 hover:bg-raised" style={{ paddingLeft: `${0.25 + depth * 0.9}rem` }}>
                  <input type="checkbox" checked={f.dimensions.includes(node.id)} onChange={() => onChange({ dimensions: toggle(f.dimensions, node.id) })} />
                  <span className="truncate">{node.name}</span>
                </label>
              ))}
            </fieldset>
          ))}
        </div>
      </PopoverPanel>
    </Popover>
  );
}

/** Search box (500 ms debounce is applied by the pane), sort, type, status, tags and dimensions. */
export const FilterBar = forwardRef<HTMLInputElement, { f: FilterState; onChange: (next: Partial<FilterState>) => void; onSearchKeyDown?: (e: KeyboardEvent) => void }>(
  function FilterBar({ f, onChange, onSearchKeyDown }, searchRef) {
    const { data: filters } = useQuery({ queryKey: libraryKeys.filters(f.include_disabled), queryFn: () => fetchFilters(f.include_disabled), staleTime: 30_000 });
    const [searchKey] = useCommandHotkeys(['actions.focusSearch']);
    const active = f.tags.length + f.dimensions.length + f.action_types.length + (f.status ? 1 : 0) + (f.searchText ? 1 : 0);
    return (
      <div className="flex flex-col gap-1.5 border-b border-line p-2">
        <input
          ref={searchRef}
          type="search"
          value={f.searchText}
          onChange={(e) => onChange({ searchText: e.target.value })}
          onKeyDown={onSearchKeyDown}
          placeholder={`Search VID, name, description, type or tag${searchKey ? `  ( ${searchKey} )` : ''}`}
          aria-label="Search Actions"
          className="w-full rounded border border-line bg-surface px-2 py-1.5 text-sm"
        />
        <div className="flex flex-wrap items-center gap-1.5">
          <label className="sr-only" htmlFor="library-sort">
            Sort by
          </label>
          <select id="library-sort" className={select} value={f.sort} onChange={(e) => onChange({ sort: e.target.value as LibrarySort })}>
            {(filters?.sort_options ?? (Object.keys(SORT_LABELS) as LibrarySort[]).map((v) => ({ value: v, label: SORT_LABELS[v] }))).map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
          <button
            type="button"
            className={select}
            onClick={() => onChange({ direction: f.direction === 'asc' ? 'desc' : 'asc' })}
            aria-label={f.direction === 'asc' ? 'Sorted ascending; sort descending' : 'Sorted descending; sort ascending'}
            title={f.direction === 'asc' ? 'Ascending' : 'Descending'}
          >
            {f.direction === 'asc' ? '↑' : '↓'}
          </button>
          <select aria-label="Action type" className={`${select} max-w-36`} value={f.action_types[0] ?? ''} onChange={(e) => onChange({ action_types: e.target.value ? [e.target.value] : [] })}>
            <option value="">All types</option>
            {filters?.types.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label} ({t.count})
              </option>
            ))}
          </select>
          <select aria-label="Status" className={`${select} max-w-36`} value={f.status} onChange={(e) => onChange({ status: e.target.value as LibraryStatus | '' })}>
            <option value="">Any status</option>
            {filters?.statuses.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label} ({s.count})
              </option>
            ))}
          </select>
          <TagsAndDimensions f={f} filters={filters} onChange={onChange} />
          <label className="flex items-center gap-1 text-2xs text-muted">
            <input type="checkbox" checked={f.include_disabled} onChange={(e) => onChange({ include_disabled: e.target.checked })} />
            Disabled
          </label>
          {active > 0 && (
            <button
              type="button"
              className="text-2xs text-accent underline"
              onClick={() => onChange({ searchText: '', tags: [], dimensions: [], action_types: [], status: '' })}
            >
              Reset
            </button>
          )}
        </div>
      </div>
    );
  },
);
