import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPglite } from '../../server/db/index';
import { prepareTestDb } from './template';

/** The run's template, built once for both server projects and removed after the last one. */
let template: { file: Promise<string>; dir: string; users: number } | undefined;

async function buildTemplate(dir: string): Promise<string> {
  const file = path.join(dir, 'pglite.tar');
  const db = await openPglite(undefined);
  try {
    await prepareTestDb(db);
    const dump = await db.dumpDataDir();
    await fs.promises.writeFile(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await db.close();
  }
  return file;
}

/** Builds the migrated PGlite template once for the run (see template.ts); removes it afterwards. */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (process.env.TEST_DATABASE_URL) {
    project.provide('pgliteTemplate', '');
    return undefined;
  }
  if (!template) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-test-template-'));
    template = { dir, users: 0, file: buildTemplate(dir) };
  }
  const mine = template;
  mine.users++;
  project.provide('pgliteTemplate', await mine.file);
  return async () => {
    if (--mine.users > 0) return;
    if (template === mine) template = undefined;
    await fs.promises.rm(mine.dir, { recursive: true, force: true });
  };
}
