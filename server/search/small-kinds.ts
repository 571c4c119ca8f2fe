import type { Db } from '../db/index';
import type { LibraryService } from '../library/library-service';
import { offlineCutoff } from '../actors/presence';
import type { SearchKind, SearchResult } from '../../src/api/contracts/search';

/** One object of a small kind as quick open keeps it. */
interface SmallRow {
  kind: SearchKind;
  id: number;
  name: string;
  /** The name lowercased: what is searched and sorted. */
  nameKey: string;
  /** Also an exact match when the query is this (a simulation's VID lowercased, an actor's address). */
  alias: string | null;
  /** The kind's second line, before the user's point of view is added (shared or yours). */
  detail: string;
  vid: string | null;
  subtype: string | null;
  /** Filters, scripts, dashboards: who owns them. */
  owner: number | null;
  /** A shared script. */
  shared: boolean;
  /** A dashboard's users it is shared with. */
  sharedWith: readonly number[] | null;
  /** An actor's friendly name lowercased (the Actors pane shows it first): searched like the name ('' when none). */
  altKey: string;
  /** An actor: its stored status and the time of its last heartbeat (ms, null when none), for its live status. */
  presence: { status: string; heartbeatAt: number | null } | null;
}

export type SmallHit = Omit<SearchResult, 'match'> & { rank: 0 | 1 | 2 };

/** Which kinds are kept here (the Actions are in the library's index, jobs are read by id). */
export const SMALL_KINDS: readonly SearchKind[] = ['simulation', 'actor', 'monitor', 'filter', 'script', 'dashboard'];

/**
 * Every object of the small kinds in one statement: a quick-open keystroke reads none of them from
 * the database. An actor's detail is its friendly name and address; its status is added as each call
 * reads it (liveStatus): the stored one, offline when the last heartbeat is older than the offline
 * delay, as the Actors pane shows it (server/actors/presence.ts).
 */
const LOAD_SQL = `
  select 'simulation' as kind, id, name, lower(vid) as alias, vid || ' · ' || case when simulation_type = 'eval' then 'evaluation' else 'sequence' end as detail,
         vid, simulation_type as subtype, null::int as owner, false as shared, null::int[] as shared_with,
         null::text as alt_name, null::text as status, null::timestamptz as heartbeat_at
    from simulations where not decommissioned
  union all
  select 'actor', id, name, nullif(sim_address, ''), concat_ws(' · ', nullif(friendly_name, ''), coalesce(nullif(sim_address, ''), 'no address')), null, null, null, false, null,
         nullif(friendly_name, ''), status, last_heartbeat_at
    from nodes
  union all
  select 'monitor', id, name, null, 'every ' || repeat_job_period_number || ' ' || repeat_job_period_type, null, null, null, false, null, null, null, null from monitors
  union all
  select 'filter', id, name, null, target, null, null, user_id, false, null, null, null, null from saved_filters
  union all
  select 'script', id, name, null, '', null, null, user_id, shared, null, null, null, null from scripts
  union all
  select 'dashboard', d.id, d.name, null, '', null, null, d.user_id, false, (select array_agg(s.user_id) from dashboard_shares s where s.dashboard_id = d.id), null, null, null from dashboards d`;

/** The actors' stored status and last heartbeat, read again when a heartbeat may have moved (heartbeats log no change). */
const PRESENCE_SQL = 'select id, status, last_heartbeat_at from nodes';
/** A re-read of the heartbeats is trusted for this long: an actor shown online stays so until its next sweep-worthy silence. */
const PRESENCE_FRESH_MS = 1000;

const URLS: Partial<Record<SearchKind, (r: SmallRow) => string>> = {
  simulation: (r) => `/simulation/${encodeURIComponent(r.vid ?? '')}?sim_type=${r.subtype}`,
  actor: (r) => `/topology/nodes/${r.id}/edit`,
  monitor: (r) => `/monitors?id=${r.id}`,
  filter: (r) => (r.detail === 'jobs' ? '/jobs' : '/manage_sims/actions'),
  script: (r) => `/scripts?id=${r.id}`,
  dashboard: (r) => `/dashboards/${r.id}`,
};

/** Whether `user` may see the row, and its second line as that user reads it. */
function asSeenBy(r: SmallRow, user: number): string | null {
  switch (r.kind) {
    case 'filter':
      return r.owner !== user ? null : r.detail === 'jobs' ? 'filter of Jobs' : 'filter of the Action library';
    case 'script':
      return r.owner === user || r.shared ? (r.shared ? 'shared' : 'yours') : null;
    case 'dashboard':
      return r.owner === user ? 'yours' : r.sharedWith?.includes(user) ? 'shared with you' : null;
    default:
      return r.detail;
  }
}

/**
 * Quick open's small kinds in memory, read again (one statement) when the library's change feed says
 * they changed (LibraryService.searchVersion, migration 020), by this director or another one.
 */
