import { FILTER_CONFIGS, isListSelector, parseFilterRules, type FilterCondition, type FilterFieldConfig, type FilterNode } from '@/api/contracts/filters';

/**
 * THE jobs filter language, one parser for the Jobs pane's text filter and `jobs.export filter=`:
 * free text plus `field:value` words over the Job fields of the filter-rule builder
 * (`status:completed`, `ran_by:ada,bob`, `ran_by:"Ada Admin"`, `id:300-321`, `published:yes`, `name:seg`, `assessment_name:q3`).
 */
const JOB_FIELDS: ReadonlyMap<string, FilterFieldConfig> = new Map(
  (FILTER_CONFIGS.jobs.find((o) => o.match_object === 'job')?.match_fields ?? []).map((f) => [f.match_field, f]),
);

export const QUALIFIER_FIELDS = [...JOB_FIELDS.keys()];

/** One example word per field, for the hint that lists the words there are. */
function example(f: FilterFieldConfig): string {
  if (f.options?.length) return `${f.match_field}:${f.options.find((o) => o.value === 'completed')?.value ?? f.options[0]!.value}`;
  if (f.selector_type === 'comma_number_range') return `${f.match_field}:300-321`;
  if (isListSelector(f.selector_type)) return `${f.match_field}:ada`;
  return `${f.match_field}:text`;
}

/** The words the filter understands, as the hint shows them. */
export const FILTER_WORDS_HINT = `Filter words: ${[...JOB_FIELDS.values()].map(example).join(' ')}`;

/** A dropdown value by its value or label, in any case (`status:Completed` is `completed`). */
function optionValue(f: FilterFieldConfig, raw: string): string {
  const v = raw.trim().toLowerCase();
  return f.options?.find((o) => o.value.toLowerCase() === v || o.label.toLowerCase() === v)?.value ?? raw;
}

function condition(field: FilterFieldConfig, raw: string): FilterCondition {
  const operator = field.operators.includes('in') ? 'in' : field.operators.includes('contains') ? 'contains' : field.operators[0]!;
  // List selectors (ran_by) take several values, `ran_by:ada,bob`; the others one text (`status:completed`, `id:1-100`).
  const value = isListSelector(field.selector_type) ? raw.split(',').map((v) => v.trim()).filter(Boolean) : optionValue(field, raw);
  return { match_object: 'job', match_field: field.match_field, operator, value };
}

/** Why the director would refuse one condition, in the words of its parser ('' when it accepts it). */
function refusal(c: FilterCondition): string {
  try {
    parseFilterRules('jobs', [{ operator: 'and', conditions: [c] }]);
    return '';
  } catch (e) {
    return (e as Error).message.replace(/^Rule 1, condition 1: /, '');
  }
}

export interface ParsedJobFilter {
  /** The free text (words that are no `field:value`), for the list's own text search. */
  text: string;
  /** The understood `field:value` words, joined by 'and'. */
  conditions: FilterCondition[];
  /** One line per word not understood: an unknown field, a missing or refused value. */
  problems: string[];
}

/**
 * Parses a jobs filter text. Words `field:value` over the Job fields become conditions; a value the
 * director would refuse becomes a problem instead (`status:finished`). Words that look like a field
 * word but name no field (`vendor:acme`) stay free text and are reported; words with a bare colon
 * (`Segmentation:`) are plain free text.
 */
export function parseJobFilter(input: string): ParsedJobFilter {
  const words: string[] = [];
  const conditions: FilterCondition[] = [];
  const problems: string[] = [];
  // A value with spaces is quoted: ran_by:"Ada Admin".
  for (const word of input.trim().match(/[a-z_]+:"[^"]*"|\S+/g) ?? []) {
    const m = /^([a-z_]+):(?:"([^"]*)"|(.*))$/.exec(word);
    if (m) m[2] = m[2] ?? m[3] ?? '';
    const field = m ? JOB_FIELDS.get(m[1]!) : undefined;
    if (!m || !m[2]) {
      if (field) problems.push(`"${word}" needs a value, e.g. ${example(field)}`);
      words.push(word);
    } else if (!field) {
      problems.push(`"${word}": ${m[1]} is not a filter word`);
      words.push(word);
    } else {
      const c = condition(field, m[2]);
      const why = refusal(c);
      if (why) problems.push(`"${word}": ${why}`);
      else conditions.push(c);
    }
  }
  return { text: words.join(' '), conditions, problems };
}

/** The understood words as one rule of the list's rule tree (none without words). */
export const filterRules = (p: ParsedJobFilter): FilterNode[] => (p.conditions.length ? [{ operator: 'and', conditions: p.conditions }] : []);
