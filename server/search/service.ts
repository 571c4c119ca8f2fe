import type { Db } from '../db/index';
import type { LibraryService } from '../library/library-service';
import { presenceSql } from '../actors/presence';
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
const ORDER_SQL = `order by rank, lower(label) collate "C", id limit $5`;
const MATCH_SQL = `lower(name) like $3 escape '\\'`;

/** One kind's part of the statement: its rows as (kind, id, label, detail, vid, subtype, rank), best `limit` of them. */
interface KindSql {
  kind: SearchKind;
  /** Selects id, label, detail, vid, subtype, rank; $1-$7 as in search(). */
  sql: (db: Db) => string;
  url: (r: Row) => string;
  detail?: (r: Row) => string;
}

interface Row {
  kind: SearchKind;
  id: number;
  label: string;
  detail: string;
  vid: string | null;
  subtype: string | null;
  rank: number;
}

/** The kinds held in small tables, read together in one statement (one round trip per keystroke). */
const SMALL_KINDS: KindSql[] = [
  {
    kind: 'simulation',
    sql: () => `select id, name as label, vid || ' · ' || case when simulation_type = 'eval' then 'evaluation' else 'sequence' end as detail, vid, simulation_type as subtype,
        case when vid = upper($1) or id = $6 then 0 else ${RANK_SQL('name')} end as rank
      from simulations where not decommissioned and (vid = upper($1) or id = $6 or ${MATCH_SQL})`,
    url: (r) => `/simulation/${encodeURIComponent(r.vid ?? '')}?sim_type=${r.subtype}`,
  },
  {
    kind: 'actor',
    // The status as every other answer shows it: 'online' only with a fresh heartbeat (server/actors/presence.ts).
    sql: (db) => `select id, name as label, coalesce(nullif(sim_address, ''), 'no address') || ' · ' || ${presenceSql(db, 'nodes').status} as detail, null::text as vid, null::text as subtype,
        case when sim_address = $1 or id = $6 then 0 else ${RANK_SQL('name')} end as rank
      from nodes where ${MATCH_SQL} or sim_address = $1 or id = $6`,
    url: (r) => `/topology/nodes/${r.id}/edit`,
  },
  {
    kind: 'monitor',
    sql: () => `select id, name as label, 'every ' || repeat_job_period_number || ' ' || repeat_job_period_type as detail, null::text as vid, null::text as subtype, ${RANK_SQL('name')} as rank
      from monitors where ${MATCH_SQL} or id = $6`,
    url: (r) => `/monitors?id=${r.id}`,
  },
  {
    kind: 'filter',
    sql: () => `select id, name as label, target as detail, null::text as vid, null::text as subtype, ${RANK_SQL('name')} as rank
      from saved_filters where user_id = $7 and (${MATCH_SQL} or id = $6)`,
    url: (r) => (r.detail === 'jobs' ? '/jobs' : '/manage_sims/actions'),
    detail: (r) => (r.detail === 'jobs' ? 'filter of Jobs' : 'filter of the Action library'),
  },
  {
    kind: 'script',
    sql: () => `select id, name as label, case when shared then 'shared' else 'yours' end as detail, null::text as vid, null::text as subtype, ${RANK_SQL('name')} as rank
      from scripts where (user_id = $7 or shared) and (${MATCH_SQL} or id = $6)`,
    url: (r) => `/scripts?id=${r.id}`,
  },
  {
    kind: 'dashboard',
    sql: () => `select id, name as label, case when user_id = $7 then 'yours' else 'shared with you' end as detail, null::text as vid, null::text as subtype, ${RANK_SQL('name')} as rank
      from dashboards d where (user_id = $7 or exists (select 1 from dashboard_shares s where s.dashboard_id = d.id and s.user_id = $7))
        and (${MATCH_SQL} or id = $6)`,
    url: (r) => `/dashboards/${r.id}`,
  },
];

