import { buildSync } from 'esbuild';

/**
 * Bundles a TypeScript entry and what it imports into one plain CommonJS file that runs with `node`
 * alone, without tsx compiling TypeScript at every start (the `@/` alias comes from tsconfig.json).
 * esbuild comes with tsx. Used by the parser CLI (server/pcap/build-cli.ts) and the terminal runner
 * (cli/build.ts).
 */
export function bundleForNode(entry: string, outfile: string): void {
  buildSync({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: false,
    logLevel: 'warning',
  });
}
