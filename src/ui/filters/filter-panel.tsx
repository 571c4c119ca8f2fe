import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import {
  DEFAULT_DIMENSION_TYPES,
  builderToNodes,
  dimensionLabelOfField,
  emptyBuilderRule,
  isCheckboxTrue,
  itemActive,
  nodesToBuilder,
  pageSummary,
  pageToNodes,
  rulesSummary,
  validateBuilderRule,
  type BuilderRule,
  type FilterCondition,
  type FilterOption,
  type FilterTarget,
  type PageFilterItem,
  type PageFilterValues,
  type RuleErrors,
  type SavedFilterBody,
} from '@/api/contracts/filters';
import { Button } from '@/ui/button';
import { fetchDimensionChildren, fetchPageFilterData, filterKeys } from './api';
import { RuleBuilder } from './rule-builder';
import { useDimensionLabels } from './dimension-labels';

/** Filter panel transition (section 9). */
export const PANEL_TRANSITION_MS = 350;

export const emptyFilterBody = (): SavedFilterBody => ({ rules: [], page: {} });

/** Reads a panel filter kept in local storage (anything unreadable is no filter). */
export function loadPanelFilter(key: string): SavedFilterBody {
  try {
    const v = JSON.parse(localStorage.getItem(key) ?? 'null') as Partial<SavedFilterBody> | null;
    if (!v || !Array.isArray(v.rules) || !v.page || typeof v.page !== 'object') return emptyFilterBody();
    return { rules: v.rules, page: Object.fromEntries(Object.entries(v.page).filter(([, x]) => typeof x === 'string')) as PageFilterValues };
  } catch {
    return emptyFilterBody();
  }
}

export function savePanelFilter(key: string, body: SavedFilterBody): void {
  try {
    localStorage.setItem(key, JSON.stringify(body));
  } catch {
    // Storage full or blocked: the filter lives for this page only.
  }
}

/** Options of the items read from the filter source: loaded when the panel opens, or at once when one of them has a value (its label is in the summary). */
function useItemOptions(target: FilterTarget, items: readonly PageFilterItem[], open: boolean, page: PageFilterValues) {
  const needsSource = items.some((i) => i.source && (open || !!page[i.stateKey]));
  const source = useQuery({ queryKey: filterKeys.source(target), queryFn: () => fetchPageFilterData(target), enabled: needsSource, staleTime: 60_000 });
  return { data: source.data, optionsOf: (i: PageFilterItem): FilterOption[] => i.options ?? (i.source ? (source.data?.objects[i.source] ?? []).map(([value, label]) => ({ value, label })) : []) };
}

function DimensionSelect({ item, value, onChange, id, disabled, open }: { item: PageFilterItem; value: string; onChange(v: string): void; id: string; disabled: boolean; open: boolean }) {
  const type = item.dimension ?? item.label;
  const children = useQuery({ queryKey: filterKeys.children(type), queryFn: () => fetchDimensionChildren(type), enabled: open, staleTime: 60_000 });
  return (
    <select id={id} className="rounded border border-line bg-surface px-1.5 py-1 text-sm" value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)}>
      <option value="">{children.isPending && open ? 'Loading…' : 'Any'}</option>
      {(children.data ?? []).map(([label, dimId]) => (
        <option key={dimId} value={String(dimId)}>
          {label}
        </option>
      ))}
    </select>
  );
}

interface PanelProps {
  target: FilterTarget;
  items: readonly PageFilterItem[];
  /** The applied filter. */
  value: SavedFilterBody;
  onApply(next: SavedFilterBody): void;
  open: boolean;
  onOpenChange(open: boolean): void;
  /** Bumped to move focus into the panel (the focus-filter command). */
  focusTick?: number;
  /** Bumped to apply the draft as if Update Filter was pressed (the apply-filter command). */
  applyTick?: number;
  label: string;
}

/**
 * Page filters (section 2): a collapsible panel (350 ms) of text, date, checkbox and select items, with
 * the filter-rule builder under them, Reset Filter and Update Filter, and a one-line summary of the
 * applied filter. Editing changes a draft; Update Filter checks the rules (texts in place) and applies.
 */
