/**
 * The files an Action form attaches (host_cli, email, cloud, file_transfer) and the checks on them:
 * each file exists and is attached once, cloud takes no malicious file, randomize is brt_auth's,
 * Approve Now needs the permission and no pending file, and host_cli protection follows the files.
 */
import type { Db } from '../db/index';
import { MSG, typeKey, type ActionFormPayload } from '../../src/api/contracts/action-form';
import type { ActionType, FileRestriction } from '../../src/api/contracts/vocabulary';
import { addError, type Errors } from './validation-error';

export interface FileRow {
  id: number;
  orig_file_name: string;
  sha256sum: string;
  file_restrictions: FileRestriction;
  size: number;
}

export interface AttachedFile {
  file_id: number;
  position: number;
  variable_name: string | null;
  details: Record<string, unknown>;
}

/** The files a payload attaches, in order, with their per-file details. */
export function attachedFiles(type: ActionType, p: ActionFormPayload): AttachedFile[] {
  switch (type) {
    case 'host_cli':
      return (p.host_cli_action?.files ?? []).map(({ file_id, ...details }, position) => ({ file_id, position, variable_name: null, details }));
    case 'email':
      return (p.email_action?.files ?? []).map(({ file_id, ...details }, position) => ({ file_id, position, variable_name: null, details }));
    case 'cloud':
      return (p.cloud_action?.files ?? []).map(({ file_id, variable_name }, position) => ({ file_id, position, variable_name, details: {} }));
    case 'file_transfer': {
      const id = p.file_transfer_action?.file_transfer_library_id;
      return id ? [{ file_id: id, position: 0, variable_name: null, details: {} }] : [];
    }
    default:
      return [];
  }
}

function filesKey(type: ActionType, index: number): string {
  return type === 'file_transfer' ? 'file_transfer_action.file_transfer_library_id' : `${typeKey(type)}.files.${index}.file_id`;
}

/** The library rows of the attached files, by id. */
export async function loadFileRows(db: Db, files: readonly AttachedFile[]): Promise<Map<number, FileRow>> {
  const ids = files.map((f) => f.file_id);
  const rows = ids.length ? await db.query<FileRow>('select id, orig_file_name, sha256sum, file_restrictions, size from file_library where id = any($1::int[])', [ids]) : [];
  return new Map(rows.map((r) => [r.id, r]));
}

/** Files: existing, never twice, one for file_transfer, no malicious file on cloud. */
export function checkFiles(errors: Errors, type: ActionType, files: readonly AttachedFile[], fileRows: Map<number, FileRow>): void {
  const seen = new Set<number>();
  files.forEach((f, i) => {
    const k = filesKey(type, i);
    const row = fileRows.get(f.file_id);
    if (!row) addError(errors, k, 'is not a file of the library');
    else if (seen.has(f.file_id)) addError(errors, k, MSG.duplicateAttach);
    else if (type === 'cloud' && row.file_restrictions === 'restricted_malicious') addError(errors, k, MSG.cloudIneligible);
    seen.add(f.file_id);
  });
}

/** host_cli: the randomize file column is brt_auth's; others may only keep what a file already had. */
export async function checkRandomize(db: Db, errors: Errors, files: readonly AttachedFile[], existingId: number | undefined): Promise<void> {
  if (!files.some((f) => f.details.randomize_file === true)) return;
  const kept = existingId
    ? new Set((await db.query<{ file_id: number }>(`select file_id from action_files where action_id = $1 and details->>'randomize_file' = 'true'`, [existingId])).map((r) => r.file_id))
    : new Set<number>();
  files.forEach((f, i) => {
    if (f.details.randomize_file === true && !kept.has(f.file_id)) addError(errors, `host_cli_action.files.${i}.randomize_file`, 'can only be set by a user with brt_auth');
  });
}

/** Cloud: Approve Now needs the permission and an eligible Action. */
export function checkApproveNow(errors: Errors, perms: ReadonlySet<string>, files: readonly AttachedFile[], fileRows: Map<number, FileRow>): void {
  if (!(perms.has('approve_action_permission') && perms.has('approve') && perms.has('cloudApproval'))) {
    addError(errors, 'cloud_action.approve_anywhere', 'Approve Now requires the approve permission for cloud Actions');
  } else if (files.some((f) => fileRows.get(f.file_id)?.file_restrictions === 'pending_approval')) {
    addError(errors, 'cloud_action.approve_anywhere', MSG.cloudPending);
  }
}

/** host_cli protection: monitor connections or a malicious file force Require Protected Theater. */
export function applyProtection(payload: ActionFormPayload, files: readonly AttachedFile[], fileRows: Map<number, FileRow>): void {
  const h = payload.host_cli_action;
  if (!h) return;
  const malicious = files.some((f) => fileRows.get(f.file_id)?.file_restrictions === 'restricted_malicious');
  if (h.monitor_connections || malicious) {
    h.require_protected = true;
    h.approve_anywhere = false;
  }
}
