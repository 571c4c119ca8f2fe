import { useEffect, useRef } from 'react';

type Params = Record<string, string>;

/** Writes a pane's params (its URL); `replace` writes without a new history entry. */
export type WriteParams = (next: Params, opts?: { replace?: boolean }) => void;

/** The non-empty values of `keys` in a params object, in key order (the comparable part of a URL). */
function subset(from: Params, keys: readonly string[]): Params {
  const out: Params = {};
  for (const k of keys) if (from[k]) out[k] = from[k];
  return out;
}

/**
 * THE way a pane keeps filters, searches and selections in its URL (deep links, back/forward,
 * bookmarks), shared by every pane. `state` is the pane's state as URL query values ('' = absent);
 * the pane kind lists these keys in its `query` (src/panes/spec-routes.ts).
 *
 * - A URL naming any of the keys (a deep link, a bookmark) sets the state on mount; a URL naming none
 *   takes the state (what the pane remembered), without a new history entry.
 * - A state change writes the URL (a new history entry, so back restores the previous filter).
 * - A URL change the pane did not write (back, forward, a link) is applied to the state: `apply` gets
 *   every key's value ('' for absent ones).
 * - `replace` names keys whose change alone rewrites the current entry instead (a focused row moving
 *   with j/k: the URL follows it, reload and bookmarks keep it, back skips the moves).
 * - The pane's params can lag behind its writes (the router delivers them later): a URL the pane wrote
 *   and has since moved on from (j, then j again before the first row's URL came back) is its own echo,
 *   not a navigation, and never takes the state back. Writes not seen yet are forgotten once the URL
 *   and the state agree, so a later Back to such a value is applied.
 */
export function useUrlState(params: Params, setParams: WriteParams, state: Params, apply: (fromUrl: Params) => void, opts: { replace?: readonly string[] } = {}): void {
  const keys = Object.keys(state);
  const url = subset(params, keys);
  const own = subset(state, keys);
  const u = JSON.stringify(url);
  const st = JSON.stringify(own);
  const prev = useRef<{ u: string; st: string } | null>(null);
  /** The URL values this hook wrote that the params have not shown yet, oldest first. */
  const unseen = useRef<string[]>([]);
  const replaceKeys = opts.replace ?? [];
  const latest = useRef({ params, setParams, apply, keys, url, own, replaceKeys });
  latest.current = { params, setParams, apply, keys, url, own, replaceKeys };
  useEffect(() => {
    const { params: p, setParams: write, apply: take, keys: ks, url: fromUrl, own: mine, replaceKeys: quiet } = latest.current;
    const before = prev.current;
    prev.current = { u, st };
    const full = () => Object.fromEntries(ks.map((k) => [k, fromUrl[k] ?? '']));
    const withState = (replace: boolean) => {
      const others = Object.fromEntries(Object.entries(p).filter(([k]) => !ks.includes(k)));
      unseen.current.push(st);
      write({ ...others, ...mine }, { replace });
    };
    if (u === st) unseen.current = [];
    if (!before) {
      if (Object.keys(fromUrl).length) {
        if (u !== st) take(full());
      } else if (u !== st) withState(true);
      return;
    }
    const moved = u !== before.u && u !== st;
    // The echo of an earlier write: the state has moved on since (see above), and its own write follows.
    const echo = moved ? unseen.current.indexOf(u) : -1;
    if (echo >= 0) unseen.current.splice(0, echo + 1);
    if (moved && echo < 0) take(full());
    else if (st !== before.st && st !== u) {
      // Only keys that rewrite the entry differ from the URL: no new history entry.
      const differ = ks.filter((k) => (fromUrl[k] ?? '') !== (mine[k] ?? ''));
      withState(differ.every((k) => quiet.includes(k)));
    }
  }, [u, st]);
}
