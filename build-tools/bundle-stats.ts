import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

/** One chunk of the build with the rendered bytes of each module in it (after tree-shaking, before minifying). */
export interface ChunkStats {
  file: string;
  isEntry: boolean;
  imports: string[];
  dynamicImports: string[];
  modules: Record<string, number>;
}

/**
 * `vite build --mode stats` writes `.vite/bundle-stats.json` (read by `npm run bench:bundle -- --modules`):
 * which module weighs how much in which chunk, so the heavy ones left in the first download can be named.
 */
export function bundleStats(): Plugin {
  let enabled = false;
  let outDir = 'dist';
  let root = process.cwd();
  return {
    name: 'vigil-bundle-stats',
    apply: 'build',
    configResolved(config) {
      enabled = config.mode === 'stats';
      outDir = path.resolve(config.root, config.build.outDir);
      root = config.root;
    },
    async writeBundle(_options, bundle) {
      if (!enabled) return;
      const chunks: ChunkStats[] = [];
      for (const out of Object.values(bundle)) {
        if (out.type !== 'chunk') continue;
        const modules: Record<string, number> = {};
        for (const [id, m] of Object.entries(out.modules)) modules[path.relative(root, id).replace(/\0/g, '')] = m.renderedLength;
        chunks.push({ file: out.fileName, isEntry: out.isEntry, imports: out.imports, dynamicImports: out.dynamicImports, modules });
      }
      await fs.mkdir(path.join(outDir, '.vite'), { recursive: true });
      await fs.writeFile(path.join(outDir, '.vite/bundle-stats.json'), JSON.stringify(chunks));
    },
  };
}
