/**
 * Sequence assignment at map scale (issue 19): 2,000 actors in 200 zones, 400 devices and 4,000
 * topology links (20 separate networks of 10 zones, 20 devices each linked to the 10 zones of its
 * network: an actor reaches the 99 others of its network).
 *
 * 1. In-process (PGlite in memory, or BENCH_DATABASE_URL): loadActorOptions (the preview's
 *    cttn_attackers, cttn_targets, cttn_authorized_actors) and validTargets for one step's attacker.
 * 2. In Chromium, against the real director and the built workbench (npm run build): the network map's
 *    sequence mode at /simulations/select_nodes?sim_id=:
 *    - time to first draw: navigation start -> the map's first actors drawn (a map this large draws its
 *      actors on the canvas layer, X6 only the zones; and, of that, the time after the two calls it
 *      needs answered), and to the steps list drawn beside it; the CPU the page's renderer processes used
 *      for the load (CDP SystemInfo.getProcessInfo), as wall time on a shared machine says little about
 *      the work done;
 *    - time to highlight a step's valid targets: the attacker chosen (Enter in the attackers list,
 *      the event's own timestamp) -> the frame after the map marked the attacker and its valid targets
 *      (the canvas's data-attacker, or on a small map the X6 cells' stroke). Attackers are picked among
 *      those whose valid targets include actors in the first view (the canvas's data-view, against the
 *      Standard layout of the map the director answers), so the highlight is seen.
 * Prints the figures against the goals (<= 1 s, <= 50 ms); nothing is asserted. BENCH_SELECT_PROFILE=1 also
 * prints where the renderer's JavaScript time went in one load and in the first highlight (CDP Profiler).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser, openPage, signInThroughForm } from '../e2e/chromium';
import { ADMIN_EMAIL, ADMIN_PASSWORD, REPO_ROOT, startDirector, type Director } from '../e2e/director';
import { openDb, openPglite, type Db } from '../server/db/index';
import { migrate } from '../server/db/migrate';
import { ensureAdmin } from '../server/seed/users';
import { createSimulation } from '../server/simulations/write';
import { loadActorOptions } from '../server/simulations/reachability';
import { validTargets } from '../src/features/simulations/assignment';
import type { SimulationPreview, SimulationPreviewAnswer } from '../src/api/contracts/simulations';
import type { NetworkMap } from '../src/api/contracts/topology';
import { layout } from '../src/ui/network-map/layouts';
import { cpuProfiled } from './cpu-profile';
import { percentile } from './stats';

const ACTORS = Number(process.env.BENCH_ACTORS ?? 2000);
const NETWORKS = 20;
const ZONES_PER_NETWORK = 10;
const ZONES = NETWORKS * ZONES_PER_NETWORK;
/** Devices per network; each links the network's zones, so LINKS = NETWORKS * DEVICES * ZONES_PER_NETWORK. */
const DEVICES = Math.max(1, Math.round(Number(process.env.BENCH_LINKS ?? 4000) / (NETWORKS * ZONES_PER_NETWORK)));
const LINKS = NETWORKS * DEVICES * ZONES_PER_NETWORK;
const ms = (x: number) => x.toFixed(x < 10 ? 2 : 0);
const PROFILE = process.env.BENCH_SELECT_PROFILE === '1';

