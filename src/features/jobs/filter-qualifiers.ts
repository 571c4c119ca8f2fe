import { FILTER_CONFIGS, isListSelector, type FilterCondition, type FilterFieldConfig } from '@/api/contracts/filters';

/** The Job fields of the filter-rule builder, by name: `status:completed`, `ran_by:ada`, `published:yes`. */
const JOB_FIELDS: ReadonlyMap<string, FilterFieldConfig> = new Map(
  (FILTER_CONFIGS.jobs.find((o) => o.match_object === 'job')?.match_fields ?? []).map((f) => [f.match_field, f]),
);

export const QUALIFIER_FIELDS = [...JOB_FIELDS.keys()];

function condition(field: FilterFieldConfig, raw: string): FilterCondition {
  const operator = field.operators.includes('in') ? 'in' : field.operators.includes('contains') ? 'contains' : field.operators[0]!;
  // List selectors (ran_by) take several values, `ran_by:ada,bob`; the others one text (`status:completed`, `id:1-100`).
  const value = isListSelector(field.selector_type) ? raw.split(',').map((v) => v.trim()).filter(Boolean) : raw;
  return { match_object: 'job', match_field: field.match_field, operator, value };
}

/**
 * Splits a jobs filter text into its free text and `field:value` qualifiers over the Job fields of
 * the rule builder, which become one rule of conditions joined by 'and' (the director checks their
 * values). Words whose prefix is no Job field stay free text.
 */
export function splitQualifiers(text: string): { text: string; conditions: FilterCondition[] } {
  const words: string[] = [];
  const conditions: FilterCondition[] = [];
  for (const word of text.trim().split(/\s+/).filter(Boolean)) {
    const m = /^([a-z_]+):(.+)$/.exec(word);
    const field = m ? JOB_FIELDS.get(m[1]!) : undefined;
    if (field) conditions.push(condition(field, m![2]!));
    else words.push(word);
  }
  return { text: words.join(' '), conditions };
}
