import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requirePermission, requireUser } from '../guards';
import { HttpError, badRequest, bodyFields, forbidden, notFound, validate } from '../http-errors';
import { getSetting } from '../settings-store';
import { DEFAULT_DIRECTION, LIBRARY_LIMITS, LIBRARY_MESSAGES, actionIdParamSchema, approveQuerySchema, detailQuerySchema, fileParamSchema, isVendorVid, legacyListQuerySchema, libraryListQuerySchema, previewQuerySchema, quickActionIdsSchema, simulationListQuerySchema, treeFilterSchema, updateFromLibrarySchema, type LegacyLibraryPage, type LibraryListAnswer, type LibrarySort, type LatestJobsAnswer, type SortDirection, type UpdateFromLibraryAnswer, type TreeFilterAnswer } from '../../src/api/contracts/library';
import type { LibraryService } from '../library/library-service';
import { answerJson } from '../library/item-json';
import type { IndexFilter } from '../library/sorted-index';
import { DEFAULT_BRT_LICENSE, authTokenFor, authTokenMatches, buildDetail, findAction, latestJobs } from '../library/detail';
import { buildPreview } from '../library/preview';
import { approveAction, decideFile, rejectAction, type FileDecision } from '../library/approval';
import { compileActionRules } from '../filters/compile';
import type { Db } from '../db/index';
import { openActionCapture } from '../pcap/download';
import { sharedFilesOf } from '../storage/shared-files';
import { DIMENSION_TYPES } from '../../src/api/contracts/vocabulary';

export const filtersQuerySchema = previewQuerySchema.pick(['include_disabled']).noUnknown('Unknown parameter: ${unknown}');
export const simulationFiltersQuerySchema = simulationListQuerySchema.pick(['simulation_type', 'include_disabled']).noUnknown('Unknown parameter: ${unknown}');
export const latestJobsQuerySchema = previewQuerySchema.pick(['id']).noUnknown('Unknown parameter: ${unknown}');

const ARRAY_KEYS = new Set(['tags', 'action_types', 'dimensions', 'content_uuids', ...DIMENSION_TYPES]);

/**
 * Query strings and form bodies name arrays `tags[]=1&tags[]=2` (or `tags=1,2`): one key per field,
 * always an array for array fields.
 */
export function normalizeParams(input: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!input || typeof input !== 'object') return out;
  for (const [raw, value] of Object.entries(input as Record<string, unknown>)) {
    const key = raw.endsWith('[]') ? raw.slice(0, -2) : raw;
    if (ARRAY_KEYS.has(key)) {
      const items = (Array.isArray(value) ? value : [value])
        .flatMap((v) => (typeof v === 'string' ? v.split(',') : [v]))
        .map((v) => (typeof v === 'string' ? v.trim() : v))
        .filter((v) => v !== '' && v !== undefined && v !== null);
      out[key] = [...((out[key] as unknown[] | undefined) ?? []), ...items];
    } else out[key] = value;
  }
  return out;
}

/**
 * A rule tree (`rules`: JSON text or a list) over Actions: the ids of the Actions it matches, read in SQL,
 * or null without one. The other parameters are returned for validation as before.
 */
async function ruleMatches(db: Db, params: Record<string, unknown>): Promise<{ rest: Record<string, unknown>; ids: Set<number> | null }> {
  const { rules: raw, ...rest } = params;
  if (raw === undefined || raw === '' || raw === null) return { rest, ids: null };
  let rules: unknown = raw;
  if (typeof raw === 'string') {
    try {
      rules = JSON.parse(raw);
    } catch {
      throw badRequest('rules is not valid JSON');
    }
  }
  if (!Array.isArray(rules)) throw badRequest('rules must be a list of rules');
  if (!rules.length) return { rest, ids: null };
  const values: unknown[] = [];
  const where = compileActionRules(rules, (v) => {
    values.push(v);
    return `$${values.length}`;
  });
  const rows = await db.query<{ id: number }>(`select ac.id from actions ac where ${where}`, values);
  return { rest, ids: new Set(rows.map((r) => r.id)) };
}

/** Slots whose Action a rule tree matched (all of them without a tree). */
const keepMatched = <E extends { id: number }>(slots: number[], ids: Set<number> | null, get: (slot: number) => E | undefined) =>
  ids ? slots.filter((s) => ids.has(get(s)?.id ?? -1)) : slots;

type FilterQuery = ReturnType<typeof validate<typeof quickActionIdsSchema>>;

