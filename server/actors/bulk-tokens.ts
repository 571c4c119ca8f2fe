/**
 * Bulk registration tokens and the actors registered with them, read for the Actors pane.
 *
 * Pending rule: an actor registered with a token is pending while it has not called in (no heartbeat,
 * no poll) since it registered: registering stores last_heartbeat_at = created_at, and every call of
 * the actor moves last_heartbeat_at on. A pending actor whose status the engine has since changed
 * (offline: "No heartbeat since ...") is a pending actor in error, and its token is Errored.
 */
import type { Db } from '../db/index';
import { iso } from '../jobs/list-query';
import { presenceSql } from './presence';
import type { ActorRow, BulkTokenAction, BulkTokenRow, BulkTokenStatus, PendingNode } from '../../src/api/contracts/actors';

export const PENDING = `(n.last_heartbeat_at is null or n.last_heartbeat_at <= n.created_at)`;
export const OF_TOKEN = `(n.capabilities->>'bulk_token_id') = t.id::text`;

interface TokenRecord {
  id: number;
  name: string;
  created_at: Date | string;
  expires_at: Date | string;
  expired: boolean;
  created_by: string | null;
  registered: number;
  active_pending: number;
  errored: number;
}

export const tokenLinks = (id: number) => ({
  pending: `/bulk_pending_nodes/${id}`,
  csv: `/csv_bulk_token/${id}`,
  delete: `/delete_bulk_token/${id}`,
  register_push: `/nodes/new.js?node_type=bulk&id=${id}`,
  installer: `/actor_installer/${id}/options.json`,
});

function toRow(r: TokenRecord, canManage: boolean): BulkTokenRow {
  const status: BulkTokenStatus = r.expired ? 'Expired' : r.errored > 0 ? 'Errored' : 'Active';
  const details = r.expired
    ? `The token expired at ${iso(r.expires_at)}; actors cannot register with it.`
    : r.errored > 0
      ? `${r.errored} actor${r.errored === 1 ? '' : 's'} registered with this token and never called in after registering.`
      : null;
  const actions: BulkTokenAction[] = ['pending', 'download', ...(r.expired ? [] : (['installer', 'register_push'] as const)), ...(canManage ? (['clear'] as const) : [])];
  return {
    id: r.id,
    name: r.name,
    status,
    status_details: details,
    active_pending: r.active_pending,
    registered: r.registered,
    created_at: iso(r.created_at) ?? '',
    expires_at: iso(r.expires_at) ?? '',
    created_by: r.created_by,
    links: tokenLinks(r.id),
    actions,
  };
}

export async function listTokens(db: Db, canManage: boolean, id?: number): Promise<BulkTokenRow[]> {
  const presence = presenceSql(db);
  const rows = await db.query<TokenRecord>(
    `select t.id, t.name, t.created_at, t.expires_at, t.expires_at < now() as expired, u.email as created_by,
            count(n.id)::int as registered,
            (count(n.id) filter (where ${PENDING}))::int as active_pending,
            (count(n.id) filter (where ${PENDING} and ${presence.status} <> 'online'))::int as errored
       from actor_bulk_tokens t
       left join users u on u.id = t.created_by
       left join nodes n on ${OF_TOKEN}
      where $1::int is null or t.id = $1
      group by t.id, u.email
      order by t.id desc`,
    [id ?? null],
  );
  return rows.map((r) => toRow(r, canManage));
}

export async function pendingNodes(db: Db, tokenId: number): Promise<PendingNode[]> {
  const presence = presenceSql(db);
  const rows = await db.query<{ id: number; name: string; status: string; status_details: string | null; created_at: Date | string }>(
    `select n.id, n.name, ${presence.status} as status, ${presence.details} as status_details, n.created_at from nodes n, actor_bulk_tokens t
      where t.id = $1 and ${OF_TOKEN} and ${PENDING} order by n.id`,
    [tokenId],
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    status: r.status === 'online' ? 'pending' : r.status,
    status_details: r.status === 'online' ? null : (r.status_details ?? 'The actor has not called in since it registered.'),
    registered_at: iso(r.created_at) ?? '',
  }));
}

export interface TokenActor {
  id: number;
  name: string;
  status: string;
  pending: boolean;
  created_at: Date | string;
  last_heartbeat_at: Date | string | null;
  os: string;
  sim_address: string;
  status_details: string | null;
}

export function tokenActors(db: Db, tokenId: number): Promise<TokenActor[]> {
  const presence = presenceSql(db);
  return db.query<TokenActor>(
    `select n.id, n.name, ${presence.status} as status, ${PENDING} as pending, n.created_at, n.last_heartbeat_at, n.os, n.sim_address, ${presence.details} as status_details
       from nodes n, actor_bulk_tokens t where t.id = $1 and ${OF_TOKEN} order by n.id`,
    [tokenId],
  );
}

export async function listActors(db: Db): Promise<ActorRow[]> {
  const presence = presenceSql(db);
  const rows = await db.query<Omit<ActorRow, 'links' | 'last_heartbeat_at'> & { last_heartbeat_at: Date | string | null }>(
    `select n.id, n.name, n.friendly_name, n.node_version, n.os_base, n.os, n.node_type, ${presence.status} as status, ${presence.details} as status_details, n.security_zone_id,
            z.name as zone_name, n.sandbox_node_id, n.username, n.last_heartbeat_at,
            array(select tg.name from node_tags nt join tags tg on tg.id = nt.tag_id where nt.node_id = n.id order by tg.name) as user_tags,
            (case when n.capabilities ? 'bulk_token_id' and ${PENDING} then 1 else 0 end)::int as active_pending,
            (n.capabilities->>'bulk_token_id')::int as bulk_token_id
       from nodes n left join zones z on z.id = n.security_zone_id
      order by lower(coalesce(nullif(n.friendly_name, ''), n.name)), n.id`,
  );
  return rows.map((r) => ({ ...r, last_heartbeat_at: iso(r.last_heartbeat_at), links: { edit: `/topology/nodes/${r.id}/edit` } }));
}
