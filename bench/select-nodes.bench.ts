/**
 * Sequence assignment data at map scale (issue 19): 2,000 actors in 200 zones and 4,000 topology
 * links on PGlite in memory (or BENCH_DATABASE_URL). Times loadActorOptions (the preview's
 * cttn_attackers, cttn_targets and cttn_authorized_actors) and, client side, validTargets for one
 * step's attacker (what highlighting a step's valid targets needs). Prints p50/p95/max; nothing is
 * asserted. The map's own sequence mode (drawing) is not built, so its first-draw time is not measured.
 */
import { openDb } from '../server/db/index';
import { migrate } from '../server/db/migrate';
import { loadActorOptions } from '../server/simulations/reachability';
import { validTargets } from '../src/features/simulations/assignment';
import type { SimulationPreview } from '../src/api/contracts/simulations';
import { percentile } from './stats';

const ACTORS = Number(process.env.BENCH_ACTORS ?? 2000);
const LINKS = Number(process.env.BENCH_LINKS ?? 4000);
const ZONES = 200;

async function main() {
  const db = await openDb({ databaseUrl: process.env.BENCH_DATABASE_URL || undefined, dataDir: undefined });
  await migrate(db);
  await db.query(`insert into zones (name) select 'bench zone ' || g from generate_series(1, ${ZONES}) g`);
  const [z] = await db.query<{ min: number }>('select min(id) as min from zones where name like $1', ['bench zone %']);
  const z0 = z?.min ?? 1;
  await db.query(
    `insert into nodes (name, node_type, status, token_hash, security_zone_id)
     select 'bench actor ' || g, 'endpoint', 'online', 'h' || g, $1 + (g % ${ZONES}) from generate_series(1, ${ACTORS}) g`,
    [z0],
  );
  // Zone-to-zone links in small rings (10 zones each) and actor-to-zone links: LINKS in all.
  await db.query(
    `insert into topology_links (id1, id2)
     select 'zone_' || ($1 + (g % ${ZONES})), case when g % 2 = 0 then 'zone_' || ($1 + ((g / 10) * 10 + (g + 1) % 10) % ${ZONES}) else 'zone_' || ($1 + (g % ${ZONES})) end
       from generate_series(1, ${LINKS}) g`,
    [z0],
  );
  const times: number[] = [];
  let options = await loadActorOptions(db);
  for (let i = 0; i < 10; i++) {
    const t = performance.now();
    options = await loadActorOptions(db);
    times.push(performance.now() - t);
  }
  const preview = { options: { empty_steps: 0, ...options } } as SimulationPreview;
  const highlight: number[] = [];
  for (const a of options.cttn_attackers.slice(0, 200)) {
    const t = performance.now();
    validTargets(preview, a.id);
    highlight.push(performance.now() - t);
  }
  times.sort((x, y) => x - y);
  highlight.sort((x, y) => x - y);
  const pairs = Object.values(options.cttn_authorized_actors).reduce((n, l) => n + l.length, 0);
  console.log(`${options.cttn_attackers.length} actors, ${LINKS} links, ${pairs} reachable pairs`);
  console.log(`loadActorOptions: p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms`);
  console.log(`validTargets (one step's attacker): p50 ${percentile(highlight, 50).toFixed(3)} ms, p95 ${percentile(highlight, 95).toFixed(3)} ms, max ${Math.max(...highlight).toFixed(3)} ms`);
  await db.close();
}

void main();
