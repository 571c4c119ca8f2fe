import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { REPO_ROOT, ADMIN_EMAIL, ADMIN_PASSWORD, DEMO_USER_PASSWORD, requireBuiltSpa, startDirector } from './director';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    adminEmail: string;
    adminPassword: string;
    demoUserPassword: string;
  }
}

/** Starts one director (SEED=demo, temporary DATA_DIR) for the whole e2e run; stops it afterwards. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  requireBuiltSpa();
  // Screenshots of an earlier run's failures would mislead: test-results/ holds this run's only.
  fs.rmSync(path.join(REPO_ROOT, 'test-results'), { recursive: true, force: true });
  const director = await startDirector();
  project.provide('baseUrl', director.url);
  project.provide('adminEmail', ADMIN_EMAIL);
  project.provide('adminPassword', ADMIN_PASSWORD);
  project.provide('demoUserPassword', DEMO_USER_PASSWORD);
  return async () => {
    await director.stop();
  };
}
