/**
 * `npm run bench:map`: the network map's default mode (Standard layout, map-canvas.tsx as the workbench
 * draws it: X6 for the zones over a canvas layer) on a generated map of BENCH_ACTORS actors (2,000),
 * BENCH_DEVICES devices (300) and BENCH_LINKS links (4,000) in 100 zones, in headless Chromium at
 * 1600x900 (Vite serves bench/map/, the component and layout straight from src/). Prints:
 *  - first draw: from the render call to the map drawn (the canvas layer's first drawing, which on a
 *    large map holds the actors and devices; X6 draws the zones before it) and a frame painted after it;
 *  - pan: frame times while the mouse drags the blank map, zoom: frame times while the wheel zooms;
 *  - highlight: selecting an actor in view until the canvas has drawn it selected and a frame is painted;
 *  - layout switch: Standard -> Organic -> Structural -> Standard, each until the map moved and painted,
 *    and each layout's computation alone on a fresh copy of the map (the map computes a large map's
 *    other layouts ahead while idle, so a switch after that only applies them).
 * Beside each wall time, the renderer main thread's CPU time (CDP Performance.getMetrics TaskDuration)
 * spent over it, and the machine's load average: on a shared machine the wall time waits for cores,
 * the CPU time is what the map costs.
 * Goals (issue 22): first draw <= 1 s, pan and zoom >= 50 fps, layout switch <= 1 s. Nothing is asserted.
 * The sequence mode of the map (select_nodes) has its own bench (bench:select-nodes).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer } from 'vite';
import react from '@vitejs/plugin-react';
import type { CDPSession, Page } from 'playwright-core';
import { launchBrowser } from '../e2e/chromium';
import { REPO_ROOT } from '../e2e/director';
import { cpuProfiled } from './cpu-profile';
import { percentile } from './stats';

const ACTORS = Number(process.env.BENCH_ACTORS ?? 2000);
const DEVICES = Number(process.env.BENCH_DEVICES ?? 300);
const LINKS = Number(process.env.BENCH_LINKS ?? 4000);
const RUNS = Number(process.env.BENCH_MAP_RUNS ?? 3);

/**
 * The in-page helpers, as plain JavaScript: functions handed to page.evaluate would carry tsx's
 * `__name` helper, which the page does not have. A frame is painted after `painted()` resolves (a rAF,
 * then a task after it).
 */
const PAGE_TOOLS = `
window.benchTools = {
  painted: () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))),
  frame: () => new Promise((r) => requestAnimationFrame(r)),
  // Drawn: the canvas layer has drawn the map once (its data-boxes attribute is set by each drawing),
  // then a frame painted. The time runs from the page's render call.
  firstDraw() {
    return new Promise((resolve) => {
      const done = async () => {
        const at = performance.now();
        const canvas = document.querySelector('#map canvas[data-boxes]');
        await this.painted();
        resolve({ ms: at - window.mapBench.start + (performance.now() - at), cells: window.mapBench.cells, inDom: document.querySelectorAll('#map [data-cell-id]').length, boxes: Number(canvas.getAttribute('data-boxes')) });
      };
      if (document.querySelector('#map canvas[data-boxes]')) return done();
      const obs = new MutationObserver(() => {
        if (!document.querySelector('#map canvas[data-boxes]')) return;
        obs.disconnect();
        done();
      });
      obs.observe(document.getElementById('map'), { attributes: true, childList: true, subtree: true, attributeFilter: ['data-boxes'] });
    });
  },
  startFrames() {
    this.log = [];
    this.on = true;
    const tick = (t) => { this.log.push(t); if (this.on) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  },
  stopFrames() {
    this.on = false;
    return this.log.slice(1).map((t, i) => t - this.log[i]);
  },
  async highlight(key) {
    const t0 = performance.now();
    window.mapBench.select(key);
    while (document.querySelector('#map canvas[data-boxes]')?.getAttribute('data-selected') !== key) await this.frame();
    await this.painted();
    return performance.now() - t0;
  },
  async switchLayout(mode) {
    const t0 = performance.now();
    window.mapBench.mode(mode);
    // React renders, the canvas's effect moves the zones (place()) and draws the canvas, then a frame is painted.
    await this.frame();
    await this.frame();
    await this.painted();
    return performance.now() - t0;
  },
};`;

/** The renderer main thread's busy time so far (ms), from CDP Performance.getMetrics. */
async function cpu(cdp: CDPSession): Promise<number> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
  return (metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0) * 1000;
}

/** BENCH_MAP_PROFILE=1: each phase also prints where its JavaScript time went (CDP Profiler, self time by function). */
const PROFILE = process.env.BENCH_MAP_PROFILE === '1';

interface TraceEvent {
  name: string;
  ph: string;
  dur?: number;
  tid: number;
  pid: number;
  args?: { name?: string };
}

