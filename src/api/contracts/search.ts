import * as yup from 'yup';

/**
 * Quick open (`GET /search.json?q=`): the objects one palette query finds, ranked. Shared by the
 * director (which validates and answers) and the palette (which lists the results and opens one).
 */
export const SEARCH_KINDS = ['action', 'simulation', 'job', 'actor', 'monitor', 'filter', 'script', 'dashboard'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

export const SEARCH_KIND_LABELS: Record<SearchKind, string> = {
  action: 'Action',
  simulation: 'Simulation',
  job: 'Job',
  actor: 'Actor',
  monitor: 'Monitor',
  filter: 'Saved filter',
  script: 'Script',
  dashboard: 'Dashboard',
};

export const SEARCH_MAX_QUERY = 100;
export const SEARCH_MAX_LIMIT = 50;

export const searchQuerySchema = yup
  .object({
    // Empty only with a kind (a pick list before anything is typed: the first of that kind).
    q: yup
      .string()
      .trim()
      .default('')
      .max(SEARCH_MAX_QUERY, `q must be at most ${SEARCH_MAX_QUERY} characters`)
      .when('kind', { is: (k: unknown) => !k, then: (s) => s.required('q is required: the text to look for') }),
    kind: yup.string().oneOf([...SEARCH_KINDS], `kind must be one of ${SEARCH_KINDS.join(', ')}`).optional(),
    limit: yup.number().typeError('limit must be a whole number').integer('limit must be a whole number').min(1, 'limit must be at least 1').max(SEARCH_MAX_LIMIT, `limit must be at most ${SEARCH_MAX_LIMIT}`).default(20),
  })
  .noUnknown('Unknown parameter: ${unknown}');

export interface SearchResult {
  kind: SearchKind;
  id: number;
  /** The name (or "Job 812"). */
  label: string;
  /** A second line: a VID, a type, a status, an address. */
  detail: string;
  /** The Action's or simulation's VID; null for other kinds. */
  vid: string | null;
  /** The Action's type, or the simulation's ('sequence' or 'eval'); null for other kinds. */
  subtype: string | null;
  /** Where the object opens in the workbench. */
  url: string;
  /** How the query met it: the whole name, VID or id; the start of the name or of a word in it; elsewhere. */
  match: SearchMatch;
}

export const SEARCH_MATCHES = ['exact', 'prefix', 'substring'] as const;
export type SearchMatch = (typeof SEARCH_MATCHES)[number];

export interface SearchAnswer {
  q: string;
  results: SearchResult[];
}
