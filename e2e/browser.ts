import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';
import type { Browser, BrowserContext, BrowserContextOptions, ConsoleMessage, Page } from 'playwright-core';
import { PAGE_VIEWPORT, launchTestBrowser, openPage, workbenchReady } from './chromium';
import { REPO_ROOT } from './director';
import { keepPage, type KeptPage } from './kept-page';

export { signInThroughForm, submitSignIn, workbenchReady } from './chromium';

/** Screenshots of failing tests (gitignored). */
export const RESULTS_DIR = path.join(REPO_ROOT, 'test-results');

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 120);
}

// ---- Sessions: sign in through the API once, reuse the cookie ----------------------------------

/** The director each context of this file talks to (its baseURL), for the session cookie's URL. */
const directorOf = new WeakMap<BrowserContext, string>();
/** Sessions this file opened itself (directors of its own, or a provided session that died): "url email password" -> cookie. */
const fileSessions = new Map<string, { name: string; value: string }>();

const JSON_HEADERS = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };

function cookieOf(header: string): { name: string; value: string } {
  const [name = '', ...rest] = header.split('=');
  return { name, value: rest.join('=') };
}

/** The session global-setup.ts opened for this user on this (shared) director, if any. */
function providedSession(url: string, email: string, password: string): { name: string; value: string } | undefined {
  const s = inject('sessions')[url]?.find((x) => x.email === email && x.password === password);
  return s ? cookieOf(s.cookie) : undefined;
}

/** Whether the director still knows the session (a test may have signed it out). */
async function sessionWorks(url: string, session: { name: string; value: string }): Promise<boolean> {
  const res = await fetch(new URL('/users/verify_user_session', url), { headers: { ...JSON_HEADERS, Cookie: `${session.name}=${session.value}` } });
  await res.body?.cancel();
  return res.ok;
}

