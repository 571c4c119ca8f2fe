import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requirePermission, requireUser } from '../guards';
import { requireCsrfToken } from '../auth/csrf';
import { badRequest, bodyFields, validate } from '../http-errors';
import {
  EVENTS_FILTERS,
  JOBS_EXPORT_NAME,
  JOB_ACTIONS_EXPORT_NAME,
  MAX_IDS,
  MAX_SUMMARY_JOBS,
  csvFilename,
  exportOptionsSchema,
  publishSchema,
  type CsvSeparator,
  type EventsFilter,
  type JobListAnswer,
} from '../../src/api/contracts/jobs';
import { listJobs, parseListQuery, tableHead } from '../jobs/list-query';
import { heldRange, heldRangeText } from '../jobs/held-range';
import { cancelJob, deleteJob, getActionEvents, getActionEvidence, getJob, getStepActions, publishJobs, summaryReport, type EventsKind } from '../jobs/service';
import { checkIds, jobActionsCsv, jobsCsv, type ExportScope } from '../jobs/csv';
import { engineFor } from '../engine/engine';
import { jobAnswersFor } from '../jobs/answers';

/**
 * The jobs calls (jobs-simulations-network-map.md section 7, documented in docs/api.md "Jobs"):
 * list, one job with its steps, the actions of steps, cancel, delete, publish, events of a job action,
 * the Job Summary Report and the CSV exports.
 */

type Query = Record<string, unknown>;

/** A path id ("12" or "12.json"); anything else answers 400. */
function pathId(raw: string | undefined, what = 'Job id'): number {
  const s = (raw ?? '').replace(/\.json$/, '');
  if (!/^\d{1,9}$/.test(s) || Number(s) < 1) throw badRequest(`${what} must be a positive whole number, got "${raw ?? ''}"`);
  return Number(s);
}

/** Ids from `name[]=1&name[]=2`, `name=1,2` or repeated `name=`. */
function queryIds(q: Query, name: string, max: number): number[] {
  const raw = q[`${name}[]`] ?? q[name];
  if (raw === undefined || raw === '') throw badRequest(`${name} is required`);
  const list = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => String(v).split(',')).map((v) => v.trim()).filter(Boolean);
  if (!list.length) throw badRequest(`${name} is required`);
  if (!list.every((v) => /^\d{1,9}$/.test(v) && Number(v) > 0)) throw badRequest(`${name} must hold positive whole numbers`);
  const ids = [...new Set(list.map(Number))];
  if (ids.length > max) throw badRequest(`${name} may hold at most ${max} ids`);
  return ids;
}

function eventsParam(q: Query): EventsFilter | null {
  const v = q.events;
  if (v === undefined || v === '') return null;
  if (typeof v !== 'string' || !(EVENTS_FILTERS as readonly string[]).includes(v)) throw badRequest(`events must be one of ${EVENTS_FILTERS.join(', ')}`);
  return v as EventsFilter;
}


const EXPORT_KEYS = ['separator', 'delivery', 'all_events', 'regex', 'filename'];

interface ExportRequest {
  opts: ReturnType<typeof validate<typeof exportOptionsSchema>>;
  listQuery: Query;
  jobIds: number[] | null;
}

function exportFromBody(body: unknown): ExportRequest {
  const opts = validate(exportOptionsSchema, bodyFields(body));
  const props = opts.props as Query;
  if (props === null || typeof props !== 'object' || Array.isArray(props)) throw badRequest('props must be an object');
  const { job_ids: jobIds, 'job_ids[]': jobIdsBracket, ...listQuery } = props;
  const ids = jobIds ?? jobIdsBracket;
  return { opts, listQuery, jobIds: ids === undefined ? null : checkIds(ids) };
}

function exportFromQuery(q: Query): ExportRequest {
  const optsIn: Query = {};
  const listQuery: Query = {};
  let ids: unknown;
  for (const [k, v] of Object.entries(q)) {
    if (k === 'job_ids' || k === 'job_ids[]') ids = v;
    else if (EXPORT_KEYS.includes(k)) optsIn[k] = v;
    else listQuery[k] = v;
  }
  const opts = validate(exportOptionsSchema, optsIn);
  return { opts, listQuery, jobIds: ids === undefined ? null : checkIds(ids) };
}

