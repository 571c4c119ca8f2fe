/**
 * Bundles the parser CLI (cli.ts with the director's parser modules) into one plain JavaScript file,
 * so it runs with `node` alone, without tsx compiling TypeScript at every start:
 *   npm run build:pcap-cli            -> dist-cli/pcap-cli.cjs
 * The benchmark builds it the same way into its temporary directory.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleForNode } from '../../scripts/node-bundle';

const here = path.dirname(fileURLToPath(import.meta.url));

export function buildPcapCli(outfile: string): void {
  bundleForNode(path.join(here, 'cli.ts'), outfile);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = path.resolve(process.argv[2] ?? path.join(here, '../../dist-cli/pcap-cli.cjs'));
  buildPcapCli(out);
  console.log(`wrote ${path.relative(process.cwd(), out)}; run: node ${path.relative(process.cwd(), out)} FILE [--stats]`);
}