/** A new session of the user through POST /users/sign_in.json. */
async function signInByApi(url: string, email: string, password: string): Promise<{ name: string; value: string }> {
  const res = await fetch(new URL('/users/sign_in.json', url), {
    method: 'POST',
    headers: { ...JSON_HEADERS, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`Sign-in of ${email} through the API answered ${res.status}: ${await res.text()}`);
  await res.body?.cancel();
  const header = res.headers.getSetCookie()[0];
  if (!header) throw new Error(`Sign-in of ${email} through the API set no cookie`);
  return cookieOf(header.split(';')[0]!);
}

/**
 * Gives the context a signed-in session of the user without the form: the session global-setup.ts
 * opened on the shared director (one sign-in per worker and user), else the one this file opened, else
 * a new one through POST /users/sign_in.json. A reused session is checked first (a test may have
 * signed it out), so a dead one is replaced, never used.
 *
 * The session is found outside the context and its cookie then overwrites the old one in place. A page
 * already open never sees the context without a session: its session check (SessionTimeout) would be
 * answered 401 in that moment, which Chromium logs as a console error (the JOB-010 JOB-078 flake).
 */
export async function useSession(context: BrowserContext, email: string, password: string): Promise<void> {
  const url = directorOf.get(context);
  if (!url) throw new Error('signIn: the context was not made by useBrowser (use signInThroughForm)');
  const key = `${url} ${email} ${password}`;
  const known = fileSessions.get(key) ?? providedSession(url, email, password);
  const session = known && (await sessionWorks(url, known)) ? known : await signInByApi(url, email, password);
  fileSessions.set(key, session);
  await context.addCookies([{ ...session, url }]);
  // The director's cookie has the attributes addCookies gives (host-only, path /), so it was replaced;
  // should another cookie of that name remain (set with other attributes), only the new one is kept.
  const same = (await context.cookies(url)).filter((c) => c.name === session.name);
  if (same.length !== 1 || same[0]!.value !== session.value) {
    await context.clearCookies({ name: session.name });
    await context.addCookies([{ ...session, url }]);
  }
}

/**
 * Opens `at` (default '/') signed in as the user and waits for the workbench. The session comes from
 * the API (useSession): only e2e/sign-in.e2e.ts and the flows that test the form use signInThroughForm.
 */
export async function signIn(page: Page, email: string, password: string, at = '/'): Promise<void> {
  await useSession(page.context(), email, password);
  await page.goto(at);
  // A director started moments ago answers its first requests slowly on a loaded 2-core machine.
  await workbenchReady(page).waitFor({ state: 'visible', timeout: 30_000 });
}

// ---- Console errors fail the test -------------------------------------------------------------

/**
 * Console output every page may log for now. Each entry names the issue that removes it; keep this
 * list short and delete an entry once its fix is merged.
 */
const KNOWN_NOISE: readonly RegExp[] = [];

function describeMessage(msg: ConsoleMessage): string {
  const where = msg.location().url;
  return `console.${msg.type()}: ${msg.text()}${where ? ` (${where})` : ''}`;
}

/** Collects every console error and warning and uncaught page error of the context's pages. */
function watchConsole(context: BrowserContext, logged: string[]): void {
  const watch = (page: Page) => {
    page.on('console', (msg) => {
      if (msg.type() === 'error' || msg.type() === 'warning') logged.push(describeMessage(msg));
    });
    page.on('pageerror', (err) => logged.push(`uncaught: ${err.message}`));
  };
  context.pages().forEach(watch);
  context.on('page', watch);
}

export interface BrowserFixture {
  readonly browser: Browser;
  readonly context: BrowserContext;
  readonly page: Page;
  /**
   * Lets the current test's pages log console errors or warnings matching `pattern`: only for an error
   * the test provokes on purpose (say why in a comment at the call).
   */
  allowConsole(pattern: RegExp): void;
  /** Another context (e.g. a second user) on the same director, watched like the main one and closed after the test. */
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
}

/**
 * The tests' contexts ask for reduced motion: the workbench then draws no animation (src/styles.css), whose
 * every frame Chromium would raster and composite in software; what changes still changes, at once.
 */
const TEST_CONTEXT_OPTIONS: BrowserContextOptions = { reducedMotion: 'reduce' };

// ---- One Chromium per worker --------------------------------------------------------------------

let launched: Promise<Browser> | null = null;

/**
 * The Chromium of this Vitest worker: launched by the first file that asks, kept for the worker's next
 * files (e2e/vitest.config.ts does not isolate files, so this module outlives them) and closed when the
 * worker exits (Playwright ends the browsers of a process that exits). Each test still gets a context of
 * its own, so nothing but the process is shared; a browser that crashed or was closed is launched again.
 * About 2 s of CPU per launch on this machine, once per worker instead of once per describe block.
 */
async function workerBrowser(): Promise<Browser> {
  const current = launched ? await launched.catch(() => null) : null;
  if (current?.isConnected()) return current;
  launched = launchTestBrowser();
  return launched;
}

/**
 * The page kept for the worker's next test (e2e/kept-page.ts), with its director and console log: one
 * at a time, for the next test on the same director (the context's baseURL), in this file or the next.
 */
let kept: { url: string; page: KeptPage; logged: string[] } | null = null;

async function dropKept(): Promise<void> {
  const k = kept;
  kept = null;
  await k?.page.realContext.close().catch(() => undefined);
}

/**
 * The worker's browser (one per worker, see workerBrowser) and a page: the page a test leaves cleanly is
 * cleared and kept for the worker's next test on the same director (e2e/kept-page.ts), else the next test
 * gets a fresh context and page. A failing test leaves a full-page screenshot in test-results/. A test whose pages log a console error or warning (or throw) fails,
 * unless the test allowed that message (allowConsole). `baseUrl` is read when each test starts.
 */
export function useBrowser(baseUrl: () => string): BrowserFixture {
  let browser: Browser | null = null;
  let current: { context: BrowserContext; page: Page; extra: BrowserContext[]; logged: string[]; allowed: RegExp[] } | null = null;
  beforeAll(async () => {
    browser = await workerBrowser();
  });
  afterAll(() => {
    // The worker's Chromium and its kept page stay for its next file (workerBrowser, keptPage).
    browser = null;
  });
  beforeEach(async () => {
    if (!browser?.isConnected()) {
      kept = null;
      browser = await workerBrowser();
    }
    const url = baseUrl();
    if (kept && kept.url !== url) await dropKept();
    if (!kept) {
      const { context, page } = await openPage(browser, url, TEST_CONTEXT_OPTIONS);
      const logged: string[] = [];
      watchConsole(context, logged);
      kept = { url, page: keepPage(context, page), logged };
      directorOf.set(context, url);
      directorOf.set(kept.page.context, url);
    }
    kept.logged.length = 0;
    current = { context: kept.page.context, page: kept.page.page, extra: [], logged: kept.logged, allowed: [] };
  });
  afterEach(async (ctx) => {
    const c = current;
    current = null;
    if (!c) return;
    const failed = ctx.task.result?.state === 'fail';
    if (failed) {
      fs.mkdirSync(RESULTS_DIR, { recursive: true });
      const file = path.join(RESULTS_DIR, `${safeName(`${path.basename(ctx.task.file.name)}-${ctx.task.name}`)}.png`);
      await c.page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
    }
    await Promise.all(c.extra.map((x) => x.close()));
    const unexpected = c.logged.filter((line) => ![...KNOWN_NOISE, ...c.allowed].some((re) => re.test(line)));
    const clean = !failed && unexpected.length === 0;
    // Only a page whose test passed cleanly is kept; any doubt gives the next test a fresh context.
    if (!clean || !(await kept?.page.reset().catch(() => false))) await dropKept();
    if (!failed && unexpected.length > 0) throw new Error(`The page logged ${unexpected.length} console error(s) or warning(s):\n${unexpected.join('\n')}`);
  });
  const now = () => {
    if (!current) throw new Error('No page: use this inside a test');
    return current;
  };
  return {
    get browser() {
      if (!browser) throw new Error('The browser is not running');
      return browser;
    },
    get context() {
      return now().context;
    },
    get page() {
      return now().page;
    },
    allowConsole(pattern: RegExp) {
      now().allowed.push(pattern);
    },
    async newContext(options: BrowserContextOptions = {}) {
      const c = now();
      const url = baseUrl();
      const context = await c.context.browser()!.newContext({ baseURL: url, viewport: PAGE_VIEWPORT, ...TEST_CONTEXT_OPTIONS, ...options });
      context.setDefaultTimeout(15_000);
      directorOf.set(context, url);
      watchConsole(context, c.logged);
      c.extra.push(context);
      return context;
    },
  };
}
