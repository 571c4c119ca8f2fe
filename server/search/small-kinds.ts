import type { Db } from '../db/index';
import type { LibraryService } from '../library/library-service';
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
}

export type SmallHit = Omit<SearchResult, 'match'> & { rank: 0 | 1 | 2 };

/** Which kinds are kept here (the Actions are in the library's index, jobs are read by id). */
export const SMALL_KINDS: readonly SearchKind[] = ['simulation', 'actor', 'monitor', 'filter', 'script', 'dashboard'];

/**
 * Every object of the small kinds in one statement: a quick-open keystroke reads none of them from
 * the database. The actor's status is the stored one, which the engine's sweep sets offline when
 * heartbeats stop (changes of it are logged, a heartbeat that changes nothing is not).
 */
const LOAD_SQL = `
  select 'simulation' as kind, id, name, lower(vid) as alias, vid || ' · ' || case when simulation_type = 'eval' then 'evaluation' else 'sequence' end as detail,
         vid, simulation_type as subtype, null::int as owner, false as shared, null::int[] as shared_with
    from simulations where not decommissioned
  union all
  select 'actor', id, name, nullif(sim_address, ''), coalesce(nullif(sim_address, ''), 'no address') || ' · ' || status, null, null, null, false, null from nodes
  union all
  select 'monitor', id, name, null, 'every ' || repeat_job_period_number || ' ' || repeat_job_period_type, null, null, null, false, null from monitors
  union all
  select 'filter', id, name, null, target, null, null, user_id, false, null from saved_filters
  union all
  select 'script', id, name, null, '', null, null, user_id, shared, null from scripts
  union all
  select 'dashboard', d.id, d.name, null, '', null, null, d.user_id, false, (select array_agg(s.user_id) from dashboard_shares s where s.dashboard_id = d.id) from dashboards d`;

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

  constructor(private db: Db) {}

  /**
   * The rows of `kinds` whose name contains `q` (lowercased), or which `q` names exactly (a VID, an
   * address, `id`), that `user` may see, ranked as the search call ranks: 0 exact, 1 the name's or a
   * word's start, 2 elsewhere.
   */
  async find(library: LibraryService, user: number, q: string, id: number, kinds: ReadonlySet<SearchKind>): Promise<SmallHit[]> {
    await library.fresh();
    while (this.version !== library.searchVersion) {
      const version = library.searchVersion;
      await (this.loading ??= this.load(version).finally(() => (this.loading = null)));
    }
    const hits: SmallHit[] = [];
    for (const r of this.rows) {
      if (!kinds.has(r.kind)) continue;
      const at = r.nameKey.indexOf(q);
      const exact = r.nameKey === q || r.id === id || (r.alias !== null && r.alias === q);
      if (at < 0 && !exact) continue;
      const detail = asSeenBy(r, user);
      if (detail === null) continue;
      const rank = exact ? 0 : at === 0 || r.nameKey.includes(` ${q}`) ? 1 : 2;
      hits.push({ kind: r.kind, id: r.id, label: r.name, detail, vid: r.vid, subtype: r.subtype, url: URLS[r.kind]!(r), rank });
    }
    return hits;
  }

  private async load(version: number): Promise<void> {
    const rows = await this.db.query<{ kind: SearchKind; id: number; name: string; alias: string | null; detail: string; vid: string | null; subtype: string | null; owner: number | null; shared: boolean; shared_with: number[] | null }>(LOAD_SQL);
    this.rows = rows.map((r) => ({ kind: r.kind, id: r.id, name: r.name, nameKey: r.name.toLowerCase(), alias: r.alias, detail: r.detail, vid: r.vid, subtype: r.subtype, owner: r.owner, shared: r.shared, sharedWith: r.shared_with }));
    this.version = version;
  }
}
