/** The filter builder's texts and config: operators, selector types, the content types and match fields of each target (section 3). */
import { ACTION_TYPE_LABELS, ACTION_TYPES, JOB_ACTION_STATUSES, JOB_STATUSES } from '../vocabulary';
import { statusLabel } from '../jobs';

// ---------------------------------------------------------------------------------------------
// Texts (section 5 and 8, verbatim)

export const RULE_NEEDS_CONDITION = 'Rule must have at least one condition.';
export const PLEASE_ENTER_VALUE = 'Please enter a value';
export const INVALID_INPUT = 'Invalid input';

// ---------------------------------------------------------------------------------------------
// Config (section 3: content types with label and match_fields)

export const FILTER_OPERATORS = ['in', 'not_in', 'equals', 'contains', 'not_contains', 'starts_with', 'ends_with'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];
/**
 * What the builder shows for each operator. The spec names the operators (in, not_in, equals, contains,
 * not_contains, starts_with, ends_with); the labels read them as words, never as raw identifiers.
 */
export const OPERATOR_LABELS: Record<FilterOperator, string> = {
  in: 'is any of',
  not_in: 'is none of',
  equals: 'equals',
  contains: 'contains',
  not_contains: 'does not contain',
  starts_with: 'starts with',
  ends_with: 'ends with',
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
        { match_field: 'status', label: 'Job Status', operators: SET_OPS, selector_type: 'dropdown', options: opts(JOB_STATUSES, statusLabel) },
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
        { match_field: 'status', label: 'Action Status', operators: SET_OPS, selector_type: 'dropdown', options: opts(JOB_ACTION_STATUSES, statusLabel) },
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
