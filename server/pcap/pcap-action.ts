/**
 * Making a PCAP Action from a finished upload (POST /manage_sims/upload/create_pcap_action): the
 * remaining conversations must be one pair of addresses over TCP or UDP; the form's PCAP fields come
 * from the upload (attacker and destination from the first conversation when blank); every form check
 * runs before any work; then the processed capture is written and kept with the saved Action.
 */
import type { Db } from '../db/index';
import { HttpError, badRequest, notFound } from '../http-errors';
import type { ActiveSession } from '../auth/sessions';
import { PCAP_STATUS, PCAP_TCP_OR_UDP_MESSAGE, type CreatePcapActionAnswer } from '../../src/api/contracts/pcap';
import { updateAction } from '../actions/form-save';
import { validateAction } from '../actions/form-validate';
import { nextVid } from '../actions/vid';
import { keepProcessed, writeProcessed } from './keep';
import type { PcapStore } from './store';
import { loadUpload, type UploadRow } from './uploads';
import { stateOf, type ConversationRow } from './upload-answers';
import { loadConversations } from './upload-service';

export type PcapActionType = 'pcap' | 'captive_ioc_pcap';

export interface PcapActionRequest {
  /** The form body (sim_action, {type}_action, tags, trees, ...), already an object. */
  body: Record<string, unknown>;
  type: PcapActionType;
  uploadId: number;
}

function safeName(name: string): string {
  return name.replace(/\.(pcapng|pcap|cap|dmp)$/i, '').replace(/[^A-Za-z0-9._ -]/g, '_').slice(0, 120) || 'capture';
}

/** The upload may become an Action: finished, valid, not an Action yet, one pair of addresses over TCP or UDP. */
async function usableUpload(db: Db, session: ActiveSession, uploadId: number): Promise<{ u: UploadRow; conversations: ConversationRow[] }> {
  const u = await loadUpload(db, uploadId, session);
  if (u.percent_complete < 100) throw new HttpError(409, `PCAP upload ${u.id} is still being processed; try again when it is complete.`);
  if (!u.valid_upload) throw badRequest(u.status);
  if (u.action_id !== null) throw new HttpError(409, `PCAP upload ${u.id} was already made into an Action (id ${u.action_id}).`);
  const conversations = await loadConversations(db, u.id);
  if (!conversations.length) throw badRequest('No conversations remain in this capture; upload it again to start over.');
  const st = stateOf(conversations);
  if (st.uniqueIps.length > 2) throw badRequest(PCAP_STATUS.tooManyIps, { errors: { base: [st.notifications[0]?.message ?? PCAP_STATUS.tooManyIps] } });
  if (st.hasTcp && st.hasUdp) throw badRequest(PCAP_TCP_OR_UDP_MESSAGE, { errors: { base: [PCAP_TCP_OR_UDP_MESSAGE] } });
  return { u, conversations };
}

/** The form body with the upload's PCAP fields. */
function formBody(req: PcapActionRequest, u: UploadRow, first: ConversationRow): Record<string, unknown> {
  const body = structuredClone(req.body);
  const key = `${req.type}_action`;
  const sim = (body.sim_action && typeof body.sim_action === 'object' ? body.sim_action : {}) as Record<string, unknown>;
  const typeFields = (body[key] && typeof body[key] === 'object' ? body[key] : {}) as Record<string, unknown>;
  const blank = (x: unknown) => x === undefined || x === null || (typeof x === 'string' && !x.trim());
  body.sim_action = { ...sim, action_type: req.type };
  body[key] = {
    bypass_http_check: false,
    ...typeFields,
    attacker_ip: blank(typeFields.attacker_ip) ? first.source_address : typeFields.attacker_ip,
    destination_ip: blank(typeFields.destination_ip) ? first.dest_address : typeFields.destination_ip,
    anonymized_ip: u.anonymized_ip,
    anonymized_mac: u.anonymized_mac,
    upload: u.id,
  };
  delete body.upload_id;
  delete body.upload;
  return body;
}

export async function createPcapAction(db: Db, store: PcapStore, session: ActiveSession, req: PcapActionRequest): Promise<CreatePcapActionAnswer> {
  const { u, conversations } = await usableUpload(db, session, req.uploadId);
  const body = formBody(req, u, conversations[0]!);
  // Every form check first (400 with the spec's error keys), before any work.
  await validateAction(db, body, session.user, { existingId: 0 });

  // The processed capture: only the remaining conversations, normalized, anonymized as asked.
  if (!(await store.localUpload(u.id))) throw notFound(`The capture of PCAP upload ${u.id} is no longer stored; upload it again.`);
  const processed = await writeProcessed(store, u, new Set(conversations.map((c) => c.conv_index)));
  const fileName = `${safeName(u.orig_filename)}_upload${u.id}.pcap`;

  // The Action: a row for the upload, then the form's full save (tags, dimensions, version 1).
  const sim = body.sim_action as Record<string, unknown>;
  const [created] = await db.query<{ id: number }>(
    `insert into actions (vid, name, description, orig_description, action_type, version, details, created_by)
     values ($1, $2, '', '', $3, 0, $4::jsonb, $5) returning id`,
    [await nextVid(db), String(sim.name ?? 'PCAP Action').slice(0, 255), req.type, JSON.stringify({ upload: u.id, file: fileName }), session.user.id],
  );
  const actionId = created!.id;
  let saved;
  try {
    saved = await updateAction(db, actionId, body, session.user);
  } catch (e) {
    await db.query('delete from actions where id = $1', [actionId]);
    throw e;
  }
  await keepProcessed(db, store, u.id, actionId, processed, {
    name: fileName,
    notes: `Processed packet capture of PCAP Action ${saved.vid} (upload ${u.id}, ${u.orig_filename}).`,
    userId: session.user.id,
  });
  return {
    ...saved,
    notice: `Action ${saved.vid} was successfully created.`,
    upload_id: u.id,
    pcap_library_id: u.id,
    packets: processed.packets,
    size: processed.size,
  };
}
