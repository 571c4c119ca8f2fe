import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, openPage } from './chromium';
import { REPO_ROOT } from './director';

export { signIn, submitSignIn, workbenchReady } from './chromium';

/** Screenshots of failing tests (gitignored). */
export const RESULTS_DIR = path.join(REPO_ROOT, 'test-results');

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 120);
}

export interface BrowserFixture {
  readonly browser: Browser;
  readonly context: BrowserContext;
  readonly page: Page;
}

/**
 * One browser per test file, a fresh context and page per test; a failing test leaves a full-page
 * screenshot in test-results/. `baseUrl` is read when each test starts.
 */
export function useBrowser(baseUrl: () => string): BrowserFixture {
  let browser: Browser | null = null;
  let current: { context: BrowserContext; page: Page } | null = null;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    browser = null;
  });
  beforeEach(async () => {
    if (!browser) throw new Error('The browser did not start');
    current = await openPage(browser, baseUrl());
  });
  afterEach(async (ctx) => {
    const c = current;
    current = null;
    if (!c) return;
    if (ctx.task.result?.state === 'fail') {
      fs.mkdirSync(RESULTS_DIR, { recursive: true });
      const file = path.join(RESULTS_DIR, `${safeName(`${path.basename(ctx.task.file.name)}-${ctx.task.name}`)}.png`);
      await c.page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
    }
    await c.context.close();
  });
  return {
    get browser() {
      if (!browser) throw new Error('The browser is not running');
      return browser;
    },
    get context() {
      if (!current) throw new Error('No page: use this inside a test');
      return current.context;
    },
    get page() {
      if (!current) throw new Error('No page: use this inside a test');
      return current.page;
    },
  };
}
