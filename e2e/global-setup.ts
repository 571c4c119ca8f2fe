import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { REPO_ROOT, ADMIN_EMAIL, ADMIN_PASSWORD, DEMO_USER_PASSWORD, requireBuiltSpa, startDirector } from './director';

declare module 'vitest' {
  export interface ProvidedContext {
    /** One shared director per worker (see sharedDirectorUrl in e2e/director.ts). */
    baseUrls: string[];
    adminEmail: string;
    adminPassword: string;
    demoUserPassword: string;
  }
}

/**
 * Starts one shared director (SEED=demo, its own temporary DATA_DIR and port) per worker for the whole
 * e2e run, so the files that run at the same time never share one; stops them afterwards.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  requireBuiltSpa();
  // Screenshots of an earlier run's failures would mislead: test-results/ holds this run's only.
  fs.rmSync(path.join(REPO_ROOT, 'test-results'), { recursive: true, force: true });
  const workers = Math.max(1, project.config.maxWorkers);
  const started = await Promise.allSettled(Array.from({ length: workers }, () => startDirector()));
  const directors = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await Promise.all(directors.map((d) => d.stop()));
    throw failed.reason;
  }
  project.provide('baseUrls', directors.map((d) => d.url));
  project.provide('adminEmail', ADMIN_EMAIL);
  project.provide('adminPassword', ADMIN_PASSWORD);
  project.provide('demoUserPassword', DEMO_USER_PASSWORD);
  return async () => {
    await Promise.all(directors.map((d) => d.stop()));
  };
}
