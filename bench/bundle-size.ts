import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** One entry of Vite's `.vite/manifest.json`. */
export interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export const readManifest = (dist: string): Manifest => JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Manifest;

/** The chunks the first page load fetches: the entry and what it imports statically, never dynamic imports. */
export function eagerChunks(manifest: Manifest): ManifestChunk[] {
  return staticGraph(
    manifest,
    Object.entries(manifest)
      .filter(([, c]) => c.isEntry)
      .map(([k]) => k),
  );
}

/** The chunks of the given manifest keys (source paths) and everything they import statically. */
export function staticGraph(manifest: Manifest, keys: readonly string[]): ManifestChunk[] {
  const seen = new Map<string, ManifestChunk>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.set(key, chunk);
    chunk.imports?.forEach(visit);
  };
  keys.forEach(visit);
  return [...seen.values()];
}

/**
 * The manifest key of the workbench's chunk: `src/app/signed-in.tsx` with the modules only the workbench
 * needs, one chunk named `signed-in` (build-tools/workbench-chunk.ts), keyed by its file since it
 * holds several modules.
 */
export function workbenchKey(manifest: Manifest): string {
  if (manifest['src/app/signed-in.tsx']) return 'src/app/signed-in.tsx';
  const key = Object.keys(manifest).find((k) => manifest[k]!.name === 'signed-in');
  if (!key) throw new Error('No workbench chunk (src/app/signed-in.tsx, or the chunk named signed-in) in the Vite manifest');
  return key;
}

/** The modules a signed-in first load needs before the workbench is usable: the shell, the workbench and its Start pane. */
export const workbenchKeys = (manifest: Manifest): string[] => ['index.html', workbenchKey(manifest)];

export interface Sizes {
  raw: number;
  gzip: number;
  /** What the director sends to a browser that accepts br: the build's `.br` copy, or the file itself when too small to have one. */
  br: number;
}
export function sizeOf(dist: string, files: readonly string[]): Sizes {
  return files.reduce(
    (acc, f) => {
      const file = path.join(dist, f);
      const data = readFileSync(file);
      const br = existsSync(`${file}.br`) ? statSync(`${file}.br`).size : data.length;
      return { raw: acc.raw + data.length, gzip: acc.gzip + gzipSync(data, { level: 9 }).length, br: acc.br + br };
    },
    { raw: 0, gzip: 0, br: 0 },
  );
}