async function sendCsv(app: FastifyInstance, reply: FastifyReply, req: ExportRequest, kind: 'jobs' | 'job_actions') {
  const q = parseListQuery(req.listQuery);
  const format = { separator: req.opts.separator as CsvSeparator, quotes: req.opts.regex as 'double' | 'single' };
  let scope: ExportScope;
  if (req.opts.all_events === 'all') scope = { all: true };
  else if (req.jobIds) scope = { ids: req.jobIds };
  else {
    const page: JobListAnswer = await listJobs(app.db, q);
    scope = { ids: (page.jobs ?? page.filtered_jobs ?? []).map((j) => j.id) };
  }
  const filename = csvFilename(req.opts.filename, kind === 'jobs' ? JOBS_EXPORT_NAME : JOB_ACTIONS_EXPORT_NAME);
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_');
  const body = Readable.from(kind === 'jobs' ? jobsCsv(app.db, q, scope, format) : jobActionsCsv(app.db, q, scope, format));
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`)
    .header('cache-control', 'no-store')
    .send(body);
}

/** The query string of a request URL ('' without one): the key of a kept list answer. */
const queryText = (url: string): string => {
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at + 1);
};

const sendJson = (reply: FastifyReply, json: Buffer): FastifyReply => reply.type('application/json; charset=utf-8').send(json);

export async function jobsRoutes(app: FastifyInstance) {
  // List pages, jobs and step actions are kept as sent until the database changes (server/jobs/answers.ts).
  const answers = jobAnswersFor(app.db);

  // The jobs list (results list): one page with totals and keyset cursors. A page filtered by rules is
  // always built (a rule compiler is plugged in at run time and may read more than the jobs tables).
  app.get('/jobs/list_page_data.json', async (req, reply) => {
    requireUser(req);
    const query = req.query as Query;
    // Parsed here only when its filter decides how the call is answered (rules, a date range); else on a miss.
    const q = query.structuredFilter !== undefined || query.filterRange !== undefined ? parseListQuery(query) : null;
    if (q?.filter.rules) return listJobs(app.db, q);
    const head = () => answers.value('head', () => tableHead(app.db));
    const range = q?.filter.range;
    if (!q || !range) return sendJson(reply, await answers.get(`list:${queryText(req.url)}`, () => listJobs(app.db, q ?? parseListQuery(query), head)));
    // A date range is keyed and answered by the jobs it holds (server/jobs/held-range.ts): ranges that
    // hold the same jobs share one kept answer.
    let held: Awaited<ReturnType<typeof heldRange>> | null = null;
    const key = async () => {
      held = await answers.value(`held:${heldRangeText(range)}`, () => heldRange(app.db, range));
      const params = new URLSearchParams(queryText(req.url));
      params.set('filterRange', heldRangeText(held === 'empty' ? range : held));
      return `list:${held === 'empty' ? 'empty:' : ''}${params}`;
    };
    const build = () => listJobs(app.db, held && held !== 'empty' ? { ...q, filter: { ...q.filter, range: held } } : q, head);
    return sendJson(reply, await answers.get(key, build));
  });

  // CSV exports: POST with the export options as JSON (spec), or GET with them in the query.
  app.post('/jobs/list_page_data.csv', async (req, reply) => {
    requireUser(req);
    return sendCsv(app, reply, exportFromBody(req.body), 'jobs');
  });
  app.get('/jobs/list_page_data.csv', async (req, reply) => {
    requireUser(req);
    return sendCsv(app, reply, exportFromQuery(req.query as Query), 'jobs');
  });
  app.post('/jobs/job_actions_data.csv', async (req, reply) => {
    requireUser(req);
    return sendCsv(app, reply, exportFromBody(req.body), 'job_actions');
  });
  app.get('/jobs/job_actions_data.csv', async (req, reply) => {
    requireUser(req);
    return sendCsv(app, reply, exportFromQuery(req.query as Query), 'job_actions');
  });

  // The actions of expanded steps, keyed by step id.
  const stepActions = async (req: FastifyRequest, reply: FastifyReply) => {
    requireUser(req);
    const q = req.query as Query;
    const ids = queryIds(q, 'job_step_ids', MAX_IDS);
    const events = eventsParam(q);
    return sendJson(reply, await answers.get(`actions:${events ?? ''}:${ids.join(',')}`, () => getStepActions(app.db, ids, events)));
  };
  app.get('/jobs/list_page_job_actions', stepActions);
  app.get('/jobs/list_page_job_actions.json', stepActions);

  // Publish (ours to define, see docs/api.md): finished jobs to a pipeline.
  app.post('/jobs/publish.json', async (req) => {
    requirePermission(req, 'jobs.publish');
    const input = validate(publishSchema, bodyFields(req.body));
    return { ...(await publishJobs(app.db, input.job_ids, input.pipeline)), multisite_reporting: input.multisite_reporting };
  });

  // Events of one job action: detected (default), suspicious or all.
  app.get('/jobs/job_actions/:id/events.json', async (req) => {
    requirePermission(req, 'integrationEvents.all');
    const id = pathId((req.params as { id?: string }).id, 'Job action id');
    const kind = (req.query as Query).kind ?? 'detected';
    if (kind !== 'detected' && kind !== 'suspicious' && kind !== 'all') throw badRequest('kind must be detected, suspicious or all');
    return getActionEvents(app.db, id, kind as EventsKind);
  });

  // A job action's evidence: reason, stored result, each actor's work (output, timings) and, with the permission, its events.
  app.get('/jobs/job_actions/:id/evidence.json', async (req) => {
    const session = requireUser(req);
    const id = pathId((req.params as { id?: string }).id, 'Job action id');
    return getActionEvidence(app.db, id, session.user.permissions.includes('integrationEvents.all'));
  });

  app.get('/reports/summary.json', async (req) => {
    requireUser(req);
    return summaryReport(app.db, queryIds(req.query as Query, 'job_ids', MAX_SUMMARY_JOBS));
  });

  // One job with its steps (the actions of a step come from list_page_job_actions).
  app.get('/jobs/:id', async (req, reply) => {
    requireUser(req);
    const id = pathId((req.params as { id?: string }).id);
    return sendJson(reply, await answers.get(`job:${id}`, () => getJob(app.db, id)));
  });

  // Cancel is a GET in the spec; it changes state, so it still needs the session's CSRF token.
  app.get('/jobs/:id/cancel.json', async (req) => {
    const session = requirePermission(req, 'jobs.cancel');
    requireCsrfToken(req.headers['x-csrf-token'], session.csrfToken);
    const id = pathId((req.params as { id?: string }).id);
    const by = `${session.user.first_name} ${session.user.last_name}`.trim() || session.user.email;
    const answer = await cancelJob(app.db, id, by);
    // Its actors hear at once that their work ended (the engine's timer would find it within a second).
    engineFor(app.db).kick([id]);
    return answer;
  });

  app.delete('/jobs/:id', async (req) => {
    requirePermission(req, 'jobs.destroy');
    const id = pathId((req.params as { id?: string }).id);
    await deleteJob(app.db, id);
    return { id, deleted: true };
  });
}
