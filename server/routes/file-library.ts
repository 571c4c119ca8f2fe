import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import * as yup from 'yup';
import { requirePermission, requireUser } from '../guards';
import { HttpError, badRequest, notFound } from '../http-errors';
import { getSetting } from '../settings-store';
import { ZipError, readZipEntries } from '../actions/zip';
import { MSG, fileUploadFieldsSchema, uploadRestrictionsFor, type FileLibraryEntry, type FileUploadAnswer, type ZipEntry } from '../../src/api/contracts/action-form';
import { ACTION_TYPES, type ActionType, type FileRestriction } from '../../src/api/contracts/vocabulary';

/** Upload limits: settings key `file_library_limits`, then environment, then these defaults. */
export interface FileLibraryLimits {
  max_upload_bytes: number;
  max_zip_entries: number;
  max_zip_expanded_bytes: number;
}
export const DEFAULT_FILE_LIMITS: FileLibraryLimits = {
  max_upload_bytes: 100 * 1024 * 1024,
  max_zip_entries: 10_000,
  max_zip_expanded_bytes: 1024 * 1024 * 1024,
};

function envNumber(name: string): number | undefined {
  const n = Number(process.env[name]);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

export async function fileLibraryLimits(app: FastifyInstance): Promise<FileLibraryLimits> {
  const stored = await getSetting<Partial<FileLibraryLimits>>(app.db, 'file_library_limits', {});
  return {
    max_upload_bytes: stored.max_upload_bytes ?? envNumber('FILE_UPLOAD_MAX_BYTES') ?? DEFAULT_FILE_LIMITS.max_upload_bytes,
    max_zip_entries: stored.max_zip_entries ?? envNumber('ZIP_MAX_ENTRIES') ?? DEFAULT_FILE_LIMITS.max_zip_entries,
    max_zip_expanded_bytes: stored.max_zip_expanded_bytes ?? envNumber('ZIP_MAX_EXPANDED_BYTES') ?? DEFAULT_FILE_LIMITS.max_zip_expanded_bytes,
  };
}

const mb = (n: number) => (n >= 1024 * 1024 ? `${Math.round((n / 1024 / 1024) * 10) / 10} MB` : `${n} bytes`);

function uploadError(errors: Record<string, string[]>, status = 400): HttpError {
  return new HttpError(status, MSG.uploadFailed, { errors });
}

const ENTRY_SQL = `
  select f.id, f.orig_file_name, f.sha256sum, f.file_restrictions, f.size, f.file_notes, f.os_tree_id, f.created_at::text as created_at,
         coalesce(array_agg(t.name order by t.name) filter (where t.class_name = 'user'), '{}') as user_tags,
         coalesce(array_agg(t.name order by t.name) filter (where t.class_name <> 'user'), '{}') as verodin_tags,
         case when f.zip_checked then (select count(*)::int from file_library_entries e where e.file_id = f.id) end as zip_entry_count
    from file_library f
    left join file_tags ft on ft.file_id = f.id
    left join tags t on t.id = ft.tag_id`;

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

  app.get('/manage_sims/file_transfer_libraries.json', async (req): Promise<{ data: FileLibraryEntry[] }> => {
    requireUser(req);
    let q: yup.InferType<typeof listQuery>;
    try {
      q = listQuery.validateSync(req.query, { abortEarly: false });
    } catch (e) {
      if (e instanceof yup.ValidationError) throw badRequest(e.errors.join(' '));
      throw e;
    }
    const where = q.action_type === 'cloud' ? `where f.file_restrictions <> 'restricted_malicious'` : '';
    const rows = await app.db.query<FileLibraryEntry>(`${ENTRY_SQL} ${where} group by f.id order by f.id`);
    return { data: rows.map((r) => ({ ...r, size: Number(r.size) })) };
  });

  app.get<{ Params: { id: string } }>('/manage_sims/file_transfer_libraries/:id.json', async (req): Promise<FileUploadAnswer> => {
    requireUser(req);
    const id = Number(req.params.id);
    if (!Number.isInteger(id) || id <= 0) throw badRequest(`"${req.params.id}" is not a file id.`);
    const [row] = await app.db.query<FileLibraryEntry & { zip_checked?: boolean }>(`${ENTRY_SQL} where f.id = $1 group by f.id`, [id]);
    if (!row) throw notFound(`File ${id} does not exist.`);
    const entries = await app.db.query<ZipEntry>('select name, size::float8 as size, sha256sum, encrypted from file_library_entries where file_id = $1 order by position', [id]);
    return { ...row, size: Number(row.size), zip_entries: row.zip_entry_count === null ? null : entries };
  });

  app.post('/manage_sims/file_transfer_libraries.json', async (req, reply) => {
    const session = requirePermission(req, 'create_action_permission');
    if (!req.isMultipart()) throw uploadError({ file_upload: ['must be sent as multipart/form-data'] });
    const limits = await fileLibraryLimits(app);
    const fields: Record<string, unknown> = {};
    let file: { name: string; content: Buffer } | null = null;
    const errors: Record<string, string[]> = {};
    try {
      for await (const part of req.parts({ limits: { fileSize: limits.max_upload_bytes } })) {
        if (part.type === 'file') {
          if (part.fieldname !== 'file_upload') {
            part.file.resume();
            errors[part.fieldname] = ['is not an upload field'];
            continue;
          }
          const content = await part.toBuffer();
          file = { name: part.filename, content };
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
    if (!file || file.content.length === 0) (errors.file_upload ??= []).push(file ? 'is empty' : MSG.cantBeBlank);
    if (file && !file.name.trim()) (errors.file_upload ??= []).push('has no file name');
    if (parsed) {
      const allowed = uploadRestrictionsFor(parsed.action_type as ActionType | '');
      if (!allowed.includes(parsed.file_restrictions as FileRestriction)) (errors.file_restrictions ??= []).push(`is not offered for ${parsed.action_type} Actions`);
      if (parsed.os_tree_id != null) {
        const os = await app.db.query('select 1 from dimensions where id = $1 and type = $2', [parsed.os_tree_id, 'os_platform']);
        if (!os.length) (errors.os_tree_id ??= []).push('is not an OS/Platform value');
      }
      if (parsed.file_attrib_ids.length) {
        const tags = await app.db.query<{ id: number }>(`select id from tags where id = any($1::int[]) and tag_type = 'file_attachment'`, [parsed.file_attrib_ids]);
        if (tags.length !== new Set(parsed.file_attrib_ids).size) (errors.file_attrib_ids ??= []).push('holds a tag that is not a file attribute');
      }
    }
    if (Object.keys(errors).length || !parsed || !file) throw uploadError(errors);

    let zipEntries: ZipEntry[] | null = null;
    if (parsed.zipfile_check) {
      try {
        zipEntries = readZipEntries(file.content, parsed.zipfile_password, { maxEntries: limits.max_zip_entries, maxExpandedBytes: limits.max_zip_expanded_bytes });
      } catch (e) {
        if (e instanceof ZipError) throw uploadError({ [e.field]: [e.message] });
        throw e;
      }
    }

    // 'None' asks for no restriction: the file waits in pending approval until an approver decides it is safe.
    const restriction: FileRestriction = parsed.file_restrictions === 'restricted_malicious' ? 'restricted_malicious' : 'pending_approval';
    const hash = (alg: string) => crypto.createHash(alg).update(file.content).digest('hex');
    const id = await app.db.transaction(async (tx) => {
      const [row] = await tx.query<{ id: number }>(
        `insert into file_library (orig_file_name, sha256sum, sha1sum, md5sum, size, file_notes, file_restrictions, os_tree_id, content, created_by, zip_checked)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) returning id`,
        [file.name.trim(), hash('sha256'), hash('sha1'), hash('md5'), file.content.length, parsed.file_notes, restriction, parsed.os_tree_id, file.content, session.user.id, zipEntries !== null],
      );
      if (!row) throw new Error('insert returned no row');
      if (parsed.file_attrib_ids.length) await tx.query('insert into file_tags (file_id, tag_id) select $1, unnest($2::int[]) on conflict do nothing', [row.id, parsed.file_attrib_ids]);
      if (zipEntries?.length) {
        await tx.query(
          `insert into file_library_entries (file_id, position, name, size, sha256sum, encrypted)
           select $1, p, n, s, h, e from unnest($2::int[], $3::text[], $4::bigint[], $5::text[], $6::boolean[]) as u(p, n, s, h, e)`,
          [row.id, zipEntries.map((_, i) => i), zipEntries.map((z) => z.name), zipEntries.map((z) => z.size), zipEntries.map((z) => z.sha256sum), zipEntries.map((z) => z.encrypted)],
        );
      }
      return row.id;
    });
    const [entry] = await app.db.query<FileLibraryEntry>(`${ENTRY_SQL} where f.id = $1 group by f.id`, [id]);
    return reply.status(201).send({ ...entry!, size: Number(entry!.size), zip_entries: zipEntries } satisfies FileUploadAnswer);
  });
}
