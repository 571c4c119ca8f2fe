import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers';
import { SESSION_SCRIPT_ID, renderIndex, scriptJson } from '../../server/spa-index';
import type { SessionStateAnswer } from '@/api/contracts/session';

/** A stand-in build: index.html as Vite writes it and a manifest with the entry and the workbench's chunk. */
const INDEX = '<!doctype html><html><head><meta name="csrf-token" content="" /><script type="module" crossorigin src="/assets/index-A.js"></script></head><body><div id="root"></div></body></html>';
const MANIFEST = {
  'index.html': { file: 'assets/index-A.js', isEntry: true, imports: ['_runtime.js'], dynamicImports: ['_signed-in-B.js'], css: ['assets/index-C.css'] },
  '_runtime.js': { file: 'assets/runtime-R.js' },
  '_signed-in-B.js': { file: 'assets/signed-in-B.js', name: 'signed-in', isDynamicEntry: true, imports: ['_runtime.js', '_shared-D.js'] },
  '_shared-D.js': { file: 'assets/shared-D.js' },
};
const SESSION_SCRIPT = new RegExp(`<script id="${SESSION_SCRIPT_ID}" type="application/json">([^<]*)</script>`);
const HOSTILE_NAME = '</script><!--<script>alert(1)</script>& \u2028';

let t: TestServer;
let staticDir = '';
beforeAll(async () => {
  staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-spa-index-'));
  fs.mkdirSync(path.join(staticDir, '.vite'));
  fs.writeFileSync(path.join(staticDir, 'index.html'), INDEX);
  fs.writeFileSync(path.join(staticDir, '.vite/manifest.json'), JSON.stringify(MANIFEST));
  t = await startTestServer({ staticDir });
}, 120_000);
afterAll(async () => {
  await t?.close();
  fs.rmSync(staticDir, { recursive: true, force: true });
});

const page = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) } });
const inlined = (html: string) => JSON.parse(SESSION_SCRIPT.exec(html)?.[1] ?? 'null') as SessionStateAnswer | null;

describe("the director's page inlines the session state a first render needs (issue 22.1)", () => {
  it('signed out: only {"signed_in":false}, no token, no preloads, and the page may be kept (no-cache, not no-store)', async () => {
    const res = await page('/jobs');
    expect(res.statusCode).toBe(200);
    expect(inlined(res.body)).toEqual({ signed_in: false });
    expect(res.body).toContain('<meta name="csrf-token" content="" />');
    expect(res.body).not.toContain('modulepreload');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(String(res.headers.vary)).toContain('Cookie');
  });

  it('signed in: the environment (user, rights, CSRF token) inlined, the workbench chunks preloaded, never stored', async () => {
    const session = await t.signIn('operator');
    const res = await page('/', session.cookie);
    const state = inlined(res.body);
    expect(state?.signed_in).toBe(true);
    if (!state?.signed_in) return;
    expect(state.environment.csrfToken).toBe(session.csrfToken);
    expect(state.environment.user.email).toBe(session.answer.user.email);
    expect(state.environment.user_rights).toEqual(session.answer.environment.user_rights);
    expect(res.body).toContain(`<meta name="csrf-token" content="${session.csrfToken}" />`);
    // The workbench's chunk and what it imports beyond the entry's graph; the entry's own files are not repeated.
    expect(res.body).toContain('<link rel="modulepreload" crossorigin href="/assets/signed-in-B.js">');
    expect(res.body).toContain('<link rel="modulepreload" crossorigin href="/assets/shared-D.js">');
    expect(res.body).not.toContain('href="/assets/runtime-R.js"');
    expect(res.headers['cache-control']).toBe('no-store');
    // The same answer as the call the page replaces.
    const call = await t.call('GET', '/users/session.json', { as: session });
    expect(state).toEqual(call.json());
  });

  it('a user whose name closes the script element or opens a comment cannot break out of it: the JSON is escaped and reads back the same', async () => {
    await t.createUser('hostile@example.com', 'viewer', 'Correct-Horse-Battery-9');
    await t.db.query('update users set first_name = $1 where email = $2', [HOSTILE_NAME, 'hostile@example.com']);
    const session = await t.signIn({ email: 'hostile@example.com', password: 'Correct-Horse-Battery-9' });
    const res = await page('/', session.cookie);
    expect(res.body.split('</script>').length - 1, 'only the two script elements close').toBe(2);
    expect(res.body).not.toContain('<!--');
    const state = inlined(res.body);
    expect(state?.signed_in && state.environment.user.first_name).toBe(HOSTILE_NAME);
  });

  it('scriptJson leaves no <, >, & or line separator in the text, and JSON.parse reads the value back', () => {
    const value = { a: HOSTILE_NAME, b: '\u2029' };
    const text = scriptJson(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
    // A page without a head still gets the element (first), and a signed-out one no preloads.
    expect(renderIndex('<div></div>', { signed_in: false }, { js: ['assets/x.js'], css: [] })).toBe(`<script id="${SESSION_SCRIPT_ID}" type="application/json">{"signed_in":false}</script>\n<div></div>`);
  });
});
