/**
 * PCAP upload calls (actions.md section 7): upload a capture (parsed while it streams in, progress
 * stored in the database), poll its status, show and remove its conversations, and create the PCAP
 * Action from the remaining conversations with its processed capture. The Packet View calls are in
 * pcap-inspect.ts (registered from here).
 *
 * Multipart parsing is registered in this plugin's scope only. The CSRF token of an upload travels in
 * the X-CSRF-Token header: the file is streamed, so the form's fields are not parsed before the
 * director's CSRF check.
 */
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { requirePermission, requireUser } from '../guards';
import { HttpError, badRequest, bodyFields, notFound, validate } from '../http-errors';
import { closeConnection } from '../close-connection';
import type { Db } from '../db/index';
import { conversationState, type ConversationRecord } from '../pcap/assess';
import { PcapStore, UploadIngest } from '../pcap/store';
import { UPDATE_DONE, keepProcessed, storeAssessment, writeProcessed } from '../pcap/keep';
import { warmUpPcapParser } from '../pcap/warmup';
import { warmUpConversationInserts } from '../pcap/conversation-rows';
import { updateAction, validateAction } from '../actions/form-service';
import { pcapInspectRoutes } from './pcap-inspect';
import { SELECT_UPLOAD, loadUpload, type UploadRow } from '../pcap/uploads';
import {
  PCAP_STATUS,
  PCAP_TCP_OR_UDP_MESSAGE,
  destroyConversationsSchema,
  type CheckProcessStatusAnswer,
  type CreatePcapActionAnswer,
  type DestroyConversationsAnswer,
  type PcapConversation,
  type PcapUploadRecord,
  type ShowConversationsAnswer,
  type UploadPcapAnswer,
} from '../../src/api/contracts/pcap';

/** Maximum upload size: PCAP_MAX_UPLOAD_MB (default 500). */
export function pcapMaxUploadBytes(env: NodeJS.ProcessEnv = process.env): number {
  const mb = Number(env.PCAP_MAX_UPLOAD_MB ?? '');
  return Number.isFinite(mb) && mb > 0 ? Math.floor(mb * 1024 * 1024) : 500 * 1024 * 1024;
}

interface ConversationRow extends ConversationRecord {
  id: number;
  conv_index: number;
}

const CONVERSATION_COLUMNS = `id, conv_index, conv_index as index, timestamp, source_address, dest_address, protocol, service, source_port, dest_port,
  data_size::float8 as data_size, info, missed_bytes::float8 as missed_bytes, frames_a_to_b, bytes_a_to_b::float8 as bytes_a_to_b,
  frames_b_to_a, bytes_b_to_a::float8 as bytes_b_to_a, rel_start, duration, orig_source_address, orig_dest_address`;

const UPDATE_PROGRESS = 'update pcap_uploads set bytes_read = $2, percent_complete = greatest(percent_complete, $3), updated_at = now() where id = $1';
const UPDATE_PROCESSING = 'update pcap_uploads set status = $2, bytes_read = $3, size = $3, percent_complete = 99, anonymized_ip = $4, anonymized_mac = $5, updated_at = now() where id = $1';

/** The upload's own statements once, on an upload id that does not exist (nothing changes): the director's warm-up. */
async function warmUpUploadStatements(db: Db): Promise<void> {
  await db.query(SELECT_UPLOAD, [0]);
  await db.query(UPDATE_PROGRESS, [0, 0, 0]);
  await db.query(UPDATE_PROCESSING, [0, PCAP_STATUS.processing, 0, false, false]);
  await db.query(UPDATE_DONE, [0, PCAP_STATUS.completed, false, false, false, false, false, false, false, '[]', '{}', '{"ip":[],"mac":[]}']);
}

function parseUploadId(raw: unknown): number {
  const m = /^(\d{1,9})(\.json)?$/.exec(String(raw ?? ''));
  if (!m || Number(m[1]) < 1) throw badRequest(`"${String(raw ?? '')}" is not an upload id.`);
  return Number(m[1]);
}

const truthy = (v: unknown) => v === true || v === 'true' || v === '1' || v === 'on' || v === 'yes';

async function loadConversations(db: Db, uploadId: number): Promise<ConversationRow[]> {
  return db.query<ConversationRow>(`select ${CONVERSATION_COLUMNS} from pcap_conversations where upload_id = $1 order by timestamp, conv_index`, [uploadId]);
}

