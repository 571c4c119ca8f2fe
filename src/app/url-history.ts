import type { UrlHistory } from '@/panes/dock-controller';

export type WatchedUrlHistory = UrlHistory & { subscribe(cb: () => void): () => void };

/**
 * The address bar as the workbench sees it (the History API): push, replace, read and watch the URL.
 * Subscribers hear every change, the workbench's own pushes and replaces as well as back and forward.
 * The workbench maps the URL to "open or focus pane KIND with PARAMS" itself (src/panes/route-match.ts),
 * so no router is needed (TanStack Router, the URL codec before, was 22 KB gzip of the first download).
 */
export function browserUrlHistory(win: Pick<Window, 'history' | 'location' | 'addEventListener'> = window): WatchedUrlHistory {
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((cb) => cb());
  win.addEventListener('popstate', notify);
  return {
    push: (url) => {
      win.history.pushState(null, '', url);
      notify();
    },
    replace: (url) => {
      win.history.replaceState(null, '', url);
      notify();
    },
    current: () => `${win.location.pathname}${win.location.search}`,
    subscribe: (cb) => {
      listeners.add(cb);
      return () => void listeners.delete(cb);
    },
  };
}
