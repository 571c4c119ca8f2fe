import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  FILTER_CONFIGS,
  FILTER_TARGETS,
  INVALID_INPUT,
  PLEASE_ENTER_VALUE,
  RULE_NEEDS_CONDITION,
  acceptRangeTyping,
  builderToNodes,
  conditionError,
  isCheckboxTrue,
  isListSelector,
  nodesToBuilder,
  pageSummary,
  pageToNodes,
  parseFilterRules,
  parseNumberRange,
  validateBuilderRule,
  type BuilderRule,
  type FilterCondition,
  type FilterTarget,
  type PageFilterItem,
} from './filters';

const cond = (over: Partial<FilterCondition> = {}): FilterCondition => ({ match_object: 'job', match_field: 'id', operator: 'in', value: '1-5', ...over });

describe('validation order (section 5)', () => {
  const cases: [string, FilterCondition, string | null][] = [
    ['valid range', cond(), null],
    ['missing match object', cond({ match_object: '' }), PLEASE_ENTER_VALUE],
    ['missing match field', cond({ match_field: '' }), PLEASE_ENTER_VALUE],
    ['missing operator', cond({ operator: '' }), PLEASE_ENTER_VALUE],
    ['empty value', cond({ value: '   ' }), PLEASE_ENTER_VALUE],
    ['list with no non-empty entries', cond({ match_field: 'ran_by', value: ['', ' '] }), PLEASE_ENTER_VALUE],
    ['missing value before malformed range', cond({ value: '' }), PLEASE_ENTER_VALUE],
    ['malformed range', cond({ value: '1-' }), INVALID_INPUT],
    ['range with letters', cond({ value: '1,a' }), INVALID_INPUT],
    ['list with one entry', cond({ match_field: 'ran_by', value: ['', 'Kim'] }), null],
  ];
  it.each(cases)('JOB-064 JOB-065 %s', (_t, c, want) => {
    expect(conditionError('jobs', c)).toBe(want);
  });

  it('JOB-063 an empty rule is reported on the rule, its conditions on themselves', () => {
    const rule: BuilderRule = { operator: 'or', conditions: [{ operator: 'and', conditions: [] }, { operator: 'and', conditions: [cond(), cond({ value: 'x-' })] }] };
    const e = validateBuilderRule('jobs', rule);
    expect(e).toEqual({ rules: [RULE_NEEDS_CONDITION, null], conditions: [[], [null, INVALID_INPUT]], valid: false });
  });
});

describe('comma-number-range (JOB-065)', () => {
  const valid: [string, [number, number][]][] = [
    ['1', [[1, 1]]],
    ['1-5', [[1, 5]]],
    ['1-5, 8', [[1, 5], [8, 8]]],
    [' 1 - 5 ,8 ', [[1, 5], [8, 8]]],
    ['9-3', [[3, 9]]],
    ['10,20,30', [[10, 10], [20, 20], [30, 30]]],
  ];
  it.each(valid)('JOB-065 %j is numbers or ranges', (text, want) => {
    expect(parseNumberRange(text)?.map((r) => [r.lo, r.hi])).toEqual(want);
  });
  it.each(['', ',', '1,', '-1', '1-', '1--2', '1-2-3', '1,,2', 'a', '1.5', '1 2x', '1234567890123456'])('JOB-065 %j is Invalid input', (text) => {
    expect(parseNumberRange(text)).toBeNull();
  });

  const typing: [string, boolean][] = [
    ['', true],
    ['1', true],
    ['12,', true],
    ['12, ', true],
    ['12, 3', true],
    ['1-', true],
    ['1 -', true],
    ['1-2, 5-9', true],
    ['a', false],
    ['1.', false],
    [',', false],
    ['-', false],
    [' ', false],
    [' 1', false],
    ['1,,', false],
    ['1--', false],
    ['1,-', false],
    ['1-,', false],
    ['1, ,', false],
    ['1 2', false],
    ['12 3', false],
  ];
  it.each(typing)('JOB-065 typing %j accepted: %s', (text, ok) => {
    expect(acceptRangeTyping(text)).toBe(ok);
  });
});

