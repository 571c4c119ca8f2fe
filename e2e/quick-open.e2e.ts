import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn, useBrowser, useSession } from './browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD, DEMO_USERS, DEMO_USER_PASSWORD } from './director';
import { sharedDirectorUrl } from './shared-director';
import { eventually, openPalette, paletteInput, paletteOptions, pathOf, waitForFocused, waitForPath, lookAt } from './workbench';
import type { JobListAnswer } from '../src/api/contracts/jobs';
import type { LibraryListAnswer } from '../src/api/contracts/library';
import type { SearchAnswer } from '../src/api/contracts/search';

/**
 * Issue 21, keyboard only, on the shared director (nothing here writes: a run stops at the Run All
 * Actions modal, which is closed): running an Action by VID from the palette and from its detail,
 * quick open by VID, job id and actor name, the `?` shortcut sheet, and the Jobs pane's page filter and
 * focused row in the URL.
 */

const XHR = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };
async function api<T>(page: Page, url: string): Promise<T> {
  const res = await page.request.get(url, { headers: XHR });
  expect(res.status(), url).toBe(200);
  return (await res.json()) as T;
}

const runDialog = (page: Page) => page.getByRole('dialog', { name: 'Run All Actions' });
const detailArticle = (page: Page) => page.locator('article');

/** An Action of the demo library, with its id, VID and name. */
async function someAction(page: Page): Promise<{ id: number; vid: string; name: string }> {
  const a = (await api<LibraryListAnswer>(page, '/manage_sims/v2/actions/library_actions_list?action_types[]=dns&page_size=1')).actions[0]!;
  return { id: a.id, vid: a.vid, name: a.name };
}

