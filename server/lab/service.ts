/**
 * The lab's records in the director: a bulk token for its actors, a zone per namespace, the firewall
 * device with an interface in each zone, the links zone <-> firewall, and the nftables/ulogd JSON
 * integration the director tails. The labs table remembers what each prefix created, so removing a
 * lab (or setting it up again after a crash) removes exactly that. The integration is kept, disabled,
 * when a lab goes down: the job results that quote its events still name it.
 */
import type { Db } from '../db/index';
import { createBulkToken } from '../engine/secrets';
import { presenceSql } from '../actors/presence';
import { livenessOf } from '../actors/liveness';
import { createIntegration } from '../integrations/service';
import type { LabActor, LabRemoval, LabSetupAnswer, LabSetupRequest } from '../../src/api/contracts/lab';

interface LabRecord {
  prefix: string;
  bulk_token_id: number | null;
  integration_id: number | null;
  device_id: number | null;
  zone_ids: number[];
  link_ids: number[];
}

export const integrationName = (prefix: string) => `${prefix} firewall (nftables/ulogd)`;
export const tokenName = (prefix: string) => `lab:${prefix}`;
const zoneName = (prefix: string, zone: string) => `${prefix} ${zone}`;

async function record(db: Db, prefix: string): Promise<LabRecord | undefined> {
  const [row] = await db.query<LabRecord>('select prefix, bulk_token_id, integration_id, device_id, zone_ids, link_ids from labs where prefix = $1', [prefix]);
  return row;
}

/** Removes what a lab created (its actors too); the integration stays, disabled. */
export async function removeLab(db: Db, prefix: string): Promise<LabRemoval> {
  const removed = await db.transaction(async (tx) => {
    const lab = await record(tx, prefix);
    // Tokens marked as this lab's, also from a setup whose labs row was lost.
    const tokens = await tx.query<{ id: number }>('select id from actor_bulk_tokens where name = $1 or id = $2', [tokenName(prefix), lab?.bulk_token_id ?? 0]);
    const tokenIds = tokens.map((t) => String(t.id));
    const actors = await tx.query(`delete from nodes where (capabilities->>'bulk_token_id') = any($1::text[]) returning id`, [tokenIds]);
    await tx.query('delete from actor_bulk_tokens where id = any($1::int[])', [tokens.map((t) => t.id)]);
    const links = await tx.query('delete from topology_links where id = any($1::int[]) returning id', [lab?.link_ids ?? []]);
    const devices = await tx.query('delete from devices where id = $1 returning id', [lab?.device_id ?? 0]);
    const zones = await tx.query(`delete from zones where id = any($1::int[]) or name like $2 returning id`, [lab?.zone_ids ?? [], `${prefix} %`]);
    await tx.query(`update integrations set enabled = false where id = $1 or (name = $2 and type = 'nftables_ulogd_json')`, [lab?.integration_id ?? 0, integrationName(prefix)]);
    await tx.query('delete from labs where prefix = $1', [prefix]);
    return { prefix, actors: actors.length, zones: zones.length, links: links.length, devices: devices.length, tokens: tokens.length };
  });
  // Its actors' credentials are refused at their next call (server/actors/liveness.ts).
  livenessOf(db).forget();
  return removed;
}

async function link(db: Db, a: string, b: string): Promise<number[]> {
  const [x] = await db.query<{ id: number }>('insert into topology_links (id1, id2) values ($1, $2) returning id', [a, b]);
  const [y] = await db.query<{ id: number }>('insert into topology_links (id1, id2, compliment_id) values ($1, $2, $3) returning id', [b, a, x!.id]);
  await db.query('update topology_links set compliment_id = $2 where id = $1', [x!.id, y!.id]);
  return [x!.id, y!.id];
}

/** Sets a lab up from scratch (whatever an earlier setup of the prefix left is removed first). */
export async function setupLab(db: Db, input: LabSetupRequest, userId: number): Promise<LabSetupAnswer> {
  await removeLab(db, input.prefix);
  return db.transaction(async (tx) => {
    const token = await createBulkToken(tx, { name: tokenName(input.prefix), hours: 24 * 365, userId });
    const zoneIds: Record<string, number> = {};
    for (const z of input.zones) {
      const [row] = await tx.query<{ id: number }>('insert into zones (name, description, cidr) values ($1, $2, $3) returning id', [
        zoneName(input.prefix, z.name),
        `Lab zone "${z.name}" (network namespace ${input.prefix}-${z.name})`,
        z.cidr,
      ]);
      zoneIds[z.name] = row!.id;
    }
    const interfaces = input.zones.map((z) => ({ name: `z-${z.name}`, ip_address: z.gateway, zone_id: zoneIds[z.name] }));
    const [device] = await tx.query<{ id: number }>(
      `insert into devices (name, description, device_type, prevention_enabled, interfaces) values ($1, $2, 'firewall', true, $3::jsonb) returning id`,
      [`${input.prefix} firewall`, `nftables in network namespace ${input.prefix}-fw, logging to ulogd2 (JSON)`, JSON.stringify(interfaces)],
    );
    const deviceId = device!.id;
    const linkIds: number[] = [];
    for (const id of Object.values(zoneIds)) {
      await tx.query('insert into device_zones (device_id, zone_id) values ($1, $2)', [deviceId, id]);
      linkIds.push(...(await link(tx, `zone_${id}`, `device_${deviceId}`)));
    }
    const [kept] = await tx.query<{ id: number }>(`select id from integrations where name = $1 and type = 'nftables_ulogd_json' order by id limit 1`, [integrationName(input.prefix)]);
    let integrationId: number;
    if (kept) {
      await tx.query('update integrations set enabled = true, source_path = $2 where id = $1', [kept.id, input.events_path]);
      integrationId = kept.id;
    } else {
      integrationId = (await createIntegration(tx, { name: integrationName(input.prefix), type: 'nftables_ulogd_json', source_path: input.events_path })).id;
    }
    await tx.query(
      `insert into labs (prefix, bulk_token_id, integration_id, device_id, zone_ids, link_ids) values ($1, $2, $3, $4, $5::int[], $6::int[])`,
      [input.prefix, token.id, integrationId, deviceId, Object.values(zoneIds), linkIds],
    );
    return { prefix: input.prefix, bulk_token: token.token, integration_id: integrationId, device_id: deviceId, zone_ids: zoneIds };
  });
}

/** Puts each actor registered with the lab's token into the zone whose network holds its address; lists them. */
export async function attachLabActors(db: Db, prefix: string): Promise<LabActor[] | null> {
  const lab = await record(db, prefix);
  if (!lab) return null;
  const token = String(lab.bulk_token_id ?? 0);
  await db.query(
    `update nodes n set security_zone_id = z.id, updated_at = now()
       from zones z
      where z.id = any($1::int[]) and (n.capabilities->>'bulk_token_id') = $2
        and n.sim_address ~ '^[0-9]+\\.[0-9]+\\.[0-9]+\\.[0-9]+$' and z.cidr <> '' and n.sim_address::inet <<= z.cidr::inet`,
    [lab.zone_ids, token],
  );
  return db.query<LabActor>(
    `select n.id, n.name, n.sim_address, ${presenceSql(db).status} as status, z.name as zone
       from nodes n left join zones z on z.id = n.security_zone_id
      where (n.capabilities->>'bulk_token_id') = $1 order by n.id`,
    [token],
  );
}
