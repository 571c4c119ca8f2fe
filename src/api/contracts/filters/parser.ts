/** The director's parser of stored filter rules: a checked tree it can evaluate in SQL. */
import { FILTER_CONFIGS, type FilterOperator, type FilterTarget, INVALID_INPUT, PLEASE_ENTER_VALUE, RULE_NEEDS_CONDITION, type SelectorType, isListSelector } from './config';
import { LIMITS, type NumberRange, TOO_MANY_CONDITIONS, TOO_MANY_VALUES, VALUE_TOO_LONG, parseNumberRange } from './rule-tree';

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
export const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

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
