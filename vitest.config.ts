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
 * PostgreSQL pass (TEST_DATABASE_URL, scripts/with-test-postgres.sh) never runs them, as they would
 * only repeat the PGlite pass. Tests next to the code (server/**) open none; a test there that needs a
 * database belongs in tests/server/.
 */
const NO_DATABASE_FILES = ['server/**/*.test.ts', 'tests/server/actor-safety.test.ts', 'tests/server/library-index.test.ts', 'tests/server/pcap-replay.test.ts'];

/**
 * The server test files the PostgreSQL pass of `npm test` runs: PGlite is PostgreSQL itself (the same
 * parser, planner and SQL), so a file whose statements run one at a time on one connection, through a
 * code path that is the same on both drivers, proves nothing more the second time. A file goes here when
 * it has at least one of:
 * 1. a code path chosen by the driver: `db.kind` (the actors' claim, credential and recheck times, the
 *    engine's work check, the PCAP conversation rows), SHARED_FILES=database (the default on
 *    PostgreSQL), another director's changes seen through the database;
 * 2. concurrent writers: two directors or director processes on one database, calls at once that race
 *    for one row (deadlocks and serialization failures exist only there);
 * 3. the database layer itself: the write signal, the change feed, the seed, the session cache;
 * 4. SQL put together at run time from what a user asks (filters, search, reports) or one call of every
 *    route as every role (route-matrix): a statement PostgreSQL refuses but PGlite takes is caught here.
 * Every server file that opens a database runs on PostgreSQL with VIGIL_TEST_POSTGRES=all (worth it
 * after a change to server/db/ or a driver upgrade). The migrations run on PostgreSQL in every pass (the
 * run's template database, tests/server/global-setup.ts).
 */
const POSTGRES_FILES = [
  // 1. a path chosen by the driver
  'tests/server/actors.test.ts',
  'tests/server/engine.test.ts',
  'tests/server/engine-liveness.test.ts',
  'tests/server/engine-dispatch-batch.test.ts',
  'tests/server/engine-restart.test.ts',
  'tests/server/engine-pcap.test.ts',
  'tests/server/shared-files.test.ts',
  'tests/server/pcap-upload.test.ts',
  // 2. concurrent writers
  'tests/server/db-conflicts.test.ts',
  'tests/server/engine-directors.test.ts',
  'tests/server/monitors-scheduler.test.ts',
  'tests/server/engine-kill.test.ts',
  'tests/server/monitors-kill.test.ts',
  'tests/server/pcap-kill.test.ts',
  'tests/server/seed-runs.test.ts',
  'tests/server/admin-users.test.ts',
  'tests/server/auth.test.ts',
  // 3. the database layer
  'tests/server/write-signal.test.ts',
  'tests/server/db-pipeline.test.ts',
  'tests/server/change-feed.test.ts',
  'tests/server/seed.test.ts',
  'tests/server/session-cache.test.ts',
  // 4. SQL built at run time, every route
  'tests/server/filters.test.ts',
  'tests/server/search.test.ts',
  'tests/server/reports.test.ts',
  'tests/server/reports-rollups.test.ts',
  'tests/server/reports-filter-kinds.test.ts',
  'tests/server/route-matrix.test.ts',
];
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const allOnPostgres = process.env.VIGIL_TEST_POSTGRES === 'all';
/** A file name against LOOPBACK_ACTOR_FILES's patterns (their only wildcard is `*` within a name). */
const isActorFile = (file: string): boolean =>
  LOOPBACK_ACTOR_FILES.some((p) => new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`).test(file));
/** The two server projects' files: every one on PGlite; on PostgreSQL POSTGRES_FILES (or all that open a database). */
const serverFiles = onPostgres && !allOnPostgres ? POSTGRES_FILES.filter((f) => !isActorFile(f)) : ['server/**/*.test.ts', 'tests/server/**/*.test.ts'];
const actorFiles = onPostgres && !allOnPostgres ? POSTGRES_FILES.filter(isActorFile) : LOOPBACK_ACTOR_FILES;
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
          include: serverFiles,
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
          include: actorFiles,
          exclude: [...configDefaults.exclude, ...postgresSkips],
          // In parallel with the other projects' files (see LOOPBACK_ACTOR_FILES). Not isolated, as the
          // server project: a worker keeps the director's and the actor's modules for its next file.
          // Their state is per database or per agent (WeakMaps keyed by Db, ActorAgent instances), and a
          // file that changes process.env restores it. Measured alone (2026-11-27, quiet machine):
          // isolated 188 s and 292 s of CPU, not isolated 116 s and 127 s, the same 111 tests passing.
          isolate: false,
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
