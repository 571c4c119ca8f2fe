import type { Db } from '../db/index';
import type { SimulationActorOptions, CttnActor } from '../../src/api/contracts/simulations';

/**
 * Which actors can talk to each other, from the topology (JOB-043 cttn_* options): two actors can
 * when they sit in the same connected part of the map, zones, devices and actors joined by the
 * topology links, the devices' zones and each actor's own zone. Actors are the nodes that have
 * connected to this director (a token). Actors not placed on the map yet (no zone, no link) are taken
 * to share one network with each other (a fresh install's actors can run at once), not with placed ones.
 */

/** Union-find over map ids ('zone_1', 'device_2', 'node_3'). */
class Parts {
  private parent = new Map<string, string>();
  find(x: string): string {
    let root = x;
    while (this.parent.has(root) && this.parent.get(root) !== root) root = this.parent.get(root)!;
    let cur = x;
    while (cur !== root) {
      const next = this.parent.get(cur) ?? root;
      this.parent.set(cur, root);
      cur = next;
    }
    if (!this.parent.has(root)) this.parent.set(root, root);
    return root;
  }
  join(a: string, b: string): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent.set(ra, rb);
  }
}

/** The actors and who can reach whom: every actor may attack; targets are actors some other actor reaches. */
export async function loadActorOptions(db: Db): Promise<SimulationActorOptions> {
  const [actors, links, deviceZones] = await Promise.all([
    db.query<CttnActor & { security_zone_id: number | null }>(
      `select n.id, n.name, n.status, n.sim_address, n.security_zone_id, z.name as zone_name
         from nodes n left join zones z on z.id = n.security_zone_id
        where n.token_hash is not null order by n.name, n.id`,
    ),
    db.query<{ id1: string; id2: string }>('select id1, id2 from topology_links'),
    db.query<{ device_id: number; zone_id: number }>('select device_id, zone_id from device_zones'),
  ]);
  const parts = new Parts();
  for (const l of links) parts.join(l.id1, l.id2);
  for (const d of deviceZones) parts.join(`device_${d.device_id}`, `zone_${d.zone_id}`);
  const linked = new Set(links.flatMap((l) => [l.id1, l.id2]));
  for (const a of actors) {
    if (a.security_zone_id !== null) parts.join(`node_${a.id}`, `zone_${a.security_zone_id}`);
    else if (!linked.has(`node_${a.id}`)) parts.join(`node_${a.id}`, 'unplaced');
  }
  const byPart = new Map<string, number[]>();
  for (const a of actors) {
    const root = parts.find(`node_${a.id}`);
    byPart.set(root, [...(byPart.get(root) ?? []), a.id]);
  }
  const authorized: Record<string, number[]> = {};
  const reached = new Set<number>();
  for (const a of actors) {
    const peers = (byPart.get(parts.find(`node_${a.id}`)) ?? []).filter((id) => id !== a.id);
    authorized[String(a.id)] = peers;
    for (const p of peers) reached.add(p);
  }
  const plain = actors.map(({ security_zone_id: _zone, ...a }) => a);
  return { cttn_attackers: plain, cttn_targets: plain.filter((a) => reached.has(a.id)), cttn_authorized_actors: authorized };
}
