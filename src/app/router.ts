import { createRootRoute, createRoute, createRouter, Outlet } from '@tanstack/react-router';
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
