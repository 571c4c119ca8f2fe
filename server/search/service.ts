import type { Db } from '../db/index';
import type { LibraryService } from '../library/library-service';
import { SMALL_KINDS, SmallKinds } from './small-kinds';
import { SEARCH_MATCHES, type SearchKind, type SearchResult } from '../../src/api/contracts/search';

/**
 * Quick open: Actions (VID or name), simulations (VID or name), jobs (by id), actors (name or address),
 * monitors, the user's saved filters, scripts and dashboards the user may see. Results are ranked
 * exact match, then prefix (of the name or a word in it), then substring, then by lowercased name
 * (code-point order, the same on PGlite and PostgreSQL), and cut to `limit`.
 *
 * Cost: a keystroke reads no table but for a job id. The Actions (100,000 and more) are searched in
 * the library's in-memory index, kept in step with the database by its change feed
 * (server/search/name-search.ts: a few milliseconds; PGlite has no trigram index and a substring of
 * 100,000 names read there cost seconds under load); the small kinds are kept in memory too
 * (server/search/small-kinds.ts, read again in one statement when the change feed says they changed);
 * jobs are found by id only (a primary-key lookup), never by name among a million rows.
 */

/** 0 exact, 1 prefix (of the name or a word in it), 2 substring. */
type Ranked = Omit<SearchResult, 'match'> & { rank: number };

/** A bare number, `#812`, `job 812` or `job:812`: a job id. */
function jobIdOf(q: string): number | null {
  const m = /^(?:job[\s:#-]*|#)?(\d{1,9})$/i.exec(q);
  return m ? Number(m[1]) : null;
}

/** Each library's small kinds (one per director). */
const smallKinds = new WeakMap<LibraryService, SmallKinds>();

/**
 * `kind` keeps to one kind; then a whole number also finds that kind's object by id (how scripts name
 * an Action or a simulation by id, VID or name alike).
 */
export async function search(db: Db, library: LibraryService, user: { id: number }, rawQuery: string, limit: number, kind?: SearchKind): Promise<SearchResult[]> {
  const q = rawQuery.trim().toLowerCase();
  const byId = kind && kind !== 'job' && /^\d{1,9}$/.test(q) ? Number(q) : 0;
  const jobId = !kind || kind === 'job' ? jobIdOf(q) : null;
  // A pick list opened before anything is typed: the latest jobs.
  if (kind === 'job' && !q) {
    const rows = await db.query<{ id: number; name: string; status: string }>('select id, name, status from jobs order by id desc limit $1', [limit]);
    return rows.map((r) => ({ kind: 'job', id: r.id, label: `Job ${r.id}`, detail: `${r.name} · ${r.status}`, vid: null, subtype: null, url: `/jobs/${r.id}`, match: 'substring' }));
  }
  // A job is read by its id (a primary-key lookup), only when the text is one.
  const jobs: Promise<Ranked[]> =
    jobId === null
      ? Promise.resolve([])
      : db
          .query<{ id: number; name: string; status: string }>('select id, name, status from jobs where id = $1', [jobId])
          .then((rows) => rows.map((r) => ({ kind: 'job' as const, id: r.id, label: `Job ${r.id}`, detail: `${r.name} · ${r.status}`, vid: null, subtype: null, url: `/jobs/${r.id}`, rank: 0 })));
  const kinds = new Set(SMALL_KINDS.filter((k) => !kind || kind === k));
  let small = smallKinds.get(library);
  if (!small) smallKinds.set(library, (small = new SmallKinds(db)));
  const others = kinds.size ? small.find(library, user.id, q, byId, kinds) : Promise.resolve([]);
  const all: Ranked[] = [...(await jobs), ...(await others)];
  if (!kind || kind === 'action') {
    await library.freshForKeystroke();
    for (const { entry: a, rank } of library.actionNames.find(q, limit, byId)) all.push({ kind: 'action', id: a.id, label: a.name, detail: `${a.vid} · ${a.type}`, vid: a.vid, subtype: a.type, url: `/manage_sims/action/${encodeURIComponent(a.vid)}`, rank });
  }
  const order = (k: SearchKind) => KIND_ORDER.indexOf(k);
  const key = (r: Ranked) => r.label.toLowerCase();
  all.sort((a, b) => a.rank - b.rank || order(a.kind) - order(b.kind) || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0) || a.id - b.id);
  return all.slice(0, limit).map(({ rank, ...r }) => ({ ...r, match: SEARCH_MATCHES[rank] ?? 'substring' }));
}

/** Which kind comes first among equally good matches. */
const KIND_ORDER: SearchKind[] = ['job', 'action', 'simulation', 'actor', 'monitor', 'dashboard', 'script', 'filter'];
