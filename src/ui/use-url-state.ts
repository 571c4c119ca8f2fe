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
 */
export function useUrlState(params: Params, setParams: WriteParams, state: Params, apply: (fromUrl: Params) => void, opts: { replace?: readonly string[] } = {}): void {
  const keys = Object.keys(state);
  const url = subset(params, keys);
  const own = subset(state, keys);
  const u = JSON.stringify(url);
  const st = JSON.stringify(own);
  const prev = useRef<{ u: string; st: string } | null>(null);
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
      write({ ...others, ...mine }, { replace });
    };
    if (!before) {
      if (Object.keys(fromUrl).length) {
        if (u !== st) take(full());
      } else if (u !== st) withState(true);
      return;
    }
    if (u !== before.u && u !== st) take(full());
    else if (st !== before.st && st !== u) {
      // Only keys that rewrite the entry differ from the URL: no new history entry.
      const differ = ks.filter((k) => (fromUrl[k] ?? '') !== (mine[k] ?? ''));
      withState(differ.every((k) => quiet.includes(k)));
    }
  }, [u, st]);
}