function toIndexFilter(library: LibraryService, q: FilterQuery): IndexFilter {
  const unknownTags = q.tags.filter((t) => !library.hasTag(t));
  if (unknownTags.length) throw badRequest(`Unknown tag id${unknownTags.length > 1 ? 's' : ''}: ${unknownTags.join(', ')}.`);
  const dims = library.expandDimensions(q.dimensions);
  if (dims.unknown.length) throw badRequest(`Unknown dimension node${dims.unknown.length > 1 ? 's' : ''}: ${dims.unknown.join(', ')}.`);
  return {
    search: q.search,
    tags: q.tags,
    tagMode: q.tag_mode,
    types: q.action_types,
    status: q.status,
    dimensions: dims.groups,
    contentIds: q.content_uuids,
    includeDisabled: q.include_disabled,
  };
}

function sortOf(q: { sort: LibrarySort; direction?: SortDirection | undefined }): [LibrarySort, SortDirection] {
  return [q.sort, q.direction ?? DEFAULT_DIRECTION[q.sort]];
}

function paging<T>(slots: readonly number[], pageNumber: number, pageSize: number, get: (slot: number) => T | undefined) {
  const total = slots.length;
  const start = (pageNumber - 1) * pageSize;
  const entries = slots
    .slice(start, start + pageSize)
    .map(get)
    .filter((e): e is T => e !== undefined);
  return { total, start: Math.min(start, total), entries, totalPages: Math.ceil(total / pageSize) };
}

