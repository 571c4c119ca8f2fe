/** Page filters (section 3: page filter config item; section 7: filterSrc, dimension_children), summaries and lookups. */
import * as yup from 'yup';
import { DEFAULT_DIMENSION_TYPES, FILTER_TARGETS, OPERATOR_LABELS, type FilterOperator, type FilterOption, type FilterTarget, findField, isListSelector } from './config';
import { type BuilderRule, type FilterCondition, type FilterNode, LIMITS } from './rule-tree';

// ---------------------------------------------------------------------------------------------
// Page filters (section 3: page filter config item; section 7: filterSrc, dimension_children)

export const PAGE_FILTER_TYPES = ['text', 'date', 'checkbox', 'select'] as const;
export type PageFilterType = (typeof PAGE_FILTER_TYPES)[number];

export interface PageFilterItem {
  type: PageFilterType;
  label: string;
  stateKey: string;
  defaultValue?: string;
  options?: FilterOption[];
  /** The stateKey of an item that must have a value before this one applies. */
  requires?: string;
  excludeFromSummary?: boolean;
  /** The rule condition the item's value stands for (a checkbox's when checked). */
  condition?: { match_object: string; match_field: string; operator: FilterOperator };
  /** A checkbox that, when checked, changes the operator of the item with this stateKey. */
  modifies?: { stateKey: string; operator: FilterOperator };
  /** A select whose options are the children of this default dimension type label (GET dimension_children). */
  dimension?: string;
  /** A select whose options are the [id,label] pairs of this object of the filter source. */
  source?: string;
}

export type PageFilterValues = Record<string, string>;

/** The checkbox treats these strings as true (section 5). */
export const CHECKBOX_TRUE = ['true', 'yes', 'on', 'checked', 'selected', 'cleanup', 'setup'] as const;
export const isCheckboxTrue = (v: string | undefined | null): boolean => !!v && (CHECKBOX_TRUE as readonly string[]).includes(v.trim().toLowerCase());

/** Whether an item applies: its `requires` item has a value (a checked checkbox, a non-empty text). */
export function itemActive(items: readonly PageFilterItem[], values: PageFilterValues, item: PageFilterItem): boolean {
  const v = values[item.stateKey] ?? item.defaultValue ?? '';
  if (item.type === 'checkbox' ? !isCheckboxTrue(v) : !v.trim()) return false;
  if (!item.requires) return true;
  const req = items.find((i) => i.stateKey === item.requires);
  return !!req && itemActive(items, values, req);
}

/** The page filter's values as rule conditions (one 'and' group), for the items that map to one. */
export function pageToNodes(target: FilterTarget, items: readonly PageFilterItem[], values: PageFilterValues): FilterNode[] {
  const conditions: FilterCondition[] = [];
  for (const item of items) {
    if (!item.condition || !itemActive(items, values, item)) continue;
    const field = findField(target, item.condition.match_object, item.condition.match_field);
    if (!field) continue;
    const raw = item.type === 'checkbox' ? 'yes' : (values[item.stateKey] ?? item.defaultValue ?? '').trim();
    const modifier = items.find((m) => m.modifies?.stateKey === item.stateKey && itemActive(items, values, m));
    conditions.push({ ...item.condition, operator: modifier?.modifies?.operator ?? item.condition.operator, value: isListSelector(field.selector_type) ? [raw] : raw });
  }
  return conditions.length ? [{ operator: 'and', conditions }] : [];
}

/** The one-line summary of the active page filter (items marked excludeFromSummary left out). */
export function pageSummary(items: readonly PageFilterItem[], values: PageFilterValues, labelOf: (item: PageFilterItem, value: string) => string = (_i, v) => v): string {
  return items
    .filter((i) => !i.excludeFromSummary && itemActive(items, values, i))
    .map((i) => (i.type === 'checkbox' ? i.label : `${i.label}: ${labelOf(i, (values[i.stateKey] ?? i.defaultValue ?? '').trim())}`))
    .join(' · ');
}

/** The one-line summary of builder rules: 'Job Name contains x and … or …' (values shown through `labelOf`, e.g. dimension names for ids). */
export function rulesSummary(target: FilterTarget, rule: BuilderRule, labelOf: (c: FilterCondition, value: string) => string = (_c, v) => v): string {
  return rule.conditions
    .map((g) =>
      g.conditions
        .map((c) => {
          const f = findField(target, c.match_object, c.match_field);
          // Dropdown values read as their option labels (statuses 'Completed', not 'completed').
          const label = (x: string) => labelOf(c, f?.options?.find((o) => o.value === x)?.label ?? x);
          const v = Array.isArray(c.value) ? c.value.filter((x) => x.trim()).map(label).join(', ') : label(c.value);
          const op = (OPERATOR_LABELS as Record<string, string>)[c.operator] ?? c.operator;
          return `${f?.label ?? c.match_field} ${op} ${v}`;
        })
        .join(' and '),
    )
    .filter(Boolean)
    .join(' or ');
}

export interface Dimension {
  id: number;
  label: string;
  children: Dimension[];
  parentId: number | null;
}

/** GET {filterSrc}: objects of [id,label] pairs, timezone, timezone_offset, root_dimensions. */
export interface PageFilterData {
  objects: Record<string, [string, string][]>;
  timezone: string;
  /** Minutes east of UTC. */
  timezone_offset: number;
  /** [id, label] of the roots of the three default dimension types. */
  root_dimensions: [number, string][];
}

/** GET /reports/dimension_children.json?type={label}: pairs of [label,id]. */
export type DimensionChildren = [string, number][];

export const FILTER_SRC = '/filters/page_filter_data.json';

export const pageFilterDataQuerySchema = yup
  .object({ target: yup.string<FilterTarget>().oneOf([...FILTER_TARGETS], `target must be one of ${FILTER_TARGETS.join(', ')}`).default('jobs') })
  .noUnknown('Unknown parameter: ${unknown}');

export const dimensionChildrenQuerySchema = yup
  .object({
    type: yup
      .string()
      .required('type is required')
      .oneOf(
        DEFAULT_DIMENSION_TYPES.map((d) => d.label),
        `type must be one of ${DEFAULT_DIMENSION_TYPES.map((d) => d.label).join(', ')}`,
      ),
  })
  .noUnknown('Unknown parameter: ${unknown}');

export const lookupQuerySchema = yup
  .object({
    q: yup.string().max(LIMITS.maxTextChars, `q must be at most ${LIMITS.maxTextChars} characters`).default(''),
    limit: yup.number().typeError('limit must be a whole number').integer('limit must be a whole number').min(1, 'limit must be at least 1').max(100, 'limit must be at most 100').default(20),
  })
  .noUnknown('Unknown parameter: ${unknown}');

export interface LookupAnswer {
  data: FilterOption[];
}