function conversationAnswer(c: ConversationRow, details: boolean): PcapConversation {
  const base: PcapConversation = {
    id: c.id,
    timestamp: c.timestamp,
    source_address: c.source_address,
    dest_address: c.dest_address,
    protocol: c.protocol,
    service: c.service,
    source_port: c.source_port,
    dest_port: c.dest_port,
    data_size: c.data_size,
    info: c.info,
    missed_bytes: c.missed_bytes,
  };
  if (!details) return base;
  return {
    ...base,
    frames_a_to_b: c.frames_a_to_b,
    bytes_a_to_b: c.bytes_a_to_b,
    frames_b_to_a: c.frames_b_to_a,
    bytes_b_to_a: c.bytes_b_to_a,
    rel_start: c.rel_start,
    duration: c.duration,
  };
}

function uploadAnswer(u: UploadRow, conversations: ConversationRow[] | null): PcapUploadRecord {
  // Notifications about the capture are stored; those about the remaining conversations follow them.
  const finished = u.percent_complete >= 100;
  const dynamic = finished && u.valid_upload && conversations ? conversationState(conversations.map((c) => ({ ...c, index: c.conv_index }))).notifications : [];
  const s = u.summary;
  return {
    id: u.id,
    orig_filename: u.orig_filename,
    pcap_library_id: u.pcap_library_id,
    valid_upload: u.valid_upload,
    has_two_ips: u.has_two_ips,
    contains_udp: u.contains_udp,
    remove_non_ip_info: u.remove_non_ip_info,
    converted: u.converted,
    stripped_vlan_tags: u.stripped_vlan_tags,
    anonymized_ip: u.anonymized_ip,
    anonymized_mac: u.anonymized_mac,
    layer_2_exists: u.layer_2_exists,
    status: u.status,
    percent_complete: u.percent_complete,
    notifications: [...u.notifications, ...dynamic],
    action_id: u.action_id,
    summary: {
      format: (s.format as 'pcap' | 'pcapng' | null | undefined) ?? null,
      packets: typeof s.packets === 'number' ? s.packets : 0,
      conversation_frames: typeof s.conversationFrames === 'number' ? s.conversationFrames : 0,
      link_types: Array.isArray(s.linkTypes) ? (s.linkTypes as number[]) : [],
      size: u.size,
    },
  };
}

/** Recomputes the flags and status that follow the remaining conversations. */
async function refreshUpload(db: Db, u: UploadRow): Promise<{ upload: UploadRow; conversations: ConversationRow[] }> {
  const conversations = await loadConversations(db, u.id);
  if (u.valid_upload && u.percent_complete >= 100) {
    const st = conversationState(conversations.map((c) => ({ ...c, index: c.conv_index })));
    await db.query('update pcap_uploads set has_two_ips = $2, contains_udp = $3, status = $4, updated_at = now() where id = $1', [u.id, st.hasTwoIps, st.hasUdp, st.status]);
  }
  const [fresh] = await db.query<UploadRow>(SELECT_UPLOAD, [u.id]);
  return { upload: fresh ?? u, conversations };
}

function safeName(name: string): string {
  const base = name.replace(/\.(pcapng|pcap|cap|dmp)$/i, '').replace(/[^A-Za-z0-9._ -]/g, '_').slice(0, 120) || 'capture';
  return base;
}

/** How long the rest of a refused upload is read and discarded before the connection is closed. */
const REFUSAL_LINGER_MS = 1000;

/**
 * A refused upload is answered before its body has arrived. The rest is discarded for a moment after
 * the answer (so the client has it before the connection goes), then the connection is closed, which
 * stops the client sending the rest of a large file.
 */
function hangUpAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
  res.once('finish', () => {
    req.unpipe();
    req.resume();
    setTimeout(() => closeConnection(req), REFUSAL_LINGER_MS).unref();
  });
}

