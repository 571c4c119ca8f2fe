import type { Db } from '../db/index';
import { badRequest, forbidden, notFound } from '../http-errors';
import { iso } from '../jobs/list-query';
import type { Dashboard, DashboardPanel, DashboardSummary, ShareableUser } from '../../src/api/contracts/reports';
import type { DashboardWrite } from '../../src/api/contracts/report-requests';
import type { TimeRangeConfig } from '../../src/api/contracts/time-range';

/**
 * Dashboards saved on the director per user (docs/api.md "Dashboards"). The owner reads and changes
 * one; users it is shared with read it (and may duplicate it into their own). Anyone else gets 404, so
 * ids of other users' dashboards are not confirmed.
 */

interface Row {
  id: number;
  user_id: number;
  owner_name: string;
  name: string;
  time_range: TimeRangeConfig | string;
  panels: DashboardPanel[] | string;
  updated_at: Date | string;
  shared: { id: number; name: string }[] | string | null;
}

const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

const SELECT = `select d.id, d.user_id, vigil_job_ran_by(d.user_id) as owner_name, d.name, d.time_range, d.panels, d.updated_at,
  (select coalesce(json_agg(json_build_object('id', s.user_id, 'name', vigil_job_ran_by(s.user_id)) order by s.user_id), '[]'::json)
   from dashboard_shares s where s.dashboard_id = d.id) as shared
  from dashboards d`;

function summary(r: Row, userId: number): DashboardSummary {
  return {
    id: r.id,
    name: r.name,
    owner: { id: r.user_id, name: r.owner_name },
    editable: r.user_id === userId,
    shared_with: json(r.shared ?? '[]'),
    panel_count: json(r.panels).length,
    updated_at: iso(r.updated_at) ?? '',
  };
}

const full = (r: Row, userId: number): Dashboard => ({ ...summary(r, userId), time_range: json(r.time_range), panels: json(r.panels) });

/** The user's own dashboards and those shared with them, by name. */
export async function listDashboards(db: Db, userId: number): Promise<DashboardSummary[]> {
  const rows = await db.query<Row>(
    `${SELECT} where d.user_id = $1 or exists (select 1 from dashboard_shares s where s.dashboard_id = d.id and s.user_id = $1)
     order by lower(d.name), d.id`,
    [userId],
  );
  return rows.map((r) => summary(r, userId));
}

async function readable(db: Db, id: number, userId: number): Promise<Row> {
  const [row] = await db.query<Row>(
    `${SELECT} where d.id = $1 and (d.user_id = $2 or exists (select 1 from dashboard_shares s where s.dashboard_id = d.id and s.user_id = $2))`,
    [id, userId],
  );
  if (!row) throw notFound(`Dashboard ${id} was not found.`);
  return row;
}

async function owned(db: Db, id: number, userId: number): Promise<Row> {
  const row = await readable(db, id, userId);
  if (row.user_id !== userId) throw forbidden(`Dashboard ${id} belongs to ${row.owner_name}; duplicate it to change a copy of your own.`);
  return row;
}

export async function getDashboard(db: Db, id: number, userId: number): Promise<Dashboard> {
  return full(await readable(db, id, userId), userId);
}

export async function createDashboard(db: Db, userId: number, d: DashboardWrite): Promise<Dashboard> {
  const [row] = await db.query<{ id: number }>('insert into dashboards (user_id, name, time_range, panels) values ($1, $2, $3::jsonb, $4::jsonb) returning id', [
    userId,
    d.name,
    JSON.stringify(d.time_range),
    JSON.stringify(d.panels),
  ]);
  return getDashboard(db, row!.id, userId);
}

export async function updateDashboard(db: Db, id: number, userId: number, patch: Partial<DashboardWrite>): Promise<Dashboard> {
  await owned(db, id, userId);
  const sets: string[] = [];
  const values: unknown[] = [id];
  const add = (col: string, v: unknown, cast = '') => {
    values.push(v);
    sets.push(`${col} = $${values.length}${cast}`);
  };
  if (patch.name !== undefined) add('name', patch.name);
  if (patch.time_range !== undefined) add('time_range', JSON.stringify(patch.time_range), '::jsonb');
  if (patch.panels !== undefined) add('panels', JSON.stringify(patch.panels), '::jsonb');
  if (!sets.length) throw badRequest('Nothing to change: give name, time_range or panels.');
  await db.query(`update dashboards set ${sets.join(', ')}, updated_at = now() where id = $1`, values);
  return getDashboard(db, id, userId);
}

/** A copy owned by the caller (of their own dashboard or one shared with them), named '{name} (copy)'. */
export async function duplicateDashboard(db: Db, id: number, userId: number, name?: string): Promise<Dashboard> {
  const src = full(await readable(db, id, userId), userId);
  return createDashboard(db, userId, { name: name?.trim() || `${src.name} (copy)`.slice(0, 120), time_range: src.time_range, panels: src.panels });
}

export async function deleteDashboard(db: Db, id: number, userId: number): Promise<{ id: number }> {
  await owned(db, id, userId);
  await db.query('delete from dashboards where id = $1', [id]);
  return { id };
}

/** Replaces the users a dashboard is shared with. */
export async function shareDashboard(db: Db, id: number, userId: number, userIds: readonly number[]): Promise<Dashboard> {
  await owned(db, id, userId);
  const ids = [...new Set(userIds)].filter((u) => u !== userId);
  const found = await db.query<{ id: number }>('select id from users where id = any($1::int[])', [ids]);
  if (found.length !== ids.length) {
    const known = new Set(found.map((f) => f.id));
    throw badRequest(`Unknown user ids: ${ids.filter((u) => !known.has(u)).join(', ')}`);
  }
  await db.transaction(async (tx) => {
    await tx.query('delete from dashboard_shares where dashboard_id = $1', [id]);
    if (ids.length) await tx.query('insert into dashboard_shares (dashboard_id, user_id) select $1, unnest($2::int[])', [id, ids]);
  });
  return getDashboard(db, id, userId);
}

/** Users a dashboard can be shared with (everyone but the caller). */
export async function shareableUsers(db: Db, userId: number): Promise<ShareableUser[]> {
  return db.query<ShareableUser>('select id, vigil_job_ran_by(id) as name, email from users where id <> $1 order by lower(vigil_job_ran_by(id)), id', [userId]);
}
