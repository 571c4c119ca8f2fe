import fs from 'node:fs';
import type * as yup from 'yup';
import { SESSION_COOKIE } from '../auth/sessions';
import { contentServiceSchema } from '../routes/settings';
import { filtersQuerySchema, latestJobsQuerySchema, simulationFiltersQuerySchema } from '../routes/library';
import { taskResultSchema } from '../../src/api/contracts/actor-dependencies';
import { heartbeatSchema, pollSchema, readySchema, registerSchema, resultSchema, runSchema, targetEvidenceSchema } from '../../src/api/contracts/engine';
import { passwordChangeSchema, signInSchema, userCreateSchema, userUpdateSchema } from '../../src/api/contracts/session';
import { searchQuerySchema } from '../../src/api/contracts/search';
import { bulkTokenCreateSchema } from '../../src/api/contracts/actors';
import { dimensionChildrenQuerySchema, lookupQuerySchema, pageFilterDataQuerySchema } from '../../src/api/contracts/filters/page-filters';
import { savedFilterInputSchema, savedFilterListQuerySchema } from '../../src/api/contracts/filters/saved';
import { threatIntelCreateSchema, threatIntelNewQuerySchema, threatIntelUpdateSchema } from '../../src/api/contracts/threat-intel';
import { createIntegrationSchema, integrationNewQuerySchema, integrationsListQuerySchema } from '../../src/api/contracts/integrations';
import { siteBannerSchema } from '../../src/api/contracts/site-banner';
import { exportOptionsSchema, jobListQuerySchema, publishSchema } from '../../src/api/contracts/jobs';
import {
  approveQuerySchema,
  detailQuerySchema,
  legacyListQuerySchema,
  libraryListQuerySchema,
  previewQuerySchema,
  quickActionIdsSchema,
  simulationListQuerySchema,
  treeFilterSchema,
  updateFromLibrarySchema,
} from '../../src/api/contracts/library/requests';
import { expectedEventsQuerySchema, listQuerySchema, monitorBodySchema, runsQuerySchema } from '../../src/api/contracts/monitors';
import { nodeUpdateSchema } from '../../src/api/contracts/node-edit';
import { destroyConversationsSchema, packetsQuerySchema } from '../../src/api/contracts/pcap';
import { dashboardPatchSchema, dashboardSharesSchema, dashboardWriteSchema, panelsRequestSchema } from '../../src/api/contracts/report-requests';
import { runAsProfileCreateSchema, runAsProfileUpdateSchema } from '../../src/api/contracts/run-as-profiles';
import { scriptRunFinishSchema, scriptRunSchema, scriptSaveSchema } from '../../src/api/contracts/scripts';
import { createSimulationBodySchema, editSimulationBodySchema } from '../../src/api/contracts/simulation-draft';
import { simulationPreviewQuerySchema, vidAndIdBodySchema } from '../../src/api/contracts/simulations';
import { tagChangeSchema, tagOptionsQuerySchema } from '../../src/api/contracts/tags';
import { layoutSchema } from '../../src/api/contracts/topology';
import { labSetupSchema } from '../../src/api/contracts/lab';
import { fileUploadFieldsSchema } from '../../src/api/contracts/action-form';
import { SUMMARIES } from './summaries';
import { jsonSchemaOf, type JsonSchema } from './yup-json-schema';
import { answerContent } from './content';

type Schema = yup.AnySchema;

/** What a call reads besides its path: the yup schemas its route validates the body and the query with. */
interface Inputs {
  body?: Schema;
  /** The body is multipart form data with these text fields (and files). */
  multipart?: Schema | true;
  query?: Schema;
}

/**
 * The request schemas of the calls, keyed `METHOD /path` as registered: the very schemas the routes
 * (or the services they call) pass to `validate`. Calls absent here read no body or query, or read
 * them field by field (their 400 answers still name the field).
 */
