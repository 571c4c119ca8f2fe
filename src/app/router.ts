import { createRootRoute, createRoute, createRouter, Outlet } from '@tanstack/react-router';
import type { UrlHistory } from '@/panes/dock-controller';
import { Shell } from './shell';

/**
 * The router is the URL codec only: every path renders the one shell, and the workbench maps the
 * location to "open or focus pane KIND with PARAMS" (src/panes/route-match.ts).
 */
const rootRoute = createRootRoute({ component: Shell });
const anyRoute = createRoute({ getParentRoute: () => rootRoute, path: '$', component: Outlet });
const indexRoute = createRoute({ getParentRoute: () => rootRoute, path: '/', component: Outlet });

export const router = createRouter({ routeTree: rootRoute.addChildren([indexRoute, anyRoute]) });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

export const urlHistory: UrlHistory & { subscribe(cb: () => void): () => void } = {
  push: (url) => router.history.push(url),
  replace: (url) => router.history.replace(url),
  current: () => `${router.history.location.pathname}${router.history.location.search}`,
  subscribe: (cb) => router.history.subscribe(() => cb()),
};
