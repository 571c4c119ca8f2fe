import type { RouterHistory } from '@tanstack/react-router';
import type { UrlHistory } from '@/panes/dock-controller';

/** The address bar as the workbench sees it: push, replace, read and watch the URL of the router's history. */
export function urlHistoryOf(history: RouterHistory): UrlHistory & { subscribe(cb: () => void): () => void } {
  return {
    push: (url) => history.push(url),
    replace: (url) => history.replace(url),
    current: () => `${history.location.pathname}${history.location.search}`,
    subscribe: (cb) => history.subscribe(() => cb()),
  };
}