export function FilterPanel({ target, items, value, onApply, open, onOpenChange, focusTick = 0, applyTick = 0, label }: PanelProps) {
  const idPrefix = useId();
  const [rules, setRules] = useState<BuilderRule>(() => nodesToBuilder(value.rules));
  const [page, setPage] = useState<PageFilterValues>(value.page);
  const [errors, setErrors] = useState<RuleErrors | null>(null);
  const body = useRef<HTMLDivElement>(null);
  const { data, optionsOf } = useItemOptions(target, items, open, value.page);
  // Children of the dimension items with a value and of the rules' dimension fields, for their labels in the summary.
  const appliedRules = useMemo(() => nodesToBuilder(value.rules), [value.rules]);
  const ruleDimTypes = new Set(appliedRules.conditions.flatMap((g) => g.conditions.map((c) => dimensionLabelOfField(c.match_field))));
  const dimLabels = useDimensionLabels([
    ...items.filter((i) => i.dimension !== undefined).map((i) => ({ type: i.dimension ?? i.label, enabled: open || !!value.page[i.stateKey] })),
    ...DEFAULT_DIMENSION_TYPES.map((d) => ({ type: d.label, enabled: ruleDimTypes.has(d.label) })),
  ]);

  // A filter applied from elsewhere (a saved filter, the clear command) replaces the draft.
  const applied = JSON.stringify(value);
  useEffect(() => {
    const v = JSON.parse(applied) as SavedFilterBody;
    setRules(nodesToBuilder(v.rules));
    setPage(v.page);
    setErrors(null);
  }, [applied]);

  const update = () => {
    // The page filter's conditions are sent with the rules and count against the director's limit.
    const reserved = pageToNodes(target, items, page).reduce((n, g) => n + ('conditions' in g ? g.conditions.length : 1), 0);
    const e = validateBuilderRule(target, rules, reserved);
    if (!e.valid) {
      setErrors(e);
      return false;
    }
    setErrors(null);
    onApply({ rules: builderToNodes(rules), page });
    return true;
  };
  const reset = () => {
    setRules(emptyBuilderRule());
    setPage({});
    setErrors(null);
    onApply(emptyFilterBody());
  };

  useEffect(() => {
    if (!focusTick) return;
    onOpenChange(true);
    setTimeout(() => body.current?.querySelector<HTMLElement>('input, select, textarea, button')?.focus(), 0);
  }, [focusTick]); // only a new tick focuses
  const updateRef = useRef(update);
  updateRef.current = update;
  useEffect(() => {
    if (applyTick) updateRef.current();
  }, [applyTick]);

  const labelOf = (item: PageFilterItem, v: string) =>
    item.dimension !== undefined ? (dimLabels.get(v) ?? `#${v}`) : (optionsOf(item).find((o) => o.value === v)?.label ?? v);
  const summary = useMemo(() => {
    const ruleLabel = (c: FilterCondition, v: string) => (dimensionLabelOfField(c.match_field) ? (dimLabels.get(v) ?? v) : v);
    const parts = [pageSummary(items, value.page, labelOf), rulesSummary(target, appliedRules, ruleLabel)].filter(Boolean);
    return parts.length ? parts.join(' · ') : 'No filter';
  }, [items, value, target, data, appliedRules, dimLabels]); // labels follow the loaded options

  return (
    <section className="shrink-0 border-b border-line" aria-label={label}>
      <div className="flex items-center gap-2 px-3 py-1.5 text-xs">
        <button
          type="button"
          className="inline-flex items-center gap-1 font-medium"
          aria-expanded={open}
          aria-controls={`${idPrefix}-body`}
          onClick={() => onOpenChange(!open)}
        >
          <span aria-hidden="true" className={`inline-block transition-transform duration-[350ms] ${open ? 'rotate-90' : ''}`}>
            ▸
          </span>
          Filter
        </button>
        <span className="min-w-0 flex-1 truncate text-muted" data-testid="filter-summary" title={summary}>
          {summary}
        </span>
      </div>
      <div
        id={`${idPrefix}-body`}
        className="grid transition-[grid-template-rows] ease-in-out"
        style={{ gridTemplateRows: open ? '1fr' : '0fr', transitionDuration: `${PANEL_TRANSITION_MS}ms` }}
        inert={!open}
      >
        <div ref={body} className="min-h-0 overflow-hidden">
          <div className="flex flex-col gap-3 px-3 pb-3">
            <div className="flex flex-wrap items-end gap-3">
              {items.map((item) => {
                const id = `${idPrefix}-${item.stateKey}`;
                const v = page[item.stateKey] ?? item.defaultValue ?? '';
                const set = (x: string) => setPage((p) => ({ ...p, [item.stateKey]: x }));
                const req = item.requires ? items.find((i) => i.stateKey === item.requires) : undefined;
                const disabled = !!req && !itemActive(items, page, req);
                if (item.type === 'checkbox') {
                  return (
                    <label key={item.stateKey} className={`flex items-center gap-1.5 pb-1 text-sm ${disabled ? 'opacity-50' : ''}`}>
                      <input id={id} type="checkbox" checked={isCheckboxTrue(v)} disabled={disabled} onChange={(e) => set(e.target.checked ? 'true' : '')} />
                      {item.label}
                    </label>
                  );
                }
                return (
                  <div key={item.stateKey} className="flex flex-col gap-0.5">
                    <label htmlFor={id} className="text-2xs font-medium text-muted">
                      {item.label}
                      {item.type === 'date' && data?.timezone ? ` (${data.timezone})` : ''}
                    </label>
                    {item.type === 'text' && (
                      <input id={id} className="w-44 rounded border border-line bg-surface px-2 py-1 text-sm" maxLength={200} value={v} disabled={disabled} onChange={(e) => set(e.target.value)} />
                    )}
                    {item.type === 'date' && <input id={id} type="date" className="rounded border border-line bg-surface px-2 py-1 text-sm" value={v} disabled={disabled} onChange={(e) => set(e.target.value)} />}
                    {item.type === 'select' && item.dimension !== undefined && <DimensionSelect item={item} value={v} onChange={set} id={id} disabled={disabled} open={open} />}
                    {item.type === 'select' && item.dimension === undefined && (
                      <select id={id} className="rounded border border-line bg-surface px-1.5 py-1 text-sm" value={v} disabled={disabled} onChange={(e) => set(e.target.value)}>
                        <option value="">Any</option>
                        {optionsOf(item).map((o) => (
                          <option key={o.value} value={o.value}>
                            {o.label}
                          </option>
                        ))}
                      </select>
                    )}
                  </div>
                );
              })}
            </div>
            <RuleBuilder target={target} value={rules} onChange={setRules} errors={errors} idPrefix={idPrefix} />
            {errors?.tree && (
              <p className="text-xs text-red-500" role="alert">
                {errors.tree}
              </p>
            )}
            <div className="flex gap-2">
              <Button variant="primary" onClick={update}>
                Update Filter
              </Button>
              <Button onClick={reset}>Reset Filter</Button>
            </div>
          </div>
        </div>
      </div>
    </section>
  );
}
