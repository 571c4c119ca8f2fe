/** Actor edit: read one actor with its tags, change what an operator may change, retire or enable it. */
import type { Db } from '../db/index';
import { livenessOf } from '../actors/liveness';
import { HttpError, badRequest, notFound } from '../http-errors';
import type { NodeDetail, NodeEditOptions, NodeUpdate } from '../../src/api/contracts/node-edit';

const DETAIL = `select n.id, n.name, n.friendly_name, n.node_type, n.os_base, n.os, n.node_version, n.status, n.status_details,
    n.security_zone_id, z.name as zone_name, n.mgmt_address, n.sim_address, n.monitor_address,
    n.last_heartbeat_at::text, n.retired_at::text, n.token_hash is not null as registered, n.msi_service_version, n.deps_installed, n.capabilities,
    n.sandbox_node_id, s.name as sandbox_name, n.username,
    array(select t.name from node_tags nt join tags t on t.id = nt.tag_id where nt.node_id = n.id order by lower(t.name)) as user_tags,
    array(select t.name from node_tags nt join tags t on t.id = nt.tag_id where nt.node_id = n.id and not t.editable order by lower(t.name)) as locked_tags
  from nodes n left join zones z on z.id = n.security_zone_id left join nodes s on s.id = n.sandbox_node_id where n.id = $1`;

export async function getNode(db: Db, id: number): Promise<NodeDetail> {
  const [row] = await db.query<NodeDetail>(DETAIL, [id]);
  if (!row) throw notFound(`Actor ${id} does not exist.`);
  return row;
}

export async function nodeEditOptions(db: Db): Promise<NodeEditOptions> {
  const [zones, tags, actors] = await Promise.all([
    db.query<{ id: number; name: string }>('select id, name from zones order by lower(name), id'),
    db.query<{ name: string }>("select name from tags where class_name = 'user' order by lower(name)"),
    db.query<{ id: number; name: string }>('select id, name from nodes where retired_at is null order by lower(name), id'),
  ]);
  return { zones, user_tags: tags.map((t) => t.name), actors };
}

/** Retiring refuses while the actor holds open work: the job would wait for it forever. */
async function refuseBusy(db: Db, id: number, name: string): Promise<void> {
  const [open] = await db.query<{ job_id: number }>("select job_id from engine_work where node_id = $1 and status in ('held', 'queued', 'claimed', 'ready') order by id limit 1", [id]);
  if (open) throw new HttpError(409, `${name} has work of job ${open.job_id} in progress; cancel the job or wait for it before retiring the actor.`);
}

export async function updateNode(db: Db, id: number, input: NodeUpdate): Promise<NodeDetail> {
  const current = await getNode(db, id);
  if (input.security_zone_id != null) {
    const [zone] = await db.query('select 1 from zones where id = $1', [input.security_zone_id]);
    if (!zone) throw badRequest(`Zone ${input.security_zone_id} does not exist.`, { errors: { security_zone_id: ['is not a zone'] } });
  }
  if (input.sandbox_node_id != null) {
    const fail = (why: string) => badRequest(why, { errors: { sandbox_node_id: [why] } });
    if (input.sandbox_node_id === id) throw fail(`${current.name} cannot be its own sandbox.`);
    const [sandbox] = await db.query<{ name: string; retired: boolean }>('select name, retired_at is not null as retired from nodes where id = $1', [input.sandbox_node_id]);
    if (!sandbox) throw fail(`Actor ${input.sandbox_node_id} does not exist.`);
    if (sandbox.retired) throw fail(`${sandbox.name} is retired and cannot be a sandbox.`);
  }
  if (input.retired === true && !current.retired_at) await refuseBusy(db, id, current.name);
  await db.transaction(async (tx) => {
    await tx.query(
      `update nodes set name = coalesce($2, name), friendly_name = coalesce($3, friendly_name),
          security_zone_id = case when $4 then $5::int else security_zone_id end, node_type = coalesce($6, node_type),
          retired_at = case when $7::boolean is null then retired_at when $7 then coalesce(retired_at, now()) else null end,
          status = case when $7 then 'offline' else status end,
          sandbox_node_id = case when $8 then $9::int else sandbox_node_id end, updated_at = now()
        where id = $1`,
      [id, input.name ?? null, input.friendly_name ?? null, input.security_zone_id !== undefined, input.security_zone_id ?? null, input.node_type ?? null, input.retired ?? null, input.sandbox_node_id !== undefined, input.sandbox_node_id ?? null],
    );
    if (input.user_tags) {
      const names = [...new Map(input.user_tags.map((t) => [t.toLowerCase(), t])).values()];
      // New user tags are created (tag_type user); existing ones of any letter case are reused.
      for (const name of names) {
        await tx.query("insert into tags (name, class_name, tag_type) select $1, 'user', 'user' where not exists (select 1 from tags where class_name = 'user' and lower(name) = lower($1))", [name]);
      }
      await tx.query('delete from node_tags where node_id = $1', [id]);
      await tx.query(
        "insert into node_tags (node_id, tag_id) select $1, t.id from tags t where t.class_name = 'user' and lower(t.name) = any($2::text[]) on conflict do nothing",
        [id, names.map((n) => n.toLowerCase())],
      );
    }
  });
  // A retired actor's credential is refused at its next call, not once the director's memory of it expires.
  if (input.retired !== undefined) livenessOf(db).forget();
  return getNode(db, id);
}