const INPUTS: Record<string, Inputs> = {
  'POST /users/sign_in.json': { body: signInSchema },
  'POST /users/password.json': { body: passwordChangeSchema },
  'GET /search.json': { query: searchQuerySchema },
  'PUT /scripts/:id/runs/:runId.json': { body: scriptRunFinishSchema },
  'PUT /settings/content_service.json': { body: contentServiceSchema },
  'PUT /settings/site_banner.json': { body: siteBannerSchema },
  'POST /admin/users.json': { body: userCreateSchema },
  'PATCH /admin/users/:id.json': { body: userUpdateSchema },
  'GET /jobs/list_page_data.json': { query: jobListQuerySchema },
  'POST /jobs/list_page_data.csv': { body: exportOptionsSchema },
  'POST /jobs/job_actions_data.csv': { body: exportOptionsSchema },
  'POST /jobs/publish.json': { body: publishSchema },
  'POST /api/actor/register': { body: registerSchema },
  'POST /api/actor/heartbeat': { body: heartbeatSchema },
  'POST /api/actor/poll': { body: pollSchema },
  'POST /api/actor/work/:id/ready': { body: readySchema },
  'POST /api/actor/work/:id/evidence': { body: targetEvidenceSchema },
  'POST /api/actor/work/:id/result': { body: resultSchema },
  'POST /api/actor/tasks/:id/result': { body: taskResultSchema },
  'POST /api/actor/work/:id/files/:fileId': { body: heartbeatSchema },
  'POST /bulk_tokens.json': { body: bulkTokenCreateSchema },
  'POST /run/actions/:id.json': { body: runSchema },
  'POST /run/sequences/:id.json': { body: runSchema },
  'POST /run/evaluations/:id.json': { body: runSchema },
  'POST /integrations.json': { body: createIntegrationSchema },
  'GET /integrations.json': { query: integrationsListQuerySchema },
  'GET /integrations/new.js': { query: integrationNewQuerySchema },
  'POST /lab/setups.json': { body: labSetupSchema },
  'POST /manage_sims/file_transfer_libraries.json': { multipart: fileUploadFieldsSchema },
  'GET /manage_sims/v2/actions/library_actions_list': { query: libraryListQuerySchema },
  'GET /v2/simulations/library_simulations_list': { query: simulationListQuerySchema },
  'GET /manage_sims/v2/actions/filters': { query: filtersQuerySchema },
  'GET /v2/simulations/filters': { query: simulationFiltersQuerySchema },
  'GET /manage_sims/library_actions_list.json': { query: legacyListQuerySchema },
  'POST /manage_sims/library_actions_filter.json': { body: treeFilterSchema },
  'POST /manage_sims/quick_action_ids.json': { body: quickActionIdsSchema },
  'GET /manage_sims/v2/actions/detail.json': { query: detailQuerySchema },
  'GET /manage_sims/v2/actions/latest_jobs.json': { query: latestJobsQuerySchema },
  'GET /library/actions.json': { query: previewQuerySchema },
  'POST /manage_sims/actions/update_from_library.json': { body: updateFromLibrarySchema },
  'PUT /manage_sims/actions/:id/approve': { query: approveQuerySchema },
  'POST /scripts.json': { body: scriptSaveSchema },
  'PUT /scripts/:id.json': { body: scriptSaveSchema },
  'POST /scripts/:id/runs.json': { body: scriptRunSchema },
  'GET /manage_sims/pcaps/:id/packets.json': { query: packetsQuerySchema },
  'POST /manage_sims/upload/upload_pcap_file': { multipart: true },
  'POST /manage_sims/upload/destroy_conversations': { body: destroyConversationsSchema },
  'GET /filters/config.json': { query: pageFilterDataQuerySchema },
  'GET /lookup/:matchObject/:matchField': { query: lookupQuerySchema },
  'GET /filters/page_filter_data.json': { query: pageFilterDataQuerySchema },
  'GET /reports/dimension_children.json': { query: dimensionChildrenQuerySchema },
  'GET /filters/saved.json': { query: savedFilterListQuerySchema },
  'POST /filters/saved.json': { body: savedFilterInputSchema },
  'PUT /topology/layout.json': { body: layoutSchema },
  'GET /library/simulations.json': { query: simulationPreviewQuerySchema },
  'POST /simulations/vid_and_id': { body: vidAndIdBodySchema },
  'POST /manage_sims/actions/vid_and_id': { body: vidAndIdBodySchema },
  'POST /simulations.json': { body: createSimulationBodySchema },
  'PUT /simulations/:id.json': { body: editSimulationBodySchema },
  'POST /simulations/:id/clone.json': { body: editSimulationBodySchema },
  'POST /reports/panels.json': { body: panelsRequestSchema },
  'POST /reports/:source': { body: exportOptionsSchema },
  'POST /dashboards.json': { body: dashboardWriteSchema },
  'PATCH /dashboards/:id': { body: dashboardPatchSchema },
  'PUT /dashboards/:id/shares.json': { body: dashboardSharesSchema },
  'GET /monitors.json': { query: listQuerySchema },
  'GET /monitors/expected_events.json': { query: expectedEventsQuerySchema },
  'GET /monitors/:id/runs.json': { query: runsQuerySchema },
  'POST /monitors.json': { body: monitorBodySchema },
  'PUT /monitors/:id': { body: monitorBodySchema },
  'POST /action_user_profiles.json': { body: runAsProfileCreateSchema },
  'PATCH /action_user_profiles/:id.json': { body: runAsProfileUpdateSchema },
  'GET /threat_intel_integrations/new.js': { query: threatIntelNewQuerySchema },
  'POST /threat_intel_integrations.json': { body: threatIntelCreateSchema },
  'PATCH /threat_intel_integrations/:id.json': { body: threatIntelUpdateSchema },
  'PATCH /topology/nodes/:id.json': { body: nodeUpdateSchema },
  'GET /tags/options.json': { query: tagOptionsQuerySchema },
  'POST /tags/:taggable/:id/add.json': { body: tagChangeSchema },
  'POST /tags/:taggable/:id/remove.json': { body: tagChangeSchema },
};

