import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { COMPILE_HINT } from '../build-tools/compile-hints';
import { eagerChunks, readManifest, sizeOf, staticGraph, workbenchKey, workbenchKeys } from '../bench/bundle-size';
import { signIn, useBrowser } from './browser';
import { startPaneHeading, throttle, workbenchReady } from './chromium';
import { STATIC_DIR } from './director';
import { sharedDirectorUrl } from './shared-director';

const baseUrl = sharedDirectorUrl();
const adminEmail = inject('adminEmail');
const adminPassword = inject('adminPassword');

/** Budgets of issue 22 (gzip, as bench:bundle prints them). */
const INITIAL_JS_GZIP = 250 * 1024;
const INITIAL_CSS_GZIP = 40 * 1024;
// Issue 22: a cold load transfers under 300 KB before the workbench is usable. The session's merge
// (integrations pane, undo toasts, palette typeahead, shared map) had brought it to 300.3 KB in 25 files;
// the workbench's modules in one chunk (build-tools/workbench-chunk.ts) made it 297.7 KB in 6; without
// TanStack Router, dockview's unused themes and the eager script language it is 268.6 KB (31 KB of headroom).
const WORKBENCH_GZIP = 300 * 1024;

/** Modules that must only load on first use, by their name in Vite's manifest (the workbench: its chunk's key). */
const LAZY_MODULES = [
  'src/commands/palette.tsx',
  'src/features/auth/user-menu.tsx',
  'src/features/network-map/network-map-pane.tsx',
  'src/features/action-library/code-view.tsx',
  'src/features/reports/pdf-report.ts',
  'src/features/reports/image-export.ts',
  'src/features/reports/dashboard-pane.tsx',
];
/** Text only the heavy libraries carry (X6's CSS class, jsPDF, html2canvas, uPlot, dockview's root class). */
const LIBRARY_MARKS = { X6: 'x6-graph', jsPDF: 'jsPDF', html2canvas: 'html2canvas', uPlot: 'uplot', dockview: 'dv-dockview' };

/** The session state the director inlined in its page (server/spa-index.ts), parsed. */
const sessionIn = (html: string): unknown => JSON.parse(/<script id="vigil-session" type="application\/json">([^<]*)<\/script>/.exec(html)?.[1] ?? 'null');

