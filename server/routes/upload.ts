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
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { requirePermission, requireUser } from '../guards';
import { HttpError, badRequest, bodyFields, validate } from '../http-errors';
import { closeConnection } from '../close-connection';
import { PcapStore, UploadIngest } from '../pcap/store';
import { storeAssessment } from '../pcap/keep';
import { warmUpPcapParser } from '../pcap/warmup';
import { warmUpConversationInserts } from '../pcap/conversation-rows';
import { loadUpload } from '../pcap/uploads';
import { conversationAnswer, uploadAnswer } from '../pcap/upload-answers';
import { createUpload, deleteUpload, destroyConversations, loadConversations, markProcessing, markStoreFailed, recordProgress, warmUpUploadStatements } from '../pcap/upload-service';
import { createPcapAction, type PcapActionRequest } from '../pcap/pcap-action';
import { pcapInspectRoutes } from './pcap-inspect';
import { sharedFilesOf } from '../storage/shared-files';
import {
  destroyConversationsSchema,
  type CheckProcessStatusAnswer,
  type CreatePcapActionAnswer,
  type DestroyConversationsAnswer,
  type ShowConversationsAnswer,
  type UploadPcapAnswer,
} from '../../src/api/contracts/pcap';

/** Maximum upload size: PCAP_MAX_UPLOAD_MB (default 500). */
export function pcapMaxUploadBytes(env: NodeJS.ProcessEnv = process.env): number {
  const mb = Number(env.PCAP_MAX_UPLOAD_MB ?? '');
  return Number.isFinite(mb) && mb > 0 ? Math.floor(mb * 1024 * 1024) : 500 * 1024 * 1024;
}

function parseUploadId(raw: unknown): number {
  const m = /^(\d{1,9})(\.json)?$/.exec(String(raw ?? ''));
  if (!m || Number(m[1]) < 1) throw badRequest(`"${String(raw ?? '')}" is not an upload id.`);
  return Number(m[1]);
}

const truthy = (v: unknown) => v === true || v === 'true' || v === '1' || v === 'on' || v === 'yes';

/** destroy_conversations' input: conv_id[] (form) or conv_id (JSON), one value or several. */
function removalInput(body: unknown): Record<string, unknown> {
  const raw = bodyFields(body);
  const input: Record<string, unknown> = raw && typeof raw === 'object' && !Array.isArray(raw) ? { ...(raw as Record<string, unknown>) } : {};
  const ids = input['conv_id[]'] ?? input.conv_id;
  delete input['conv_id[]'];
  if (ids !== undefined) input.conv_id = Array.isArray(ids) ? ids : [ids];
  if (input.remove_tcp_or_udp === '') delete input.remove_tcp_or_udp;
  return input;
}

/** create_pcap_action's input: the form body, the PCAP type (query or sim_action.action_type) and the upload id. */
function pcapActionRequest(body: unknown, query: { action_type?: string }): PcapActionRequest {
  if (query.action_type !== undefined && query.action_type !== 'pcap' && query.action_type !== 'captive_ioc_pcap') {
    throw badRequest('action_type must be pcap or captive_ioc_pcap.');
  }
  const raw = bodyFields(body);
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw badRequest('The request body is missing or is not an object.');
  const form = raw as Record<string, unknown>;
  const sim = (form.sim_action && typeof form.sim_action === 'object' ? form.sim_action : {}) as Record<string, unknown>;
  const type = query.action_type === 'captive_ioc_pcap' || sim.action_type === 'captive_ioc_pcap' ? 'captive_ioc_pcap' : 'pcap';
  const key = `${type}_action`;
  const typeFields = (form[key] && typeof form[key] === 'object' ? form[key] : {}) as Record<string, unknown>;
  const uploadRaw = typeFields.upload ?? form.upload_id ?? form.upload;
  if (uploadRaw === undefined || uploadRaw === null || uploadRaw === '') throw badRequest(`${key}.upload (the upload id) is required.`, { errors: { [`${key}.upload`]: ['must be filled'] } });
  return { body: form, type, uploadId: parseUploadId(uploadRaw) };
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
  const store = new PcapStore(sharedFilesOf(app.db, app.config));
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
  // PCAP_WARM_UP=0 skips that (about 1 s of CPU at each start) for a director that takes no captures.
  app.addHook('onReady', async () => {
    if (process.env.PCAP_WARM_UP === '0') return;
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
      void recordProgress(app.db, uploadId, bytes, pct)
        .catch((e: unknown) => req.log.warn(e))
        .finally(() => {
          progressInFlight = false;
        });
    };
    const cleanup = async () => {
      if (ingest) await ingest.abort();
      if (uploadId !== null) await deleteUpload(app.db, uploadId);
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
        uploadId = await createUpload(app.db, { userId: session.user.id, name, sizeHint, anonymizeIp: truthy(fields.anonymized_ip), anonymizeMac: truthy(fields.anonymized_mac) });
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
    await markProcessing(app.db, id, analysis.reader.bytes, anonymizeIp, anonymizeMac);

    // Storing the conversations (and finishing the capture's file) runs after the answer; the status poll shows it finish.
    track(
      (async () => {
        try {
          // 100% only once the capture itself is on disk too (and in the database for the other directors).
          await storeAssessment(app.db, id, analysis, { anonymizeIp, anonymizeMac }, stored.then(() => store.publishUpload(id)));
        } catch (e) {
          req.log.error(e);
          await markStoreFailed(app.db, id).catch(() => undefined);
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
    const v = validate(destroyConversationsSchema, removalInput(req.body));
    return destroyConversations(app.db, session, v);
  });

  // ---- POST /manage_sims/upload/create_pcap_action (?action_type=captive_ioc_pcap) -----------------
  app.post('/manage_sims/upload/create_pcap_action', async (req, reply) => {
    const session = requirePermission(req, 'create_action_permission');
    const input = pcapActionRequest(req.body, req.query as { action_type?: string });
    const answer: CreatePcapActionAnswer = await createPcapAction(app.db, store, session, input);
    return reply.status(201).send(answer);
  });
}
