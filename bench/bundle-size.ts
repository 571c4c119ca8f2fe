import { readFileSync } from 'node:fs';
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
  const seen = new Map<string, ManifestChunk>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.set(key, chunk);
    chunk.imports?.forEach(visit);
  };
  Object.entries(manifest)
    .filter(([, c]) => c.isEntry)
    .forEach(([k]) => visit(k));
  return [...seen.values()];
}

export interface Sizes {
  raw: number;
  gzip: number;
}
export function sizeOf(dist: string, files: readonly string[]): Sizes {
  return files.reduce(
    (acc, f) => {
      const data = readFileSync(path.join(dist, f));
      return { raw: acc.raw + data.length, gzip: acc.gzip + gzipSync(data, { level: 9 }).length };
    },
    { raw: 0, gzip: 0 },
  );
}
