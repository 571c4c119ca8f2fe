import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { signIn } from '../cli/sign-in';
import { REPO_ROOT, ADMIN_EMAIL, ADMIN_PASSWORD, DEMO_USERS, DEMO_USER_PASSWORD, requireBuiltSpa, SEEDED_DIR_VARIABLE, seedDataDir, startDirector, bundleDirector, DIRECTOR_BUNDLE_VARIABLE } from './director';

/** A session global-setup opened: the cookie ("name=value") of the user with this email and password. */
export interface ProvidedSession {
  email: string;
  password: string;
  cookie: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** One shared director per worker (see sharedDirectorUrl in e2e/director.ts). */
    baseUrls: string[];
    adminEmail: string;
    adminPassword: string;
    demoUserPassword: string;
    /** Per shared director (its URL): one session per seeded user, reused by signIn (e2e/browser.ts). */
    sessions: Record<string, ProvidedSession[]>;
    /** The data directory seeded once for the run, which directors copy (seedDataDir in e2e/director.ts; e2e/setup.ts). */
    seededDir: string;
    /** The director bundled once for the run, which every director of the run runs (bundleDirector in e2e/director.ts; e2e/setup.ts). */
    directorBundle: string;
  }
}

/**
 * Starts one shared director (SEED=demo, its own temporary DATA_DIR and port) per worker for the whole
 * e2e run, so the files that run at the same time never share one, and signs each seeded user in once
 * on each; stops them afterwards.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  requireBuiltSpa();
  // Screenshots of an earlier run's failures would mislead: test-results/ holds this run's only.
  fs.rmSync(path.join(REPO_ROOT, 'test-results'), { recursive: true, force: true });
  // Every director of the run runs one bundle of the server (no tsx at each start).
  const bundle = await bundleDirector();
  process.env[DIRECTOR_BUNDLE_VARIABLE] = bundle;
  // The demo install is seeded once; the shared directors and the files' own directors start from copies.
  const seeded = await seedDataDir().catch(async (e: unknown) => {
    await fs.promises.rm(bundle, { force: true });
    throw e;
  });
  process.env[SEEDED_DIR_VARIABLE] = seeded;
  const removeRunFiles = () => Promise.all([fs.promises.rm(seeded, { recursive: true, force: true }), fs.promises.rm(bundle, { force: true })]);
  const workers = Math.max(1, project.config.maxWorkers);
  // The shared directors take the captures (e2e/pcap.e2e.ts): their parser is warmed up as in production.
  const started = await Promise.allSettled(Array.from({ length: workers }, () => startDirector({ PCAP_WARM_UP: '1' })));
  const directors = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await Promise.all(directors.map((d) => d.stop()));
    await removeRunFiles();
    throw failed.reason;
  }
  // Each seeded user signs in once per shared director; the tests reuse these sessions (e2e/browser.ts).
  const users = [{ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, ...Object.values(DEMO_USERS).map((email) => ({ email, password: DEMO_USER_PASSWORD }))];
  const sessions: Record<string, ProvidedSession[]> = {};
  try {
    for (const d of directors) {
      sessions[d.url] = await Promise.all(users.map(async (u) => ({ ...u, cookie: (await signIn(d.url, u.email, u.password)).cookie })));
    }
  } catch (e) {
    await Promise.all(directors.map((d) => d.stop()));
    await removeRunFiles();
    throw e;
  }
  project.provide('baseUrls', directors.map((d) => d.url));
  project.provide('sessions', sessions);
  project.provide('adminEmail', ADMIN_EMAIL);
  project.provide('adminPassword', ADMIN_PASSWORD);
  project.provide('demoUserPassword', DEMO_USER_PASSWORD);
  project.provide('seededDir', seeded);
  project.provide('directorBundle', bundle);
  return async () => {
    await Promise.all(directors.map((d) => d.stop()));
    await removeRunFiles();
  };
}
