/**
 * An actor's status as the director knows it: the one place every answer that reports an actor's
 * status (Actors pane, bulk tokens, network map, Run modal, monitors) takes it from. An actor is
 * online only while its last heartbeat is younger than the engine's offline delay (20 s,
 * ENGINE_OFFLINE_AFTER_MS); a stored 'online' with an older (or no) heartbeat reads as offline, with
 * "No heartbeat since ..." as its details, whether or not the engine's sweep has written it yet.
 */
import type { Db } from '../db/index';
import { engineFor } from '../engine/engine';
import { presenceSqlAt, type PresenceSql } from './presence-sql';

export type { PresenceSql } from './presence-sql';

/** The heartbeat time before which an actor counts as offline (the director's clock). */
export function offlineCutoff(db: Db, now: number = Date.now()): Date {
  return new Date(now - engineFor(db).opts.offlineAfterMs);
}

/** SQL expressions for the status of the nodes row `alias`, as of now. */
export function presenceSql(db: Db, alias = 'n'): PresenceSql {
  return presenceSqlAt(offlineCutoff(db), alias);
}
