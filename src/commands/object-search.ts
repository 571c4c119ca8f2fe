import { useEffect, useState } from 'react';
import { http } from '@/api/http';
import type { SearchAnswer, SearchResult } from '@/api/contracts/search';

const DELAY_MS = 120;
const LIMIT = 20;

export type ObjectSearch = { state: 'idle' } | { state: 'loading' } | { state: 'ready'; results: SearchResult[] } | { state: 'error'; message: string };

export const searchObjects = async (q: string, signal: AbortSignal): Promise<SearchResult[]> => (await http.get<SearchAnswer>('/search.json', { params: { q, limit: LIMIT }, signal })).results;

/**
 * The palette's object search: one director call (`GET /search.json`) per pause in typing; the call of
 * a query typed over is aborted (AbortController), so answers never arrive out of order.
 */
export function useObjectSearch(query: string, enabled: boolean): ObjectSearch {
  const [result, setResult] = useState<ObjectSearch>({ state: 'idle' });
  const q = query.trim();
  useEffect(() => {
    if (!enabled || q.length < 2) {
      setResult({ state: 'idle' });
      return;
    }
    const ac = new AbortController();
    setResult({ state: 'loading' });
    const t = setTimeout(() => {
      searchObjects(q, ac.signal).then(
        (results) => !ac.signal.aborted && setResult({ state: 'ready', results }),
        (e: unknown) => !ac.signal.aborted && setResult({ state: 'error', message: e instanceof Error ? e.message : String(e) }),
      );
    }, DELAY_MS);
    return () => {
      clearTimeout(t);
      ac.abort();
    };
  }, [q, enabled]);
  return result;
}