/** The Run All Actions modal shows what it runs by its name and VID; Escape closes it without running. */
async function expectRunModalFor(page: Page, a: { vid: string; name: string }): Promise<void> {
  await runDialog(page).getByRole('heading', { name: 'Select Source and Destination Actors' }).waitFor();
  const named = runDialog(page).getByRole('heading', { name: new RegExp(`^${a.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) });
  await named.waitFor();
  expect(await named.innerText()).toContain(`Action · ${a.vid}`);
  await page.keyboard.press('Escape');
  await runDialog(page).waitFor({ state: 'detached' });
}

/** Types a query into the palette and waits until the first option's text matches. */
async function typeAndWaitFirst(page: Page, query: string, first: RegExp): Promise<void> {
  await openPalette(page);
  await paletteInput(page).fill(query);
  await eventually(async () => first.test((await paletteOptions(page).first().textContent()) ?? ''), true, `the first option for "${query}" matches ${first}`);
  expect(await paletteOptions(page).first().getAttribute('aria-selected')).toBe('true');
}

describe('issue 21 run by name and quick open', () => {
  const b = useBrowser(sharedDirectorUrl);

  it('issue 21.2 run.action vid=… typed in the palette runs that Action: the Run All Actions modal names it', async () => {
    const { page } = b;
    await signIn(page, DEMO_USERS.operator, DEMO_USER_PASSWORD);
    const a = await someAction(page);
    await typeAndWaitFirst(page, `run.action vid=${a.vid}`, new RegExp(`^run\\.action vid=${a.vid}Run Action…$`));
    await paletteInput(page).press('Enter');
    await paletteInput(page).waitFor({ state: 'hidden' });
    await expectRunModalFor(page, a);
  });

  it('issue 21.2 the Action detail has a Run button: Enter on it opens the Run All Actions modal for that Action, as x does', async () => {
    const { page } = b;
    await signIn(page, DEMO_USERS.operator, DEMO_USER_PASSWORD, '/manage_sims/actions');
    const a = await someAction(page);
    await page.evaluate((u) => (window as unknown as { vigil: { openUrl(u: string): void } }).vigil.openUrl(u), `/manage_sims/action/${a.vid}`);
    await eventually(() => detailArticle(page).getAttribute('aria-label'), `Action ${a.vid}`, 'the detail shows the Action');
    const run = detailArticle(page).getByRole('button', { name: 'Run', exact: true });
    expect(await run.getAttribute('title')).toBe('Run Action… (X)');
    await run.focus();
    await page.keyboard.press('Enter');
    await expectRunModalFor(page, a);
    // The hotkey runs the Action the library shows.
    await page.locator('main').getByRole('listbox', { name: 'Actions' }).locator(`[role=option][data-vid="${a.vid}"]`).focus();
    await page.keyboard.press('x');
    await expectRunModalFor(page, a);
  });

  it('issue 21.3 quick open by VID: the Action comes first under Open, and Enter opens its detail', async () => {
    const { page } = b;
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    const a = await someAction(page);
    await typeAndWaitFirst(page, a.vid, new RegExp(`^${a.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*${a.vid}.*Action$`));
    await paletteInput(page).press('Enter');
    await waitForPath(page, `/manage_sims/action/${a.vid}`);
    await eventually(() => detailArticle(page).getAttribute('aria-label'), `Action ${a.vid}`, 'the detail shows the Action');
  });

  it('issue 21.3 quick open by job id: Enter on "Job N" opens the job', async () => {
    const { page } = b;
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    const list = await api<JobListAnswer>(page, '/jobs/list_page_data.json?size=5');
    const job = (list.jobs ?? list.filtered_jobs ?? [])[2]!;
    await typeAndWaitFirst(page, String(job.id), new RegExp(`^Job ${job.id}(?!\\d).*Job$`));
    await paletteInput(page).press('Enter');
    await waitForPath(page, `/jobs/${job.id}`);
    await waitForFocused(page, `Job ${job.id}`);
  });

  it('issue 21.3 quick open by actor name: the actor is listed and Enter opens it', async () => {
    const { page } = b;
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    const name = 'EXT-ATTACKER-01';
    // What the palette's one search call answers for that name.
    const found = (await api<SearchAnswer>(page, `/search.json?q=${name}`)).results.find((r) => r.kind === 'actor')!;
    expect(found.label).toContain(name);
    await openPalette(page);
    await paletteInput(page).fill(name);
    const option = paletteOptions(page).filter({ hasText: found.label }).filter({ hasText: 'Actor' });
    await option.waitFor();
    // Arrow down to it, as a user does, and open it.
    for (let i = 0; i < 30 && (await option.getAttribute('aria-selected')) !== 'true'; i++) await paletteInput(page).press('ArrowDown');
    expect(await option.getAttribute('aria-selected')).toBe('true');
    await paletteInput(page).press('Enter');
    await waitForPath(page, found.url);
    await eventually(async () => (await page.locator('main').innerText()).includes(name), true, 'the actor is shown');
  });

  it('issue 21.3 quick open by the friendly name the Actors pane shows: the actor is listed with its live status and Enter opens it', async () => {
    const { page } = b;
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    const found = (await api<SearchAnswer>(page, `/search.json?q=${encodeURIComponent('Finance workstation')}`)).results.find((r) => r.kind === 'actor')!;
    // The demo's actors send no heartbeat: offline, as the Actors pane shows them, whatever status is stored.
    expect(found.detail).toMatch(/^Finance workstation 1 · [\d.]+ · offline$/);
    await openPalette(page);
    await paletteInput(page).fill('Finance workstation');
    const option = paletteOptions(page).filter({ hasText: found.detail }).filter({ hasText: 'Actor' });
    await option.waitFor();
    for (let i = 0; i < 30 && (await option.getAttribute('aria-selected')) !== 'true'; i++) await paletteInput(page).press('ArrowDown');
    await lookAt(page, { path: '/tmp/op6-quick-open-friendly-name.png' });
    await paletteInput(page).press('Enter');
    await waitForPath(page, found.url);
  });

  it('issue 21.3 ? opens the shortcut sheet generated from the registry; Escape closes it', async () => {
    const { page } = b;
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.locator('main').waitFor();
    await page.keyboard.press('Shift+Slash');
    const sheet = page.getByRole('dialog', { name: 'Keyboard Shortcuts' });
    // The dialog's root has no box of its own (its panel is fixed): wait for its rows.
    await sheet.getByRole('row').first().waitFor();
    // Rows come from the registry: the palette's, the sheet's own, and a pane's key with where it works.
    const rowOf = (title: string) => sheet.getByRole('row').filter({ has: page.getByRole('cell', { name: title, exact: true }) });
    expect(await rowOf('Show Command Palette').locator('kbd').allInnerTexts()).toEqual(['Ctrl+K', 'Ctrl+Shift+P']);
    expect(await rowOf('Show Keyboard Shortcuts').locator('kbd').allInnerTexts()).toEqual(['Shift+/']);
    expect(await rowOf('Undo').locator('kbd').allInnerTexts()).toEqual(['Z']);
    expect(await rowOf('Next Action').innerText()).toMatch(/In actions\s+J/);
    await lookAt(page, { path: '/tmp/ops3-shortcuts.png' });
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });
  });
});

describe('issue 21.4 the Jobs pane keeps its page filter and focused row in the URL', () => {
  const b = useBrowser(sharedDirectorUrl);
  const grid = (page: Page) => page.getByRole('treegrid', { name: 'Jobs' });
  const activeKey = (page: Page) => grid(page).locator('[role=row][data-active]').getAttribute('data-row-key');
  const footer = (page: Page) => page.locator('footer[aria-label="Pagination"] [role=status]');
  const params = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);

  it('issue 21.4 a page filter value and the focused job row go into the URL; reload, back and forward restore them', async () => {
    const { page } = b;
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD, '/jobs');
    await waitForFocused(page, 'Jobs');
    await grid(page).locator('[role=row][data-row-kind=job]').first().waitFor();
    const all = await api<JobListAnswer>(page, '/jobs/list_page_data.json?size=10');
    await eventually(async () => (await footer(page).innerText()).trim(), `Showing 1–10 of ${all.total_jobs} jobs`, 'the unfiltered list');

    // j focuses the first job: the URL names it, without a new history entry.
    await grid(page).focus();
    const historyBefore = await page.evaluate(() => history.length);
    await page.keyboard.press('j');
    const firstKey = await grid(page).locator('[role=row][data-row-kind=job]').first().getAttribute('data-row-key');
    await eventually(() => activeKey(page), firstKey, 'j focuses the first job');
    const firstId = firstKey!.replace('job:', '');
    await eventually(() => params(page).job, firstId, 'the URL names the focused job');
    await page.keyboard.press('j');
    const secondKey = await grid(page).locator('[role=row][data-row-kind=job]').nth(1).getAttribute('data-row-key');
    const secondId = secondKey!.replace('job:', '');
    await eventually(() => params(page).job, secondId, 'the URL follows the focus');
    expect(await page.evaluate(() => history.length)).toBe(historyBefore);

    // A page filter value (Job Status: completed), applied with Update Filter.
    const list = page.getByRole('region', { name: 'Job filters' });
    await page.keyboard.press('Control+k');
    await paletteInput(page).fill('Focus Filter');
    await paletteInput(page).press('Enter');
    const status = list.getByLabel('Job Status', { exact: true });
    await status.waitFor();
    await status.selectOption('completed');
    await list.getByRole('button', { name: 'Update Filter' }).focus();
    await page.keyboard.press('Enter');
    // The list narrows: fewer jobs than all, and every job shown is completed.
    const totalShown = async () => Number(/of ([\d,]+) jobs/.exec(await footer(page).innerText())?.[1]?.replace(/,/g, '') ?? NaN);
    await eventually(async () => { const n = await totalShown(); return n > 0 && n < all.total_jobs; }, true, 'the list narrows to completed jobs');
    expect(await grid(page).locator('[role=row][data-row-kind=job] [data-status]').evaluateAll((els) => [...new Set(els.map((e) => e.getAttribute('data-status')))])).toEqual(['completed']);
    const completed = { total_filtered_jobs: await totalShown() };
    const shownText = `Showing 1–${Math.min(10, completed.total_filtered_jobs)} of ${completed.total_filtered_jobs} jobs`;
    await eventually(() => params(page).page_filter, JSON.stringify({ job_status: 'completed' }), 'the URL holds the page filter value');
    const filteredUrl = pathOf(page);

    // Reload: the page filter and the list come back from the URL.
    await page.reload();
    await waitForFocused(page, 'Jobs');
    await eventually(async () => (await footer(page).innerText()).trim(), shownText, 'the reloaded list is filtered');
    expect(pathOf(page)).toBe(filteredUrl);
    await lookAt(page, { path: '/tmp/ops3-jobs-url.png' });

    // Back: the unfiltered list with the job focused there; forward: the filter again.
    await page.goBack();
    await eventually(async () => (await footer(page).innerText()).trim(), `Showing 1–10 of ${all.total_jobs} jobs`, 'back shows the unfiltered list');
    expect(params(page).page_filter).toBeUndefined();
    expect(params(page).job).toBe(secondId);
    await eventually(() => activeKey(page), secondKey, 'back focuses the job the entry names');
    await page.goForward();
    await eventually(async () => (await footer(page).innerText()).trim(), shownText, 'forward filters again');
    expect(params(page).page_filter).toBe(JSON.stringify({ job_status: 'completed' }));
  });

  it('issue 21.4 a deep link with job= focuses that job row once the list shows it', async () => {
    const { page } = b;
    await useSession(page.context(), ADMIN_EMAIL, ADMIN_PASSWORD);
    const list = await api<JobListAnswer>(page, '/jobs/list_page_data.json?size=10');
    const job = (list.jobs ?? list.filtered_jobs ?? [])[4]!;
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD, `/jobs?job=${job.id}`);
    await waitForFocused(page, 'Jobs');
    await eventually(() => activeKey(page), `job:${job.id}`, 'the named job is focused');
    expect(params(page).job).toBe(String(job.id));
  });
});
