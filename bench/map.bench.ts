/**
 * `npm run bench:map`: the network map's default mode (Standard layout, map-canvas.tsx as the workbench
 * draws it with @antv/x6 SVG) on a generated map of BENCH_ACTORS actors (2,000), BENCH_DEVICES devices
 * (300) and BENCH_LINKS links (4,000) in 100 zones, in headless Chromium at 1600x900 (Vite serves
 * bench/map/, the component and layout straight from src/). Prints:
 *  - first draw: from the render call to every cell in the DOM and a frame painted after it;
 *  - pan: frame times while the mouse drags the blank map (X6 panning), zoom: frame times while the wheel zooms;
 *  - highlight: selecting an actor until its outline is drawn and painted;
 *  - layout switch: Standard -> Organic -> Structural -> Standard, each until the cells moved and painted.
 * A map of over 400 actors and devices is drawn virtually (map-canvas.tsx): links and zone fills on a
 * canvas layer, only the actors and devices in view are X6 cells in the DOM, so the first draw ends when
 * those are drawn, and highlight picks actors in view; pan and zoom move the canvas (the SVG is hidden
 * while the view moves and drawn again once it is still).
 * Goals (issue 22): first draw <= 1 s, pan and zoom >= 50 fps, layout switch <= 1 s. Nothing is asserted.
 * The sequence mode of the map (select_nodes) has its own bench (bench:select-nodes).
 */
import path from 'node:path';
import { createServer } from 'vite';
import react from '@vitejs/plugin-react';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../e2e/chromium';
import { REPO_ROOT } from '../e2e/director';
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
  // Drawn: the cells X6 draws are in the DOM (all of them, or, on a large map drawn virtually, those
  // in view: the count has not changed for 3 frames), then a frame painted. The time is the last
  // change of the count plus that paint.
  async firstDraw() {
    const since = performance.now();
    let last = -1;
    let changedAt = 0;
    let still = 0;
    for (;;) {
      const b = window.mapBench;
      const inDom = document.querySelectorAll('#map [data-cell-id]').length;
      if (inDom !== last) { last = inDom; changedAt = performance.now(); still = 0; } else still++;
      if (b && inDom > 0 && (inDom >= b.cells || still >= 3 || performance.now() - since > 120000)) {
        const t = performance.now();
        await this.painted();
        return { ms: changedAt - b.start + (performance.now() - t), cells: b.cells, inDom };
      }
      await this.frame();
    }
  },
  /** Actors drawn now (on a large map, those in view). */
  inView: () => [...document.querySelectorAll('#map [data-cell-id^="node_"]')].map((e) => e.getAttribute('data-cell-id')),
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
    while (document.querySelector('#map [data-cell-id="' + key + '"] rect')?.getAttribute('stroke') !== '#38bdf8') await this.frame();
    await this.painted();
    return performance.now() - t0;
  },
  async switchLayout(mode) {
    const t0 = performance.now();
    window.mapBench.mode(mode);
    // React renders, the canvas's effect moves every cell (place()), then a frame is painted.
    await this.frame();
    await this.frame();
    await this.painted();
    return performance.now() - t0;
  },
};`;

async function firstDraw(page: Page, url: string): Promise<{ ms: number; cells: number; inDom: number }> {
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
const browser = await launchBrowser();
try {
  const context = await browser.newContext({ viewport: { width: 1600, height: 900 } });
  await context.addInitScript({ content: PAGE_TOOLS });
  const page = await context.newPage();
  page.setDefaultTimeout(180_000);
  const url = `${base}?actors=${ACTORS}&devices=${DEVICES}&links=${LINKS}`;
  // A first visit warms Vite's transform cache (not timed), then RUNS timed first draws.
  await firstDraw(page, url);
  const draws: number[] = [];
  let cells = 0;
  let inDom = 0;
  for (let i = 0; i < RUNS; i++) {
    const d = await firstDraw(page, url);
    draws.push(d.ms);
    cells = d.cells;
    inDom = d.inDom;
  }
  const layoutMs = await page.evaluate<number>('window.mapBench.layoutMs[0] ?? 0');
  const panFrames = await pan(page);
  const zoomFrames = await zoom(page);
  const lights: number[] = [];
  // Actors drawn now (on a large map drawn virtually, those in view after the pan and zoom).
  const shown = await page.evaluate<string[]>(`benchTools.inView()`);
  for (let i = 0; i < 10 && shown.length; i++) lights.push(await highlight(page, shown[Math.floor((i * shown.length) / 10)] as string));
  const switches: [string, number][] = [];
  for (const mode of ['Organic', 'Structural', 'Standard']) switches.push([mode, await switchLayout(page, mode)]);

  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  const frameLine = (label: string, xs: number[]) => {
    const s = sorted(xs);
    const f = fps(xs);
    console.log(`${label.padEnd(34)} ${f.toFixed(1).padStart(6)} fps  frame p50 ${ms(percentile(s, 50))}, p95 ${ms(percentile(s, 95))}, max ${ms(Math.max(...s))} (${xs.length} frames)  goal >= 50 fps: ${f >= 50 ? 'met' : 'MISSED'}`);
  };
  console.log(`Network map (Standard mode, X6 SVG) in Chromium 1600x900: ${ACTORS} actors, ${DEVICES} devices, ${LINKS} links, 100 zones = ${cells} cells (${inDom} in the DOM)`);
  const d = sorted(draws);
  console.log(`${'first draw (render -> painted)'.padEnd(34)} p50 ${ms(percentile(d, 50))}, min ${ms(d[0] ?? 0)}, max ${ms(Math.max(...d))} over ${RUNS} runs (Standard layout alone ${ms(layoutMs)})  goal <= 1000 ms: ${percentile(d, 50) <= 1000 ? 'met' : 'MISSED'}`);
  frameLine('pan (mouse drag, 120 moves)', panFrames);
  frameLine('zoom (30 wheel steps)', zoomFrames);
  const l = sorted(lights);
  console.log(`${'highlight (select an actor)'.padEnd(34)} p50 ${ms(percentile(l, 50))}, max ${ms(Math.max(...l))} over ${lights.length}`);
  console.log(`${'layout switch (until painted)'.padEnd(34)} ${switches.map(([m, t]) => `${m} ${ms(t)}`).join(', ')}  goal <= 1000 ms: ${switches.every(([, t]) => t <= 1000) ? 'met' : 'MISSED'}`);
  await context.close();
} finally {
  await browser.close();
  await server.close();
}
