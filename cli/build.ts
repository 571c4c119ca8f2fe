/**
 * Bundles the terminal runner (vigil.ts with the command registry it runs) into one plain JavaScript
 * file, so it starts with `node` alone, without tsx compiling TypeScript at every start:
 *   npm run build:cli            -> dist-cli/vigil.cjs
 *   node dist-cli/vigil.cjs run FILE [--director URL] ...   (the same as `npm run vigil -- run ...`)
 * The CLI's tests build it the same way into their temporary directory.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleForNode } from '../scripts/node-bundle';

const here = path.dirname(fileURLToPath(import.meta.url));

export function buildVigilCli(outfile: string): void {
  bundleForNode(path.join(here, 'vigil.ts'), outfile);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = path.resolve(process.argv[2] ?? path.join(here, '../dist-cli/vigil.cjs'));
  buildVigilCli(out);
  console.log(`wrote ${path.relative(process.cwd(), out)}; run: node ${path.relative(process.cwd(), out)} run FILE [--director URL]`);
}
