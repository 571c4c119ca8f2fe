/**
 * The server tests' database template: a PGlite database migrated and holding one user per role,
 * built once per run by global-setup.ts and dumped to a file; each test file starts its own copy of
 * it (`loadDataDir`, under 1 s) instead of running initdb and every migration (about 4 s).
 */
import fs from 'node:fs';
import { inject } from 'vitest';
import { openPglite, type Db } from '../../server/db/index';
import { migrate } from '../../server/db/migrate';
import { ensureAdmin, ensureDemoUsers } from '../../server/seed/users';
import type { Role } from '@/api/contracts/permissions';

export const PASSWORD = 'correct horse battery staple';

export const EMAILS: Record<Role, string> = {
  admin: 'admin@example.com',
  approver: 'approver@example.com',
  operator: 'operator@example.com',
  viewer: 'viewer@example.com',
};

declare module 'vitest' {
  export interface ProvidedContext {
    /** The dumped template's file ('' when the tests run against TEST_DATABASE_URL). */
    pgliteTemplate: string;
  }
}

/** Brings a database to the tests' starting point: every migration, one user per role with PASSWORD. */
export async function prepareTestDb(db: Db): Promise<void> {
  await migrate(db);
  await ensureAdmin(db, EMAILS.admin, PASSWORD);
  await ensureDemoUsers(db, PASSWORD);
}

/** The template's file, or undefined when this run has none (e.g. a config without the global set-up). */
export function templateFile(): string | undefined {
  try {
    return inject('pgliteTemplate') || undefined;
  } catch {
    return undefined;
  }
}

/** A fresh in-memory PGlite at the tests' starting point: a copy of the template (or, without one, migrated now). */
export async function openTemplateCopy(): Promise<Db> {
  const file = templateFile();
  const db = await openPglite(undefined, file ? await fs.openAsBlob(file) : undefined);
  await prepareTestDb(db);
  return db;
}