/** The Action library (actions.md sections 2-8, jobs-simulations-network-map.md "Library"); see docs/api.md. */
export async function libraryRoutes(app: FastifyInstance) {
  const library = app.library;
  app.addHook('onReady', async () => library.warm());
  const brtLicense = () => getSetting(app.db, 'brt_license', DEFAULT_BRT_LICENSE);

  // ---- lists -------------------------------------------------------------------------------
  // Answers LibraryListAnswer; the items are written as JSON text straight from the index (see item-json.ts).
  // An answer without a rule tree depends on the index only: it is kept (by its query text) until the
  // list, the tags, the trees or a job status changes, so asking again writes nothing and compresses
  // nothing (server/compress-json.ts keeps a kept answer's compressed forms). Rule trees read SQL each time.
  app.get('/manage_sims/v2/actions/library_actions_list', async (req, reply) => {
    requireUser(req);
    const params = normalizeParams(req.query);
    const build = async () => {
      const { rest, ids } = await ruleMatches(app.db, params);
      const q = validate(libraryListQuerySchema, rest);
      const [sort, direction] = sortOf(q);
      const slots = keepMatched(library.actions.query(toIndexFilter(library, q), sort, direction), ids, (s) => library.actions.get(s));
      const page = paging(slots, q.page_number, q.page_size, (s) => library.actions.get(s));
      const fields: Omit<LibraryListAnswer, 'actions'> = {
        simulations: [],
        total_count: page.total,
        total_pages: page.totalPages,
        start: page.start,
        page_number: q.page_number,
        page_size: q.page_size,
      };
      return answerJson('actions', await library.actionItemsJson(page.entries), fields);
    };
    await library.fresh();
    if (params.rules !== undefined) return sendJson(reply, await build());
    return sendJson(reply, await library.answers.get(`list:${queryText(req.url)}`, build));
  });

  app.get('/v2/simulations/library_simulations_list', async (req): Promise<LibraryListAnswer> => {
    requireUser(req);
    const q = validate(simulationListQuerySchema, normalizeParams(req.query));
    const sims = await library.simulations();
    const [sort, direction] = sortOf(q);
    const filter = toIndexFilter(library, { ...q, action_types: [] });
    const slots = sims.query({ ...filter, types: [q.simulation_type] }, sort, direction);
    const page = paging(slots, q.page_number, q.page_size, (s) => sims.get(s));
    return {
      actions: [],
      simulations: await library.simulationItems(page.entries),
      total_count: page.total,
      total_pages: page.totalPages,
      start: page.start,
      page_number: q.page_number,
      page_size: q.page_size,
    };
  });

  app.get('/manage_sims/v2/actions/filters', async (req, reply) => {
    requireUser(req);
    const q = validate(filtersQuerySchema, normalizeParams(req.query));
    await library.fresh();
    return sendJson(reply, await library.answers.get(`filters:${q.include_disabled}`, async () => JSON.stringify(library.filters('actions', library.actions, q.include_disabled))));
  });

  app.get('/v2/simulations/filters', async (req) => {
    requireUser(req);
    const q = validate(simulationFiltersQuerySchema, normalizeParams(req.query));
    const sims = await library.simulations();
    const answer = library.filters('simulations', sims, q.include_disabled);
    return { ...answer, simulation_type: q.simulation_type };
  });

  // The legacy paged library: 204 while the index is being built (the client retries after 5 s).
  app.get('/manage_sims/library_actions_list.json', async (req, reply) => {
    requireUser(req);
    const q = validate(legacyListQuerySchema, normalizeParams(req.query));
    if (!library.ready) {
      library.warm();
      return reply.status(204).send();
    }
    await library.fresh();
    const slots = library.actions.query(
      { search: '', tags: [], tagMode: 'or', types: [], status: '', dimensions: [], contentIds: [], includeDisabled: false },
      'name',
      'asc',
    );
    const body = await library.answers.get(`legacy:${q.page}:${q.size}`, async () => {
      const page = paging(slots, q.page, q.size, (s) => library.actions.get(s));
      const meta: LegacyLibraryPage['meta'] = { total_count: page.total, total_pages: page.totalPages, page: q.page, size: q.size };
      return answerJson('data', await library.actionItemsJson(page.entries), { meta });
    });
    return sendJson(reply, body);
  });

  // Tree filter: the ids of the Actions under the selected dimension nodes.
  const treeAnswers = new WeakMap<readonly number[], Buffer>();
  app.post('/manage_sims/library_actions_filter.json', async (req, reply) => {
    requireUser(req);
    const body = validate(treeFilterSchema, normalizeParams(bodyFields(req.body)));
    await library.fresh();
    const ids = DIMENSION_TYPES.flatMap((t) => (body as Record<string, number[] | undefined>)[t] ?? []);
    const filter = toIndexFilter(library, { ...emptyFilter(), dimensions: ids });
    const slots = library.actions.query(filter, 'name', 'asc');
    // The same filter gives the same cached slots array until the index changes: its answer is kept with it.
    let json = treeAnswers.get(slots);
    if (json === undefined) {
      const data = slots.map((s) => library.actions.get(s)?.id).filter((id): id is number => id !== undefined);
      const answer: TreeFilterAnswer = { data, total_count: data.length };
      json = Buffer.from(JSON.stringify(answer));
      treeAnswers.set(slots, json);
    }
    return sendJson(reply, json);
  });

  app.post('/manage_sims/quick_action_ids.json', async (req) => {
    requireUser(req);
    const { rest, ids } = await ruleMatches(app.db, normalizeParams(bodyFields(req.body)));
    const q = validate(quickActionIdsSchema, rest);
    await library.fresh();
    const [sort, direction] = sortOf(q);
    const slots = keepMatched(library.actions.query(toIndexFilter(library, q), sort, direction), ids, (s) => library.actions.get(s));
    return slots.map((s) => library.actions.get(s)?.id).filter((id): id is number => id !== undefined);
  });

  // ---- one Action ---------------------------------------------------------------------------
  app.get('/manage_sims/v2/actions/detail.json', async (req) => {
    const session = requireUser(req);
    const q = validate(detailQuerySchema, normalizeParams(req.query));
    const action = await findAction(app.db, { id: q.id, vid: q.vid });
    return { action: await buildDetail(app.db, session, action, await brtLicense()) };
  });

  app.get('/manage_sims/v2/actions/latest_jobs.json', async (req): Promise<LatestJobsAnswer> => {
    requireUser(req);
    const q = validate(latestJobsQuerySchema, normalizeParams(req.query));
    const action = await findAction(app.db, { id: q.id });
    return latestJobs(app.db, action.id);
  });

  app.get('/library/actions.json', async (req) => {
    const session = requireUser(req);
    const q = validate(previewQuerySchema, normalizeParams(req.query));
    const action = await findAction(app.db, { id: q.id });
    if ((action.disabled || action.decommissioned) && !q.include_disabled) {
      throw notFound(`Action ${action.vid} is ${action.disabled ? 'disabled' : 'decommissioned'}; ask with include_disabled=true to preview it.`);
    }
    return { data: { preview_props: await buildPreview(app.db, session, action) } };
  });

  // ---- edits in place -----------------------------------------------------------------------
  app.post('/manage_sims/actions/update_from_library.json', async (req): Promise<UpdateFromLibraryAnswer> => {
    const session = requirePermission(req, 'create_action_permission');
    const input = validate(updateFromLibrarySchema, bodyFields(req.body));
    if (input.brt_license !== (await brtLicense())) throw forbidden("The licence sent does not match this director's licence.");
    const value = input.param_name === 'notes' ? input.new_value : input.new_value.trim();
    if (input.param_name === 'name' && !value) throw badRequest("Name can't be blank", { errors: { name: ["can't be blank"] } });
    if (input.param_name === 'name' && value.length > LIBRARY_LIMITS.nameMaxChars) throw badRequest(`Name must be at most ${LIBRARY_LIMITS.nameMaxChars} characters`);
    if (input.param_name === 'description' && !value) throw badRequest("Description can't be blank", { errors: { description: ["can't be blank"] } });
    if (input.param_name === 'notes' && value.length > LIBRARY_LIMITS.notesMaxChars) throw badRequest(`Notes must be at most ${LIBRARY_LIMITS.notesMaxChars} characters`);
    const row = await app.db.transaction(async (tx) => {
      const a = await findAction(tx, { id: input.id }, true);
      if (!authTokenMatches(session, a.id, a.version, input.auth_token)) throw new HttpError(409, LIBRARY_MESSAGES.staleEdit, { version: a.version });
      if (isVendorVid(a.vid) && input.param_name !== 'notes') throw forbidden(LIBRARY_MESSAGES.vendorEdit);
      // The column name comes from the validated list (name, description, notes), never from the input as such.
      const column = ({ name: 'name', description: 'description', notes: 'notes' } as const)[input.param_name];
      const [updated] = await tx.query<{ version: number; modified_at: string }>(
        `update actions set ${column} = $2 where id = $1
         returning version, to_char(coalesce(modified_at, updated_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as modified_at`,
        [a.id, value],
      );
      return { id: a.id, version: updated?.version ?? a.version, modified_at: updated?.modified_at ?? a.modified_at };
    });
    return {
      data: {
        id: row.id,
        param_name: input.param_name,
        value,
        version: row.version,
        date_modified: row.modified_at,
        auth_token: authTokenFor(session, row.id, row.version),
      },
    };
  });

  // ---- approval -----------------------------------------------------------------------------
  app.put('/manage_sims/actions/:id/approve', async (req) => {
    const session = requireUser(req);
    const { id } = validate(actionIdParamSchema, req.params);
    const q = validate(approveQuerySchema, normalizeParams(req.query));
    return { data: await approveAction(app.db, session, id, q.required, q.version) };
  });

  app.delete('/manage_sims/actions/:id.json', async (req) => {
    const session = requireUser(req);
    const { id } = validateWithBase(req, actionIdParamSchema);
    return { data: { ...(await rejectAction(app.db, session, id)), deleted: true } };
  });

  const fileRoute = (decision: FileDecision) => async (req: FastifyRequest) => {
    const session = requireUser(req);
    const { id, file_id } = validate(fileParamSchema, req.params);
    return { data: await decideFile(app.db, session, id, file_id, decision) };
  };
  app.put('/manage_sims/actions/:id/files/:file_id/approve.json', fileRoute('approve'));
  app.put('/manage_sims/actions/:id/files/:file_id/restrict.json', fileRoute('restrict'));
  app.delete('/manage_sims/actions/:id/files/:file_id.json', fileRoute('remove'));

  // ---- PCAP download ------------------------------------------------------------------------
  // '/manage_sims/actions/download/12' and '/manage_sims/actions/download/12.pcap' (the .pcap form is what
  // the preview links to: a browser tab asking for HTML at the bare path gets the workbench instead).
  app.get('/manage_sims/actions/download/:sim_id', async (req, reply) => {
    requireUser(req);
    const raw = String((req.params as { sim_id?: string }).sim_id ?? '');
    const m = /^(\d{1,9})(\.pcap)?$/.exec(raw);
    if (!m) throw badRequest('sim_id must be the id of a PCAP Action');
    const action = await findAction(app.db, { id: Number(m[1]) });
    if (action.action_type !== 'pcap' && action.action_type !== 'captive_ioc_pcap') throw notFound(`Action ${action.vid} has no packet capture.`);
    const name = typeof action.details.file === 'string' ? action.details.file : '';
    const capture = await openActionCapture(app.db, sharedFilesOf(app.db, app.config), action.id, name);
    if (!capture) throw notFound(`The packet capture ${name || '(unnamed)'} of Action ${action.vid} is not stored on this director.`);
    const fileName = name || `${action.vid}.pcap`;
    return reply
      .type('application/vnd.tcpdump.pcap')
      .header('Content-Length', String(capture.size))
      .header('Content-Disposition', `attachment; filename="${fileName.replace(/["\\\r\n]/g, '_')}"`)
      .send(capture.body);
  });
}

/** The query string of a request URL ('' without one). */
const queryText = (url: string): string => {
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at + 1);
};

function sendJson(reply: FastifyReply, json: string | Buffer): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}

function emptyFilter(): FilterQuery {
  return { search: '', tags: [], tag_mode: 'or', action_types: [], status: '', dimensions: [], content_uuids: [], include_disabled: false, sort: 'name' };
}

/** Validation whose 400 also carries `base`, as rejection failures do. */
function validateWithBase<S extends Parameters<typeof validate>[0]>(req: FastifyRequest, schema: S) {
  try {
    return validate(schema, req.params);
  } catch (e) {
    if (e instanceof HttpError) throw new HttpError(e.statusCode, e.message, { ...e.body, base: e.message });
    throw e;
  }
}
