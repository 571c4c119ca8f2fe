import * as yup from 'yup';
import { ACTION_TYPE_LABELS, ACTION_TYPES, JOB_ACTION_STATUSES, JOB_STATUSES } from './vocabulary';

/**
 * Filters: the filter-rule builder's config, rule tree, validation and the parser the director runs
 * (jobs-simulations-network-map.md sections 2, 3, 5, 7). Shared by the workbench (the builder) and the
 * director (which evaluates a parsed tree in SQL), so what the builder produces the director accepts.
 */

// ---------------------------------------------------------------------------------------------
// Texts (section 5 and 8, verbatim)

export const RULE_NEEDS_CONDITION = 'Rule must have at least one condition.';
export const PLEASE_ENTER_VALUE = 'Please enter a value';
export const INVALID_INPUT = 'Invalid input';

// ---------------------------------------------------------------------------------------------
// Config (section 3: content types with label and match_fields)

export const FILTER_OPERATORS = ['in', 'not_in', 'equals', 'contains', 'not_contains', 'starts_with', 'ends_with'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];
/** Operator labels as the spec names them. */
export const OPERATOR_LABELS: Record<FilterOperator, string> = {
  in: 'in',
  not_in: 'not_in',
  equals: 'equals',
  contains: 'contains',
  not_contains: 'not_contains',
  starts_with: 'starts_with',
  ends_with: 'ends_with',
};

export const SELECTOR_TYPES = ['typeahead', 'comma_number_range', 'plain_text', 'dropdown', 'text_list', 'textarea_list'] as const;
export type SelectorType = (typeof SELECTOR_TYPES)[number];
/** Selectors whose value is a list of strings; the others hold one string. */
export const LIST_SELECTORS: readonly SelectorType[] = ['typeahead', 'text_list', 'textarea_list'];
export const isListSelector = (t: SelectorType) => LIST_SELECTORS.includes(t);

export interface FilterOption {
  value: string;
  label: string;
}

export interface FilterFieldConfig {
  match_field: string;
  label: string;
  operators: FilterOperator[];
  selector_type: SelectorType;
  options?: FilterOption[];
  placeholder?: string;
}

export interface FilterContentType {
  match_object: string;
  label: string;
  match_fields: FilterFieldConfig[];
}

/** The lists a rule tree filters. */
export const FILTER_TARGETS = ['jobs', 'actions'] as const;
export type FilterTarget = (typeof FILTER_TARGETS)[number];

const TEXT_OPS: FilterOperator[] = ['contains', 'not_contains', 'equals', 'starts_with', 'ends_with'];
const SET_OPS: FilterOperator[] = ['in', 'not_in'];
const opts = (values: readonly string[], label: (v: string) => string = (v) => v) => values.map((v) => ({ value: v, label: label(v) }));
const ACTION_TYPE_OPTIONS = opts(ACTION_TYPES, (v) => ACTION_TYPE_LABELS[v as keyof typeof ACTION_TYPE_LABELS]);

/** The three default dimension types of page filters, and as typeahead fields of Actions. */
export const DEFAULT_DIMENSION_TYPES = [
  { type: 'attack_vector', label: 'Attack Vector' },
  { type: 'behavior_type', label: 'Behavior Type' },
  { type: 'stage_of_attack', label: 'Stage of Attack' },
] as const;

/** The dimension type label (for GET dimension_children) of a dimension field, e.g. 'attack_vector' -> 'Attack Vector'. */
export const dimensionLabelOfField = (matchField: string): string | null => DEFAULT_DIMENSION_TYPES.find((d) => d.type === matchField)?.label ?? null;

const DIMENSION_FIELDS: FilterFieldConfig[] = DEFAULT_DIMENSION_TYPES.map((d) => ({
  match_field: d.type,
  label: d.label,
  operators: SET_OPS,
  selector_type: 'typeahead',
  placeholder: `Type to find a ${d.label} value`,
}));

