import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  FILTER_CONFIGS,
  FILTER_TARGETS,
  INVALID_INPUT,
  PLEASE_ENTER_VALUE,
  FilterTreeError,
  LIMITS,
  RULE_NEEDS_CONDITION,
  TOO_MANY_CONDITIONS,
  TOO_MANY_VALUES,
  VALUE_TOO_LONG,
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

  it('JOB-098 JOB-099 JOB-100 the error catalogue texts, verbatim: empty rule, missing value, malformed range', () => {
    const empty: BuilderRule = { operator: 'or', conditions: [{ operator: 'and', conditions: [] }] };
    expect(validateBuilderRule('jobs', empty).rules).toEqual(['Rule must have at least one condition.']);
    expect(conditionError('jobs', cond({ value: '' }))).toBe('Please enter a value');
    expect(conditionError('jobs', cond({ operator: '' }))).toBe('Please enter a value');
    expect(conditionError('jobs', cond({ value: '5-' }))).toBe('Invalid input');
  });

  it('JOB-063 an empty rule is reported on the rule, its conditions on themselves', () => {
    const rule: BuilderRule = { operator: 'or', conditions: [{ operator: 'and', conditions: [] }, { operator: 'and', conditions: [cond(), cond({ value: 'x-' })] }] };
    const e = validateBuilderRule('jobs', rule);
    expect(e).toEqual({ rules: [RULE_NEEDS_CONDITION, null], conditions: [[], [null, INVALID_INPUT]], tree: null, valid: false });
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
  it.each(['true', 'yes', 'on', 'checked', 'selected', 'cleanup', 'setup', ' TRUE '])('JOB-067 the checkbox treats %j as true', (v) => expect(isCheckboxTrue(v)).toBe(true));
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

// Sizes reach past the parser's limits (LIMITS): ranges of up to 120 parts and numbers of up to 17
// digits, texts of up to 230 characters, lists of up to 520 values, trees of up to 144 conditions.
const NUMBER = fc.oneof({ weight: 8, arbitrary: fc.nat({ max: 99999 }).map(String) }, { weight: 1, arbitrary: fc.stringMatching(/^[1-9]\d{13,16}$/) });
const rangeOf = (max: number) =>
  fc
    .array(fc.tuple(NUMBER, fc.option(NUMBER, { nil: undefined })), { minLength: 1, maxLength: max })
    .map((parts) => parts.map(([a, b]) => (b === undefined ? a : `${a}-${b}`)).join(', '));
const RANGE = fc.oneof({ weight: 8, arbitrary: rangeOf(5) }, { weight: 1, arbitrary: rangeOf(120) });
const textOf = (min: number, max: number) => fc.string({ minLength: min, maxLength: max }).filter((s) => s.trim() !== '');
const TEXT = fc.oneof({ weight: 8, arbitrary: textOf(1, 40) }, { weight: 1, arbitrary: textOf(190, 230) });
const LIST = fc.oneof(
  { weight: 12, arbitrary: fc.array(TEXT, { minLength: 1, maxLength: 4 }) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom('a', 'bb', 'ccc'), { minLength: 490, maxLength: 520 }) },
);

function conditionArb(target: FilterTarget): fc.Arbitrary<FilterCondition> {
  const fields = FILTER_CONFIGS[target].flatMap((o) => o.match_fields.map((f) => ({ o: o.match_object, f })));
  return fc.constantFrom(...fields).chain(({ o, f }) => {
    const value: fc.Arbitrary<string | string[]> =
      f.selector_type === 'comma_number_range'
        ? RANGE
        : f.selector_type === 'dropdown'
          ? fc.constantFrom(...f.options!.map((x) => x.value))
          : isListSelector(f.selector_type)
            ? LIST
            : TEXT;
    return fc.record({ match_object: fc.constant(o), match_field: fc.constant(f.match_field), operator: fc.constantFrom(...f.operators), value });
  });
}
const groupsArb = (target: FilterTarget, [minGroups, maxGroups]: [number, number], [minConditions, maxConditions]: [number, number]) =>
  fc
    .array(fc.array(conditionArb(target), { minLength: minConditions, maxLength: maxConditions }), { minLength: minGroups, maxLength: maxGroups })
    .map((groups): BuilderRule => ({ operator: 'or', conditions: groups.map((conditions) => ({ operator: 'and', conditions })) }));
// Mostly small trees; some of 64 to 144 conditions, around the limit of 100.
const ruleArb = (target: FilterTarget): fc.Arbitrary<BuilderRule> =>
  fc.oneof({ weight: 6, arbitrary: groupsArb(target, [1, 5], [1, 5]) }, { weight: 1, arbitrary: groupsArb(target, [8, 12], [8, 12]) });

const parserAccepts = (target: FilterTarget, rules: unknown) => {
  try {
    parseFilterRules(target, rules);
    return true;
  } catch (e) {
    if (e instanceof FilterTreeError) return false;
    throw e;
  }
};

describe('builder trees and the parser', () => {
  it.each(FILTER_TARGETS)('JOB-016 JOB-036 every valid %s tree the builder produces is accepted by the parser and round-trips', (target) => {
    fc.assert(
      fc.property(ruleArb(target), (rule) => {
        const nodes = builderToNodes(rule);
        const sent: unknown = JSON.parse(JSON.stringify(nodes));
        // The builder accepts exactly the trees the parser accepts, at every size.
        expect(parserAccepts(target, sent)).toBe(validateBuilderRule(target, rule).valid);
        if (!validateBuilderRule(target, rule).valid) return;
        expect(parseFilterRules(target, sent).children).toHaveLength(1);
        expect(nodesToBuilder(nodes)).toEqual(rule);
      }),
      { numRuns: 300 },
    );
  });

  it('JOB-036 the page filter conditions sent with the rules count against the limit on conditions', () => {
    const items: PageFilterItem[] = [{ type: 'text', label: 'Job Name', stateKey: 'n', condition: { match_object: 'job', match_field: 'name', operator: 'contains' } }];
    const page = pageToNodes('jobs', items, { n: 'dns' });
    const rule = (n: number): BuilderRule => ({ operator: 'or', conditions: [{ operator: 'and', conditions: Array.from({ length: n }, () => cond()) }] });
    expect(validateBuilderRule('jobs', rule(LIMITS.maxConditions - 1), 1).valid).toBe(true);
    expect(parserAccepts('jobs', [...builderToNodes(rule(LIMITS.maxConditions - 1)), ...page])).toBe(true);
    expect(validateBuilderRule('jobs', rule(LIMITS.maxConditions), 1)).toMatchObject({ tree: TOO_MANY_CONDITIONS, valid: false });
    expect(parserAccepts('jobs', [...builderToNodes(rule(LIMITS.maxConditions)), ...page])).toBe(false);
  });

  it('JOB-036 a huge tree is refused without reading the conditions past the limit (the work is bounded, not timed)', () => {
    let read = 0;
    // A condition that counts every time the parser looks at it (its `conditions` is the first thing read).
    const watched = () => ({
      ...cond(),
      get conditions() {
        read++;
        return undefined;
      },
    });
    const conditions = Array.from({ length: 10_000 }, (_, i) => (i <= LIMITS.maxConditions ? cond() : watched()));
    expect(() => parseFilterRules('jobs', [{ operator: 'or', conditions: [{ operator: 'and', conditions }] }])).toThrow(TOO_MANY_CONDITIONS);
    expect(read).toBe(0);
    // The same watch registers a condition within the limit being read, so the zero above means something.
    expect(() => parseFilterRules('jobs', [{ operator: 'and', conditions: [watched()] }])).toThrow(FilterTreeError);
    expect(read).toBeGreaterThan(0);
  });

  it.each([
    ['a text one character too long', cond({ match_field: 'name', operator: 'contains', value: 'x'.repeat(LIMITS.maxTextChars + 1) }), VALUE_TOO_LONG],
    ['a list one value too long', cond({ match_field: 'ran_by', value: Array.from({ length: LIMITS.maxListValues + 1 }, (_, i) => `u${i}`) }), TOO_MANY_VALUES],
    ['a range of more parts than fit in a text', cond({ value: Array.from({ length: LIMITS.maxRanges + 1 }, () => '1').join(',') }), VALUE_TOO_LONG],
    ['a range number of too many digits', cond({ value: '1'.repeat(LIMITS.maxDigits + 1) }), INVALID_INPUT],
    ['an operator the field does not have', cond({ operator: 'contains' }), PLEASE_ENTER_VALUE],
    ['a dropdown value that is not an option', cond({ match_field: 'status', value: 'nope' }), INVALID_INPUT],
  ])('JOB-036 the builder refuses %s, as the parser does', (_t, c, want) => {
    expect(conditionError('jobs', c)).toBe(want);
    expect(parserAccepts('jobs', [c])).toBe(false);
  });

  it('JOB-064 JOB-065 a tree the builder reports as invalid is refused by the parser with the same text', () => {
    fc.assert(
      fc.property(ruleArb('jobs'), fc.nat(), (rule, pick) => {
        fc.pre(validateBuilderRule('jobs', rule).valid);
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
