// Browser helpers shared by the e2e tests and the benchmarks: no test-runner imports here.
import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

const CHROMIUM = '/usr/bin/chromium';
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/**
 * Debian's Chromium (never a downloaded browser); CHROMIUM_PATH overrides the path. The benchmarks measure
 * in it. VIGIL_CHROMIUM_EXTRA_ARGS (space-separated) adds switches, to measure what one changes.
 */
export function launchBrowser(executablePath = process.env.CHROMIUM_PATH || CHROMIUM, args: string[] = []): Promise<Browser> {
  const extra = (process.env.VIGIL_CHROMIUM_EXTRA_ARGS ?? '').split(' ').filter(Boolean);
  return chromium.launch({ executablePath, args: [...CHROMIUM_ARGS, ...args, ...extra], headless: true });
}

/**
 * V8 switches of the browser the e2e tests drive (never the benchmarks'): the interpreter and the
 * baseline compiler only, without the optimizing tiers (Maglev, TurboFan). A test page lives seconds and
 * runs each function a few times, so optimizing it is work thrown away: in a trace of the action-form
 * tests, Maglev's compile threads took about 10 of the renderer's 66 s of CPU. Measured, three runs of
 * `e2e/action-form.e2e.ts` each way on the quiet machine: 143-156 s of the machine's CPU with the
 * default tiers, 115-129 s without; `jobs.e2e.ts` 107 -> 92 s; `large-map.e2e.ts` (the 2,000-actor map)
 * 52 -> 50 s. The tiers compute the same results, so the tests prove the same behaviour.
 */
const TEST_BROWSER_JS_FLAGS = '--js-flags=--no-maglev,--no-turbofan';

/** Launches the e2e tests' browser (testBrowserPath) with TEST_BROWSER_JS_FLAGS. */
export const launchTestBrowser = (): Promise<Browser> => launchBrowser(testBrowserPath(), [TEST_BROWSER_JS_FLAGS]);

/**
 * The browser the e2e tests drive: Debian's chromium-headless-shell when installed (.ci/run installs it),
 * else its Chromium; CHROMIUM_PATH overrides both. The same Blink and V8 without the browser's own
 * WebUI: the actions-form walk of four wizards took 15.1 s instead of 23.4 s and a fifth less CPU.
 */
export const testBrowserPath = () => process.env.CHROMIUM_PATH || (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM);

/** Every test and benchmark page's viewport unless it says otherwise. */
export const PAGE_VIEWPORT = { width: 1400, height: 900 } as const;

/** A fresh context (own cookies and localStorage; PAGE_VIEWPORT unless `options` say otherwise) and page whose relative URLs resolve against baseUrl. */
export async function openPage(browser: Browser, baseUrl: string, options: BrowserContextOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: PAGE_VIEWPORT, ...options });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  return { context, page };
}

/** The top bar's palette button: present only when the workbench is shown (signed in). */
export const workbenchReady = (page: Page) => page.getByRole('button', { name: 'Open command palette' });

/** Fills and submits the sign-in form on the current page. */
export async function submitSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * Opens `path` (default '/'), signs in through the form and waits for the workbench. The e2e tests
 * sign in through the API (signIn in e2e/browser.ts) unless the form is what they test.
 */
export async function signInThroughForm(page: Page, email: string, password: string, at = '/'): Promise<void> {
  await page.goto(at);
  await submitSignIn(page, email, password);
  // A director started moments ago answers its first sign-in slowly on a loaded 2-core machine.
  await workbenchReady(page).waitFor({ state: 'visible', timeout: 30_000 });
}


/** Chrome DevTools' "Fast 3G" preset: 562.5 ms latency, 1.44 Mbit/s down, 675 kbit/s up (bytes per second here). */
export const FAST_3G = { latency: 562.5, downloadThroughput: (1.44 * 1024 * 1024) / 8, uploadThroughput: (675 * 1024) / 8 } as const;

/**
 * Slows the page down like a modest laptop on a mobile network (CDP): CPU `cpuRate` times slower and
 * the network of `network`. Returns the CDP session, which also reports the bytes each response took
 * on the wire (`Network.loadingFinished`'s encodedDataLength).
 */
export async function throttle(page: Page, { cpuRate = 4, network = FAST_3G }: { cpuRate?: number; network?: typeof FAST_3G } = {}) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, ...network });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuRate });
  return cdp;
}

/** The Start pane's heading: the workbench has drawn its first pane and answers keys and clicks. */
export const startPaneHeading = (page: Page) => page.getByRole('heading', { name: 'Vigil workbench', level: 1 });
