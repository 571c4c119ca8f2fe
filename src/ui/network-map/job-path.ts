import type { FocusedJob } from '@/commands/focused-job';
import type { NetworkMap } from '@/api/contracts/topology';

/** What the map highlights of a job: its actors, and the zones, devices and links on the way between them. */
export interface JobHighlight {
  jobId: number;
  jobName: string;
  /** Map item keys of the job's actors ('node_3'). */
  actors: Set<string>;
  /** Zones and devices on the shortest route from each source actor to its destination. */
  path: Set<string>;
  /** Links on those routes, as their two ends sorted and joined: 'device_4|node_2' (a link and its reverse are one). */
  links: Set<string>;
}

/** One key for a link and its reverse. */
export const linkKey = (a: string, b: string) => [a, b].sort().join('|');

/** The map as a graph: an actor touches its zone, a device the zones it joins, a link its two ends. */
function adjacency(map: NetworkMap): Map<string, { to: string; link: string | null }[]> {
  const adj = new Map<string, { to: string; link: string | null }[]>();
  const add = (a: string, b: string, link: string | null) => {
    (adj.get(a) ?? adj.set(a, []).get(a)!).push({ to: b, link });
    (adj.get(b) ?? adj.set(b, []).get(b)!).push({ to: a, link });
  };
  for (const n of map.nodes) if (n.zone_id !== null) add(`node_${n.id}`, `zone_${n.zone_id}`, null);
  for (const d of map.devices) for (const z of d.zone_ids) add(`device_${d.id}`, `zone_${z}`, null);
  for (const l of map.links) if (l.id1 !== l.id2) add(l.id1, l.id2, `link_${l.id}`);
  return adj;
}

/** The shortest route between two items (breadth first, neighbours in map order, so always the same route). */
function route(adj: Map<string, { to: string; link: string | null }[]>, from: string, to: string): { items: string[]; links: string[] } | null {
  const prev = new Map<string, { from: string; link: string | null }>([[from, { from: '', link: null }]]);
  const queue = [from];
  while (queue.length) {
    const at = queue.shift() as string;
    if (at === to) break;
    for (const e of adj.get(at) ?? []) {
      if (prev.has(e.to)) continue;
      prev.set(e.to, { from: at, link: e.link });
      queue.push(e.to);
    }
  }
  if (!prev.has(to)) return null;
  const items: string[] = [];
  const links: string[] = [];
  for (let at = to; at !== from; ) {
    const p = prev.get(at) as { from: string; link: string | null };
    items.push(at);
    if (p.link) links.push(linkKey(at, p.from));
    at = p.from;
  }
  items.push(from);
  return { items: items.reverse(), links };
}

/** The highlight of a job on the map: actors the map does not show are left out. */
export function jobHighlight(map: NetworkMap, job: FocusedJob): JobHighlight {
  const known = new Set(map.nodes.map((n) => `node_${n.id}`));
  const actors = new Set<string>();
  const path = new Set<string>();
  const links = new Set<string>();
  const adj = adjacency(map);
  for (const { source, destination } of job.pairs) {
    const s = `node_${source}`;
    if (known.has(s)) actors.add(s);
    if (destination === null) continue;
    const d = `node_${destination}`;
    if (known.has(d)) actors.add(d);
    const r = known.has(s) && known.has(d) ? route(adj, s, d) : null;
    r?.items.filter((k) => !k.startsWith('node_')).forEach((k) => path.add(k));
    r?.links.forEach((l) => links.add(l));
  }
  return { jobId: job.id, jobName: job.name, actors, path, links };
}
