/**
 * The file library (routes/file-library.ts, actions.md sections 2, 3, 4, 7): the upload limits, the
 * entries as listed (cloud Actions never see restricted_malicious files) and shown with their zip
 * entries, the checks only the database can make on an upload, and storing an upload with its hashes,
 * file attribute tags and zip entries.
 */
import type { Db } from '../db/index';
import { notFound } from '../http-errors';
import { getSetting } from '../settings-store';
import type { FileLibraryEntry, FileUploadAnswer, ZipEntry } from '../../src/api/contracts/action-form';
import type { FileRestriction } from '../../src/api/contracts/vocabulary';

/** Upload limits: settings key `file_library_limits`, then environment, then these defaults. */
export interface FileLibraryLimits {
  max_upload_bytes: number;
  max_zip_entries: number;
  max_zip_expanded_bytes: number;
  /** Highest expansion ratio of an entry (or the archive) past 1 MiB expanded: a zip bomb beyond it. */
  max_zip_ratio: number;
}
export const DEFAULT_FILE_LIMITS: FileLibraryLimits = {
  max_upload_bytes: 100 * 1024 * 1024,
  max_zip_entries: 10_000,
  max_zip_expanded_bytes: 1024 * 1024 * 1024,
  max_zip_ratio: 100,
};

function envNumber(name: string): number | undefined {
  const n = Number(process.env[name]);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

export async function fileLibraryLimits(db: Db): Promise<FileLibraryLimits> {
  const stored = await getSetting<Partial<FileLibraryLimits>>(db, 'file_library_limits', {});
  return {
    max_upload_bytes: stored.max_upload_bytes ?? envNumber('FILE_UPLOAD_MAX_BYTES') ?? DEFAULT_FILE_LIMITS.max_upload_bytes,
    max_zip_entries: stored.max_zip_entries ?? envNumber('ZIP_MAX_ENTRIES') ?? DEFAULT_FILE_LIMITS.max_zip_entries,
    max_zip_expanded_bytes: stored.max_zip_expanded_bytes ?? envNumber('ZIP_MAX_EXPANDED_BYTES') ?? DEFAULT_FILE_LIMITS.max_zip_expanded_bytes,
    max_zip_ratio: stored.max_zip_ratio ?? envNumber('ZIP_MAX_RATIO') ?? DEFAULT_FILE_LIMITS.max_zip_ratio,
  };
}

const ENTRY_SQL = `
  select f.id, f.orig_file_name, f.sha256sum, f.file_restrictions, f.size, f.file_notes, f.os_tree_id, f.created_at::text as created_at,
         coalesce(array_agg(t.name order by t.name) filter (where t.class_name = 'user'), '{}') as user_tags,
         coalesce(array_agg(t.name order by t.name) filter (where t.class_name <> 'user'), '{}') as verodin_tags,
         case when f.zip_checked then (select count(*)::int from file_library_entries e where e.file_id = f.id) end as zip_entry_count
    from file_library f
    left join file_tags ft on ft.file_id = f.id
    left join tags t on t.id = ft.tag_id`;

/** The entries a form of this action type may attach ('' for any): cloud never lists restricted_malicious files. */
export async function listFiles(db: Db, actionType: string): Promise<FileLibraryEntry[]> {
  const where = actionType === 'cloud' ? `where f.file_restrictions <> 'restricted_malicious'` : '';
  const rows = await db.query<FileLibraryEntry>(`${ENTRY_SQL} ${where} group by f.id order by f.id`);
  return rows.map((r) => ({ ...r, size: Number(r.size) }));
}

async function entry(db: Db, id: number): Promise<FileLibraryEntry | undefined> {
  const [row] = await db.query<FileLibraryEntry>(`${ENTRY_SQL} where f.id = $1 group by f.id`, [id]);
  return row && { ...row, size: Number(row.size) };
}

/** One entry with its zip entries (null when the archive was not checked). */
export async function getFile(db: Db, id: number): Promise<FileUploadAnswer> {
  const row = await entry(db, id);
  if (!row) throw notFound(`File ${id} does not exist.`);
  const entries = await db.query<ZipEntry>('select name, size::float8 as size, sha256sum, encrypted from file_library_entries where file_id = $1 order by position', [id]);
  return { ...row, zip_entries: row.zip_entry_count === null ? null : entries };
}

/** The upload's references the database knows: the OS/Platform value and the file attribute tags. Errors by field. */
export async function checkUploadReferences(db: Db, osTreeId: number | null | undefined, fileAttribIds: readonly number[]): Promise<Record<string, string[]>> {
  const errors: Record<string, string[]> = {};
  if (osTreeId != null) {
    const os = await db.query('select 1 from dimensions where id = $1 and type = $2', [osTreeId, 'os_platform']);
    if (!os.length) errors.os_tree_id = ['is not an OS/Platform value'];
  }
  if (fileAttribIds.length) {
    const tags = await db.query<{ id: number }>(`select id from tags where id = any($1::int[]) and tag_type = 'file_attachment'`, [fileAttribIds]);
    if (tags.length !== new Set(fileAttribIds).size) errors.file_attrib_ids = ['holds a tag that is not a file attribute'];
  }
  return errors;
}

export interface NewFile {
  name: string;
  /** The stored bytes (FileStore) and their hashes. */
  contentFile: string;
  size: number;
  sha256: string;
  sha1: string;
  md5: string;
  notes: string;
  restriction: FileRestriction;
  osTreeId: number | null;
  fileAttribIds: readonly number[];
  zipEntries: ZipEntry[] | null;
  userId: number;
}

/** Stores an upload (hashes, attribute tags, zip entries) and answers the new entry. */
export async function storeFile(db: Db, f: NewFile): Promise<FileUploadAnswer> {
  const id = await db.transaction(async (tx) => {
    const [row] = await tx.query<{ id: number }>(
      `insert into file_library (orig_file_name, sha256sum, sha1sum, md5sum, size, file_notes, file_restrictions, os_tree_id, content_file, created_by, zip_checked)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) returning id`,
      [f.name.trim(), f.sha256, f.sha1, f.md5, f.size, f.notes, f.restriction, f.osTreeId, f.contentFile, f.userId, f.zipEntries !== null],
    );
    if (!row) throw new Error('insert returned no row');
    if (f.fileAttribIds.length) await tx.query('insert into file_tags (file_id, tag_id) select $1, unnest($2::int[]) on conflict do nothing', [row.id, f.fileAttribIds]);
    const z = f.zipEntries;
    if (z?.length) {
      await tx.query(
        `insert into file_library_entries (file_id, position, name, size, sha256sum, encrypted)
         select $1, p, n, s, h, e from unnest($2::int[], $3::text[], $4::bigint[], $5::text[], $6::boolean[]) as u(p, n, s, h, e)`,
        [row.id, z.map((_, i) => i), z.map((x) => x.name), z.map((x) => x.size), z.map((x) => x.sha256sum), z.map((x) => x.encrypted)],
      );
    }
    return row.id;
  });
  const stored = await entry(db, id);
  return { ...stored!, zip_entries: f.zipEntries };
}