export async function uploadRoutes(app: FastifyInstance) {
  const maxBytes = pcapMaxUploadBytes();
  const store = new PcapStore(app.config.dataDir);
  /** Background work in flight (finishing uploads); awaited when the director closes. */
  const jobs = new Set<Promise<unknown>>();
  const track = (p: Promise<unknown>) => {
    jobs.add(p);
    void p.finally(() => jobs.delete(p));
  };
  app.addHook('onClose', async () => {
    await Promise.allSettled([...jobs]);
  });
  // The first upload after start should not run the parser in the interpreter, nor plan the insert.
  app.addHook('onReady', async () => {
    const warm = warmUpPcapParser();
    if (warm) {
      await warmUpConversationInserts(app.db, warm.conversations);
      await warmUpUploadStatements(app.db);
      app.log.debug(`PCAP parser and conversation inserts warmed up in ${Math.round(performance.now() - warm.started)} ms`);
    }
  });

  await app.register(multipart, { limits: { fields: 20, files: 1, parts: 30, fieldSize: 64 * 1024 } });
  await app.register(pcapInspectRoutes, { store });

  // ---- POST /manage_sims/upload/upload_pcap_file ------------------------------------------------
  app.post('/manage_sims/upload/upload_pcap_file', async (req, reply) => {
    const session = requirePermission(req, 'create_action_permission');
    if (!req.isMultipart()) throw badRequest('Send the capture as multipart/form-data with the file in a field named "file".');
    const sizeHint = Number(req.headers['content-length'] ?? 0) || 0;
    const fields: Record<string, string> = {};
    let uploadId: number | null = null;
    let ingest: UploadIngest | null = null;
    let lastProgress = 0;
    let progressInFlight = false;
    const progress = (bytes: number) => {
      const now = Date.now();
      if (uploadId === null || progressInFlight || now - lastProgress < 250) return;
      lastProgress = now;
      progressInFlight = true;
      const pct = sizeHint > 0 ? Math.min(99, Math.floor((bytes * 100) / sizeHint)) : 0;
      void app.db
        .query(UPDATE_PROGRESS, [uploadId, bytes, pct])
        .catch((e: unknown) => req.log.warn(e))
        .finally(() => {
          progressInFlight = false;
        });
    };
    const cleanup = async () => {
      if (ingest) await ingest.abort();
      if (uploadId !== null) await app.db.query('delete from pcap_uploads where id = $1', [uploadId]);
    };

    let refusal: string | null = null;
    try {
      for await (const part of req.parts({ limits: { fileSize: maxBytes } })) {
        if (part.type === 'field') {
          if (part.fieldname !== 'authenticity_token') fields[part.fieldname] = String(part.value);
          continue;
        }
        if (part.fieldname !== 'file' || uploadId !== null) {
          part.file.resume();
          continue;
        }
        await store.ensureDirs();
        const name = (part.filename || 'capture.pcap').slice(0, 255);
        const [row] = await app.db.query<{ id: number }>(
          `insert into pcap_uploads (user_id, orig_filename, status, size, anonymized_ip, anonymized_mac) values ($1, $2, $3, $4, $5, $6) returning id`,
          [session.user.id, name, PCAP_STATUS.uploading, sizeHint, truthy(fields.anonymized_ip), truthy(fields.anonymized_mac)],
        );
        uploadId = row!.id;
        ingest = new UploadIngest(store.uploadFile(uploadId));
        for await (const chunk of part.file) {
          const behind = ingest.push(chunk as Buffer);
          if (behind) await behind;
          if (ingest.refused) {
            refusal = ingest.error;
            break; // not a capture: answer now, without reading the rest
          }
          progress(ingest.bytes);
        }
        if (refusal) break;
      }
    } catch (e) {
      await cleanup();
      const code = (e as { code?: string }).code;
      if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, `The capture is larger than the maximum upload size of ${Math.round(maxBytes / 1048576)} MB.`);
      if (code?.startsWith('FST_')) throw badRequest(`The upload could not be read: ${(e as Error).message}.`);
      throw e;
    }
    if (uploadId === null || !ingest) throw badRequest('The upload has no capture: send the file in a field named "file".');
    if (refusal) {
      await cleanup();
      hangUpAfterAnswer(req.raw, reply.raw);
      throw badRequest(refusal);
    }
    const { analysis, stored } = ingest.finish();
    // Awaited below (a failure marks the upload invalid); never left unhandled if the work stops earlier.
    stored.catch(() => undefined);
    if (analysis.reader.error && analysis.reader.packets === 0) {
      // Empty, or too short to tell: nothing to keep.
      await stored;
      await cleanup();
      throw badRequest(analysis.reader.error);
    }
    const id = uploadId;
    const anonymizeIp = truthy(fields.anonymized_ip);
    const anonymizeMac = truthy(fields.anonymized_mac);
    await app.db.query(UPDATE_PROCESSING, [
      id,
      PCAP_STATUS.processing,
      analysis.reader.bytes,
      anonymizeIp,
      anonymizeMac,
    ]);

    // Storing the conversations (and finishing the capture's file) runs after the answer; the status poll shows it finish.
    track(
      (async () => {
        try {
          // 100% only once the capture itself is on disk too.
          await storeAssessment(app.db, id, analysis, { anonymizeIp, anonymizeMac }, stored);
        } catch (e) {
          req.log.error(e);
          await app.db
            .query(`update pcap_uploads set status = $2, percent_complete = 100, valid_upload = false, notifications = $3::jsonb, updated_at = now() where id = $1`, [
              id,
              PCAP_STATUS.invalid,
              JSON.stringify([{ level: 'error', message: 'The director failed to store this capture or its conversations; it has been logged.' }]),
            ])
            .catch(() => undefined);
        }
      })(),
    );
    const answer: UploadPcapAnswer = { data: { upload_id: id } };
    return reply.status(200).send(answer);
  });

  // ---- GET /manage_sims/upload/check_process_status/{upload_id} -------------------------------------
  app.get('/manage_sims/upload/check_process_status/:upload_id', async (req): Promise<CheckProcessStatusAnswer> => {
    const session = requireUser(req);
    const id = parseUploadId((req.params as { upload_id?: string }).upload_id);
    const u = await loadUpload(app.db, id, session);
    return { data: { percent_complete: u.percent_complete, status: u.status, upload_id: u.id } };
  });

  // ---- GET /manage_sims/upload/show_conversations/{upload_id}.json?details=true ----------------------
  app.get('/manage_sims/upload/show_conversations/:upload_id', async (req): Promise<ShowConversationsAnswer> => {
    const session = requireUser(req);
    const id = parseUploadId((req.params as { upload_id?: string }).upload_id);
    const details = (req.query as { details?: string }).details === 'true';
    const u = await loadUpload(app.db, id, session);
    const conversations = await loadConversations(app.db, id);
    return {
      data: { upload: uploadAnswer(u, conversations), conversations: conversations.map((c) => conversationAnswer(c, details)) },
      token: session.csrfToken,
    };
  });

  // ---- POST /manage_sims/upload/destroy_conversations ---------------------------------------------
  app.post('/manage_sims/upload/destroy_conversations', async (req): Promise<DestroyConversationsAnswer> => {
    const session = requirePermission(req, 'create_action_permission');
    const raw = bodyFields(req.body);
    const input: Record<string, unknown> = raw && typeof raw === 'object' && !Array.isArray(raw) ? { ...(raw as Record<string, unknown>) } : {};
    // conv_id[] (form) or conv_id (JSON), one value or several.
    const ids = input['conv_id[]'] ?? input.conv_id;
    delete input['conv_id[]'];
    if (ids !== undefined) input.conv_id = Array.isArray(ids) ? ids : [ids];
    if (input.remove_tcp_or_udp === '') delete input.remove_tcp_or_udp;
    const v = validate(destroyConversationsSchema, input);
    const u = await loadUpload(app.db, v.upload_id, session);
    if (u.percent_complete < 100) throw new HttpError(409, `PCAP upload ${u.id} is still being processed; try again when it is complete.`);
    if (u.action_id !== null) throw new HttpError(409, `PCAP upload ${u.id} was already made into an Action; its conversations can no longer change.`);
    if (v.conv_id) {
      const wanted = [...new Set(v.conv_id)];
      const found = await app.db.query<{ id: number }>('select id from pcap_conversations where upload_id = $1 and id = any($2::int[])', [u.id, wanted]);
      const known = new Set(found.map((r) => r.id));
      const unknown = wanted.filter((x) => !known.has(x));
      if (unknown.length) {
        throw notFound(`${unknown.length === 1 ? 'Conversation' : 'Conversations'} ${unknown.slice(0, 20).join(', ')}${unknown.length > 20 ? ', ...' : ''} ${unknown.length === 1 ? 'does' : 'do'} not belong to PCAP upload ${u.id}.`);
      }
      await app.db.query('delete from pcap_conversations where upload_id = $1 and id = any($2::int[])', [u.id, wanted]);
    } else {
      await app.db.query('delete from pcap_conversations where upload_id = $1 and protocol = $2', [u.id, v.remove_tcp_or_udp]);
    }
    const { upload, conversations } = await refreshUpload(app.db, u);
    return { data: { conversations: conversations.map((c) => conversationAnswer(c, true)), upload: uploadAnswer(upload, conversations) } };
  });

  // ---- POST /manage_sims/upload/create_pcap_action (?action_type=captive_ioc_pcap) -----------------
  app.post('/manage_sims/upload/create_pcap_action', async (req, reply) => {
    const session = requirePermission(req, 'create_action_permission');
    const q = req.query as { action_type?: string };
    if (q.action_type !== undefined && q.action_type !== 'pcap' && q.action_type !== 'captive_ioc_pcap') {
      throw badRequest('action_type must be pcap or captive_ioc_pcap.');
    }
    const raw = bodyFields(req.body);
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw badRequest('The request body is missing or is not an object.');
    const body = structuredClone(raw) as Record<string, unknown>;
    const sim = (body.sim_action && typeof body.sim_action === 'object' ? body.sim_action : {}) as Record<string, unknown>;
    const type = q.action_type === 'captive_ioc_pcap' || sim.action_type === 'captive_ioc_pcap' ? 'captive_ioc_pcap' : 'pcap';
    const key = `${type}_action`;
    const typeFields = (body[key] && typeof body[key] === 'object' ? body[key] : {}) as Record<string, unknown>;
    const uploadRaw = typeFields.upload ?? body.upload_id ?? body.upload;
    if (uploadRaw === undefined || uploadRaw === null || uploadRaw === '') throw badRequest(`${key}.upload (the upload id) is required.`, { errors: { [`${key}.upload`]: ['must be filled'] } });
    const uploadId = parseUploadId(uploadRaw);
    const u = await loadUpload(app.db, uploadId, session);
    if (u.percent_complete < 100) throw new HttpError(409, `PCAP upload ${u.id} is still being processed; try again when it is complete.`);
    if (!u.valid_upload) throw badRequest(u.status);
    if (u.action_id !== null) throw new HttpError(409, `PCAP upload ${u.id} was already made into an Action (id ${u.action_id}).`);
    const conversations = await loadConversations(app.db, u.id);
    if (!conversations.length) throw badRequest('No conversations remain in this capture; upload it again to start over.');
    const st = conversationState(conversations.map((c) => ({ ...c, index: c.conv_index })));
    if (st.uniqueIps.length > 2) throw badRequest(PCAP_STATUS.tooManyIps, { errors: { base: [st.notifications[0]?.message ?? PCAP_STATUS.tooManyIps] } });
    if (st.hasTcp && st.hasUdp) throw badRequest(PCAP_TCP_OR_UDP_MESSAGE, { errors: { base: [PCAP_TCP_OR_UDP_MESSAGE] } });

    // The form's PCAP fields: the upload's, with attacker and destination from the first conversation when blank.
    const first = conversations[0]!;
    const blank = (x: unknown) => x === undefined || x === null || (typeof x === 'string' && !x.trim());
    body.sim_action = { ...sim, action_type: type };
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
    // Every form check first (400 with the spec's error keys), before any work.
    await validateAction(app.db, body, session.user, { existingId: 0 });

    // The processed capture: only the remaining conversations, normalized, anonymized as asked.
    if (!fs.existsSync(store.uploadFile(u.id))) throw notFound(`The capture of PCAP upload ${u.id} is no longer stored on this director; upload it again.`);
    const processed = await writeProcessed(store, u, new Set(conversations.map((c) => c.conv_index)));
    const fileName = `${safeName(u.orig_filename)}_upload${u.id}.pcap`;

    // The Action: a row for the upload, then the form's full save (tags, dimensions, version 1).
    let vid = '';
    for (;;) {
      const [vidRow] = await app.db.query<{ n: number }>(`select nextval('action_vid_seq')::int as n`);
      vid = `A000-${vidRow!.n}`;
      if (!(await app.db.query('select 1 from actions where vid = $1', [vid])).length) break;
    }
    const [created] = await app.db.query<{ id: number }>(
      `insert into actions (vid, name, description, orig_description, action_type, version, details, created_by)
       values ($1, $2, '', '', $3, 0, $4::jsonb, $5) returning id`,
      [vid, String(sim.name ?? 'PCAP Action').slice(0, 255), type, JSON.stringify({ upload: u.id, file: fileName }), session.user.id],
    );
    const actionId = created!.id;
    let saved;
    try {
      saved = await updateAction(app.db, actionId, body, session.user);
    } catch (e) {
      await app.db.query('delete from actions where id = $1', [actionId]);
      throw e;
    }
    await keepProcessed(app.db, u.id, actionId, processed, {
      name: fileName,
      notes: `Processed packet capture of PCAP Action ${saved.vid} (upload ${u.id}, ${u.orig_filename}).`,
      userId: session.user.id,
    });
    const answer: CreatePcapActionAnswer = {
      ...saved,
      notice: `Action ${saved.vid} was successfully created.`,
      upload_id: u.id,
      pcap_library_id: u.id,
      packets: processed.packets,
      size: processed.size,
    };
    return reply.status(201).send(answer);
  });
}