/** `METHOD /path` -> summary, from summaries.ts. */
function summaries(): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of SUMMARIES.split('\n')) {
    const m = /^(\w+) (\S+) \| (.+)$/.exec(line.trim());
    if (m) out.set(`${m[1]} ${m[2]}`, m[3] ?? '');
  }
  return out;
}

/** Every answer that is not a success: `{ error }`, with per-field messages for invalid input and the request id of a 5xx. */
const ERROR_ANSWER: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: { type: 'string', description: 'What went wrong, for people.' },
    errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } }, description: 'Messages per invalid field.' },
    request_id: { type: 'string', description: 'The id the director logged a 5xx under.' },
  },
};

type Auth = 'none' | 'session' | 'actor' | 'integration';
function authOf(url: string): Auth {
  if (url === '/users/sign_in.json' || url === '/users/session.json' || url === '/' || url === '/api/openapi.json' || url === '/api/actor/register') return 'none';
  if (url.startsWith('/api/actor/')) return 'actor';
  if (url === '/integrations/:id/events') return 'integration';
  // Signing out without a session is harmless and needs neither session nor token.
  return url === '/users/sign_out' ? 'none' : 'session';
}

const SECURITY: Record<Auth, Record<string, string[]>[]> = {
  none: [],
  session: [{ session: [] }],
  actor: [{ actorToken: [] }],
  integration: [{ integrationToken: [] }, { integrationTokenHeader: [] }],
};

/**
 * The successful answers' schemas (answers.json, generated by scripts/openapi-answers.ts from the
 * TypeScript types the workbench's typed client reads each call's answer as; `npm run lint` fails when
 * it is stale): `METHOD /path` -> schema, and the named schemas they refer to.
 */
interface Answers {
  answers: Record<string, JsonSchema>;
  schemas: Record<string, JsonSchema>;
}
let answersFile: Answers | undefined;
const answers = (): Answers => (answersFile ??= JSON.parse(fs.readFileSync(new URL('./answers.json', import.meta.url), 'utf8')) as Answers);