export class SmallKinds {
  private rows: SmallRow[] = [];
  private version = -1;
  private loading: Promise<void> | null = null;
  /** When the heartbeats were last read (performance.now()). */
  private presenceReadAt = -Infinity;

  constructor(private db: Db) {}

  /**
   * The rows of `kinds` whose name contains `q` (lowercased), or which `q` names exactly (a VID, an
   * address, `id`), that `user` may see, ranked as the search call ranks: 0 exact, 1 the name's or a
   * word's start, 2 elsewhere.
   */
  async find(library: LibraryService, user: number, q: string, id: number, kinds: ReadonlySet<SearchKind>): Promise<SmallHit[]> {
    await library.freshForKeystroke();
    while (this.version !== library.searchVersion) {
      const version = library.searchVersion;
      await (this.loading ??= this.load(version).finally(() => (this.loading = null)));
    }
    const found: { r: SmallRow; detail: string; rank: 0 | 1 | 2 }[] = [];
    for (const r of this.rows) {
      if (!kinds.has(r.kind)) continue;
      const at = r.nameKey.indexOf(q);
      const altAt = r.altKey ? r.altKey.indexOf(q) : -1;
      const exact = r.nameKey === q || r.altKey === q || r.id === id || (r.alias !== null && r.alias === q);
      if (at < 0 && altAt < 0 && !exact) continue;
      const detail = asSeenBy(r, user);
      if (detail === null) continue;
      const wordStart = (key: string, i: number) => i === 0 || (i > 0 && key.includes(` ${q}`));
      const rank = exact ? 0 : wordStart(r.nameKey, at) || wordStart(r.altKey, altAt) ? 1 : 2;
      found.push({ r, detail, rank });
    }
    if (found.some((f) => f.r.presence)) await this.freshPresence(found.map((f) => f.r));
    const cutoff = offlineCutoff(this.db).getTime();
    return found.map(({ r, detail, rank }) => ({
      kind: r.kind,
      id: r.id,
      label: r.name,
      detail: r.presence ? `${detail} · ${liveStatus(r.presence, cutoff)}` : detail,
      vid: r.vid,
      subtype: r.subtype,
      url: URLS[r.kind]!(r),
      rank,
    }));
  }

  /**
   * Heartbeats log no change (migration 020), so the ones kept here age: when an actor about to be
   * shown would read as offline only because of an old heartbeat, the heartbeats are read again (one
   * statement over the actors, at most once a second), so a live actor is never shown offline.
   */
  private async freshPresence(rows: readonly SmallRow[]): Promise<void> {
    const cutoff = offlineCutoff(this.db).getTime();
    const aged = rows.some((r) => r.presence && liveStatus(r.presence, cutoff) !== r.presence.status);
    if (!aged || performance.now() - this.presenceReadAt < PRESENCE_FRESH_MS) return;
    const readAt = performance.now();
    const current = new Map((await this.db.query<{ id: number; status: string; last_heartbeat_at: Date | string | null }>(PRESENCE_SQL)).map((n) => [n.id, n]));
    for (const r of this.rows) {
      const n = r.kind === 'actor' ? current.get(r.id) : undefined;
      if (n) r.presence = { status: n.status, heartbeatAt: msOf(n.last_heartbeat_at) };
    }
    this.presenceReadAt = readAt;
  }

  private async load(version: number): Promise<void> {
    const readAt = performance.now();
    const rows = await this.db.query<LoadedRow>(LOAD_SQL);
    this.rows = rows.map((r) => ({
      kind: r.kind,
      id: r.id,
      name: r.name,
      nameKey: r.name.toLowerCase(),
      alias: r.alias,
      detail: r.detail,
      vid: r.vid,
      subtype: r.subtype,
      owner: r.owner,
      shared: r.shared,
      sharedWith: r.shared_with,
      altKey: r.alt_name?.toLowerCase() ?? '',
      presence: r.kind === 'actor' ? { status: r.status ?? '', heartbeatAt: msOf(r.heartbeat_at) } : null,
    }));
    this.presenceReadAt = readAt;
    this.version = version;
  }
}

interface LoadedRow {
  kind: SearchKind;
  id: number;
  name: string;
  alias: string | null;
  detail: string;
  vid: string | null;
  subtype: string | null;
  owner: number | null;
  shared: boolean;
  shared_with: number[] | null;
  alt_name: string | null;
  status: string | null;
  heartbeat_at: Date | string | null;
}

const msOf = (t: Date | string | null): number | null => (t === null ? null : new Date(t).getTime());

/** The status the Actors pane shows (server/actors/presence-sql.ts): a stored 'online' without a heartbeat since `cutoff` is offline. */
function liveStatus(p: { status: string; heartbeatAt: number | null }, cutoff: number): string {
  return p.status === 'online' && (p.heartbeatAt === null || p.heartbeatAt < cutoff) ? 'offline' : p.status;
}
