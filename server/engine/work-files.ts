/**
 * The file-library entries a work item needs: email attachments (action_files, with their
 * attachment_encoding and ignore_if_missing), host_cli files (action_files, with their destination)
 * and the file_transfer file (details.file_transfer_library_id).
 * Only ids, names, sizes and hashes go into the signed payload; the actor downloads the bytes.
 */
import type { Db } from '../db/index';
import { MAX_WORK_FILE_BYTES, type WorkFile } from '../../src/api/contracts/engine';

interface FileRow {
  id: number;
  orig_file_name: string;
  sha256sum: string;
  size: number;
  has_content: boolean;
  details: Record<string, unknown>;
}

const FILE_COLUMNS = `f.id, f.orig_file_name, f.sha256sum, coalesce(octet_length(f.content), f.size)::int as size, (f.content is not null or f.content_file is not null) as has_content`;

/** The files of an action's work, or the reason the action cannot run here (a missing or too large file: incompatible). */
export async function workFiles(db: Db, actionId: number, type: string, details: Record<string, unknown>): Promise<{ files: WorkFile[] } | { error: string }> {
  let rows: FileRow[] = [];
  if (type === 'email' || type === 'host_cli') {
    rows = await db.query<FileRow>(
      `select ${FILE_COLUMNS}, af.details from action_files af join file_library f on f.id = af.file_id where af.action_id = $1 order by af.position, af.id`,
      [actionId],
    );
  } else if (type === 'file_transfer') {
    const id = Number(details.file_transfer_library_id);
    if (!Number.isInteger(id) || id <= 0) return { error: 'The file transfer names no file from the file library.' };
    rows = await db.query<FileRow>(`select ${FILE_COLUMNS}, '{}'::jsonb as details from file_library f where f.id = $1`, [id]);
    if (!rows.length) return { error: `File ${id} is no longer in the file library.` };
  } else return { files: [] };
  const files: WorkFile[] = [];
  let total = 0;
  for (const r of rows) {
    const encoding = typeof r.details.attachment_encoding === 'string' ? r.details.attachment_encoding : 'base64';
    const base = {
      id: r.id,
      name: r.orig_file_name,
      sha256: r.sha256sum,
      size: r.size,
      ...(type === 'email' ? { attachment_encoding: encoding } : {}),
      ...(type === 'host_cli' ? { destination_directory: String(r.details.destination_directory ?? ''), destination_name: String(r.details.destination_name ?? '') } : {}),
    };
    if (!r.has_content) {
      if (r.details.ignore_if_missing === true) {
        files.push({ ...base, missing: true });
        continue;
      }
      return { error: `File ${r.orig_file_name} has no content in the file library.` };
    }
    total += r.size;
    if (total > MAX_WORK_FILE_BYTES) return { error: `The files of this action are larger than the ${MAX_WORK_FILE_BYTES / 1024 / 1024} MB an actor is handed.` };
    files.push(base);
  }
  return { files };
}
