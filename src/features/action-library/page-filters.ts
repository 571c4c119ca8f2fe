import { DEFAULT_DIMENSION_TYPES, pageToNodes, type FilterNode, type PageFilterItem, type PageFilterValues } from '@/api/contracts/filters';

/** The Action library's page filter items (section 3: page filter config item). */
export const LIBRARY_PAGE_FILTERS: PageFilterItem[] = [
  { type: 'text', label: 'Name', stateKey: 'name', condition: { match_object: 'action', match_field: 'name', operator: 'contains' } },
  { type: 'select', label: 'Action Type', stateKey: 'action_type', source: 'action_types', condition: { match_object: 'action', match_field: 'action_type', operator: 'in' } },
  ...DEFAULT_DIMENSION_TYPES.map(
    (d): PageFilterItem => ({ type: 'select', label: d.label, stateKey: d.type, dimension: d.label, condition: { match_object: 'action', match_field: d.type, operator: 'in' } }),
  ),
];

export const libraryRulesOf = (rules: readonly FilterNode[], page: PageFilterValues): FilterNode[] => [...rules, ...pageToNodes('actions', LIBRARY_PAGE_FILTERS, page)];
