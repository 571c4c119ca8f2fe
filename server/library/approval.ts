import type { Db } from '../db/index';
import { HttpError, forbidden, notFound } from '../http-errors';
import type { ActiveSession } from '../auth/sessions';
import { LIBRARY_MESSAGES, type ApprovalEventKind } from '../../src/api/contracts/library';
import { fileCounts, findAction, ineligibleReason, mayDecide, needsProtected, type ActionRecord } from './detail';
import { type FileRestriction } from '../../src/api/contracts/vocabulary';

const conflict = (message: string, body?: Record<string, unknown>) => new HttpError(409, message, body);
const unprocessable = (message: string, body?: Record<string, unknown>) => new HttpError(422, message, body);

async function record(
  tx: Db,
  session: ActiveSession,
  a: Pick<ActionRecord, 'id' | 'vid' | 'name' | 'version'>,
  event: ApprovalEventKind,
  file?: { id: number; name: string },
): Promise<void> {
  await tx.query(
    `insert into action_approval_events (action_id, action_vid, action_name, action_version, event, file_id, file_name, user_id, user_email)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [a.id, a.vid, a.name, a.version, event, file?.id ?? null, file?.name ?? null, session.user.id, session.user.email],
  );
}

function requireDecider(session: ActiveSession, actionType: string, what: string, body?: (m: string) => Record<string, unknown>): void {
  if (mayDecide(session, actionType)) return;
  const needs = actionType === 'cloud' ? 'approve and cloudApproval' : 'approve and endpointApproval';
  const message = `Your role (${session.user.role}) does not allow ${what}: it needs ${needs}.`;
  throw new HttpError(403, message, body?.(message));
}

async function attachedFiles(tx: Db, actionId: number) {
  return tx.query<{ id: number; orig_file_name: string; file_restrictions: FileRestriction }>(
    'select f.id, f.orig_file_name, f.file_restrictions from action_files af join file_library f on f.id = af.file_id where af.action_id = $1',
    [actionId],
  );
}

export interface ApproveResult {
  id: number;
  vid: string;
  approved: true;
  require_protected: boolean;
  approve_anywhere: boolean;
  version: number;
}

/** PUT /manage_sims/actions/{id}/approve?required=: approval of a non-approved Action (actions.md section 4). */
export async function approveAction(db: Db, session: ActiveSession, id: number, required: boolean, seenVersion: number): Promise<ApproveResult> {
  if (!session.user.permissions.includes('approve')) throw forbidden(`Your role (${session.user.role}) does not allow approving Actions.`);
  return db.transaction(async (tx) => {
    const a = await findAction(tx, { id }, true);
    requireDecider(session, a.action_type, `approving ${a.action_type === 'cloud' ? 'cloud' : 'endpoint'} Actions`);
    if (a.approved) throw conflict(LIBRARY_MESSAGES.alreadyApproved);
    if (seenVersion !== a.version) throw conflict(LIBRARY_MESSAGES.staleVersion(seenVersion, a.version), { version: a.version });
    const counts = fileCounts(await attachedFiles(tx, a.id));
    const cloud = a.action_type === 'cloud';
    if (cloud && required) throw unprocessable(LIBRARY_MESSAGES.cloudRequired);
    const reason = ineligibleReason(a, counts);
    if (reason) throw unprocessable(reason);
    if (!cloud && !required && needsProtected(a, counts.malicious)) throw unprocessable(LIBRARY_MESSAGES.requiresProtected);
    const anywhere = cloud || !required;
    await tx.query('update actions set approved = true, approve_anywhere = $2, require_protected = $3, updated_at = now() where id = $1', [
      a.id,
      anywhere,
      cloud ? a.require_protected : required,
    ]);
    await record(tx, session, a, cloud ? 'approved' : required ? 'approved_protected' : 'approved_anywhere');
    return { id: a.id, vid: a.vid, approved: true, require_protected: cloud ? a.require_protected : required, approve_anywhere: anywhere, version: a.version };
  });
}

/** Failure answers of the rejection carry the message in `base` (actions.md section 8). */
const withBase = (m: string) => ({ base: m });

/** DELETE /manage_sims/actions/{id}.json: rejection deletes an Action awaiting approval. */
export async function rejectAction(db: Db, session: ActiveSession, id: number): Promise<{ id: number; vid: string; removed_from: string[] }> {
  if (!session.user.permissions.includes('approve')) {
    const m = `Your role (${session.user.role}) does not allow rejecting Actions.`;
    throw new HttpError(403, m, withBase(m));
  }
  return db.transaction(async (tx) => {
    const rows = await tx.query<{ id: number }>('select id from actions where id = $1', [id]);
    if (!rows.length) {
      const m = `Action ${id} was not found.`;
      throw new HttpError(404, m, withBase(m));
    }
    const a = await findAction(tx, { id }, true);
    requireDecider(session, a.action_type, `rejecting ${a.action_type === 'cloud' ? 'cloud' : 'endpoint'} Actions`, withBase);
    if (a.approved) throw conflict(LIBRARY_MESSAGES.rejectApproved, withBase(LIBRARY_MESSAGES.rejectApproved));
    // Deleting the Action also takes it out of the Sequences and Evaluations that used it (the preview says so).
    const sims = await tx.query<{ vid: string }>(
      `select distinct s.vid from simulation_step_actions ssa join simulation_steps st on st.id = ssa.step_id join simulations s on s.id = st.simulation_id
        where ssa.action_id = $1 order by s.vid`,
      [a.id],
    );
    await record(tx, session, a, 'rejected');
    await tx.query('delete from actions where id = $1', [a.id]);
    return { id: a.id, vid: a.vid, removed_from: sims.map((r) => r.vid) };
  });
}

export type FileDecision = 'approve' | 'restrict' | 'remove';

const DECISION_EVENT: Record<FileDecision, ApprovalEventKind> = { approve: 'file_approved', restrict: 'file_restricted', remove: 'file_removed' };

/**
 * A decision on a file pending approval that is attached to an Action: approve as safe (restriction
 * none), restrict as malicious, or remove it from the Action (it stays in the file library).
 */
export async function decideFile(
  db: Db,
  session: ActiveSession,
  id: number,
  fileId: number,
  decision: FileDecision,
): Promise<{ file_id: number; file_restrictions: FileRestriction; attached: boolean; version: number }> {
  if (!session.user.permissions.includes('approve')) throw forbidden(`Your role (${session.user.role}) does not allow deciding on files.`);
  return db.transaction(async (tx) => {
    const a = await findAction(tx, { id }, true);
    requireDecider(session, a.action_type, 'deciding on the files of this Action');
    const files = await attachedFiles(tx, a.id);
    const file = files.find((f) => f.id === fileId);
    if (!file) throw notFound(`File ${fileId} is not attached to Action ${a.vid}.`);
    if (file.file_restrictions !== 'pending_approval') throw conflict(LIBRARY_MESSAGES.fileNotPending);
    let restriction: FileRestriction = file.file_restrictions;
    let version = a.version;
    if (decision === 'remove') {
      if (a.action_type === 'file_transfer') throw unprocessable('A Malicious File Transfer Action needs its file: edit the Action to replace it.');
      await tx.query('delete from action_files where action_id = $1 and file_id = $2', [a.id, fileId]);
      const [row] = await tx.query<{ version: number }>(
        'update actions set version = version + 1, updated_at = now(), modified_at = now() where id = $1 returning version',
        [a.id],
      );
      version = row?.version ?? version + 1;
    } else {
      restriction = decision === 'approve' ? 'none' : 'restricted_malicious';
      await tx.query('update file_library set file_restrictions = $2, updated_at = now() where id = $1', [fileId, restriction]);
    }
    await record(tx, session, a, DECISION_EVENT[decision], { id: file.id, name: file.orig_file_name });
    return { file_id: fileId, file_restrictions: restriction, attached: decision !== 'remove', version };
  });
}
