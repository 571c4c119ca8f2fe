import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import * as yup from 'yup';
import { requirePermission, requireUser } from '../guards';
import { HttpError, badRequest } from '../http-errors';
import { ZipError, fileSource, inspectZip } from '../actions/zip';
import { FileStore, type ReceivedFile } from '../file-library/store';
import { sharedFilesOf } from '../storage/shared-files';
import { checkUploadReferences, fileLibraryLimits, getFile, listFiles, storeFile } from '../file-library/service';
import { MSG, fileUploadFieldsSchema, uploadRestrictionsFor, type FileLibraryEntry, type FileUploadAnswer, type ZipEntry } from '../../src/api/contracts/action-form';
import { ACTION_TYPES, type ActionType, type FileRestriction } from '../../src/api/contracts/vocabulary';

const mb = (n: number) => (n >= 1024 * 1024 ? `${Math.round((n / 1024 / 1024) * 10) / 10} MB` : `${n} bytes`);

function uploadError(errors: Record<string, string[]>, status = 400): HttpError {
  return new HttpError(status, MSG.uploadFailed, { errors });
}

const listQuery = yup.object({ action_type: yup.string().oneOf([...ACTION_TYPES, ''], 'is not an action type').default('') }).noUnknown('Unknown parameter: ${unknown}');

/**
 * The file library (actions.md sections 2, 3, 4, 7): GET lists entries (cloud Actions never see
 * restricted_malicious files), GET one entry with its zip entries, POST uploads a file (multipart with
 * the spec's upload fields), honouring file_restrictions, os_tree_id, file_attrib_ids, a size limit, and
 * with zipfile_check the archive's entries (password-protected zips included) within entry and size limits.
 */
export async function fileLibraryRoutes(app: FastifyInstance) {
  // Registered here only: multipart parsing belongs to this plugin's routes.
  await app.register(multipart, { limits: { fields: 50, files: 1, fieldSize: 64 * 1024, parts: 60 } });
  const store = new FileStore(sharedFilesOf(app.db, app.config));
  // Uploads cut short by a crash or kill -9 leave a part file; the ones older than an hour go now.
  app.addHook('onReady', async () => {
    await store.removeStaleIncoming();
  });

  app.get('/manage_sims/file_transfer_libraries.json', async (req): Promise<{ data: FileLibraryEntry[] }> => {
    requireUser(req);
    let q: yup.InferType<typeof listQuery>;
    try {
      q = listQuery.validateSync(req.query, { abortEarly: false });
    } catch (e) {
      if (e instanceof yup.ValidationError) throw badRequest(e.errors.join(' '));
      throw e;
    }
    return { data: await listFiles(app.db, q.action_type) };
  });

  app.get<{ Params: { id: string } }>('/manage_sims/file_transfer_libraries/:id.json', async (req): Promise<FileUploadAnswer> => {
    requireUser(req);
    const id = Number(req.params.id);
    if (!Number.isInteger(id) || id <= 0) throw badRequest(`"${req.params.id}" is not a file id.`);
    return getFile(app.db, id);
  });

  app.post('/manage_sims/file_transfer_libraries.json', async (req, reply) => {
    const session = requirePermission(req, 'create_action_permission');
    if (!req.isMultipart()) throw uploadError({ file_upload: ['must be sent as multipart/form-data'] });
    const limits = await fileLibraryLimits(app.db);
    let received: ReceivedFile | null = null;
    let kept = false;
    try {
      const fields: Record<string, unknown> = {};
      let fileName: string | null = null;
      const errors: Record<string, string[]> = {};
      try {
        for await (const part of req.parts({ limits: { fileSize: limits.max_upload_bytes } })) {
          if (part.type === 'file') {
            if (part.fieldname !== 'file_upload') {
              part.file.resume();
              errors[part.fieldname] = ['is not an upload field'];
              continue;
            }
            // Hashed and written to disk as it streams in: never held in memory whole.
            received = await store.receive(part.file);
            fileName = part.filename;
          } else {
            const key = part.fieldname.replace(/\[\]$/, '');
            if (key === 'authenticity_token') continue;
            const value = part.value;
            if (key === 'file_attrib_ids') fields[key] = [...((fields[key] as unknown[] | undefined) ?? []), ...String(value).split(',').filter(Boolean)];
            else fields[key] = value;
          }
        }
      } catch (e) {
        const code = (e as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE') throw uploadError({ file_upload: [`is larger than the limit of ${mb(limits.max_upload_bytes)}`] }, 413);
        if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT') throw uploadError({ base: ['has too many fields or files'] });
        if (code?.startsWith('FST_')) throw uploadError({ base: [(e as Error).message] });
        throw e;
      }

      // Text fields as the schema wants them.
      const input: Record<string, unknown> = { ...fields };
      for (const k of ['zipfile_check'] as const) if (k in input) input[k] = input[k] === 'true' || input[k] === '1' || input[k] === 'on';
      if (input.os_tree_id === '' || input.os_tree_id === 'null') input.os_tree_id = null;
      let parsed: yup.InferType<typeof fileUploadFieldsSchema> | null = null;
      try {
        parsed = fileUploadFieldsSchema.validateSync(input, { abortEarly: false });
      } catch (e) {
        if (!(e instanceof yup.ValidationError)) throw e;
        for (const inner of e.inner.length ? e.inner : [e]) (errors[(inner.path ?? 'base').replace(/\[\d+\]$/, '')] ??= []).push(inner.message);
      }
      const file = received as ReceivedFile | null;
      if (!file || file.size === 0) (errors.file_upload ??= []).push(file ? 'is empty' : MSG.cantBeBlank);
      if (file && !fileName?.trim()) (errors.file_upload ??= []).push('has no file name');
      if (parsed) {
        const allowed = uploadRestrictionsFor(parsed.action_type as ActionType | '');
        if (!allowed.includes(parsed.file_restrictions as FileRestriction)) (errors.file_restrictions ??= []).push(`is not offered for ${parsed.action_type} Actions`);
        for (const [k, msgs] of Object.entries(await checkUploadReferences(app.db, parsed.os_tree_id, parsed.file_attrib_ids))) (errors[k] ??= []).push(...msgs);
      }
      if (Object.keys(errors).length || !parsed || !file || !fileName) throw uploadError(errors);

      let zipEntries: ZipEntry[] | null = null;
      if (parsed.zipfile_check) {
        try {
          zipEntries = await inspectZip(await fileSource(file.incoming), parsed.zipfile_password, {
            maxEntries: limits.max_zip_entries,
            maxExpandedBytes: limits.max_zip_expanded_bytes,
            maxRatio: limits.max_zip_ratio,
          });
        } catch (e) {
          if (e instanceof ZipError) throw uploadError({ [e.field]: [e.message] });
          throw e;
        }
      }

      // 'None' asks for no restriction: the file waits in pending approval until an approver decides it is safe.
      const restriction: FileRestriction = parsed.file_restrictions === 'restricted_malicious' ? 'restricted_malicious' : 'pending_approval';
      const contentFile = await store.keep(file);
      kept = true;
      const answer = await storeFile(app.db, {
        name: fileName,
        contentFile,
        size: file.size,
        sha256: file.sha256,
        sha1: file.sha1,
        md5: file.md5,
        notes: parsed.file_notes,
        restriction,
        osTreeId: parsed.os_tree_id,
        fileAttribIds: parsed.file_attrib_ids,
        zipEntries,
        userId: session.user.id,
      });
      return reply.status(201).send(answer);
    } finally {
      if (!kept) await store.discard(received);
    }
  });
}
