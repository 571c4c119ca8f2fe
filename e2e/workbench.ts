import { expect } from 'vitest';
import type { Locator, Page, PageScreenshotOptions } from 'playwright-core';

/** Polls `read` until it equals `expected` (Playwright's auto-waiting `expect` is not available with vitest). */
export async function eventually<T>(read: () => Promise<T> | T, expected: T, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    try {
      last = await read();
      if (JSON.stringify(last) === JSON.stringify(expected)) return;
    } catch {
      // keep polling until the deadline
    }
    if (Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(last, `${what} (waited ${timeoutMs} ms)`).toEqual(expected);
}

/**
 * A screenshot for a person to look at (a screen built or changed), not an assertion: taken only with
 * VIGIL_SCREENSHOTS=1 (about 50 per run otherwise, each a page render and a PNG encoding). A failing
 * test's screenshot (test-results/, e2e/browser.ts) is always taken.
 */
export async function lookAt(page: Page, options: PageScreenshotOptions & { path: string }): Promise<void> {
  if (process.env.VIGIL_SCREENSHOTS === '1') await page.screenshot(options);
}

/** Path and query of the page's URL, e.g. "/simulations?sim_type=sequence". */
export function pathOf(page: Page): string {
  const u = new URL(page.url());
  return `${u.pathname}${u.search}`;
}

export const waitForPath = (page: Page, path: string) => eventually(() => pathOf(page), path, `the URL becomes ${path}`);

export const paletteInput = (page: Page) => page.getByRole('combobox', { name: 'Command palette' });
export const paletteList = (page: Page) => page.getByRole('listbox', { name: 'Commands' });
export const paletteOptions = (page: Page) => paletteList(page).getByRole('option');

/** The option whose title is exactly `title` (its accessible name also holds the hotkey label). */
export const paletteOption = (page: Page, title: string): Locator =>
  paletteOptions(page).filter({ has: page.locator('span.truncate', { hasText: new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }) });

/** How many commands match, as the palette's footer says ("12 commands"); the list itself is virtualized. */
export async function paletteCount(page: Page): Promise<number> {
  const text = await page.getByText(/^\d+ commands?$/).innerText();
  return Number.parseInt(text, 10);
}

/** Titles of the palette's rendered options (the visible window of a virtualized list), in display order. */
export const paletteTitles = (page: Page) => paletteOptions(page).locator('span.truncate').allInnerTexts();

export async function openPalette(page: Page): Promise<void> {
  await page.keyboard.press('Control+k');
  await paletteInput(page).waitFor({ state: 'visible' });
}

/** Runs a command the way a user does: Ctrl+K, type its title, arrow to it, Enter. */
export async function runCommand(page: Page, title: string): Promise<void> {
  await openPalette(page);
  await paletteInput(page).fill(title);
  const option = paletteOption(page, title);
  await option.waitFor({ state: 'visible' });
  for (let i = 0; i < 50 && (await option.getAttribute('aria-selected')) !== 'true'; i++) await paletteInput(page).press('ArrowDown');
  expect(await option.getAttribute('aria-selected'), `"${title}" is selected in the palette`).toBe('true');
  await paletteInput(page).press('Enter');
  await paletteInput(page).waitFor({ state: 'hidden' });
}

/** Every tab of the dock named exactly `name`. */
export const tabs = (page: Page, name: string) => page.locator('main').getByRole('tab', { name, exact: true });
export const allTabs = (page: Page) => page.locator('main').getByRole('tab');
export const groups = (page: Page) => page.locator('main .dv-groupview');

/** The title of the focused pane (the selected tab of the active group). */
export const focusedTitle = (page: Page) => page.locator('main .dv-active-group [role=tab][aria-selected=true]').innerText();

/** Waits until the pane titled `title` is the focused one. */
export const waitForFocused = (page: Page, title: string) => eventually(async () => (await focusedTitle(page)).trim(), title, `the focused pane is "${title}"`);

/** The visible content of the pane titled `title`. */
export const panel = (page: Page, title: string) => page.locator('main').getByRole('tabpanel', { name: title, exact: true });

/** The tab titles of each group, left to right / top to bottom as dockview orders its groups in the DOM. */
export async function groupTabs(page: Page): Promise<string[][]> {
  return page.locator('main .dv-groupview').evaluateAll((els) =>
    els.map((el) => [...el.querySelectorAll('[role=tab]')].map((t) => (t.textContent ?? '').trim())),
  );
}

/** The id of the signed-in user, read from the director as the page does. */
export async function currentUserId(page: Page): Promise<number> {
  const res = await page.request.get('/environment.json', { headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' } });
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { user: { id: number } };
  return body.user.id;
}