export const FILTER_CONFIGS: Record<FilterTarget, FilterContentType[]> = {
  jobs: [
    {
      match_object: 'job',
      label: 'Job',
      match_fields: [
        { match_field: 'id', label: 'Job Id', operators: SET_OPS, selector_type: 'comma_number_range', placeholder: 'e.g. 1-100, 250' },
        { match_field: 'name', label: 'Job Name', operators: TEXT_OPS, selector_type: 'plain_text', placeholder: 'Job name' },
        { match_field: 'status', label: 'Job Status', operators: SET_OPS, selector_type: 'dropdown', options: opts(JOB_STATUSES) },
        { match_field: 'ran_by', label: 'Ran By', operators: SET_OPS, selector_type: 'typeahead', placeholder: 'Type a user name' },
        { match_field: 'assessment_name', label: 'Assessment', operators: TEXT_OPS, selector_type: 'plain_text', placeholder: 'Assessment name' },
        { match_field: 'published', label: 'Published', operators: ['equals'], selector_type: 'dropdown', options: [{ value: 'yes', label: 'Yes' }, { value: 'no', label: 'No' }] },
      ],
    },
    {
      match_object: 'job_action',
      label: 'Job Action',
      match_fields: [
        { match_field: 'vid', label: 'Action VID', operators: SET_OPS, selector_type: 'text_list', placeholder: 'Type a VID, then Enter' },
        { match_field: 'name', label: 'Action Name', operators: TEXT_OPS, selector_type: 'plain_text', placeholder: 'Action name' },
        { match_field: 'action_type', label: 'Action Type', operators: SET_OPS, selector_type: 'dropdown', options: ACTION_TYPE_OPTIONS },
        { match_field: 'status', label: 'Action Status', operators: SET_OPS, selector_type: 'dropdown', options: opts(JOB_ACTION_STATUSES) },
        { match_field: 'events', label: 'Events', operators: SET_OPS, selector_type: 'comma_number_range', placeholder: 'e.g. 0, 2-5' },
        ...DIMENSION_FIELDS,
      ],
    },
  ],
  actions: [
    {
      match_object: 'action',
      label: 'Action',
      match_fields: [
        { match_field: 'id', label: 'Action Id', operators: SET_OPS, selector_type: 'comma_number_range', placeholder: 'e.g. 1-100, 250' },
        { match_field: 'vid', label: 'VID', operators: SET_OPS, selector_type: 'textarea_list', placeholder: 'One VID per line' },
        { match_field: 'name', label: 'Name', operators: TEXT_OPS, selector_type: 'plain_text', placeholder: 'Action name' },
        { match_field: 'description', label: 'Description', operators: TEXT_OPS, selector_type: 'plain_text', placeholder: 'Description text' },
        { match_field: 'action_type', label: 'Action Type', operators: SET_OPS, selector_type: 'dropdown', options: ACTION_TYPE_OPTIONS },
        { match_field: 'tags', label: 'Tags', operators: SET_OPS, selector_type: 'typeahead', placeholder: 'Type a tag name' },
        ...DIMENSION_FIELDS,
      ],
    },
  ],
};

export function findField(target: FilterTarget, matchObject: string, matchField: string): FilterFieldConfig | null {
  const obj = FILTER_CONFIGS[target].find((o) => o.match_object === matchObject);
  return obj?.match_fields.find((f) => f.match_field === matchField) ?? null;
}