/** Where the renderer's main thread spent its time (trace events by name, summed over their own durations). */
async function traced<T>(page: Page, label: string, act: () => Promise<T>): Promise<T> {
  const browser = page.context().browser()!;
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'cc', 'gpu'] });
  const out = await act();
  const events = (JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] }).traceEvents;
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const byName = new Map<string, number>();
  for (const e of events) if (e.ph === 'X' && e.dur && (!main || (e.tid === main.tid && e.pid === main.pid))) byName.set(e.name, (byName.get(e.name) ?? 0) + e.dur / 1000);
  console.log(`trace of ${label} (renderer main thread, inclusive ms by event):`);
  for (const [k, v] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 18)) console.log(`  ${v.toFixed(0).padStart(7)} ms  ${k}`);
  return out;
}

async function profiled<T>(cdp: CDPSession, label: string, act: () => Promise<T>): Promise<T> {
  return PROFILE && label ? cpuProfiled(cdp, label, act) : act();
}

/**
 * The CPU time (ms) used so far by this process's descendants (Chromium's browser, renderer and GPU
 * processes, all their threads: raster and compositing included), from /proc; 0 where there is none.
 */
function chromiumCpu(): number {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return 0;
  }
  const parent = new Map<number, number>();
  const ticks = new Map<number, number>();
  for (const d of entries) {
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(d), Number(f[1]));
      ticks.set(Number(d), Number(f[11]) + Number(f[12]));
    } catch {
      // gone meanwhile
    }
  }
  const mine = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === process.pid) return true;
    return false;
  };
  let sum = 0;
  for (const [pid, t] of ticks) if (mine(pid)) sum += t;
  return (sum * 1000) / 100;
}

interface Cost {
  /** The renderer main thread's busy time (TaskDuration: wall time of its tasks, stretched by a loaded machine). */
  main: number;
  /** CPU time of every Chromium process and thread. */
  cpu: number;
}

/** Runs `act`, answering its result and what it cost meanwhile. */
async function withCpu<T>(cdp: CDPSession, act: () => Promise<T>, label = '', navigates = false): Promise<[T, Cost]> {
  const c0 = await cpu(cdp);
  const p0 = chromiumCpu();
  const out = await profiled(cdp, label, act);
  // A navigation starts a new page, whose TaskDuration starts at 0.
  return [out, { main: (await cpu(cdp)) - (navigates ? 0 : c0), cpu: chromiumCpu() - p0 }];
}

interface Drawn {
  ms: number;
  cells: number;
  inDom: number;
  boxes: number;
}

async function firstDraw(page: Page, url: string): Promise<Drawn> {
  await page.goto(url);
  return page.evaluate('benchTools.firstDraw()');
}

/** Frame intervals (ms) while `act` runs. */
async function frames(page: Page, act: () => Promise<void>): Promise<number[]> {
  await page.evaluate('benchTools.startFrames()');
  await act();
  return page.evaluate('benchTools.stopFrames()');
}

async function pan(page: Page): Promise<number[]> {
  // The top-left corner is blank (the fit leaves 32 px of padding): a drag there pans the map.
  return frames(page, async () => {
    await page.mouse.move(8, 8);
    await page.mouse.down();
    for (let i = 1; i <= 60; i++) await page.mouse.move(8 + i * 12, 8 + i * 6);
    for (let i = 59; i >= 0; i--) await page.mouse.move(8 + i * 12, 8 + i * 6);
    await page.mouse.up();
  });
}

async function zoom(page: Page): Promise<number[]> {
  return frames(page, async () => {
    await page.mouse.move(800, 450);
    for (let i = 0; i < 15; i++) await page.mouse.wheel(0, -120);
    for (let i = 0; i < 15; i++) await page.mouse.wheel(0, 120);
  });
}

/** Selecting an actor until its outline is the selection colour, painted. */
const highlight = (page: Page, key: string): Promise<number> => page.evaluate(`benchTools.highlight(${JSON.stringify(key)})`);

/** Switching the layout until the cells are moved and painted. */
const switchLayout = (page: Page, mode: string): Promise<number> => page.evaluate(`benchTools.switchLayout(${JSON.stringify(mode)})`);

const fps = (intervals: number[]) => (intervals.length ? 1000 / (intervals.reduce((a, b) => a + b, 0) / intervals.length) : 0);
const ms = (n: number) => `${n.toFixed(0)} ms`;

