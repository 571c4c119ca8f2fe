/**
 * Saving an Add/Edit Action form: create (version 1, a new VID unless overridden) and update (the
 * row locked, a stale form answers 409, the version goes up), each with the Action's tags,
 * dimensions and files and a snapshot of the saved form in action_versions.
 */
import type { Db } from '../db/index';
import { HttpError, notFound } from '../http-errors';
import type { SessionUser } from '../../src/api/contracts/session';
import { MSG, type ActionFormPayload, type SaveAnswer } from '../../src/api/contracts/action-form';
import { DIMENSION_TYPES, type ActionType } from '../../src/api/contracts/vocabulary';
import { ActionValidationError } from './validation-error';
import { validateAction, type ValidAction } from './form-validate';
import { approvedAfterSave, columnsFor } from './form-columns';
import { writeTags } from './form-tags';
import { isVendorVid, nextVid } from './vid';

async function writeRelations(db: Db, actionId: number, v: ValidAction): Promise<void> {
  await writeTags(db, actionId, v);
  await db.query('delete from action_dimensions where action_id = $1', [actionId]);
  const dims = v.payload.trees.map((t, i) => ({ type: DIMENSION_TYPES[i]!, id: t.id })).filter((d): d is { type: (typeof DIMENSION_TYPES)[number]; id: number } => d.id != null);
  if (dims.length) {
    await db.query('insert into action_dimensions (action_id, dimension_type, dimension_id) select $1, unnest($2::text[]), unnest($3::int[])', [
      actionId,
      dims.map((d) => d.type),
      dims.map((d) => d.id),
    ]);
  }

  await db.query('delete from action_files where action_id = $1', [actionId]);
  for (const f of v.files) {
    await db.query('insert into action_files (action_id, file_id, position, variable_name, details) values ($1, $2, $3, $4, $5::jsonb)', [
      actionId,
      f.file_id,
      f.position,
      f.variable_name,
      JSON.stringify(f.details),
    ]);
  }
}

async function snapshot(db: Db, actionId: number, version: number, payload: ActionFormPayload, userId: number): Promise<void> {
  const { lock_version: _lock, ...values } = payload;
  await db.query(
    `insert into action_versions (action_id, version, snapshot, saved_by) values ($1, $2, $3::jsonb, $4)
       on conflict (action_id, version) do update set snapshot = excluded.snapshot, saved_by = excluded.saved_by, saved_at = now()`,
    [actionId, version, JSON.stringify(values), userId],
  );
}

export async function createAction(db: Db, body: unknown, user: SessionUser): Promise<SaveAnswer> {
  const v = await validateAction(db, body, user);
  return db.transaction(async (tx) => {
    const cols = columnsFor(v, undefined);
    const vid = v.vidOverride ?? (await nextVid(tx));
    const approved = approvedAfterSave(v, cols);
    const [row] = await tx.query<{ id: number; vid: string; version: number; approved: boolean }>(
      `insert into actions (vid, name, description, orig_description, action_type, version, approved, require_protected, approve_anywhere,
                            monitor_connections, timeout_ms, uac, details, created_by)
       values ($1, $2, $3, $3, $4, 1, $5, $6, $7, $8, $9, $10, $11::jsonb, $12)
       returning id, vid, version, approved`,
      [vid, cols.name, cols.description, v.type, approved, cols.require_protected, cols.approve_anywhere, cols.monitor_connections, cols.timeout_ms, cols.uac, JSON.stringify(cols.details), user.id],
    );
    if (!row) throw new Error('insert returned no row');
    await writeRelations(tx, row.id, v);
    await snapshot(tx, row.id, 1, v.payload, user.id);
    return { ...row, notice: `Action ${row.vid} was successfully created.` };
  });
}

export async function updateAction(db: Db, id: number, body: unknown, user: SessionUser): Promise<SaveAnswer> {
  const [current] = await db.query<{ id: number; vid: string; version: number; action_type: ActionType; details: Record<string, unknown> }>(
    'select id, vid, version, action_type, details from actions where id = $1',
    [id],
  );
  if (!current) throw notFound(`Action ${id} does not exist.`);
  if (isVendorVid(current.vid) && !user.permissions.includes('brt_auth')) {
    throw new HttpError(403, `${current.vid} is vendor content and cannot be edited. Clone it to make your own version.`);
  }
  const v = await validateAction(db, body, user, { existingId: id });
  if ((v.type === 'pcap' || v.type === 'captive_ioc_pcap') && current.action_type !== v.type) {
    throw new ActionValidationError(MSG.saveFailed, { 'sim_action.action_type': ['cannot become a PCAP Action: PCAP Actions are created from an uploaded PCAP'] });
  }
  return db.transaction(async (tx) => {
    // Lock the row: two saves of one Action at once get consecutive versions, and a stale form a 409.
    const [locked] = await tx.query<{ version: number }>('select version from actions where id = $1 for update', [id]);
    if (!locked) throw notFound(`Action ${id} does not exist.`);
    if (v.payload.lock_version !== undefined && v.payload.lock_version !== locked.version) {
      throw new HttpError(409, `This Action was saved by someone else since you opened it (it is now version ${locked.version}). Reload it to see their changes, then make yours again.`, {
        errors: { base: [`now at version ${locked.version}`] },
        version: locked.version,
      });
    }
    const cols = columnsFor(v, v.type === current.action_type ? current.details : undefined);
    const approved = approvedAfterSave(v, cols);
    const [row] = await tx.query<{ id: number; vid: string; version: number; approved: boolean }>(
      `update actions set vid = coalesce($2, vid), name = $3, description = $4, action_type = $5, version = version + 1, approved = $6,
              require_protected = $7, approve_anywhere = $8, monitor_connections = $9, timeout_ms = $10, uac = $11, details = $12::jsonb,
              updated_at = now()
        where id = $1 returning id, vid, version, approved`,
      [id, v.vidOverride, cols.name, cols.description, v.type, approved, cols.require_protected, cols.approve_anywhere, cols.monitor_connections, cols.timeout_ms, cols.uac, JSON.stringify(cols.details)],
    );
    if (!row) throw notFound(`Action ${id} does not exist.`);
    await writeRelations(tx, id, v);
    await snapshot(tx, id, row.version, v.payload, user.id);
    return { ...row, notice: `Action ${row.vid} was successfully updated.` };
  });
}
