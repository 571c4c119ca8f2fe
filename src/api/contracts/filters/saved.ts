/** Saved filters (beyond the spec: per user, by name). */
import * as yup from 'yup';
import { FILTER_TARGETS, type FilterTarget } from './config';
import { type PageFilterValues } from './page-filters';
import { FilterTreeError, isObject } from './parser';
import { type FilterNode, LIMITS } from './rule-tree';

// ---------------------------------------------------------------------------------------------
// Saved filters (beyond the spec: per user, by name)

export interface SavedFilterBody {
  rules: FilterNode[];
  page: PageFilterValues;
}
export interface SavedFilter {
  id: number;
  target: FilterTarget;
  name: string;
  filter: SavedFilterBody;
  updated_at: string;
}

export const savedFilterInputSchema = yup
  .object({
    target: yup.string<FilterTarget>().oneOf([...FILTER_TARGETS], `target must be one of ${FILTER_TARGETS.join(', ')}`).required('target is required'),
    name: yup.string().trim().required("Name can't be blank").max(80, 'Name must be at most 80 characters'),
    filter: yup
      .object({
        rules: yup.array().default([]),
        page: yup.object().default({}),
      })
      .required('filter is required')
      .noUnknown('Unknown filter field: ${unknown}'),
  })
  .noUnknown('Unknown field: ${unknown}');

export const savedFilterListQuerySchema = yup
  .object({ target: yup.string<FilterTarget>().oneOf([...FILTER_TARGETS], `target must be one of ${FILTER_TARGETS.join(', ')}`).optional() })
  .noUnknown('Unknown parameter: ${unknown}');

/** Page filter values as they are stored: texts only, at most 200 characters each. */
export function parsePageValues(v: unknown): PageFilterValues {
  if (!isObject(v)) throw new FilterTreeError('page must be an object of texts');
  const out: PageFilterValues = {};
  for (const [k, x] of Object.entries(v)) {
    if (typeof x !== 'string' || x.length > LIMITS.maxTextChars || k.length > 64) throw new FilterTreeError(`page.${k.slice(0, 64)} must be a text of at most ${LIMITS.maxTextChars} characters`);
    out[k] = x;
  }
  return out;
}