/** A call's success content: its answer's schema when the client's types give one, else the content type alone. */
function successContent(key: string, url: string): Record<string, { schema: JsonSchema }> {
  const content = answerContent(url);
  const schema = answers().answers[key];
  return schema && content['application/json'] ? { 'application/json': { schema } } : content;
}

/** Converts `:id` to `{id}` and `:id.json` to `{id}.json`. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');

const queryParameters = (schema: Schema) => {
  const s = jsonSchemaOf(schema);
  const props = (s.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((s.required ?? []) as string[]);
  return Object.entries(props).map(([name, p]) => ({ name, in: 'query', required: required.has(name), schema: p }));
};

/**
 * The OpenAPI 3.1 document of the director's registered routes: paths and path parameters from
 * Fastify's route list, summaries from summaries.ts, request bodies and query parameters from the yup
 * schemas the routes validate with, security (session cookie and CSRF header, actor and integration
 * bearer tokens) from the director's rules, and the error answer every call shares.
 */
/** The OpenAPI 3.1 document's top level (GET /api/openapi.json). */
export interface OpenApiDescription {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  jsonSchemaDialect: string;
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, Record<string, unknown>>; securitySchemes: Record<string, Record<string, unknown>> };
}

export function openApiDocument(routes: { method: string; url: string }[], version: string): OpenApiDescription {
  const sums = summaries();
  const paths: Record<string, Record<string, Record<string, unknown>>> = {};
  for (const { method, url } of routes) {
    const key = `${method} ${url}`;
    const auth = authOf(url);
    const inputs = INPUTS[key] ?? {};
    const params = [...url.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    const csrf = auth === 'session' && method !== 'GET';
    const op: Record<string, unknown> = {
      operationId: `${method.toLowerCase()}${url.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      summary: sums.get(key) ?? '',
      tags: [url.split('/').filter(Boolean)[0]?.replace(/\..*$/, '') || 'workbench'],
      parameters: [
        ...params,
        ...(inputs.query ? queryParameters(inputs.query) : []),
        ...(csrf ? [{ name: 'X-CSRF-Token', in: 'header', required: true, description: "The session's CSRF token (or the form field authenticity_token).", schema: { type: 'string' } }] : []),
      ],
      security: SECURITY[auth],
      responses: {
        '200': { description: 'Success (201 for a creation).', content: successContent(key, url) },
        '4XX': { description: 'Refused: 400 invalid input, 401 not signed in, 403 not allowed or no CSRF token, 404 unknown, 409 a state that does not allow the call, 413 too large, 429 too many attempts.', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorAnswer' } } } },
        '5XX': { description: 'An internal error, logged with the request id.', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorAnswer' } } } },
      },
    };
    if (inputs.body) op.requestBody = { required: true, content: { 'application/json': { schema: jsonSchemaOf(inputs.body) }, 'application/x-www-form-urlencoded': { schema: jsonSchemaOf(inputs.body) } } };
    if (inputs.multipart) {
      const fields = inputs.multipart === true ? { type: 'object' } : jsonSchemaOf(inputs.multipart);
      op.requestBody = { required: true, content: { 'multipart/form-data': { schema: { ...fields, properties: { ...((fields.properties as object | undefined) ?? {}), file: { type: 'string', contentMediaType: 'application/octet-stream' } } } } } };
    }
    (paths[openApiPath(url)] ??= {})[method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Vigil director', version, description: 'The calls of the Vigil director (docs/api.md describes them in prose). Generated from the registered routes and the yup schemas they validate with.' },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    paths,
    components: {
      schemas: { ...answers().schemas, ErrorAnswer: ERROR_ANSWER },
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'The session cookie set by POST /users/sign_in.json.' },
        actorToken: { type: 'http', scheme: 'bearer', description: "An actor's own token (from POST /api/actor/register)." },
        integrationToken: { type: 'http', scheme: 'bearer', description: "An integration's event token." },
        integrationTokenHeader: { type: 'apiKey', in: 'header', name: 'X-Integration-Token', description: "An integration's event token." },
      },
    },
  };
}
