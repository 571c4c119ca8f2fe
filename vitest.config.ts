import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

const alias = { '@': fileURLToPath(new URL('./src', import.meta.url)) };

/**
 * Server test files whose real actors (in-process agents or actor processes) serve fixed ports (53,
 * 25, 80, the demo content's ports, ...) on loopback addresses. Each Vitest worker gives its actors a
 * loopback network of its own (tests/server/loopback.ts: 127.RUN.WORKER.0/24), so these files run in
 * parallel like the others, and beside another run (the PostgreSQL pass) or a director's own local
 * actors on 127.0.0.2 and 127.0.0.3. A new file that starts actors (startEngineWorld,
 * usePcapEngineWorld, ActorAgent, startActorProcess) goes here and takes its addresses from loopback.ts.
 */
const LOOPBACK_ACTOR_FILES = [
  'tests/server/actor-safety.test.ts',
  'tests/server/actors.test.ts',
  'tests/server/engine*.test.ts',
  'tests/server/monitors-scheduler.test.ts',
  'tests/server/monitors-work.test.ts',
  'tests/server/pcap-replay.test.ts',
  'tests/server/run-unlock.test.ts',
  'tests/server/seed-runs.test.ts',
];

/**
 * Server test files that open no database (parsers, planners, the actor against a fake director): the
 * PostgreSQL pass (TEST_DATABASE_URL, scripts/with-test-postgres.sh) leaves them out, as they would
 * only repeat the PGlite pass. Tests next to the code (server/**) open none; a test there that needs a
 * database belongs in tests/server/.
 */
const NO_DATABASE_FILES = ['server/**/*.test.ts', 'tests/server/actor-safety.test.ts', 'tests/server/library-index.test.ts', 'tests/server/pcap-replay.test.ts'];
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const postgresSkips = onPostgres ? NO_DATABASE_FILES : [];

/**
 * Four projects (see docs/contributing.md, "Tests"):
 * - unit-dom: component tests (*.test.tsx) in jsdom, with Testing Library's cleanup after each test;
 * - unit: plain *.test.ts in node (no jsdom start-up); a .ts test that needs the DOM says so in its
 *   first line with `// @vitest-environment jsdom`;
 * - server: the director's tests, each file on its own fresh database, files in parallel;
 * - server-actors: the server tests with real actors on loopback addresses (loopback.ts), isolated.
 * `npm run test:unit` runs both unit projects (`--project 'unit*'`), `npm run test:server` both
 * server projects (`--project 'server*'`).
 */
export default defineConfig({
  test: {
    // Vitest's default on this 2-core machine is one worker (cores - 1): run two files at a time.
    maxWorkers: 2,
    projects: [
      {
        plugins: [react()],
        resolve: { alias },
        test: {
          name: 'unit-dom',
          environment: 'jsdom',
          include: ['src/**/*.test.tsx', 'tests/unit/**/*.test.tsx'],
          pool: 'vmThreads',
          setupFiles: ['tests/setup-vm.ts', 'tests/setup-dom.ts'],
          // A few component tests type whole forms (5 s each under a load average of 15); the default
          // 5 s limit made them fail on a busy machine though nothing was wrong.
          testTimeout: 20000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'unit',
          environment: 'node',
          pool: 'vmThreads',
          setupFiles: ['tests/setup-vm.ts'],
          include: ['src/**/*.test.ts', 'tests/unit/**/*.test.ts'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts', 'tests/server/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...LOOPBACK_ACTOR_FILES, ...postgresSkips],
          // Migrates one PGlite database once and dumps it; each file opens its own copy (tests/server/template.ts).
          globalSetup: ['tests/server/global-setup.ts'],
          // Files run in parallel: each opens its own in-memory PGlite (or its own schema of
          // TEST_DATABASE_URL), listens on port 0 and uses its own temporary directories.
          // Not isolated: a worker keeps the modules it loaded (PGlite, Fastify, the routes) for its
          // next file, which then opens its database in about half the time. Server state is per
          // database (WeakMaps keyed by Db), and a file that changes process.env or spies restores it.
          isolate: false,
          testTimeout: 30000,
          // Set-up opens a PGlite (WASM start and initdb); two files open theirs at once here, and on
          // this shared 2-core machine one open was measured at 22-65 s under a load average of 15-20.
          hookTimeout: 120000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'server-actors',
          environment: 'node',
          include: LOOPBACK_ACTOR_FILES,
          exclude: [...configDefaults.exclude, ...postgresSkips],
          // In parallel with the other projects' files (see LOOPBACK_ACTOR_FILES); each file gets fresh
          // modules (the actors' process-wide state stays with their file).
          globalSetup: ['tests/server/global-setup.ts'],
          testTimeout: 30000,
          // As the server project: two files set up at once (a database, a director, actors), and on a
          // loaded machine (load average 20) one set-up took over 60 s.
          hookTimeout: 120000,
        },
      },
    ],
  },
});