const server = await createServer({
  configFile: false,
  root: path.join(REPO_ROOT, 'bench', 'map'),
  plugins: [react()],
  resolve: { alias: { '@': path.join(REPO_ROOT, 'src') } },
  server: { port: 0, host: '127.0.0.1' },
  logLevel: 'error',
});
await server.listen();
const address = server.httpServer?.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
const load = () => os.loadavg().map((x) => x.toFixed(1)).join(' ');
const loadBefore = load();
const browser = await launchBrowser();
try {
  const context = await browser.newContext({ viewport: { width: 1600, height: 900 } });
  await context.addInitScript({ content: PAGE_TOOLS });
  const page = await context.newPage();
  page.setDefaultTimeout(180_000);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const url = `${base}?actors=${ACTORS}&devices=${DEVICES}&links=${LINKS}`;
  // A first visit warms Vite's transform cache (not timed), then RUNS timed first draws.
  await firstDraw(page, url);
  const draws: number[] = [];
  const drawCpu: Cost[] = [];
  let drawn: Drawn = { ms: 0, cells: 0, inDom: 0, boxes: 0 };
  for (let i = 0; i < RUNS; i++) {
    const [d, c] = await withCpu(cdp, () => (PROFILE && i === 1 ? traced(page, 'a first draw', () => firstDraw(page, url)) : firstDraw(page, url)), i ? '' : 'a first draw', true);
    drawn = d;
    draws.push(d.ms);
    drawCpu.push(c);
  }
  const layoutMs = await page.evaluate<number>('window.mapBench.layoutMs[0] ?? 0');
  // The view settles (and the layouts computed ahead while idle) before the gestures.
  await page.waitForTimeout(1500);
  const [panFrames, panCpu] = await withCpu(cdp, () => pan(page), 'pan');
  await page.waitForTimeout(500);
  const [zoomFrames, zoomCpu] = await withCpu(cdp, () => (PROFILE ? traced(page, 'zoom', () => zoom(page)) : zoom(page)), 'zoom');
  await page.waitForTimeout(500);
  const lights: number[] = [];
  const lightCpu: Cost[] = [];
  // Actors in view (after the pan and zoom).
  const shown = await page.evaluate<string[]>('window.mapBench.inView()');
  for (let i = 0; i < 10 && shown.length; i++) {
    const [t, c] = await withCpu(cdp, () => highlight(page, shown[Math.floor((i * shown.length) / 10)] as string), i ? '' : 'a highlight');
    lights.push(t);
    lightCpu.push(c);
  }
  const switches: [string, number, Cost][] = [];
  for (const mode of ['Organic', 'Structural', 'Standard']) {
    const [t, c] = await withCpu(cdp, () => switchLayout(page, mode), `the switch to ${mode}`);
    switches.push([mode, t, c]);
  }
  const cold: [string, number][] = [];
  for (const mode of ['Standard', 'Organic', 'Structural']) cold.push([mode, await page.evaluate<number>(`window.mapBench.coldLayout(${JSON.stringify(mode)})`)]);

  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  const costOf = (c: Cost) => `main thread ${ms(c.main)}, CPU ${ms(c.cpu)}`;
  const frameLine = (label: string, xs: number[], c: Cost) => {
    const s = sorted(xs);
    const f = fps(xs);
    const long = xs.filter((x) => x > 20).length;
    const per = (x: number) => (x / Math.max(1, xs.length)).toFixed(1);
    console.log(`${label.padEnd(34)} ${f.toFixed(1).padStart(6)} fps  frame p50 ${ms(percentile(s, 50))}, p95 ${ms(percentile(s, 95))}, max ${ms(Math.max(...s))} (${xs.length} frames, ${long} over 20 ms); a frame: main thread ${per(c.main)} ms, CPU ${per(c.cpu)} ms  goal >= 50 fps: ${f >= 50 ? 'met' : 'MISSED'}`);
  };
  const p50 = (xs: number[]) => ms(percentile(sorted(xs), 50));
  console.log(`Network map (Standard mode) in Chromium ${browser.version()} 1600x900: ${ACTORS} actors, ${DEVICES} devices, ${LINKS} links, 100 zones = ${drawn.cells} items and links (${drawn.inDom} X6 cells in the DOM, ${drawn.boxes} actors and devices drawn on the canvas); load average ${loadBefore} before, ${load()} after, ${os.cpus().length} cores`);
  const d = sorted(draws);
  console.log(`${'first draw (render -> painted)'.padEnd(34)} p50 ${ms(percentile(d, 50))}, min ${ms(d[0] ?? 0)}, max ${ms(Math.max(...d))} over ${RUNS} runs (Standard layout alone ${ms(layoutMs)}); the whole page load (module evaluation, layout, drawing) p50 main thread ${p50(drawCpu.map((c) => c.main))}, CPU ${p50(drawCpu.map((c) => c.cpu))}  goal <= 1000 ms: ${percentile(d, 50) <= 1000 ? 'met' : 'MISSED'}`);
  frameLine('pan (mouse drag, 120 moves)', panFrames, panCpu);
  frameLine('zoom (30 wheel steps)', zoomFrames, zoomCpu);
  const l = sorted(lights);
  console.log(`${'highlight (select an actor)'.padEnd(34)} p50 ${ms(percentile(l, 50))}, max ${ms(Math.max(...l))} over ${lights.length}; p50 main thread ${p50(lightCpu.map((c) => c.main))}, CPU ${p50(lightCpu.map((c) => c.cpu))}  goal <= 50 ms: ${percentile(l, 50) <= 50 ? 'met' : 'MISSED'}`);
  console.log(`${'layout switch (until painted)'.padEnd(34)} ${switches.map(([m, t, c]) => `${m} ${ms(t)} (${costOf(c)})`).join(', ')}  goal <= 1000 ms: ${switches.every(([, t]) => t <= 1000) ? 'met' : 'MISSED'}`);
  console.log(`${'layout computation, cold'.padEnd(34)} ${cold.map(([m, t]) => `${m} ${ms(t)}`).join(', ')} (a fresh copy of the map, nothing computed ahead)`);
  await context.close();
} finally {
  await browser.close();
  await server.close();
}
