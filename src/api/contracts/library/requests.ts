/** What the library's calls accept: yup schemas of their queries and bodies, the director validates with these. */
import * as yup from 'yup';
import { ACTION_TYPES, DIMENSION_TYPES, type ActionType } from '../vocabulary';
import { LIBRARY_LIMITS, LIBRARY_SORTS, LIBRARY_STATUSES, LIBRARY_VID_PATTERN, type LibrarySort, type LibraryStatus, type SortDirection } from './options';

// ---------------------------------------------------------------------------------------------
// Requests

const intList = (label: string) =>
  yup
    .array(yup.number().typeError(`${label} must hold whole numbers`).integer(`${label} must hold whole numbers`).positive(`${label} must hold positive numbers`).required())
    .max(LIBRARY_LIMITS.maxFilterValues, `${label} may hold at most ${LIBRARY_LIMITS.maxFilterValues} values`)
    .default([]);

const pageNumber = (name: string) =>
  yup.number().typeError(`${name} must be a whole number`).integer(`${name} must be a whole number`).min(1, `${name} must be at least 1`);

/** Filters shared by the v2 list calls and quick_action_ids (no paging there). */
export const libraryFilterShape = {
  search: yup.string().max(LIBRARY_LIMITS.maxSearchChars, `search must be at most ${LIBRARY_LIMITS.maxSearchChars} characters`).default(''),
  tags: intList('tags'),
  tag_mode: yup.string<'and' | 'or'>().oneOf(['and', 'or'], 'tag_mode must be and or or').default('or'),
  action_types: yup
    .array(yup.string<ActionType>().oneOf([...ACTION_TYPES], 'action_types holds an unknown action type').required())
    .max(ACTION_TYPES.length)
    .default([]),
  status: yup.string<LibraryStatus | ''>().oneOf([...LIBRARY_STATUSES, ''], `status must be one of ${LIBRARY_STATUSES.join(', ')}`).default(''),
  dimensions: intList('dimensions'),
  content_uuids: yup
    .array(yup.string().max(64).required())
    .max(LIBRARY_LIMITS.maxFilterValues, `content_uuids may hold at most ${LIBRARY_LIMITS.maxFilterValues} values`)
    .default([]),
  include_disabled: yup.boolean().typeError('include_disabled must be true or false').default(false),
  sort: yup.string<LibrarySort>().oneOf([...LIBRARY_SORTS], `sort must be one of ${LIBRARY_SORTS.join(', ')}`).default('name'),
  direction: yup.string<SortDirection>().oneOf(['asc', 'desc'], 'direction must be asc or desc').optional(),
};

export const libraryListQuerySchema = yup
  .object({
    ...libraryFilterShape,
    page_number: pageNumber('page_number').default(1),
    page_size: pageNumber('page_size')
      .max(LIBRARY_LIMITS.maxPageSize, `page_size must be at most ${LIBRARY_LIMITS.maxPageSize}`)
      .default(LIBRARY_LIMITS.defaultPageSize),
  })
  .noUnknown('Unknown parameter: ${unknown}');

export const simulationListQuerySchema = libraryListQuerySchema.shape({
  simulation_type: yup.string<'sequence' | 'eval'>().oneOf(['sequence', 'eval'], 'simulation_type must be sequence or eval').required('simulation_type is required'),
});

export const quickActionIdsSchema = yup.object(libraryFilterShape).noUnknown('Unknown parameter: ${unknown}');

export const legacyListQuerySchema = yup
  .object({
    page: pageNumber('page').default(1),
    size: pageNumber('size')
      .max(LIBRARY_LIMITS.legacyPageSize, `size must be at most ${LIBRARY_LIMITS.legacyPageSize}`)
      .default(LIBRARY_LIMITS.legacyPageSize),
  })
  .noUnknown('Unknown parameter: ${unknown}');

/** POST /manage_sims/library_actions_filter.json: one array of selected tree node ids per dimension tree. */
export const treeFilterSchema = yup
  .object({
    utf8: yup.string().optional(),
    ...Object.fromEntries(DIMENSION_TYPES.map((t) => [t, intList(t)])),
  })
  .noUnknown('Unknown parameter: ${unknown}');

const idField = yup.number().typeError('id must be a whole number').integer('id must be a whole number').positive('id must be positive');

export const previewQuerySchema = yup
  .object({
    id: idField.required('id is required'),
    include_disabled: yup.boolean().typeError('include_disabled must be true or false').default(false),
  })
  .noUnknown('Unknown parameter: ${unknown}');

export const detailQuerySchema = yup
  .object({
    id: idField.optional(),
    vid: yup.string().max(64).matches(LIBRARY_VID_PATTERN, 'vid must be an a or s followed by digits or dashes').optional(),
  })
  .noUnknown('Unknown parameter: ${unknown}')
  .test('id-or-vid', 'id or vid is required', (v) => v.id !== undefined || v.vid !== undefined);

export const EDITABLE_PARAMS = ['name', 'description', 'notes'] as const;
export type EditableParam = (typeof EDITABLE_PARAMS)[number];

/** POST /manage_sims/actions/update_from_library.json (ACT-102, ACT-088). */
export const updateFromLibrarySchema = yup
  .object({
    id: idField.required('id is required'),
    param_name: yup.string<EditableParam>().oneOf([...EDITABLE_PARAMS], 'param_name must be name, description or notes').required('param_name is required'),
    new_value: yup.string().defined('new_value is required').max(LIBRARY_LIMITS.descriptionMaxChars, `new_value must be at most ${LIBRARY_LIMITS.descriptionMaxChars} characters`),
    brt_license: yup.string().required('brt_license is required'),
    auth_token: yup.string().required('auth_token is required'),
  })
  .noUnknown('Unknown parameter: ${unknown}');

export const approveQuerySchema = yup
  .object({
    required: yup.boolean().typeError('required must be true or false').required('required is required (true or false)'),
    /** The version the approver reviewed; a newer version refuses the approval. */
    version: yup
      .number()
      .typeError('version must be a whole number')
      .integer('version must be a whole number')
      .positive('version must be positive')
      .required('version is required (the version of the Action you reviewed)'),
  })
  .noUnknown('Unknown parameter: ${unknown}');

export const actionIdParamSchema = yup.object({ id: idField.required('id is required') });
export const fileParamSchema = yup.object({
  id: idField.required('id is required'),
  file_id: yup.number().typeError('file_id must be a whole number').integer('file_id must be a whole number').positive('file_id must be positive').required(),
});
