import type { Db } from '../db/index';
import type { LibraryService } from '../library/library-service';
import { SEARCH_MATCHES, type SearchKind, type SearchResult } from '../../src/api/contracts/search';

/**
 * Quick open: Actions (VID or name), simulations (VID or name), jobs (by id), actors (name or address),
 * monitors, the user's saved filters, scripts and dashboards the user may see. Each kind is one
 * bounded lookup; results are ranked exact match, then prefix, then substring, then by lowercased
 * name (code-point order, the same on PGlite and PostgreSQL), and cut to `limit`.
 *
 * Cost: the Actions (100,000 and more) are searched in the library's in-memory index, kept in step
 * with the database by its change feed (server/search/name-search.ts: a few milliseconds, no table
 * read; PGlite has no trigram index and a substring of 100,000 names read there cost seconds under
 * load); jobs are found by id only (a primary-key lookup), never by name among a million rows; the
 * other kinds are small tables read in SQL.
 */

/** 0 exact, 1 prefix (of the name or a word in it), 2 substring. */
type Ranked = Omit<SearchResult, 'match'> & { rank: number };

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A bare number, `#812`, `job 812` or `job:812`: a job id. */
function jobIdOf(q: string): number | null {
  const m = /^(?:job[\s:#-]*|#)?(\d{1,9})$/i.exec(q);
  return m ? Number(m[1]) : null;
}

const RANK_SQL = (col: string) => `case when lower(${col}) = $1 or id = $6 then 0 when lower(${col}) like $2 escape '\\' or lower(${col}) like $4 escape '\\' then 1 else 2 end`;
/** Within a rank: the lowercased name in code-point order (collation "C": not the database's locale), then the id. */
const ORDER_SQL = `order by rank, lower(name) collate "C", id limit $5`;

/**
 * `kind` keeps to one kind; then a whole number also finds that kind's object by id (how scripts name
 * an Action or a simulation by id, VID or name alike).
 */
export async function search(db: Db, library: LibraryService, user: { id: number }, rawQuery: string, limit: number, kind?: SearchKind): Promise<SearchResult[]> {
  const q = rawQuery.trim().toLowerCase();
  const e = escapeLike(q);
  const byId = kind && kind !== 'job' && /^\d{1,9}$/.test(q) ? Number(q) : 0;
  // $1 exact, $2 prefix, $3 substring, $4 a word's prefix, $5 how many of each kind, $6 an id (0: none).
  const p = [q, `${e}%`, `%${e}%`, `% ${e}%`, limit, byId];
  const jobId = !kind || kind === 'job' ? jobIdOf(q) : null;
  // A pick list opened before anything is typed: the latest jobs.
  if (kind === 'job' && !q) {
    const rows = await db.query<{ id: number; name: string; status: string }>('select id, name, status from jobs order by id desc limit $1', [limit]);
    return rows.map((r) => ({ kind: 'job', id: r.id, label: `Job ${r.id}`, detail: `${r.name} · ${r.status}`, vid: null, subtype: null, url: `/jobs/${r.id}`, match: 'substring' }));
  }
  const want = (k: SearchKind) => !kind || kind === k;
  const none = Promise.resolve([] as Ranked[]);
  const parts: Promise<Ranked[]>[] = [
    !want('action')
      ? none
      : library.fresh().then(() =>
          library.actionNames.find(q, limit, byId).map(({ entry: a, rank }) => ({ kind: 'action' as const, id: a.id, label: a.name, detail: `${a.vid} · ${a.type}`, vid: a.vid, subtype: a.type, url: `/manage_sims/action/${encodeURIComponent(a.vid)}`, rank })),
        ),
    !want('simulation')
      ? none
      : db
      .query<{ id: number; vid: string; name: string; simulation_type: string; rank: number }>(
        `select id, vid, name, simulation_type, case when vid = upper($1) or id = $6 then 0 else ${RANK_SQL('name')} end as rank
           from simulations where not decommissioned and (vid = upper($1) or id = $6 or lower(name) like $3 escape '\\')
          ${ORDER_SQL}`,
        p,
      )
      .then((rows) =>
        rows.map((r) => ({
          kind: 'simulation' as const,
          id: r.id,
          label: r.name,
          detail: `${r.vid} · ${r.simulation_type === 'eval' ? 'evaluation' : 'sequence'}`,
          vid: r.vid,
          subtype: r.simulation_type,
          url: `/simulation/${encodeURIComponent(r.vid)}?sim_type=${r.simulation_type}`,
          rank: r.rank,
        })),
      ),
    jobId === null
      ? none
      : db
          .query<{ id: number; name: string; status: string }>('select id, name, status from jobs where id = $1', [jobId])
          .then((rows) => rows.map((r) => ({ kind: 'job' as const, id: r.id, label: `Job ${r.id}`, detail: `${r.name} · ${r.status}`, vid: null, subtype: null, url: `/jobs/${r.id}`, rank: 0 }))),
    !want('actor')
      ? none
      : db
      .query<{ id: number; name: string; sim_address: string; status: string; rank: number }>(
        `select id, name, sim_address, status, case when sim_address = $1 or id = $6 then 0 else ${RANK_SQL('name')} end as rank
           from nodes where lower(name) like $3 escape '\\' or sim_address = $1 or id = $6
          ${ORDER_SQL}`,
        p,
      )
      .then((rows) => rows.map((r) => ({ kind: 'actor' as const, id: r.id, label: r.name, detail: `${r.sim_address || 'no address'} · ${r.status}`, vid: null, subtype: null, url: `/topology/nodes/${r.id}/edit`, rank: r.rank }))),
    !want('monitor')
      ? none
      : named(db, 'monitor', `select id, name, 'every ' || repeat_job_period_number || ' ' || repeat_job_period_type as detail, ${RANK_SQL('name')} as rank from monitors where lower(name) like $3 escape '\\' or id = $6`, p, (id) => `/monitors?id=${id}`),
    !want('filter')
      ? none
      : named(
      db,
      'filter',
      `select id, name, target as detail, ${RANK_SQL('name')} as rank from saved_filters where user_id = $7 and (lower(name) like $3 escape '\\' or id = $6)`,
      [...p, user.id],
      (_id, detail) => (detail === 'jobs' ? '/jobs' : '/manage_sims/actions'),
      (detail) => (detail === 'jobs' ? 'filter of Jobs' : 'filter of the Action library'),
    ),
    !want('script')
      ? none
      : named(
      db,
      'script',
      `select id, name, case when shared then 'shared' else 'yours' end as detail, ${RANK_SQL('name')} as rank
         from scripts where (user_id = $7 or shared) and (lower(name) like $3 escape '\\' or id = $6)`,
      [...p, user.id],
      (id) => `/scripts?id=${id}`,
    ),
    !want('dashboard')
      ? none
      : named(
      db,
      'dashboard',
      `select id, name, case when user_id = $7 then 'yours' else 'shared with you' end as detail, ${RANK_SQL('name')} as rank
         from dashboards d where (user_id = $7 or exists (select 1 from dashboard_shares s where s.dashboard_id = d.id and s.user_id = $7))
          and (lower(name) like $3 escape '\\' or id = $6)`,
      [...p, user.id],
      (id) => `/dashboards/${id}`,
    ),
  ];
  const all = (await Promise.all(parts)).flat();
  const order = (k: SearchKind) => KIND_ORDER.indexOf(k);
  const key = (r: Ranked) => r.label.toLowerCase();
  all.sort((a, b) => a.rank - b.rank || order(a.kind) - order(b.kind) || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0) || a.id - b.id);
  return all.slice(0, limit).map(({ rank, ...r }) => ({ ...r, match: SEARCH_MATCHES[rank] ?? 'substring' }));
}

/** Which kind comes first among equally good matches. */
const KIND_ORDER: SearchKind[] = ['job', 'action', 'simulation', 'actor', 'monitor', 'dashboard', 'script', 'filter'];

async function named(
  db: Db,
  kind: SearchKind,
  sql: string,
  params: unknown[],
  url: (id: number, detail: string) => string,
  detailText: (detail: string) => string = (d) => d,
): Promise<Ranked[]> {
  const rows = await db.query<{ id: number; name: string; detail: string; rank: number }>(`${sql} ${ORDER_SQL}`, params);
  return rows.map((r) => ({ kind, id: r.id, label: r.name, detail: detailText(r.detail), vid: null, subtype: null, url: url(r.id, r.detail), rank: r.rank }));
}
