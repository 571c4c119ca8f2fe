import type { BrowserContext, Page } from 'playwright-core';

/**
 * One page kept from test to test of a worker on the same director (e2e/browser.ts useBrowser): a test's
 * first load of the workbench then runs in a renderer that has already compiled the workbench's scripts.
 * Measured on e2e/library.e2e.ts (16 tests, alone): 100 s of CPU and 56.6 s of test time with a fresh
 * context per test, 87 s and 52.7 s with the kept page.
 *
 * A kept page must leave nothing of a test behind: after each test its cookies, permissions, routes,
 * extra pages, localStorage and sessionStorage are cleared, the listeners it added with `page.on` are
 * removed and its viewport is set back. What clearing cannot undo (a fake clock, context listeners, an
 * init script, emulation, a CDP session, offline mode...) taints the page: the test after one that
 * calls any of these methods gets a fresh context.
 */

const PAGE_TAINTS = new Set([
  'clock',
  'once',
  'prependListener',
  'prependOnceListener',
  'addInitScript',
  'addLocatorHandler',
  'emulateMedia',
  'exposeBinding',
  'exposeFunction',
  'routeFromHAR',
  'routeWebSocket',
  'setDefaultNavigationTimeout',
  'setDefaultTimeout',
  'setExtraHTTPHeaders',
  'close',
]);

const CONTEXT_TAINTS = new Set([
  'clock',
  'on',
  'once',
  'addListener',
  'prependListener',
  'prependOnceListener',
  'addInitScript',
  'exposeBinding',
  'exposeFunction',
  'newCDPSession',
  'routeFromHAR',
  'routeWebSocket',
  'setDefaultNavigationTimeout',
  'setDefaultTimeout',
  'setExtraHTTPHeaders',
  'setGeolocation',
  'setHTTPCredentials',
  'setOffline',
  'close',
]);

/** `target` as the tests see it: calling one of `taints` marks the kept page as not reusable. */
function watched<T extends object>(target: T, taints: ReadonlySet<string>, taint: (why: string) => void, overrides: Record<string, unknown> = {}): T {
  return new Proxy(target, {
    get(t, prop) {
      if (typeof prop === 'string' && prop in overrides) return overrides[prop];
      if (typeof prop === 'string' && taints.has(prop)) taint(prop);
      const value: unknown = Reflect.get(t, prop, t);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(t) : value;
    },
  });
}

export interface KeptPage {
  /** The page and its context as tests use them (watched for taints). */
  readonly page: Page;
  readonly context: BrowserContext;
  /** The real context (for the fixture's own bookkeeping). */
  readonly realContext: BrowserContext;
  /** Why the page may not be kept (the first tainting call), or null. */
  tainted(): string | null;
  /** Clears what a test left; false when the page cannot be kept (closed or tainted). */
  reset(): Promise<boolean>;
}

export function keepPage(context: BrowserContext, page: Page): KeptPage {
  let taintedBy: string | null = null;
  const taint = (why: string) => (taintedBy ??= why);
  const origins = new Set<string>();
  // The fixture's own listener (on the real page, so not a taint): every origin the test opened.
  page.on('framenavigated', (frame) => {
    if (frame !== page.mainFrame()) return;
    const u = new URL(frame.url());
    if (u.protocol === 'http:' || u.protocol === 'https:') origins.add(u.origin);
  });
  const watchedContext = watched(context, CONTEXT_TAINTS, taint);
  // Undone by reset: the test's listeners and its viewport.
  const listeners: [string, (...args: unknown[]) => void][] = [];
  const viewport = page.viewportSize();
  let resized = false;
  const on = (event: string, fn: (...args: unknown[]) => void) => {
    listeners.push([event, fn]);
    page.on(event as 'request', fn);
    return watchedPage;
  };
  const watchedPage: Page = watched(page, PAGE_TAINTS, taint, {
    context: () => watchedContext,
    on,
    addListener: on,
    setViewportSize: (size: { width: number; height: number }) => {
      resized = true;
      return page.setViewportSize(size);
    },
  });
  return {
    page: watchedPage,
    context: watchedContext,
    realContext: context,
    tainted: () => taintedBy,
    async reset() {
      if (taintedBy || page.isClosed()) return false;
      for (const [event, fn] of listeners.splice(0)) page.off(event as 'request', fn);
      if (resized && viewport) await page.setViewportSize(viewport);
      resized = false;
      await Promise.all(context.pages().filter((p) => p !== page).map((p) => p.close()));
      await page.unrouteAll({ behavior: 'ignoreErrors' });
      await context.unrouteAll({ behavior: 'ignoreErrors' });
      // Leaving the workbench runs its unload savers; a static file of each origin then clears its storage.
      for (const origin of origins) {
        await page.goto(`${origin}/favicon.svg`);
        await page.evaluate(() => {
          localStorage.clear();
          sessionStorage.clear();
        });
      }
      origins.clear();
      await context.clearCookies();
      await context.clearPermissions();
      return true;
    },
  };
}