/** The bench map and a three-step sequence; answers the sequence's id. */
async function seedMap(db: Db): Promise<number> {
  await db.query(`insert into zones (name, cidr) select 'bench zone ' || g, '10.' || (g / 250) || '.' || (g % 250) || '.0/24' from generate_series(0, ${ZONES - 1}) g`);
  const [z] = await db.query<{ min: number }>("select min(id) as min from zones where name like 'bench zone %'");
  const z0 = z?.min ?? 1;
  await db.query(
    `insert into nodes (name, node_type, status, token_hash, security_zone_id, sim_address)
     select 'bench actor ' || lpad(g::text, 4, '0'), 'endpoint', 'online', 'h' || g, $1 + (g % ${ZONES}), '10.9.' || (g / 250) || '.' || (g % 250)
       from generate_series(0, ${ACTORS - 1}) g`,
    [z0],
  );
  await db.query(`insert into devices (name, device_type, prevention_enabled) select 'bench firewall ' || g, 'firewall', g % 2 = 0 from generate_series(0, ${NETWORKS * DEVICES - 1}) g`);
  const [d] = await db.query<{ min: number }>("select min(id) as min from devices where name like 'bench firewall %'");
  const d0 = d?.min ?? 1;
  // Device g belongs to network g / DEVICES and links each of its 10 zones.
  await db.query(
    `insert into topology_links (id1, id2)
     select 'device_' || ($1 + g), 'zone_' || ($2 + (g / ${DEVICES}) * ${ZONES_PER_NETWORK} + k)
       from generate_series(0, ${NETWORKS * DEVICES - 1}) g, generate_series(0, ${ZONES_PER_NETWORK - 1}) k`,
    [d0, z0],
  );
  await db.query(
    `insert into actions (vid, name, action_type, approved, disabled) values
       ('A990-001', 'Bench port scan', 'port_scan', true, false), ('A990-002', 'Bench beacon', 'socket', true, false)`,
  );
  const actions = await db.query<{ id: number }>("select id from actions where vid in ('A990-001', 'A990-002') order by vid");
  const [admin] = await db.query<{ id: number }>('select id from users order by id limit 1');
  const [a1, a2] = actions.map((a) => a.id) as [number, number];
  const sim = await createSimulation(db, { sim_type: 'sequence', sim_name: 'Bench sequence', sim_desc: '', steps: [[a1], [a2], [a1, a2]], step_names: ['Scan', 'Beacon', 'Both'] }, admin?.id ?? 1);
  return sim.id;
}

async function inProcess(): Promise<void> {
  const db = await openDb({ databaseUrl: process.env.BENCH_DATABASE_URL || undefined, dataDir: undefined });
  await migrate(db);
  await ensureAdmin(db, ADMIN_EMAIL, ADMIN_PASSWORD);
  await seedMap(db);
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
  console.log(`${options.cttn_attackers.length} actors, ${ZONES} zones, ${NETWORKS * DEVICES} devices, ${LINKS} links, ${pairs} reachable pairs`);
  console.log(`loadActorOptions (in-process): p50 ${ms(percentile(times, 50))} ms, p95 ${ms(percentile(times, 95))} ms, max ${ms(Math.max(...times))} ms`);
  console.log(`validTargets (one step's attacker): p50 ${percentile(highlight, 50).toFixed(3)} ms, p95 ${percentile(highlight, 95).toFixed(3)} ms`);
  await db.close();
}

