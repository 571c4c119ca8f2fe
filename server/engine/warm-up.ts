/**
 * The statement triggers the engine's writes fire (the reports' rollups, the jobs' counts and names, the
 * library's log) run once at start on every database connection, on no rows: a PostgreSQL server process
 * compiles a PL/pgSQL function and plans its statements at its first call, and the director's first job
 * paid for it in its first scheduling pass, where the dispatch of a job's first wave (25 job actions
 * running, the job preparing) took 11.1 ms instead of 6.7 (a statement log of bench:engine:pg), and in
 * its first results. Statement triggers fire even when no row changes, and the transaction is rolled back.
 */
import type { Db } from '../db/index';

const ENGINE_WARM_UP_SQL = `begin;
  update jobs set status = status where false;
  update job_actions set status = status where false;
  update job_steps set name = name where false;
  rollback`;

/** On every connection a PostgreSQL director keeps (Db.onEveryConnection); elsewhere once, on one connection. */
export async function warmUpEngineConnections(db: Db): Promise<void> {
  await (db.onEveryConnection ? db.onEveryConnection(ENGINE_WARM_UP_SQL) : db.exec(ENGINE_WARM_UP_SQL));
}