/** Types every parameter, whichever kinds the statement holds (PostgreSQL refuses a parameter it cannot type). */
const PARAMS_SQL = 'with params as (select $1::text, $2::text, $3::text, $4::text, $5::int, $6::int, $7::int, $8::int)';

const JOB_SQL = `select id, 'Job ' || id as label, name || ' · ' || status as detail, null::text as vid, null::text as subtype, 0 as rank from jobs where id = $8`;

/**
 * `kind` keeps to one kind; then a whole number also finds that kind's object by id (how scripts name
 * an Action or a simulation by id, VID or name alike).
 */
export async function search(db: Db, library: LibraryService, user: { id: number }, rawQuery: string, limit: number, kind?: SearchKind): Promise<SearchResult[]> {
  const q = rawQuery.trim().toLowerCase();
  const e = escapeLike(q);
  const byId = kind && kind !== 'job' && /^\d{1,9}$/.test(q) ? Number(q) : 0;
  const jobId = !kind || kind === 'job' ? jobIdOf(q) : null;
  // A pick list opened before anything is typed: the latest jobs.
  if (kind === 'job' && !q) {
    const rows = await db.query<{ id: number; name: string; status: string }>('select id, name, status from jobs order by id desc limit $1', [limit]);
    return rows.map((r) => ({ kind: 'job', id: r.id, label: `Job ${r.id}`, detail: `${r.name} · ${r.status}`, vid: null, subtype: null, url: `/jobs/${r.id}`, match: 'substring' }));
  }
  const want = (k: SearchKind) => !kind || kind === k;
  // Every kind but the Actions in one statement: each kind's best `limit` rows, labelled with the kind.
  const parts = SMALL_KINDS.filter((k) => want(k.kind)).map((k) => `(select '${k.kind}'::text as kind, * from (${k.sql(db)}) r ${ORDER_SQL})`);
  if (jobId !== null) parts.push(`(select 'job'::text as kind, * from (${JOB_SQL}) r)`);
  const rows = parts.length
    ? // $1 exact, $2 prefix, $3 substring, $4 a word's prefix, $5 how many of each kind, $6 an id (0: none), $7 the user, $8 a job id.
      db.query<Row>(`${PARAMS_SQL} ${parts.join(' union all ')}`, [q, `${e}%`, `%${e}%`, `% ${e}%`, limit, byId, user.id, jobId])
    : Promise.resolve([] as Row[]);
  const actions: Promise<Ranked[]> = !want('action')
    ? Promise.resolve([])
    : library.fresh().then(() =>
        library.actionNames.find(q, limit, byId).map(({ entry: a, rank }) => ({ kind: 'action' as const, id: a.id, label: a.name, detail: `${a.vid} · ${a.type}`, vid: a.vid, subtype: a.type, url: `/manage_sims/action/${encodeURIComponent(a.vid)}`, rank })),
      );
  const all: Ranked[] = await actions;
  for (const r of await rows) {
    const k = r.kind === 'job' ? null : SMALL_KINDS.find((s) => s.kind === r.kind)!;
    all.push({ kind: r.kind, id: r.id, label: r.label, detail: k?.detail?.(r) ?? r.detail, vid: r.vid, subtype: r.subtype, url: k ? k.url(r) : `/jobs/${r.id}`, rank: r.rank });
  }
  const order = (k: SearchKind) => KIND_ORDER.indexOf(k);
  const key = (r: Ranked) => r.label.toLowerCase();
  all.sort((a, b) => a.rank - b.rank || order(a.kind) - order(b.kind) || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0) || a.id - b.id);
  return all.slice(0, limit).map(({ rank, ...r }) => ({ ...r, match: SEARCH_MATCHES[rank] ?? 'substring' }));
}

/** Which kind comes first among equally good matches. */
const KIND_ORDER: SearchKind[] = ['job', 'action', 'simulation', 'actor', 'monitor', 'dashboard', 'script', 'filter'];
