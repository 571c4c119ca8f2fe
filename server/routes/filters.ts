import type { FastifyInstance } from 'fastify';
import { requireUser } from '../guards';
import { badRequest, bodyFields, notFound, validate } from '../http-errors';
import { setJobRuleCompiler } from '../jobs/rule-filter';
import { compileJobRules } from '../filters/compile';
import { lookup } from '../filters/lookup';
import { deleteSavedFilter, dimensionChildren, listSavedFilters, pageFilterData, saveFilter } from '../filters/service';
import {
  FILTER_CONFIGS,
  FILTER_SRC,
  anyField,
  dimensionChildrenQuerySchema,
  lookupQuerySchema,
  pageFilterDataQuerySchema,
  savedFilterInputSchema,
  savedFilterListQuerySchema,
  type DimensionChildren,
  type LookupAnswer,
  type PageFilterData,
} from '../../src/api/contracts/filters';

function parseId(raw: string): number {
  if (!/^\d{1,9}$/.test(raw) || Number(raw) === 0) throw badRequest(`"${raw.slice(0, 20)}" is not a filter id.`);
  return Number(raw);
}

/**
 * Filters (jobs-simulations-network-map.md section 7): typeahead lookups, the page-filter source, the
 * dimension children of the three default dimension types, the builder's config, and each user's saved
 * filters. Registering this module installs the jobs list's rule compiler.
 */
export async function filtersRoutes(app: FastifyInstance) {
  setJobRuleCompiler(compileJobRules);

  app.get('/filters/config.json', async (req) => {
    requireUser(req);
    const q = validate(pageFilterDataQuerySchema, req.query);
    return { data: FILTER_CONFIGS[q.target] };
  });

  app.get<{ Params: { matchObject: string; matchField: string } }>('/lookup/:matchObject/:matchField', async (req): Promise<LookupAnswer> => {
    requireUser(req);
    const { matchObject, matchField } = req.params;
    const field = anyField(matchObject, matchField);
    if (!field) throw notFound(`There is no filter field ${matchObject.slice(0, 40)}.${matchField.slice(0, 40)}.`);
    const q = validate(lookupQuerySchema, req.query);
    return { data: await lookup(app.db, matchObject, field, q.q.trim().toLowerCase(), q.limit) };
  });

  app.get(FILTER_SRC, async (req): Promise<PageFilterData> => {
    requireUser(req);
    validate(pageFilterDataQuerySchema, req.query);
    return pageFilterData(app.db);
  });

  app.get('/reports/dimension_children.json', async (req): Promise<DimensionChildren> => {
    requireUser(req);
    const q = validate(dimensionChildrenQuerySchema, req.query);
    return dimensionChildren(app.db, q.type);
  });

  // ---- saved filters --------------------------------------------------------------------------
  app.get('/filters/saved.json', async (req) => {
    const session = requireUser(req);
    const q = validate(savedFilterListQuerySchema, req.query);
    return { data: await listSavedFilters(app.db, session.user.id, q.target ?? null) };
  });

  app.post('/filters/saved.json', async (req, reply) => {
    const session = requireUser(req);
    const input = validate(savedFilterInputSchema, bodyFields(req.body));
    return reply.status(201).send({ data: await saveFilter(app.db, session.user.id, input) });
  });

  app.delete<{ Params: { id: string } }>('/filters/saved/:id.json', async (req) => {
    const session = requireUser(req);
    return { data: await deleteSavedFilter(app.db, session.user.id, parseId(req.params.id)) };
  });
}
