import type { FastifyInstance } from 'fastify';
import { requireUser } from '../guards';
import { HttpError, badRequest, bodyFields, notFound, validate } from '../http-errors';
import { setJobRuleCompiler } from '../jobs/rule-filter';
import { compileJobRules, parseRules } from '../filters/compile';
import { lookup } from '../filters/lookup';
import {
  DEFAULT_DIMENSION_TYPES,
  FILTER_CONFIGS,
  FILTER_SRC,
  FilterTreeError,
  anyField,
  dimensionChildrenQuerySchema,
  lookupQuerySchema,
  pageFilterDataQuerySchema,
  parsePageValues,
  savedFilterInputSchema,
  savedFilterListQuerySchema,
  type DimensionChildren,
  type LookupAnswer,
  type PageFilterData,
  type SavedFilter,
} from '../../src/api/contracts/filters';
import { ACTION_TYPES, ACTION_TYPE_LABELS, JOB_STATUSES } from '../../src/api/contracts/vocabulary';

const SELECT = `select id, target, name, filter, to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as updated_at from saved_filters`;

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
    const users = await app.db.query<{ n: string }>("select distinct vigil_job_ran_by(id) as n from users union select 'Scheduled Process' order by 1 limit 500");
    const roots = await app.db.query<{ id: number; type: string }>('select id, type from dimensions where parent_id is null and type = any($1::text[]) order by type', [
      DEFAULT_DIMENSION_TYPES.map((d) => d.type),
    ]);
    const offset = -new Date().getTimezoneOffset();
    return {
      objects: {
        job_statuses: JOB_STATUSES.map((s) => [s, s]),
        action_types: ACTION_TYPES.map((t) => [t, ACTION_TYPE_LABELS[t]]),
        users: users.map((u) => [u.n, u.n]),
      },
      timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      timezone_offset: offset,
      root_dimensions: DEFAULT_DIMENSION_TYPES.flatMap((d) => roots.filter((r) => r.type === d.type).map((r): [number, string] => [r.id, d.label])),
    };
  });

  app.get('/reports/dimension_children.json', async (req): Promise<DimensionChildren> => {
    requireUser(req);
    const q = validate(dimensionChildrenQuerySchema, req.query);
    const type = DEFAULT_DIMENSION_TYPES.find((d) => d.label === q.type)!.type;
    // Every node below the root, depth first; deeper nodes are labelled with their path.
    const rows = await app.db.query<{ id: number; label: string }>(
      `with recursive t(id, label, path) as (
         select d.id, d.name, array[d.position, d.id] from dimensions d join dimensions r on r.id = d.parent_id and r.parent_id is null where d.type = $1
         union all
         select d.id, t.label || ' / ' || d.name, t.path || array[d.position, d.id] from dimensions d join t on d.parent_id = t.id)
       select id, label from t order by path`,
      [type],
    );
    return rows.map((r) => [r.label, r.id]);
  });

  // ---- saved filters --------------------------------------------------------------------------
  const checkFilter = (target: 'jobs' | 'actions', filter: { rules?: unknown; page?: unknown }) => {
    const rules = Array.isArray(filter.rules) ? filter.rules : [];
    if (rules.length) parseRules(target, rules);
    try {
      return { rules, page: parsePageValues(filter.page ?? {}) };
    } catch (e) {
      if (e instanceof FilterTreeError) throw badRequest(`filter.${e.message}`);
      throw e;
    }
  };
  const mine = async (id: number, userId: number) => {
    const [row] = await app.db.query<SavedFilter>(`${SELECT} where id = $1 and user_id = $2`, [id, userId]);
    if (!row) throw notFound(`Filter ${id} does not exist.`);
    return row;
  };
  const taken = (name: string) => new HttpError(409, `You already have a filter named "${name}".`, { errors: { name: ['is already taken'] } });
  const isUnique = (e: unknown) => typeof e === 'object' && e !== null && (e as { code?: string }).code === '23505';

  app.get('/filters/saved.json', async (req) => {
    const session = requireUser(req);
    const q = validate(savedFilterListQuerySchema, req.query);
    const rows = await app.db.query<SavedFilter>(`${SELECT} where user_id = $1 and ($2::text is null or target = $2) order by lower(name), id`, [session.user.id, q.target ?? null]);
    return { data: rows };
  });

  app.post('/filters/saved.json', async (req, reply) => {
    const session = requireUser(req);
    const input = validate(savedFilterInputSchema, bodyFields(req.body));
    const filter = checkFilter(input.target, input.filter);
    try {
      // Saving under an existing name replaces that filter.
      const [row] = await app.db.query<{ id: number }>(
        `insert into saved_filters (user_id, target, name, filter) values ($1, $2, $3, $4::jsonb)
         on conflict (user_id, target, name) do update set filter = excluded.filter, updated_at = now() returning id`,
        [session.user.id, input.target, input.name, JSON.stringify(filter)],
      );
      return reply.status(201).send({ data: await mine(row!.id, session.user.id) });
    } catch (e) {
      if (isUnique(e)) throw taken(input.name);
      throw e;
    }
  });

  app.delete<{ Params: { id: string } }>('/filters/saved/:id.json', async (req) => {
    const session = requireUser(req);
    const row = await mine(parseId(req.params.id), session.user.id);
    await app.db.query('delete from saved_filters where id = $1', [row.id]);
    return { data: { id: row.id, deleted: true } };
  });
}
