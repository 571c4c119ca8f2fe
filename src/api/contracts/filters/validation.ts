/** Validating a builder rule (section 5, checked per condition in this order), and converting between the builder and the tree. */
import { type FilterTarget, INVALID_INPUT, PLEASE_ENTER_VALUE, RULE_NEEDS_CONDITION, findField, isListSelector } from './config';
import { type BuilderRule, type FilterCondition, type FilterNode, type FilterValue, LIMITS, TOO_MANY_CONDITIONS, TOO_MANY_VALUES, VALUE_TOO_LONG, isCondition, parseNumberRange } from './rule-tree';

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
