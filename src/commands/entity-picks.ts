import * as yup from 'yup';
import { http } from '@/api/http';
import { SEARCH_KIND_LABELS, type SearchAnswer, type SearchKind, type SearchResult } from '@/api/contracts/search';
import { definePaneContext } from './pane-contexts';
import type { PickOption, PickSource } from './pick';

/**
 * Pick lists and name resolution for entity arguments, over the director's search call
 * (`GET /search.json?kind=`): the palette's argument step searches them by name, VID or id, and a
 * script may name an entity by id, VID or exact name alike (`resolveEntity`).
 */

const PAGE = 20;

const find = async (kind: SearchKind, q: string, signal?: AbortSignal, limit = PAGE): Promise<SearchResult[]> =>
  (await http.get<SearchAnswer>('/search.json', { params: { q, kind, limit }, ...(signal ? { signal } : {}) })).results;

/** A pick source of one kind; `keep` narrows it (sequences only, evaluations only). */
export function searchPicks(kind: SearchKind, noun: string, keep: (r: SearchResult) => boolean = () => true): PickSource {
  return {
    noun,
    search: async (query, signal) => (await find(kind, query, signal)).filter(keep).map((r) => ({ value: r.id, label: r.label, detail: r.detail })),
  };
}

/**
 * The Action a focused pane shows or has selected (the library's row, a preview), for commands of
 * other features (Run Action): provided with `usePaneContext(currentActionPane, …)`.
 */
export const currentActionPane = definePaneContext<{ current(): PickOption | null }>('entity.action');

export const actionPicks: PickSource = { ...searchPicks('action', 'action'), current: (ctx) => ctx.pane(currentActionPane)?.current() ?? null };
export const simulationPicks = searchPicks('simulation', 'simulation');
export const sequencePicks = searchPicks('simulation', 'sequence', (r) => r.subtype === 'sequence');
export const evaluationPicks = searchPicks('simulation', 'evaluation', (r) => r.subtype === 'eval');
export const actorPicks = searchPicks('actor', 'actor');
export const jobPicks = searchPicks('job', 'job');
export const dashboardPicks = searchPicks('dashboard', 'dashboard');
export const scriptPicks = searchPicks('script', 'script');

/** Which entity a script names: its id, or a VID or name to look up. */
export interface EntityRef {
  id?: number | undefined;
  vid?: string | undefined;
  name?: string | undefined;
}

export const refGiven = (v: EntityRef | undefined): boolean => v?.id !== undefined || !!v?.vid || !!v?.name;

/** An object schema test: at most one of id, vid and name (none: the command may use the focused one). */
export function oneRef(noun: string) {
  return function (this: yup.TestContext, v: EntityRef | undefined): boolean | yup.ValidationError {
    const given = [v?.id !== undefined, !!v?.vid, !!v?.name].filter(Boolean).length;
    return given <= 1 || this.createError({ message: `Give only one of id, vid and name for the ${noun}.` });
  };
}

/**
 * The entity a script names, checked on the director: the id (it must exist), the VID or the exact
 * name (case-insensitive). Throws naming what was not found, or that a name is ambiguous.
 */
export async function resolveEntity(kind: SearchKind, ref: EntityRef, keep: (r: SearchResult) => boolean = () => true, noun = SEARCH_KIND_LABELS[kind]): Promise<SearchResult> {
  const text = ref.vid ?? ref.name ?? (ref.id !== undefined ? String(ref.id) : '');
  const what = ref.vid ? `VID "${ref.vid}"` : ref.name ? `name "${ref.name}"` : `id ${ref.id}`;
  const results = (await find(kind, text, undefined, 50)).filter(keep).filter((r) => {
    if (ref.id !== undefined) return r.id === ref.id;
    if (ref.vid) return r.vid?.toUpperCase() === ref.vid.toUpperCase();
    return r.label.toLowerCase() === ref.name!.trim().toLowerCase();
  });
  if (results.length === 0) throw new Error(`No ${noun} with ${what} was found.`);
  if (results.length > 1) throw new Error(`The ${what} names ${results.length} ${noun}s (${results.map((r) => r.vid ?? `id ${r.id}`).join(', ')}): give the VID or the id.`);
  return results[0]!;
}
