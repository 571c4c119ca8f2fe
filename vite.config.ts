import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { precompress } from './build-tools/precompress';
import { bundleStats } from './build-tools/bundle-stats';
import { workbenchChunk } from './build-tools/workbench-chunk';
import { compileHints } from './build-tools/compile-hints';
import { dockviewThemes } from './build-tools/dockview-themes';

const root = fileURLToPath(new URL('.', import.meta.url));
/** The workbench's modules in one chunk (build-tools/workbench-chunk.ts): one round trip instead of four waves. */
const workbench = workbenchChunk(root, 'src/app/signed-in.tsx');
const directorUrl = process.env.VIGIL_DIRECTOR_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [dockviewThemes(path.join(root, 'src/styles.css')), react(), tailwindcss(), precompress(), bundleStats(), workbench.plugin, compileHints(['signed-in'])],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  // No source maps in the product build (VIGIL_SOURCEMAPS=1 keeps them); the manifest lists chunks for `npm run bench:bundle`.
  build: {
    outDir: 'dist',
    sourcemap: process.env.VIGIL_SOURCEMAPS === '1',
    manifest: true,
    chunkSizeWarningLimit: 700,
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'signed-in', test: workbench.test, includeDependenciesRecursively: false }] } } },
  },
  server: {
    // In development the SPA is served by Vite and every non-asset call goes to the director.
    proxy: Object.fromEntries(
      ['/users', '/environment.json', '/check_completed_background_processes', '/settings', '/manage_sims', '/jobs', '/reports', '/api', '/admin']
        .map((p) => [p, { target: directorUrl, changeOrigin: false, bypass: (req: { headers: { accept?: string } }) => (req.headers.accept?.includes('text/html') ? '/index.html' : undefined) }]),
    ),
  },
});
