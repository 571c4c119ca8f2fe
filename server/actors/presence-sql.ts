/**
 * The SQL of an actor's status as of a heartbeat cutoff: stored 'online' with no heartbeat since the
 * cutoff reads as offline. Free of the engine, so the engine's own scheduling can use it too
 * (presence.ts picks the cutoff from the engine's offline delay for everyone else).
 */
export interface PresenceSql {
  /** SQL for the status ('online', 'offline', 'pending', ...). */
  status: string;
  /** SQL for the status details. */
  details: string;
}

/** SQL expressions for the status of the nodes row `alias`, counting heartbeats older than `cutoff` as none. */
export function presenceSqlAt(cutoff: Date, alias = 'n'): PresenceSql {
  // An ISO timestamp the director computed itself: safe to inline, so callers keep their parameters.
  return presenceSqlOf(`'${cutoff.toISOString()}'::timestamptz`, alias);
}

/**
 * The same with the cutoff as SQL (a statement's parameter, e.g. `$2::timestamptz`): the statement's
 * text then stays the same from call to call, and a named statement is parsed and planned once.
 */
export function presenceSqlOf(cutoff: string, alias = 'n'): PresenceSql {
  const stale = `(${alias}.status = 'online' and (${alias}.last_heartbeat_at is null or ${alias}.last_heartbeat_at < ${cutoff}))`;
  return {
    status: `(case when ${stale} then 'offline' else ${alias}.status end)`,
    details: `(case when ${stale} then coalesce('No heartbeat since ' || ${alias}.last_heartbeat_at::text, 'No heartbeat received yet.') else ${alias}.status_details end)`,
  };
}
