import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPglite } from '../../server/db/index';
import { prepareTestDb } from './template';

/** Builds the migrated PGlite template once for the run (see template.ts); removes it afterwards. */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (process.env.TEST_DATABASE_URL) {
    project.provide('pgliteTemplate', '');
    return undefined;
  }
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'vigil-test-template-'));
  const file = path.join(dir, 'pglite.tar');
  const db = await openPglite(undefined);
  try {
    await prepareTestDb(db);
    const dump = await db.dumpDataDir();
    await fs.promises.writeFile(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await db.close();
  }
  project.provide('pgliteTemplate', file);
  return async () => {
    await fs.promises.rm(dir, { recursive: true, force: true });
  };
}