describe('first load', () => {
  const manifest = readManifest(STATIC_DIR);
  const eager = eagerChunks(manifest);
  const eagerJs = [...new Set(eager.map((c) => c.file))].filter((f) => f.endsWith('.js'));
  const workbench = staticGraph(manifest, workbenchKeys(manifest));
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  // The code of these chunks, without the file names of their lazy imports (Vite's preload map lists them).
  const codeOf = (files: readonly string[]) => files.map((f) => fs.readFileSync(path.join(STATIC_DIR, f), 'utf8').replace(/assets\/[\w.-]+\.(js|css)/g, '')).join('\n');

  it('the first download (the entry and its static imports) holds none of the lazy modules, which are their own chunks', () => {
    const eagerFiles = new Set(eager.map((c) => c.file));
    for (const name of LAZY_MODULES) {
      const chunk = manifest[name];
      expect(chunk?.isDynamicEntry, `${name} is loaded by import()`).toBe(true);
      expect(eagerFiles.has(chunk!.file), `${name} is not in the first download`).toBe(false);
    }
    // The workbench (src/app/signed-in.tsx and the modules only it needs) is one chunk the entry imports dynamically.
    const entry = Object.values(manifest).find((c) => c.isEntry)!;
    const wb = workbenchKey(manifest);
    expect(entry.dynamicImports, 'the workbench is loaded by import()').toContain(wb);
    expect(eagerFiles.has(manifest[wb]!.file), 'the workbench is not in the first download').toBe(false);
    expect(staticGraph(manifest, [wb]).filter((c) => c.file.endsWith('.js') && !eagerFiles.has(c.file)).length, 'the workbench needs at most two files beside the first download').toBeLessThanOrEqual(2);
    const eagerText = codeOf(eagerJs);
    for (const [library, mark] of Object.entries(LIBRARY_MARKS)) expect(eagerText.includes(mark), `${library} is not in the first download`).toBe(false);
    // The workbench itself (dockview and the commands) needs none of the heavy pane libraries either.
    const workbenchText = codeOf(workbench.map((c) => c.file).filter((f) => f.endsWith('.js')));
    for (const library of ['X6', 'jsPDF', 'html2canvas', 'uPlot'] as const) expect(workbenchText.includes(LIBRARY_MARKS[library]), `${library} is not needed before the workbench is usable`).toBe(false);
  });

  it('the first download stays within budget: JS <= 250 KB gzip, CSS <= 40 KB gzip, everything before a usable workbench <= 300 KB gzip', () => {
    const js = sizeOf(STATIC_DIR, eagerJs).gzip;
    const css = sizeOf(STATIC_DIR, [...new Set(eager.flatMap((c) => c.css ?? []))]).gzip;
    const files = [...new Set([...workbench.map((c) => c.file), ...workbench.flatMap((c) => c.css ?? []), 'index.html'])];
    const usable = sizeOf(STATIC_DIR, files).gzip;
    expect(js, `initial JS ${kb(js)} gzip`).toBeLessThanOrEqual(INITIAL_JS_GZIP);
    expect(css, `initial CSS ${kb(css)} gzip`).toBeLessThanOrEqual(INITIAL_CSS_GZIP);
    expect(usable, `to a usable workbench ${kb(usable)} gzip`).toBeLessThanOrEqual(WORKBENCH_GZIP);
  });

  it("the workbench's chunk starts with V8's compile hint: its functions are compiled with the file, while the user types", () => {
    const file = manifest[workbenchKey(manifest)]!.file;
    expect(fs.readFileSync(path.join(STATIC_DIR, file), 'utf8').split('\n', 1)[0]).toBe(COMPILE_HINT);
  });

  it('the director answers the main script brotli- or gzip-encoded with Vary: Accept-Encoding, and serves no source map', async () => {
    const entry = Object.values(manifest).find((c) => c.isEntry)!;
    const raw = fs.readFileSync(path.join(STATIC_DIR, entry.file));
    const asked = async (encoding: string) => {
      const res = await fetch(`${baseUrl}/${entry.file}`, { headers: { 'Accept-Encoding': encoding } });
      return { status: res.status, encoding: res.headers.get('content-encoding'), vary: res.headers.get('vary') ?? '', body: Buffer.from(await res.arrayBuffer()) };
    };
    const br = await asked('br, gzip');
    expect(br.status).toBe(200);
    expect(br.encoding).toBe('br');
    expect(br.vary.toLowerCase()).toContain('accept-encoding');
    // fetch decodes the body: it is the built file, byte for byte.
    expect(br.body.equals(raw)).toBe(true);
    const gz = await asked('gzip');
    expect(gz.encoding).toBe('gzip');
    expect(gz.body.equals(raw)).toBe(true);
    const map = await fetch(`${baseUrl}/${entry.file}.map`);
    expect(map.status).toBe(404);
  });

  it("the director's page: signed out it says only {\"signed_in\":false} and may be kept; hashed assets are immutable", async () => {
    const res = await fetch(`${baseUrl}/jobs`, { headers: { Accept: 'text/html' } });
    const html = await res.text();
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(sessionIn(html)).toEqual({ signed_in: false });
    expect(html).toContain('<meta name="csrf-token" content="" />');
    expect(html).not.toContain(adminEmail);
    expect(html, 'no workbench preloads for a signed-out page').not.toContain(manifest[workbenchKey(manifest)]!.file);
    const entry = Object.values(manifest).find((c) => c.isEntry)!;
    const asset = await fetch(`${baseUrl}/${entry.file}`);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  describe('in Chromium under 4x CPU slowdown and a "Fast 3G" network', () => {
    const b = useBrowser(() => baseUrl);

    it('a user signs in and the workbench loads: the top bar, the Start pane, then the palette on Ctrl+K', async () => {
      const { page, context } = b;
      context.setDefaultTimeout(60_000);
      await throttle(page);
      await signIn(page, adminEmail, adminPassword);
      await startPaneHeading(page).waitFor();
      expect(await workbenchReady(page).isVisible()).toBe(true);
      // The user menu arrives after the workbench (its name is shown until then).
      await page.getByRole('button', { name: 'User menu for Ada Admin' }).waitFor();
      await page.keyboard.press('Control+k');
      await page.getByRole('combobox', { name: 'Command palette' }).or(page.getByLabel('Command palette')).first().waitFor();
      expect(await page.getByLabel('Command palette').first().isVisible()).toBe(true);
    });

    it("signed in, the page carries the session (escaped, never stored) and preloads the workbench's chunk: a reload makes no session call", async () => {
      const { page, context } = b;
      context.setDefaultTimeout(60_000);
      await signIn(page, adminEmail, adminPassword);
      const res = await page.request.get('/', { headers: { Accept: 'text/html' } });
      const html = await res.text();
      expect(res.headers()['cache-control']).toBe('no-store');
      const state = sessionIn(html) as { signed_in: true; environment: { csrfToken: string; user: { email: string } } };
      expect(state.signed_in).toBe(true);
      expect(state.environment.user.email).toBe(adminEmail);
      expect(html).toContain(`<meta name="csrf-token" content="${state.environment.csrfToken}" />`);
      // The JSON text has no character that could end the element or open a comment.
      expect(/<script id="vigil-session" type="application\/json">([^<]*)<\/script>/.test(html)).toBe(true);
      expect(html).toContain(`<link rel="modulepreload" crossorigin href="/${manifest[workbenchKey(manifest)]!.file}">`);

      await throttle(page);
      const calls: string[] = [];
      page.on('request', (r) => calls.push(new URL(r.url()).pathname));
      await page.reload();
      await startPaneHeading(page).waitFor();
      expect(await workbenchReady(page).isVisible()).toBe(true);
      expect(calls.filter((c) => c === '/users/session.json' || c === '/environment.json'), 'no session call on a signed-in load').toEqual([]);
      expect(await page.locator('#vigil-session').count(), 'the page read its session and dropped the element').toBe(0);
    });
  });
});
