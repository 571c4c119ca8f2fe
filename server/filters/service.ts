/**
 * The filters' data (routes/filters.ts): the page-filter source, the dimension children of the
 * default dimension types, and each user's saved filters (saving under an existing name replaces it).
 */
import type { Db } from '../db/index';
import { HttpError, badRequest, notFound } from '../http-errors';
import { parseRules } from './compile';
import { DEFAULT_DIMENSION_TYPES, FilterTreeError, parsePageValues, type DimensionChildren, type PageFilterData, type SavedFilter } from '../../src/api/contracts/filters';
import { ACTION_TYPES, ACTION_TYPE_LABELS, JOB_STATUSES } from '../../src/api/contracts/vocabulary';
import { statusLabel } from '../../src/api/contracts/jobs';

const SELECT = `select id, target, name, filter, to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as updated_at from saved_filters`;

type Target = SavedFilter['target'];

/** The page filter's source: statuses, action types, who ran jobs, the time zone, the root dimensions. */
export async function pageFilterData(db: Db): Promise<PageFilterData> {
  const users = await db.query<{ n: string }>("select distinct vigil_job_ran_by(id) as n from users union select 'Scheduled Process' order by 1 limit 500");
  const roots = await db.query<{ id: number; type: string }>('select id, type from dimensions where parent_id is null and type = any($1::text[]) order by type', [
    DEFAULT_DIMENSION_TYPES.map((d) => d.type),
  ]);
  return {
    objects: {
      job_statuses: JOB_STATUSES.map((s) => [s, statusLabel(s)]),
      action_types: ACTION_TYPES.map((t) => [t, ACTION_TYPE_LABELS[t]]),
      users: users.map((u) => [u.n, u.n]),
    },
    timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    timezone_offset: -new Date().getTimezoneOffset(),
    root_dimensions: DEFAULT_DIMENSION_TYPES.flatMap((d) => roots.filter((r) => r.type === d.type).map((r): [number, string] => [r.id, d.label])),
  };
}

/** Every node below the root of a default dimension type (by its label), depth first; deeper nodes are labelled with their path. */
export async function dimensionChildren(db: Db, typeLabel: string): Promise<DimensionChildren> {
  const type = DEFAULT_DIMENSION_TYPES.find((d) => d.label === typeLabel)!.type;
  const rows = await db.query<{ id: number; label: string }>(
    `with recursive t(id, label, path) as (
       select d.id, d.name, array[d.position, d.id] from dimensions d join dimensions r on r.id = d.parent_id and r.parent_id is null where d.type = $1
       union all
       select d.id, t.label || ' / ' || d.name, t.path || array[d.position, d.id] from dimensions d join t on d.parent_id = t.id)
     select id, label from t order by path`,
    [type],
  );
  return rows.map((r) => [r.label, r.id]);
}

/** A saved filter as stored: its rules (checked for the target) and page values. */
function checkFilter(target: Target, filter: { rules?: unknown; page?: unknown }) {
  const rules = Array.isArray(filter.rules) ? filter.rules : [];
  if (rules.length) parseRules(target, rules);
  try {
    return { rules, page: parsePageValues(filter.page ?? {}) };
  } catch (e) {
    if (e instanceof FilterTreeError) throw badRequest(`filter.${e.message}`);
    throw e;
  }
}

/** One of the user's saved filters; 404 for another user's. */
async function mine(db: Db, id: number, userId: number): Promise<SavedFilter> {
  const [row] = await db.query<SavedFilter>(`${SELECT} where id = $1 and user_id = $2`, [id, userId]);
  if (!row) throw notFound(`Filter ${id} does not exist.`);
  return row;
}

export function listSavedFilters(db: Db, userId: number, target: Target | null): Promise<SavedFilter[]> {
  return db.query<SavedFilter>(`${SELECT} where user_id = $1 and ($2::text is null or target = $2) order by lower(name), id`, [userId, target]);
}

const isUnique = (e: unknown) => typeof e === 'object' && e !== null && (e as { code?: string }).code === '23505';

/** Saves a filter; saving under an existing name replaces that filter. */
export async function saveFilter(db: Db, userId: number, input: { target: Target; name: string; filter: { rules?: unknown; page?: unknown } }): Promise<SavedFilter> {
  const filter = checkFilter(input.target, input.filter);
  try {
    const [row] = await db.query<{ id: number }>(
      `insert into saved_filters (user_id, target, name, filter) values ($1, $2, $3, $4::jsonb)
       on conflict (user_id, target, name) do update set filter = excluded.filter, updated_at = now() returning id`,
      [userId, input.target, input.name, JSON.stringify(filter)],
    );
    return await mine(db, row!.id, userId);
  } catch (e) {
    if (isUnique(e)) throw new HttpError(409, `You already have a filter named "${input.name}".`, { errors: { name: ['is already taken'] } });
    throw e;
  }
}

export async function deleteSavedFilter(db: Db, userId: number, id: number): Promise<{ id: number; deleted: true }> {
  const row = await mine(db, id, userId);
  await db.query('delete from saved_filters where id = $1', [row.id]);
  return { id: row.id, deleted: true };
}
