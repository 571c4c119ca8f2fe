/** The rule tree the builder edits and the director stores (section 3), its limits, and comma-number ranges (section 5, item 3). */

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
