/** The messages between the director's thread (pglite-remote.ts) and PGlite's (pglite-thread.ts). */
import type { PgliteAnswer } from './pglite';

/** What the director's thread asks of PGlite's thread (pglite-thread.ts); `id` pairs a request with its answer. */
export type PgliteRequest =
  | { id: number; op: 'query'; sql: string; params: unknown[]; name: string | undefined; tx: number | undefined }
  | { id: number; op: 'exec'; sql: string; tx: number | undefined }
  | { id: number; op: 'begin'; tx: number }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'dump' }
  | { id: number; op: 'close' };

/** PostgreSQL's error as it crosses the threads: its message and its fields (code, detail, constraint...). */
export type PgliteFailure = { message: string; fields: Record<string, unknown> };

export type PgliteReply =
  | { id: number; ok: true; answer?: PgliteAnswer<unknown>; dump?: ArrayBuffer }
  | { id: number; ok: false; error: PgliteFailure };

/** What PGlite's thread starts from: a data directory, or a dump of one (as `startPglite` takes them). */
export type PgliteStart = { dataDir: string | undefined; from: ArrayBuffer | undefined };

/** An Error with PostgreSQL's fields again, so callers read `code` as they would from PGlite itself. */
export function errorFrom(failure: PgliteFailure): Error {
  return Object.assign(new Error(failure.message), failure.fields);
}

/** An error as it can cross to the other thread: its message and own fields (functions dropped). */
export function failureOf(e: unknown): PgliteFailure {
  if (!(e instanceof Error)) return { message: String(e), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(e)) if (typeof v !== 'function' && typeof v !== 'object') fields[k] = v;
  return { message: e.message, fields };
}
