import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|wasm)$/;
/** Files smaller than this are not worth a second copy. */
const MIN_BYTES = 1024;

/** Writes `x.br` and `x.gz` beside every compressible built file, so the director serves them without compressing per request. */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'vigil-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle(_options, bundle) {
      const files = [...Object.keys(bundle)].filter((f) => COMPRESSIBLE.test(f));
      await Promise.all(
        files.map(async (f) => {
          const file = path.join(outDir, f);
          const data = await fs.readFile(file);
          if (data.length < MIN_BYTES) return;
          await fs.writeFile(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }));
          await fs.writeFile(`${file}.gz`, gzipSync(data, { level: 9 }));
        }),
      );
    },
  };
}
