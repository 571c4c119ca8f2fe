/**
 * Actor calls without a statement each: the director remembers who a credential belongs to for a
 * moment, writes "alive" (last_heartbeat_at) behind in batches, and remembers an idle poll's state.
 *
 * - Credentials: a poll or heartbeat whose credential was checked against the database recently, of an
 *   actor then online, is not checked again. Retiring an actor, deleting it (a lab's removal) and the
 *   offline sweep go through this director and forget it at once (forget, forgetNodes). On PGlite no
 *   other process can change the database (it lives inside this one), so a credential is remembered
 *   for a minute; on PostgreSQL another director may retire an actor, so for a second
 *   (credentialTtlMs).
 * - Heartbeats: such a call marks its actor alive in memory; one statement per flush (every tenth of
 *   the offline delay, at most each second) writes last_heartbeat_at for every actor heard from since. A
 *   call of an actor not online, or not known, or whose stored heartbeat is older than a quarter of the
 *   offline delay (a flush held up by a busy event loop) is written at once (a credential read again is
 *   a select, and written only when the stored heartbeat is older than half the offline delay:
 *   actors/service.ts heardRecently), and the offline sweep
 *   writes what is noted before it looks. After a crash, at most one
 *   flush of heartbeats is lost: the actors' next calls write them again, long before the offline delay.
 * - Idle polls: a poll that ended with nothing for its actor leaves its state here; the actor's next
 *   poll, holding the same work and with no news of it since (engine.notify; news from another director
 *   is not heard, so on PostgreSQL the state is kept only as long as a poll rechecks: a second),
 *   starts from that state instead of reading it again.
 */
import type { Db } from '../db/index';
import type { ActorNode } from './service';

/** How long a checked credential is believed: a second where other directors may share the database. */
export const credentialTtlMs = (db: Pick<Db, 'kind'>): number => (db.kind === 'pglite' ? 60_000 : 1000);

export interface IdleState {
  /** The engine's news number before the state was read (news of the actor after it is newer). */
  readAt: number;
  /** When it was read (Date.now()). */
  at: number;
  /** The work ids the actor held, sorted and joined. */
  holding: string;
  /**
   * Targets' work the actor was told to abort, whose servers' evidence its next poll must carry: the
   * state holds only for a poll carrying it (until then the director still waits for their cleanup).
   */
  expect: readonly number[];
}

export class Liveness {
  private readonly credentials = new Map<string, { node: ActorNode; at: number }>();
  private readonly alive = new Set<number>();
  private flushTimer: NodeJS.Timeout | null = null;
  private readonly idle = new Map<number, IdleState>();
  /** Heartbeats written (statements) and calls that needed none: for tests and benchmarks. */
  readonly counts = { flushes: 0, deferred: 0 };

  /** Between flushes: the engine sets a tenth of its offline delay (at most a second). */
  flushMs: () => number = () => 1000;
  /**
   * A remembered call is written at once (as a cache miss) when its actor's stored heartbeat is older
   * than this (the engine sets a quarter of its offline delay): a flush delayed by a busy event loop or
   * database never lets a live actor look offline.
   */
  staleMs: () => number = () => 5000;
  /** When each actor's heartbeat was last written (Date.now() before the statement). */
  private readonly writtenAt = new Map<number, number>();

  private readonly ttlMs: number;

  constructor(private readonly db: Db) {
    this.ttlMs = credentialTtlMs(db);
  }

  /** The actor of a credential hash checked within credentialTtlMs and online then, or null. */
  known(hash: string): ActorNode | null {
    const c = this.credentials.get(hash);
    if (!c || Date.now() - c.at >= this.ttlMs || c.node.status !== 'online') return null;
    if (Date.now() - (this.writtenAt.get(c.node.id) ?? 0) >= this.staleMs()) return null;
    return c.node;
  }

  /**
   * The database just said who the credential is, at `at`; its heartbeat was stored at `writtenAt` (when
   * this read marked it alive: `at`; a read that left it to the next flush: the stored heartbeat's time).
   */
  remember(hash: string, node: ActorNode, at = Date.now(), writtenAt = at): void {
    this.credentials.set(hash, { node, at });
    this.writtenAt.set(node.id, Math.max(writtenAt, this.writtenAt.get(node.id) ?? 0));
  }

  /** Forgets every remembered credential (an actor retired or deleted) and idle state. */
  forget(): void {
    this.credentials.clear();
    this.idle.clear();
  }

  /** Forgets the actors' credentials (they went offline: their next call writes them online at once). */
  forgetNodes(ids: Iterable<number>): void {
    const gone = new Set(ids);
    for (const [hash, c] of this.credentials) if (gone.has(c.node.id)) this.credentials.delete(hash);
    for (const id of gone) this.idle.delete(id);
  }

  /** Marks the actor alive with the next flush. */
  touchLater(nodeId: number): void {
    this.alive.add(nodeId);
    this.counts.deferred++;
    if (!this.flushTimer) {
      this.flushTimer = setTimeout(() => void this.flush(), this.flushMs());
      this.flushTimer.unref();
    }
  }

  /** Writes the heartbeats noted so far (one statement). */
  async flush(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    const ids = [...this.alive];
    this.alive.clear();
    if (!ids.length) return;
    this.counts.flushes++;
    const at = Date.now();
    await this.db
      .query(`update nodes set last_heartbeat_at = now(), status = 'online', status_details = null where id = any($1::int[]) and retired_at is null and token_hash is not null`, [ids])
      .then(
        () => {
          for (const id of ids) this.writtenAt.set(id, Math.max(at, this.writtenAt.get(id) ?? 0));
        },
        () => {
          /* the database closed with the director: nothing to keep alive */
        },
      );
  }

  /** Stops the flush timer, writing what is noted. */
  async stop(): Promise<void> {
    await this.flush();
  }

  /** The state an actor's last poll left, if it still holds for this poll: the same work held, the evidence expected carried (`carried`), not too old. */
  idleStateOf(nodeId: number, holding: readonly number[], maxAgeMs: number, carried: readonly number[] = []): IdleState | null {
    const s = this.idle.get(nodeId);
    if (!s || s.holding !== holdingKey(holding) || Date.now() - s.at >= maxAgeMs || !s.expect.every((id) => carried.includes(id))) return null;
    return s;
  }

  setIdle(nodeId: number, holding: readonly number[], readAt: number, at: number, expect: readonly number[] = []): void {
    this.idle.set(nodeId, { readAt, at, holding: holdingKey(holding), expect });
  }

  clearIdle(nodeId: number): void {
    this.idle.delete(nodeId);
  }
}

const holdingKey = (ids: readonly number[]) => [...ids].sort((a, b) => a - b).join(',');

const byDb = new WeakMap<Db, Liveness>();

/** The liveness memory of a database's director (one per director process and database). */
export function livenessOf(db: Db): Liveness {
  let l = byDb.get(db);
  if (!l) byDb.set(db, (l = new Liveness(db)));
  return l;
}
