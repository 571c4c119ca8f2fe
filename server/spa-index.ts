import fs from 'node:fs';
import path from 'node:path';
import type { SessionStateAnswer } from '../src/api/contracts/session';

/** The id of the script element that carries the session state (read by src/api/session-api.ts). */
export const SESSION_SCRIPT_ID = 'vigil-session';
/** The workbench's chunk (vite.config.ts names it; build-tools/workbench-chunk.ts fills it). */
const WORKBENCH_CHUNK = 'signed-in';
const CSRF_META = '<meta name="csrf-token" content="" />';

interface ManifestChunk {
  file: string;
  name?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

/**
 * JSON that is safe inside a `<script type="application/json">` element: no `<` (which could close the
 * element or open a comment), `>` or `&`, and no U+2028/2029; JSON.parse reads the escapes back.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The files a signed-in load needs beside the first download, from the build's manifest: the workbench's
 * chunk and its static imports (minus the entry's), so the browser fetches them beside the entry instead of
 * after it has run. None without a manifest (a test's page) or a workbench chunk.
 */
export function workbenchPreloads(staticDir: string): { js: string[]; css: string[] } {
  const file = path.join(staticDir, '.vite/manifest.json');
  if (!fs.existsSync(file)) return { js: [], css: [] };
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, ManifestChunk>;
  const graph = (keys: string[]) => {
    const seen = new Set<string>();
    const visit = (key: string) => {
      if (seen.has(key) || !manifest[key]) return;
      seen.add(key);
      manifest[key]!.imports?.forEach(visit);
    };
    keys.forEach(visit);
    return [...seen].map((k) => manifest[k]!);
  };
  const eager = new Set(graph(Object.keys(manifest).filter((k) => manifest[k]!.isEntry)).map((c) => c.file));
  const workbench = Object.keys(manifest).filter((k) => k === 'src/app/signed-in.tsx' || manifest[k]!.name === WORKBENCH_CHUNK);
  const chunks = graph(workbench).filter((c) => !eager.has(c.file));
  return { js: chunks.map((c) => c.file), css: [...new Set(chunks.flatMap((c) => c.css ?? []))] };
}

/**
 * index.html as the director sends it. The session's CSRF token goes into its meta tag. Signed in, the
 * session state the workbench's first render needs (the user, their rights, the CSRF token: what GET
 * /users/session.json answers) is inlined as JSON, and the workbench's chunks are named for preloading,
 * so a reload needs no call and no second wave of scripts before the workbench draws. Signed out, the page
 * says only `{"signed_in":false}`: no user, no token, no preloads.
 */
export function renderIndex(template: string, state: SessionStateAnswer, preloads: { js: string[]; css: string[] }): string {
  const token = state.signed_in ? state.environment.csrfToken : '';
  const head = [
    `<script id="${SESSION_SCRIPT_ID}" type="application/json">${scriptJson(state)}</script>`,
    ...(state.signed_in ? preloads.js.map((f) => `<link rel="modulepreload" crossorigin href="/${escapeAttr(f)}">`) : []),
    ...(state.signed_in ? preloads.css.map((f) => `<link rel="stylesheet" crossorigin href="/${escapeAttr(f)}">`) : []),
  ].join('\n    ');
  const html = template.replace(CSRF_META, `<meta name="csrf-token" content="${escapeAttr(token)}" />`);
  return html.includes('</head>') ? html.replace('</head>', `  ${head}\n  </head>`) : `${head}\n${html}`;
}

/**
 * Reads index.html and the manifest again only when the build changed (index.html's modification time),
 * so a director left running across `npm run build` serves the new build's names.
 */
export function spaTemplate(staticDir: string): () => { template: string; preloads: { js: string[]; css: string[] } } {
  const indexPath = path.join(staticDir, 'index.html');
  let cached: { mtime: number; template: string; preloads: { js: string[]; css: string[] } } | undefined;
  return () => {
    const mtime = fs.statSync(indexPath).mtimeMs;
    if (cached?.mtime !== mtime) cached = { mtime, template: fs.readFileSync(indexPath, 'utf8'), preloads: workbenchPreloads(staticDir) };
    return cached;
  };
}
