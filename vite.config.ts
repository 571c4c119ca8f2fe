import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const directorUrl = process.env.VIGIL_DIRECTOR_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: { outDir: 'dist', sourcemap: true, chunkSizeWarningLimit: 2000 },
  server: {
    // In development the SPA is served by Vite and every non-asset call goes to the director.
    proxy: Object.fromEntries(
      ['/users', '/environment.json', '/check_completed_background_processes', '/settings', '/manage_sims', '/jobs', '/reports', '/api', '/admin']
        .map((p) => [p, { target: directorUrl, changeOrigin: false, bypass: (req: { headers: { accept?: string } }) => (req.headers.accept?.includes('text/html') ? '/index.html' : undefined) }]),
    ),
  },
});
