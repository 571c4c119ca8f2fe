/**
 * The PCAP upload rows (routes/upload.ts): creating one as a capture streams in, its progress, the
 * processing and failure marks, its conversations (listed, removed, and the flags that follow them).
 */
import type { Db } from '../db/index';
import { HttpError, notFound } from '../http-errors';
import type { ActiveSession } from '../auth/sessions';
import type * as yup from 'yup';
import { PCAP_STATUS, type DestroyConversationsAnswer, type destroyConversationsSchema } from '../../src/api/contracts/pcap';
import { UPDATE_DONE } from './keep';
import { SELECT_UPLOAD, loadUpload, type UploadRow } from './uploads';
import { conversationAnswer, stateOf, uploadAnswer, type ConversationRow } from './upload-answers';

const CONVERSATION_COLUMNS = `id, conv_index, conv_index as index, timestamp, source_address, dest_address, protocol, service, source_port, dest_port,
  data_size::float8 as data_size, info, missed_bytes::float8 as missed_bytes, frames_a_to_b, bytes_a_to_b::float8 as bytes_a_to_b,
  frames_b_to_a, bytes_b_to_a::float8 as bytes_b_to_a, rel_start, duration, orig_source_address, orig_dest_address`;

const UPDATE_PROGRESS = 'update pcap_uploads set bytes_read = $2, percent_complete = greatest(percent_complete, $3), updated_at = now() where id = $1';
const UPDATE_PROCESSING = 'update pcap_uploads set status = $2, bytes_read = $3, size = $3, percent_complete = 99, anonymized_ip = $4, anonymized_mac = $5, updated_at = now() where id = $1';

/** The upload's own statements once, on an upload id that does not exist (nothing changes): the director's warm-up. */
export async function warmUpUploadStatements(db: Db): Promise<void> {
  await db.query(SELECT_UPLOAD, [0]);
  await db.query(UPDATE_PROGRESS, [0, 0, 0]);
  await db.query(UPDATE_PROCESSING, [0, PCAP_STATUS.processing, 0, false, false]);
  await db.query(UPDATE_DONE, [0, PCAP_STATUS.completed, false, false, false, false, false, false, false, '[]', '{}', '{"ip":[],"mac":[]}']);
}

export interface NewUpload {
  userId: number;
  name: string;
  sizeHint: number;
  anonymizeIp: boolean;
  anonymizeMac: boolean;
}

/** The row of an upload that has started to stream in; returns its id. */
export async function createUpload(db: Db, u: NewUpload): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `insert into pcap_uploads (user_id, orig_filename, status, size, anonymized_ip, anonymized_mac) values ($1, $2, $3, $4, $5, $6) returning id`,
    [u.userId, u.name, PCAP_STATUS.uploading, u.sizeHint, u.anonymizeIp, u.anonymizeMac],
  );
  return row!.id;
}

export async function deleteUpload(db: Db, id: number): Promise<void> {
  await db.query('delete from pcap_uploads where id = $1', [id]);
}

export async function recordProgress(db: Db, id: number, bytes: number, percent: number): Promise<void> {
  await db.query(UPDATE_PROGRESS, [id, bytes, percent]);
}

/** The whole capture has arrived: its conversations are being stored. */
export async function markProcessing(db: Db, id: number, bytes: number, anonymizeIp: boolean, anonymizeMac: boolean): Promise<void> {
  await db.query(UPDATE_PROCESSING, [id, PCAP_STATUS.processing, bytes, anonymizeIp, anonymizeMac]);
}

/** Storing the capture failed after the answer: the upload is complete and invalid, with the reason. */
export async function markStoreFailed(db: Db, id: number): Promise<void> {
  await db.query(`update pcap_uploads set status = $2, percent_complete = 100, valid_upload = false, notifications = $3::jsonb, updated_at = now() where id = $1`, [
    id,
    PCAP_STATUS.invalid,
    JSON.stringify([{ level: 'error', message: 'The director failed to store this capture or its conversations; it has been logged.' }]),
  ]);
}

export async function loadConversations(db: Db, uploadId: number): Promise<ConversationRow[]> {
  return db.query<ConversationRow>(`select ${CONVERSATION_COLUMNS} from pcap_conversations where upload_id = $1 order by timestamp, conv_index`, [uploadId]);
}

/** Recomputes the flags and status that follow the remaining conversations. */
async function refreshUpload(db: Db, u: UploadRow): Promise<{ upload: UploadRow; conversations: ConversationRow[] }> {
  const conversations = await loadConversations(db, u.id);
  if (u.valid_upload && u.percent_complete >= 100) {
    const st = stateOf(conversations);
    await db.query('update pcap_uploads set has_two_ips = $2, contains_udp = $3, status = $4, updated_at = now() where id = $1', [u.id, st.hasTwoIps, st.hasUdp, st.status]);
  }
  const [fresh] = await db.query<UploadRow>(SELECT_UPLOAD, [u.id]);
  return { upload: fresh ?? u, conversations };
}

/** Which conversations to remove: by id, or every conversation of one protocol. */
export type ConversationRemoval = yup.InferType<typeof destroyConversationsSchema>;

/** Removes conversations of a finished upload that is not an Action yet; answers what remains. */
export async function destroyConversations(db: Db, session: ActiveSession, v: ConversationRemoval): Promise<DestroyConversationsAnswer> {
  const u = await loadUpload(db, v.upload_id, session);
  if (u.percent_complete < 100) throw new HttpError(409, `PCAP upload ${u.id} is still being processed; try again when it is complete.`);
  if (u.action_id !== null) throw new HttpError(409, `PCAP upload ${u.id} was already made into an Action; its conversations can no longer change.`);
  if (v.conv_id) {
    const wanted = [...new Set(v.conv_id)];
    const found = await db.query<{ id: number }>('select id from pcap_conversations where upload_id = $1 and id = any($2::int[])', [u.id, wanted]);
    const known = new Set(found.map((r) => r.id));
    const unknown = wanted.filter((x) => !known.has(x));
    if (unknown.length) {
      throw notFound(`${unknown.length === 1 ? 'Conversation' : 'Conversations'} ${unknown.slice(0, 20).join(', ')}${unknown.length > 20 ? ', ...' : ''} ${unknown.length === 1 ? 'does' : 'do'} not belong to PCAP upload ${u.id}.`);
    }
    await db.query('delete from pcap_conversations where upload_id = $1 and id = any($2::int[])', [u.id, wanted]);
  } else {
    await db.query('delete from pcap_conversations where upload_id = $1 and protocol = $2', [u.id, v.remove_tcp_or_udp]);
  }
  const { upload, conversations } = await refreshUpload(db, u);
  return { data: { conversations: conversations.map((c) => conversationAnswer(c, true)), upload: uploadAnswer(upload, conversations) } };
}
