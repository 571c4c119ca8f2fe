/** PGlite as the director opens it: PGlite's own start parameters, and a buffer cache of 32 MB (server/db/index.ts). */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPglite, type PgliteDb } from '../../server/db/index';

let db: PgliteDb;
beforeAll(async () => {
  db = await openPglite(undefined);
}, 120_000);
afterAll(async () => {
  await db?.close();
});

it('the buffer cache is 32 MB, and PGlite keeps its own start parameters', async () => {
  const show = async (name: string) => (await db.query<Record<string, string>>(`show ${name}`))[0]?.[name];
  expect(await show('shared_buffers')).toBe('32MB');
  // From PGlite's defaults (max_worker_processes=0, search_path=public), which the director's parameters extend.
  expect(await show('max_worker_processes')).toBe('0');
  expect(await show('search_path')).toBe('public');
});
