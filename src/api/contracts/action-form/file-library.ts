/** The file library: entries, zip listings, upload answers and upload fields. */
import * as yup from 'yup';
import { ACTION_TYPES, FILE_RESTRICTIONS, type ActionType, type FileRestriction } from '../vocabulary';
import { MSG } from './texts';
import type { FileDisplay } from './calls';
import { bool, id, strictObject } from './schema-parts';

// File library.

export interface FileLibraryEntry extends FileDisplay {
  file_notes: string;
  user_tags: string[];
  verodin_tags: string[];
  os_tree_id: number | null;
  created_at: string;
  /** Entries of a zip checked at upload (zipfile_check); null when not checked. */
  zip_entry_count: number | null;
}

export interface ZipEntry {
  name: string;
  size: number;
  sha256sum: string;
  encrypted: boolean;
}

export interface FileUploadAnswer extends FileLibraryEntry {
  zip_entries: ZipEntry[] | null;
}

/** Upload restrictions offered per Action type: file_transfer hides pending_approval, cloud hides restricted_malicious. */
export function uploadRestrictionsFor(type: ActionType | ''): FileRestriction[] {
  if (type === 'file_transfer') return ['none', 'restricted_malicious'];
  if (type === 'cloud') return ['none', 'pending_approval'];
  return [...FILE_RESTRICTIONS];
}

/** The text fields of the upload form (the file itself travels as `file_upload`). */
export const fileUploadFieldsSchema = strictObject({
  file_restrictions: yup
    .string()
    .defined(MSG.cantBeBlank)
    .test('filled', MSG.cantBeBlank, (v) => !!v)
    .oneOf([...FILE_RESTRICTIONS], `must be one of ${FILE_RESTRICTIONS.join(', ')}`),
  file_notes: yup.string().defined().default('').max(2000, 'must be at most 2000 characters'),
  file_attrib_ids: yup.array(id().defined()).defined().default([]),
  os_tree_id: id().nullable().default(null),
  zipfile_check: bool(),
  zipfile_password: yup.string().defined().default(''),
  /** The Action type the upload is for (applies that type's restriction rule). */
  action_type: yup.string().oneOf([...ACTION_TYPES, ''], 'is not an action type').default(''),
});
