import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '../../server/db/index';
import { databaseUrl, prepareTestDb } from './template';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The second number of this run's loopback addresses, 1..250 (tests/server/loopback.ts). */
    loopbackRun: number;
  }
}

/**
 * One number per Vitest run for its actors' loopback addresses (tests/server/loopback.ts):
 * VIGIL_TEST_LOOPBACK_RUN (scripts/test.sh gives each of its runs its own), otherwise one derived from
 * this process's id, so two runs on one machine (two worktrees) rarely meet.
 */
function loopbackRun(): number {
  const set = Number(process.env.VIGIL_TEST_LOOPBACK_RUN);
  if (Number.isInteger(set) && set >= 1 && set <= 250) return set;
  return 1 + (process.pid % 250);
}

/** The run's template, built once for both server projects and removed after the last one. */
let template: { ready: Promise<string>; remove: () => Promise<void>; users: number } | undefined;

async function buildPgliteTemplate(dir: string): Promise<string> {
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

/** Creates and migrates the template database on TEST_DATABASE_URL's server; no connection stays open on it (create database ... template needs that). */
async function buildPostgresTemplate(url: string, name: string): Promise<string> {
  const admin = await openPostgres(url);
  try {
    await admin.exec(`create database ${name}`);
  } finally {
    await admin.close();
  }
  const db = await openPostgres(databaseUrl(url, name));
  try {
    await prepareTestDb(db);
  } finally {
    await db.close();
  }
  return name;
}

async function dropPostgresTemplate(url: string, name: string): Promise<void> {
  const admin = await openPostgres(url);
  try {
    await admin.exec(`drop database if exists ${name} with (force)`);
  } finally {
    await admin.close();
  }
}

function newTemplate(): NonNullable<typeof template> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const name = `vigil_template_${process.pid}_${crypto.randomBytes(3).toString('hex')}`;
    return { users: 0, ready: buildPostgresTemplate(url, name), remove: () => dropPostgresTemplate(url, name) };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-test-template-'));
  return { users: 0, ready: buildPgliteTemplate(dir), remove: () => fs.promises.rm(dir, { recursive: true, force: true }) };
}

/** Builds the migrated template once for the run (see template.ts): a PGlite dump, or a PostgreSQL database on TEST_DATABASE_URL; removes it afterwards. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  template ??= newTemplate();
  const mine = template;
  mine.users++;
  const built = await mine.ready;
  const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
  project.provide('pgliteTemplate', onPostgres ? '' : built);
  project.provide('postgresTemplate', onPostgres ? built : '');
  project.provide('loopbackRun', loopbackRun());
  return async () => {
    if (--mine.users > 0) return;
    if (template === mine) template = undefined;
    await mine.remove();
  };
}
