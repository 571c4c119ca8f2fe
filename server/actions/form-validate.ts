/**
 * Validating an Add/Edit Action form body (actions.md sections 3-8): the shared yup schemas of
 * src/api/contracts/action-form.ts first, then what only the database knows (form-checks.ts,
 * form-files.ts, form-tags.ts). Failures answer 400 with the spec's flash text and errors under the
 * spec's keys ({type}_action.{field}, web_action_steps.{i}, socket_action_steps.{i},
 * sim_action.{field}, vid, trees.{i}.id, tags.*).
 */
import * as yup from 'yup';
import type { Db } from '../db/index';
import { HttpError } from '../http-errors';
import type { SessionUser } from '../../src/api/contracts/session';
import { MSG, actionFormSchema, errorKeyFor, type ActionFormPayload } from '../../src/api/contracts/action-form';
import { ACTION_TYPES, type ActionType } from '../../src/api/contracts/vocabulary';
import { ActionValidationError, addError, type Errors } from './validation-error';
import { checkDimensions, checkPcapOrigin, checkReferences, checkSleep, checkVidOverride } from './form-checks';
import { applyProtection, attachedFiles, checkApproveNow, checkFiles, checkRandomize, loadFileRows, type AttachedFile, type FileRow } from './form-files';
import { checkTags } from './form-tags';

/** Validated input plus what the checks looked up. */
export interface ValidAction {
  payload: ActionFormPayload;
  type: ActionType;
  files: AttachedFile[];
  fileRows: Map<number, FileRow>;
  tagIds: number[];
  newUserTags: string[];
  vidOverride: string | null;
}

/** The body's sim_action.action_type; 400 when it is missing or not an action type. */
export function typeOf(body: unknown): ActionType {
  const sim = body && typeof body === 'object' ? (body as { sim_action?: unknown }).sim_action : undefined;
  const t = sim && typeof sim === 'object' ? (sim as { action_type?: unknown }).action_type : undefined;
  if (t === undefined || t === null || t === '') throw new ActionValidationError(MSG.selectType, { 'sim_action.action_type': ['Select an Action Type.'] });
  if (typeof t !== 'string' || !(ACTION_TYPES as readonly string[]).includes(t)) {
    throw new ActionValidationError(MSG.saveFailed, { 'sim_action.action_type': [`must be one of ${ACTION_TYPES.join(', ')}`] });
  }
  return t as ActionType;
}

function parsePayload(type: ActionType, body: unknown): ActionFormPayload {
  try {
    return actionFormSchema(type).validateSync(body, { abortEarly: false, stripUnknown: false }) as ActionFormPayload;
  } catch (e) {
    if (!(e instanceof yup.ValidationError)) throw e;
    const errors: Errors = {};
    for (const inner of e.inner.length ? e.inner : [e]) addError(errors, inner.path ? errorKeyFor(inner.path) : 'base', inner.message);
    throw new ActionValidationError(MSG.saveFailed, errors);
  }
}

/** Validates a create or update body; throws ActionValidationError (400) with every problem found. */
export async function validateAction(db: Db, body: unknown, user: SessionUser, opts: { existingId?: number } = {}): Promise<ValidAction> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new HttpError(400, 'The request body is missing or is not an object.');
  const type = typeOf(body);
  const payload = parsePayload(type, body);
  const errors: Errors = {};
  const perms = new Set(user.permissions);

  if (type === 'sleep') checkSleep(errors, payload);
  const vidOverride = await checkVidOverride(db, errors, payload, perms, opts.existingId);
  await checkDimensions(db, errors, payload.trees);
  await checkReferences(db, errors, type, payload);

  const files = attachedFiles(type, payload);
  const fileRows = await loadFileRows(db, files);
  checkFiles(errors, type, files, fileRows);
  if (type === 'host_cli' && !perms.has('brt_auth')) await checkRandomize(db, errors, files, opts.existingId);
  if (type === 'cloud' && payload.cloud_action?.approve_anywhere) checkApproveNow(errors, perms, files, fileRows);
  if (type === 'host_cli') applyProtection(payload, files, fileRows);
  checkPcapOrigin(errors, type, opts.existingId);

  const { tagIds, newUserTags } = await checkTags(db, errors, payload.tags, perms);
  if (Object.keys(errors).length) throw new ActionValidationError(MSG.saveFailed, errors);
  return { payload, type, files, fileRows, tagIds, newUserTags, vidOverride };
}
