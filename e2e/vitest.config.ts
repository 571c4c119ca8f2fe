import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Browser tests: the real director and the built SPA, driven in Debian's Chromium (see e2e/director.ts).
 * Two files at a time, each worker with its own shared director (global-setup.ts, shared-director.ts);
 * the files that start their own director give it a free port and a temporary copy of the database
 * seeded once for the run (seedDataDir in e2e/director.ts).
 */
export default defineConfig({
  test: {
    name: 'e2e',
    root: fileURLToPath(new URL('..', import.meta.url)),
    environment: 'node',
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    setupFiles: ['e2e/setup.ts'],
    maxWorkers: 2,
    // Not isolated: a worker keeps the modules it loaded (Playwright, the helpers, the contracts) and its
    // Chromium (workerBrowser in e2e/browser.ts) for its next file. Each test still opens its own browser
    // context, and a file's own directors and state live in the file's module, which runs afresh.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