/** The field config of a (match object, match field) pair in any target: lookups are per field, not per list. */
export function anyField(matchObject: string, matchField: string): FilterFieldConfig | null {
  for (const t of FILTER_TARGETS) {
    const f = findField(t, matchObject, matchField);
    if (f) return f;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Rule tree (section 3)

export type FilterValue = string | string[];

export interface FilterCondition {
  match_object: string;
  match_field: string;
  operator: string;
  value: FilterValue;
  errors?: string[];
}
export interface FilterGroup {
  operator: 'and';
  conditions: FilterNode[];
}
export interface FilterRule {
  operator: 'or';
  conditions: FilterNode[];
}
export type FilterNode = FilterCondition | FilterGroup | FilterRule;

/** What the builder edits: rules joined by 'or', each a group of conditions joined by 'and'. */
export interface BuilderRule {
  operator: 'or';
  conditions: { operator: 'and'; conditions: FilterCondition[] }[];
}

export const emptyBuilderRule = (): BuilderRule => ({ operator: 'or', conditions: [] });
export const isCondition = (n: FilterNode): n is FilterCondition => !('conditions' in n);

export const LIMITS = {
  /** Nesting of or/and nodes above a condition. */
  maxDepth: 4,
  maxConditions: 100,
  maxListValues: 500,
  maxTextChars: 200,
  maxRanges: 100,
  /** Digits of one number in a range (larger numbers are not ids or counts). */
  maxDigits: 15,
} as const;

/** The limits' texts, shown by the builder in place and answered by the director's parser. */
export const TOO_MANY_CONDITIONS = `The rules hold too many conditions (at most ${LIMITS.maxConditions}).`;
export const TOO_MANY_VALUES = `At most ${LIMITS.maxListValues} values`;
export const VALUE_TOO_LONG = `A value may have at most ${LIMITS.maxTextChars} characters`;

// ---------------------------------------------------------------------------------------------
// Comma-number-range (section 5, item 3)

export interface NumberRange {
  lo: number;
  hi: number;
}

/** '1-5, 8' -> [{1,5},{8,8}]; null when it is not numbers or ranges separated by commas (spaces ignored). */
export function parseNumberRange(text: string): NumberRange[] | null {
  const compact = text.replace(/\s+/g, '');
  if (!/^\d+(-\d+)?(,\d+(-\d+)?)*$/.test(compact)) return null;
  const parts = compact.split(',');
  if (parts.length > LIMITS.maxRanges) return null;
  const out: NumberRange[] = [];
  for (const p of parts) {
    const [a, b = a] = p.split('-') as [string, string?];
    if (a.length > LIMITS.maxDigits || b.length > LIMITS.maxDigits) return null;
    const x = Number(a);
    const y = Number(b);
    out.push({ lo: Math.min(x, y), hi: Math.max(x, y) });
  }
  return out;
}

/**
 * Whether a comma-number-range input may take this text while typing: only digits, commas, hyphens and
 * spaces; no leading separator, no doubled separators (spaces between them included), no space between digits.
 */
export function acceptRangeTyping(text: string): boolean {
  if (!/^[\d,\- ]*$/.test(text)) return false;
  if (/^\s*[,-]/.test(text) || /^ /.test(text)) return false;
  if (/[,-]\s*[,-]/.test(text)) return false;
  if (/\d\s+\d/.test(text)) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Validation (section 5, checked per condition in this order)

/** A condition's values as the parser reads them: trimmed, empty ones dropped. */
const valuesOf = (v: FilterValue | undefined | null): string[] =>
  (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string').map((x) => x.trim()).filter((x) => x !== '');

/**
 * The first problem of one condition, or null: the spec's order (section 5), then the parser's limits
 * (list size, text length) and value checks, so a condition the builder accepts the director accepts.
 */
export function conditionError(target: FilterTarget, c: FilterCondition): string | null {
  if (!c.match_object || !c.match_field) return PLEASE_ENTER_VALUE;
  const field = findField(target, c.match_object, c.match_field);
  if (!field) return PLEASE_ENTER_VALUE;
  if (!(field.operators as string[]).includes(c.operator)) return PLEASE_ENTER_VALUE;
  const values = valuesOf(c.value);
  if (!values.length) return PLEASE_ENTER_VALUE;
  if (isListSelector(field.selector_type) !== Array.isArray(c.value)) return INVALID_INPUT;
  if (values.length > LIMITS.maxListValues) return TOO_MANY_VALUES;
  if (values.some((v) => v.length > LIMITS.maxTextChars)) return VALUE_TOO_LONG;
  if (field.selector_type === 'comma_number_range' && !parseNumberRange(values[0]!)) return INVALID_INPUT;
  if (field.selector_type === 'dropdown' && field.options && !values.every((v) => field.options!.some((o) => o.value === v))) return INVALID_INPUT;
  return null;
}

export interface RuleErrors {
  /** Per rule (group): 'Rule must have at least one condition.' or null. */
  rules: (string | null)[];
  /** Per rule, per condition. */
  conditions: (string | null)[][];
  /** The whole tree: too many conditions. */
  tree: string | null;
  valid: boolean;
}

/**
 * Checks the builder's rules. `reserved` conditions are sent along with them (the page filter's), and
 * count against the parser's limit on conditions.
 */
export function validateBuilderRule(target: FilterTarget, rule: BuilderRule, reserved = 0): RuleErrors {
  const rules = rule.conditions.map((g) => (g.conditions.length ? null : RULE_NEEDS_CONDITION));
  const conditions = rule.conditions.map((g) => g.conditions.map((c) => conditionError(target, c)));
  const count = rule.conditions.reduce((n, g) => n + g.conditions.length, reserved);
  const tree = count > LIMITS.maxConditions ? TOO_MANY_CONDITIONS : null;
  return { rules, conditions, tree, valid: !tree && rules.every((e) => !e) && conditions.every((g) => g.every((e) => !e)) };
}

/** The builder's state as sent: empty values' errors dropped (the director ignores them anyway). */
export function builderToNodes(rule: BuilderRule): FilterNode[] {
  if (!rule.conditions.length) return [];
  return [
    {
      operator: 'or',
      conditions: rule.conditions.map((g) => ({
        operator: 'and' as const,
        conditions: g.conditions.map((c) => ({ match_object: c.match_object, match_field: c.match_field, operator: c.operator, value: c.value })),
      })),
    },
  ];
}

/** A saved or stored tree back into builder state (a bare group or condition becomes one rule). */
export function nodesToBuilder(nodes: readonly FilterNode[]): BuilderRule {
  const groups: BuilderRule['conditions'] = [];
  const asGroup = (n: FilterNode) => ({ operator: 'and' as const, conditions: isCondition(n) ? [n] : n.conditions.filter(isCondition) });
  for (const n of nodes) {
    if (isCondition(n)) groups.push(asGroup(n));
    else if (n.operator === 'or') for (const g of n.conditions) groups.push(asGroup(g));
    else groups.push(asGroup(n));
  }
  return { operator: 'or', conditions: groups };
}

// ---------------------------------------------------------------------------------------------
// The director's parser

export interface ParsedCondition {
  kind: 'condition';
  object: string;
  field: string;
  selector: SelectorType;
  operator: FilterOperator;
  /** Text or list values (trimmed, non-empty); ranges for comma-number-range. */
  values: string[];
  ranges: NumberRange[];
}
export interface ParsedGroup {
  kind: 'and' | 'or';
  children: ParsedNode[];
}
export type ParsedNode = ParsedCondition | ParsedGroup;

export class FilterTreeError extends Error {}

const CONDITION_KEYS = new Set(['match_object', 'match_field', 'operator', 'value', 'errors']);
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Parses `structuredFilter.rules` (nodes joined by 'and'; a rule node joins its conditions by 'or', a
 * group by 'and') for one target. Throws FilterTreeError with a message naming the place of the first
 * problem. The number of conditions is checked first, without descending further, so huge trees fail fast.
 */
export function parseFilterRules(target: FilterTarget, rules: unknown): ParsedGroup {
  if (!Array.isArray(rules)) throw new FilterTreeError('rules must be a list of rules');
  let count = 0;
  const countWalk = (n: unknown, depth: number) => {
    if (count > LIMITS.maxConditions) return;
    if (depth > LIMITS.maxDepth + 1) throw new FilterTreeError(`The rules are nested too deeply (at most ${LIMITS.maxDepth} levels).`);
    if (isObject(n) && Array.isArray(n.conditions)) for (const c of n.conditions) countWalk(c, depth + 1);
    else count++;
  };
  for (const r of rules) countWalk(r, 1);
  if (count > LIMITS.maxConditions) throw new FilterTreeError(TOO_MANY_CONDITIONS);
  return { kind: 'and', children: rules.map((r, i) => parseNode(target, r, `Rule ${i + 1}`)) };
}

function parseNode(target: FilterTarget, n: unknown, where: string): ParsedNode {
  if (!isObject(n)) throw new FilterTreeError(`${where}: must be an object`);
  if ('conditions' in n) {
    if (n.operator !== 'and' && n.operator !== 'or') throw new FilterTreeError(`${where}: operator must be 'and' or 'or'`);
    if (!Array.isArray(n.conditions)) throw new FilterTreeError(`${where}: conditions must be a list`);
    for (const k of Object.keys(n)) if (k !== 'operator' && k !== 'conditions') throw new FilterTreeError(`${where}: unknown field ${k}`);
    if (!n.conditions.length) throw new FilterTreeError(`${where}: ${RULE_NEEDS_CONDITION}`);
    return { kind: n.operator, children: n.conditions.map((c, i) => parseNode(target, c, `${where}, condition ${i + 1}`)) };
  }
  return parseCondition(target, n, where);
}

function parseCondition(target: FilterTarget, n: Record<string, unknown>, where: string): ParsedCondition {
  for (const k of Object.keys(n)) if (!CONDITION_KEYS.has(k)) throw new FilterTreeError(`${where}: unknown field ${k}`);
  const { match_object: obj, match_field: fieldName, operator, value } = n;
  if (typeof obj !== 'string' || !obj) throw new FilterTreeError(`${where}: match_object: ${PLEASE_ENTER_VALUE}`);
  const content = FILTER_CONFIGS[target].find((o) => o.match_object === obj);
  if (!content) throw new FilterTreeError(`${where}: unknown match_object '${obj.slice(0, 40)}' (known: ${FILTER_CONFIGS[target].map((o) => o.match_object).join(', ')})`);
  if (typeof fieldName !== 'string' || !fieldName) throw new FilterTreeError(`${where}: match_field: ${PLEASE_ENTER_VALUE}`);
  const field = content.match_fields.find((f) => f.match_field === fieldName);
  if (!field) throw new FilterTreeError(`${where}: unknown match_field '${fieldName.slice(0, 40)}' of ${obj} (known: ${content.match_fields.map((f) => f.match_field).join(', ')})`);
  if (typeof operator !== 'string' || !operator) throw new FilterTreeError(`${where}: operator: ${PLEASE_ENTER_VALUE}`);
  if (!(field.operators as string[]).includes(operator)) throw new FilterTreeError(`${where}: unknown operator '${operator.slice(0, 40)}' for ${obj}.${fieldName} (allowed: ${field.operators.join(', ')})`);
  const list = isListSelector(field.selector_type);
  if (list ? !Array.isArray(value) || !value.every((v) => typeof v === 'string') : typeof value !== 'string') {
    throw new FilterTreeError(`${where}: the value of ${obj}.${fieldName} must be ${list ? 'a list of texts' : 'a text'}`);
  }
  const values = (Array.isArray(value) ? value : [value]).map((v) => v.trim()).filter((v) => v !== '');
  if (!values.length) throw new FilterTreeError(`${where}: ${PLEASE_ENTER_VALUE}`);
  if (values.length > LIMITS.maxListValues) throw new FilterTreeError(`${where}: ${TOO_MANY_VALUES}`);
  if (values.some((v) => v.length > LIMITS.maxTextChars)) throw new FilterTreeError(`${where}: ${VALUE_TOO_LONG}`);
  let ranges: NumberRange[] = [];
  if (field.selector_type === 'comma_number_range') {
    const r = parseNumberRange(values[0]!);
    if (!r) throw new FilterTreeError(`${where}: ${INVALID_INPUT}`);
    ranges = r;
  }
  if (field.selector_type === 'dropdown' && field.options && !values.every((v) => field.options!.some((o) => o.value === v))) {
    throw new FilterTreeError(`${where}: ${obj}.${fieldName} must be one of ${field.options.map((o) => o.value).join(', ')}`);
  }
  return { kind: 'condition', object: obj, field: fieldName, selector: field.selector_type, operator: operator as FilterOperator, values, ranges };
}

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
          const v = Array.isArray(c.value) ? c.value.filter((x) => x.trim()).map((x) => labelOf(c, x)).join(', ') : labelOf(c, c.value);
          return `${f?.label ?? c.match_field} ${c.operator} ${v}`;
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

// ---------------------------------------------------------------------------------------------
// Saved filters (beyond the spec: per user, by name)

export interface SavedFilterBody {
  rules: FilterNode[];
  page: PageFilterValues;
}
export interface SavedFilter {
  id: number;
  target: FilterTarget;
  name: string;
  filter: SavedFilterBody;
  updated_at: string;
}

export const savedFilterInputSchema = yup
  .object({
    target: yup.string<FilterTarget>().oneOf([...FILTER_TARGETS], `target must be one of ${FILTER_TARGETS.join(', ')}`).required('target is required'),
    name: yup.string().trim().required("Name can't be blank").max(80, 'Name must be at most 80 characters'),
    filter: yup
      .object({
        rules: yup.array().default([]),
        page: yup.object().default({}),
      })
      .required('filter is required')
      .noUnknown('Unknown filter field: ${unknown}'),
  })
  .noUnknown('Unknown field: ${unknown}');

export const savedFilterListQuerySchema = yup
  .object({ target: yup.string<FilterTarget>().oneOf([...FILTER_TARGETS], `target must be one of ${FILTER_TARGETS.join(', ')}`).optional() })
  .noUnknown('Unknown parameter: ${unknown}');

/** Page filter values as they are stored: texts only, at most 200 characters each. */
export function parsePageValues(v: unknown): PageFilterValues {
  if (!isObject(v)) throw new FilterTreeError('page must be an object of texts');
  const out: PageFilterValues = {};
  for (const [k, x] of Object.entries(v)) {
    if (typeof x !== 'string' || x.length > LIMITS.maxTextChars || k.length > 64) throw new FilterTreeError(`page.${k.slice(0, 64)} must be a text of at most ${LIMITS.maxTextChars} characters`);
    out[k] = x;
  }
  return out;
}