describe('page filters', () => {
  const items: PageFilterItem[] = [
    { type: 'text', label: 'Job Name', stateKey: 'n', condition: { match_object: 'job', match_field: 'name', operator: 'contains' } },
    { type: 'checkbox', label: 'Whole name', stateKey: 'x', requires: 'n', excludeFromSummary: true, modifies: { stateKey: 'n', operator: 'equals' } },
    { type: 'checkbox', label: 'Published only', stateKey: 'p', condition: { match_object: 'job', match_field: 'published', operator: 'equals' } },
    { type: 'select', label: 'Attack Vector', stateKey: 'av', condition: { match_object: 'job_action', match_field: 'attack_vector', operator: 'in' } },
  ];
  it.each(['true', 'yes', 'on', 'checked', 'selected', 'cleanup', 'setup', ' TRUE '])('the checkbox treats %j as true', (v) => expect(isCheckboxTrue(v)).toBe(true));
  it.each(['', 'false', 'no', '1', 'off'])('the checkbox treats %j as false', (v) => expect(isCheckboxTrue(v)).toBe(false));

  it('JOB-038 requires and excludeFromSummary are honoured; values become one group of conditions', () => {
    expect(pageToNodes('jobs', items, { x: 'true', p: 'on' })).toEqual([{ operator: 'and', conditions: [{ match_object: 'job', match_field: 'published', operator: 'equals', value: 'yes' }] }]);
    expect(pageToNodes('jobs', items, { n: 'dns', x: 'true', av: '7' })).toEqual([
      {
        operator: 'and',
        conditions: [
          { match_object: 'job', match_field: 'name', operator: 'equals', value: 'dns' },
          { match_object: 'job_action', match_field: 'attack_vector', operator: 'in', value: ['7'] },
        ],
      },
    ]);
    expect(pageSummary(items, { n: 'dns', x: 'true', p: 'yes', av: '7' }, (i, v) => (i.stateKey === 'av' ? 'Phishing' : v))).toBe('Job Name: dns · Published only · Attack Vector: Phishing');
  });
});

// ---------------------------------------------------------------------------------------------
// Property: whatever the builder produces (and validates) the director's parser accepts, and a
// saved tree reloads into the same builder state.

const RANGE = fc
  .array(fc.tuple(fc.nat({ max: 99999 }), fc.option(fc.nat({ max: 99999 }), { nil: undefined })), { minLength: 1, maxLength: 5 })
  .map((parts) => parts.map(([a, b]) => (b === undefined ? `${a}` : `${a}-${b}`)).join(', '));
const TEXT = fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== '');

function conditionArb(target: FilterTarget): fc.Arbitrary<FilterCondition> {
  const fields = FILTER_CONFIGS[target].flatMap((o) => o.match_fields.map((f) => ({ o: o.match_object, f })));
  return fc.constantFrom(...fields).chain(({ o, f }) => {
    const value: fc.Arbitrary<string | string[]> =
      f.selector_type === 'comma_number_range'
        ? RANGE
        : f.selector_type === 'dropdown'
          ? fc.constantFrom(...f.options!.map((x) => x.value))
          : isListSelector(f.selector_type)
            ? fc.array(TEXT, { minLength: 1, maxLength: 4 })
            : TEXT;
    return fc.record({ match_object: fc.constant(o), match_field: fc.constant(f.match_field), operator: fc.constantFrom(...f.operators), value });
  });
}
const ruleArb = (target: FilterTarget): fc.Arbitrary<BuilderRule> =>
  fc
    .array(fc.array(conditionArb(target), { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 5 })
    .map((groups) => ({ operator: 'or' as const, conditions: groups.map((conditions) => ({ operator: 'and' as const, conditions })) }));

describe('builder trees and the parser', () => {
  it.each(FILTER_TARGETS)('JOB-016 JOB-036 every valid %s tree the builder produces is accepted by the parser and round-trips', (target) => {
    fc.assert(
      fc.property(ruleArb(target), (rule) => {
        if (!validateBuilderRule(target, rule).valid) return;
        const nodes = builderToNodes(rule);
        const parsed = parseFilterRules(target, JSON.parse(JSON.stringify(nodes)));
        expect(parsed.children).toHaveLength(1);
        expect(nodesToBuilder(nodes)).toEqual(rule);
      }),
      { numRuns: 300 },
    );
  });

  it('JOB-064 JOB-065 a tree the builder reports as invalid is refused by the parser with the same text', () => {
    fc.assert(
      fc.property(ruleArb('jobs'), fc.nat(), (rule, pick) => {
        const groups = rule.conditions;
        const g = groups[pick % groups.length]!;
        const c = g.conditions[pick % g.conditions.length]!;
        const broken = { ...c, value: Array.isArray(c.value) ? [' '] : '' };
        g.conditions[pick % g.conditions.length] = broken;
        expect(validateBuilderRule('jobs', rule).valid).toBe(false);
        expect(() => parseFilterRules('jobs', builderToNodes(rule))).toThrow(PLEASE_ENTER_VALUE);
      }),
      { numRuns: 100 },
    );
  });
});