async function inChromium(director: Director, simId: number): Promise<void> {
  const browser = await launchBrowser();
  try {
    const { page, context } = await openPage(browser, director.url);
    await context.addInitScript('globalThis.__name = globalThis.__name || ((fn) => fn)');
    // When the map's first actors are drawn, on the page's own clock (0 = navigation start): X6 cells on
    // a small map, the canvas layer's boxes on a large one.
    await context.addInitScript(`(() => {
      const obs = new MutationObserver(() => {
        if (window.__steps === undefined && document.querySelector('[role=listbox][aria-label=Steps]')) window.__steps = performance.now();
        if (window.__drawn === undefined && document.querySelector('[data-testid=network-map-canvas] [data-cell-id^="node_"], [data-testid=network-map-canvas] canvas[data-boxes]:not([data-boxes="0"])')) {
          window.__drawn = performance.now();
        }
        if (window.__drawn !== undefined && window.__steps !== undefined) obs.disconnect();
      });
      obs.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-boxes'] });
    })()`);
    await signInThroughForm(page, ADMIN_EMAIL, ADMIN_PASSWORD, '/');
    const url = `/simulations/select_nodes?sim_id=${simId}`;
    const draws: number[] = [];
    const client: number[] = [];
    let view = '';
    const stepsAt: number[] = [];
    const cpu: number[] = [];
    const cdp = await browser.newBrowserCDPSession();
    const rendererCpu = async () =>
      ((await cdp.send('SystemInfo.getProcessInfo')).processInfo as { type: string; cpuTime: number }[]).filter((p) => p.type === 'renderer').reduce((t, p) => t + p.cpuTime, 0);
    const pageCdp = await context.newCDPSession(page);
    for (let i = 0; i < 6; i++) {
      const cpu0 = await rendererCpu();
      const load = async () => {
        await page.goto(url);
        await page.waitForFunction(() => (window as unknown as { __drawn?: number }).__drawn !== undefined, undefined, { timeout: 120_000 });
      };
      await (PROFILE && i === 1 ? cpuProfiled(pageCdp, 'a load (navigation -> first draw)', load) : load());
      const cpu1 = await rendererCpu();
      const [drawn, answered, steps] = await page.evaluate(() => {
        const calls = performance.getEntriesByType('resource').filter((e) => /\/topology\/network\.json|\/library\/simulations\.json/.test(e.name)) as PerformanceResourceTiming[];
        const w = window as unknown as { __drawn: number; __steps?: number };
        return [w.__drawn, Math.max(...calls.map((c) => c.responseEnd)), w.__steps ?? Number.NaN];
      });
      await page.waitForTimeout(300);
      view = (await page.locator('[data-testid=network-map-canvas] canvas[data-view]').getAttribute('data-view')) ?? '';
      if (i > 0) {
        draws.push(drawn);
        client.push(drawn - answered);
        stepsAt.push(steps);
        cpu.push((cpu1 - cpu0) * 1000);
      }
    }
    // The actors in the first view: the map's Standard layout against the area the canvas says it shows.
    const getJson = async <T>(url: string) => (await (await page.request.get(url, { headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' } })).json()) as T;
    const network = await getJson<NetworkMap>('/topology/network.json');
    const rects = layout('Standard', network);
    const [vx, vy, vw, vh] = view.split(' ').map(Number) as [number, number, number, number];
    const inView = new Set(network.nodes.filter((n) => {
      const r = rects[`node_${n.id}`];
      return !!r && r.x < vx + vw && r.x + r.width > vx && r.y < vy + vh && r.y + r.height > vy;
    }).map((n) => n.id));
    // Attackers (in the list's order) whose valid targets include actors in view: ten of them, spread.
    const options = (await getJson<SimulationPreviewAnswer>(`/library/simulations.json?id=${simId}`)).data.preview_props.options;
    const seen = options.cttn_attackers.map((a, index) => ({ index, targets: validTargets({ options } as SimulationPreview, a.id).filter((t) => inView.has(t)).length })).filter((a) => a.targets > 0);
    const picks = Array.from({ length: Math.min(10, seen.length) }, (_, i) => seen[Math.floor((i * Math.min(seen.length, 100)) / 10)]!);
    console.log(`  (${inView.size} of ${ACTORS} actors in the first view; ${seen.length} attackers have valid targets among them)`);
    // Highlight: Enter on the attackers list picks the highlighted attacker; measured to the frame
    // after the map restyled its actors (every change of a step's marks is one batch).
    const highlight: number[] = [];
    const list = page.getByRole('listbox', { name: 'Attackers for step 1' });
    for (const [i, pick] of picks.entries()) {
      await list.waitFor();
      await list.focus();
      for (let k = 0; k < pick.index; k++) await page.keyboard.press('ArrowDown');
      // The observer is in place before Enter is pressed (awaited), then its answer is read.
      await page.evaluate(() => {
        (window as unknown as { __highlight: Promise<number> }).__highlight = new Promise<number>((resolve) => {
          let pressed = 0;
          document.addEventListener('keydown', (e) => (pressed = e.timeStamp), { capture: true, once: true });
          const canvas = document.querySelector('[data-testid=network-map-canvas]')!;
          // The map's first restyle after the key (the canvas's marks, or a small map's X6 cells).
          const obs = new MutationObserver(() => {
            if (!pressed) return;
            obs.disconnect();
            requestAnimationFrame(() => resolve(performance.now() - pressed));
          });
          obs.observe(canvas, { attributes: true, subtree: true, attributeFilter: ['stroke', 'data-attacker'] });
          setTimeout(() => resolve(Number.NaN), 5000);
        });
      });
      await (PROFILE && i === 0 ? cpuProfiled(pageCdp, 'a highlight (Enter -> marks drawn)', () => page.keyboard.press('Enter')) : page.keyboard.press('Enter'));
      highlight.push(await page.evaluate(() => (window as unknown as { __highlight: Promise<number> }).__highlight));
      await page.getByRole('listbox', { name: 'Targets for step 1' }).waitFor();
      // The list draws the rows in view: its options carry the list's size.
      const targets = Number(await page.getByRole('listbox', { name: 'Targets for step 1' }).getByRole('option').first().getAttribute('aria-setsize'));
      if (i === 0) console.log(`  (the first attacker reaches ${targets} valid targets, ${pick.targets} of them in view, highlighted on the map)`);
      await page.getByRole('button', { name: 'Change Attacker' }).click();
    }
    for (const l of [draws, client, stepsAt, cpu]) l.sort((a, b) => a - b);
    highlight.sort((a, b) => a - b);
    console.log(`\nChromium ${browser.version()} (headless, no GPU), built workbench, load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores:`);
    console.log(`  sequence mode, time to first draw (navigation start -> the map's first actors drawn; ${inView.size} of ${ACTORS} actors in the first view), 5 loads: p50 ${ms(percentile(draws, 50))} ms, max ${ms(draws[draws.length - 1]!)} ms (goal <= 1,000 ms)`);
    console.log(`    of which after both calls answered (layout and X6 drawing): p50 ${ms(percentile(client, 50))} ms, max ${ms(client[client.length - 1]!)} ms`);
    console.log(`    the steps list drawn (navigation start -> the Steps list): p50 ${ms(percentile(stepsAt, 50))} ms, max ${ms(stepsAt[stepsAt.length - 1]!)} ms`);
    console.log(`    renderer CPU for the load (navigation -> first draw): p50 ${ms(percentile(cpu, 50))} ms, max ${ms(cpu[cpu.length - 1]!)} ms`);
    console.log(`  highlight a step's valid targets (Enter on an attacker -> frame with attacker and targets marked), ${highlight.length} picks: p50 ${ms(percentile(highlight, 50))} ms, p95 ${ms(percentile(highlight, 95))} ms, max ${ms(highlight[highlight.length - 1]!)} ms (goal <= 50 ms)`);
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  await inProcess();
  const staticDir = process.env.VIGIL_BENCH_STATIC_DIR || path.join(REPO_ROOT, 'dist');
  if (!fs.existsSync(path.join(staticDir, 'index.html'))) {
    console.log(`\nno built workbench in ${staticDir}: browser figures skipped (npm run build)`);
    return;
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-select-nodes-bench-'));
  let director: Director | null = null;
  try {
    const db = await openPglite(dataDir);
    let simId = 0;
    try {
      await migrate(db);
      await ensureAdmin(db, ADMIN_EMAIL, ADMIN_PASSWORD);
      simId = await seedMap(db);
    } finally {
      await db.close();
    }
    director = await startDirector({ DATA_DIR: dataDir, STATIC_DIR: staticDir, SEED: 'none' });
    await inChromium(director, simId).catch((e: unknown) => console.log(`\nbrowser figures failed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`));
  } finally {
    await director?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

void main();
