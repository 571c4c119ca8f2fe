/**
 * The server tests' database template: a database migrated and holding one user per role, built once
 * per run by global-setup.ts; each test file starts its own copy of it instead of running every
 * migration (about 4 s on PGlite).
 * - PGlite (default): the template is dumped to a file; a copy opens with `loadDataDir` (about 2.5 s of
 *   CPU: the WASM start and the 44 MB data directory). A worker keeps the copies its files are done
 *   with (the server project does not isolate files) and hands one to its next file brought back to the
 *   template's rows instead (pglite-pool.ts: truncate and re-insert, about 0.1 s).
 * - PostgreSQL (TEST_DATABASE_URL): the template is a database; each file gets its own database,
 *   `create database ... template ...` (tens of ms), dropped when the file ends.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { inject } from 'vitest';
import { openPglite, openPostgres, type Db, type PgliteDb } from '../../server/db/index';
import { migrate } from '../../server/db/migrate';
import { ensureAdmin, ensureDemoUsers } from '../../server/seed/users';
import { PglitePool } from './pglite-pool';
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
    /** The dumped PGlite template's file ('' when the tests run against TEST_DATABASE_URL). */
    pgliteTemplate: string;
    /** The PostgreSQL template database's name ('' on PGlite). */
    postgresTemplate: string;
  }
}

/**
 * A password hash the director verifies like any other (scrypt, its parameters stored in the hash) but
 * with a cost of N=1024 instead of 16384: about 3 ms of CPU per sign-in instead of 50. The server tests
 * sign the template's users in hundreds of times per run (twice: PGlite and PostgreSQL). Hashes made
 * by the director itself (users created through the API, passwords changed, passwords.test.ts) keep
 * the production parameters, so those are still exercised.
 */
export function cheapPasswordHash(password: string): string {
  const salt = crypto.randomBytes(16);
  const params = { N: 1024, r: 8, p: 1 };
  const hash = crypto.scryptSync(password, salt, 64, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

/** Brings a database to the tests' starting point: every migration, one user per role with PASSWORD (hashed cheaply: cheapPasswordHash). */
export async function prepareTestDb(db: Db): Promise<void> {
  await migrate(db);
  await ensureAdmin(db, EMAILS.admin, PASSWORD);
  await ensureDemoUsers(db, PASSWORD);
  for (const email of Object.values(EMAILS)) await db.query('update users set password_hash = $1 where email = $2', [cheapPasswordHash(PASSWORD), email]);
}

function provided(key: 'pgliteTemplate' | 'postgresTemplate'): string | undefined {
  try {
    return inject(key) || undefined;
  } catch {
    return undefined;
  }
}

/** The template's file, or undefined when this run has none (e.g. a config without the global set-up). */
function templateFile(): string | undefined {
  return provided('pgliteTemplate');
}

/** `url` with another database name (same server, role and options). */
export function databaseUrl(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** A test database of its own: the Db, its URL on PostgreSQL (to open more handles, as another director would), and its removal. */
export interface TestDatabase {
  db: Db;
  /** The database's URL (PostgreSQL), undefined on PGlite in memory. */
  url: string | undefined;
  dispose(): Promise<void>;
}

/**
 * A fresh database at the tests' starting point: on TEST_DATABASE_URL a new database copied from the
 * run's template database (or migrated now without one), else a copy of the PGlite template.
 */
export async function openTestDatabase(): Promise<TestDatabase> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const { db, release } = await pglitePool.lease();
    return { db, url: undefined, dispose: release };
  }
  const name = `vigil_t_${Date.now().toString(36)}_${crypto.randomBytes(4).toString('hex')}`;
  const template = provided('postgresTemplate');
  const admin = await openPostgres(url);
  try {
    await admin.exec(template ? `create database ${name} template ${template}` : `create database ${name}`);
  } finally {
    await admin.close();
  }
  const own = databaseUrl(url, name);
  const db = await openPostgres(own);
  if (!template) await prepareTestDb(db);
  return {
    db,
    url: own,
    dispose: async () => {
      await db.close();
      const a = await openPostgres(url);
      try {
        await a.exec(`drop database if exists ${name} with (force)`);
      } finally {
        await a.close();
      }
    },
  };
}

/** A fresh in-memory PGlite at the tests' starting point: a copy of the template (or, without one, migrated now). */
async function openTemplateCopy(): Promise<PgliteDb> {
  const file = templateFile();
  if (file) return openPglite(undefined, await fs.openAsBlob(file));
  const db = await openPglite(undefined);
  await prepareTestDb(db);
  return db;
}

/** This worker's PGlite databases at the template's starting point (pglite-pool.ts). */
const pglitePool = new PglitePool(openTemplateCopy);
