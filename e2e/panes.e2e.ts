import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn, signInThroughForm, useBrowser } from './browser';
import { sharedDirectorUrl } from './shared-director';
import {
  allTabs,
  currentUserId,
  eventually,
  groupTabs,
  groups,
  panel,
  pathOf,
  runCommand,
  tabs,
  waitForFocused,
  waitForPath,
} from './workbench';

const baseUrl = sharedDirectorUrl();
const LAYOUT_RESTORE_FAILED = 'The saved layout could not be restored, so the default layout is shown.';

const signInAsAdmin = (page: Page, at = '/') => signIn(page, inject('adminEmail'), inject('adminPassword'), at);

/** Opens Jobs then Users from the palette; Users ends focused. */
async function openJobsThenUsers(page: Page): Promise<void> {
  await runCommand(page, 'Open Jobs');
  await waitForFocused(page, 'Jobs');
  await waitForPath(page, '/jobs');
  await runCommand(page, 'Open Users');
  await waitForFocused(page, 'Users');
  await waitForPath(page, '/admin/users');
}

describe('panes, layout and URLs', () => {
  const b = useBrowser(() => baseUrl);

  it('two panes moved side by side with Alt+Shift+] are still side by side after a reload', async () => {
    const { page } = b;
    await signInAsAdmin(page);
    await openJobsThenUsers(page);
    expect(await groups(page).count()).toBe(1);

    await page.keyboard.press('Alt+Shift+BracketRight');
    await eventually(() => groups(page).count(), 2, 'moving the pane right makes a second group');
    await eventually(() => groupTabs(page), [['Start', 'Jobs'], ['Users']], 'Users moved into a group of its own');
    const [left, right] = await Promise.all([groups(page).nth(0).boundingBox(), groups(page).nth(1).boundingBox()]);
    expect(left && right && right.x >= left.x + left.width - 1).toBe(true);
    await waitForFocused(page, 'Users');

    await page.reload();
    await page.getByRole('button', { name: 'Open command palette' }).waitFor({ state: 'visible' });
    await eventually(() => groupTabs(page), [['Start', 'Jobs'], ['Users']], 'both groups and their tabs are restored');
    // Pane code loads on first use: wait for each restored pane's content to arrive.
    await panel(page, 'Jobs').getByRole('toolbar', { name: 'Jobs toolbar' }).waitFor({ state: 'visible' });
    await panel(page, 'Users').getByRole('heading', { name: 'Users' }).waitFor({ state: 'visible' });
    await waitForFocused(page, 'Users');
    expect(pathOf(page)).toBe('/admin/users');
  });

  it('JOB-018 a deep link to /simulations?sim_type=sequence opens the Simulations pane listing the sequences', async () => {
    const { page } = b;
    await signInAsAdmin(page, '/simulations?sim_type=sequence');
    await waitForFocused(page, 'Simulations');
    expect(pathOf(page)).toBe('/simulations?sim_type=sequence');
    const content = panel(page, 'Simulations');
    await content.getByRole('listbox', { name: 'Sequences' }).getByRole('option').first().waitFor();
    expect(await content.getByRole('radio', { name: 'Sequences' }).getAttribute('aria-checked')).toBe('true');
    expect(await content.getByText('This pane is not built yet.').count()).toBe(0);
    expect(await tabs(page, 'Simulations').count()).toBe(1);
  });

  it('a deep link opened while signed out opens its pane right after signing in', async () => {
    const { page } = b;
    // Through the form: the deep link is opened signed out, and the sign-in form shows at that URL.
    await signInThroughForm(page, inject('adminEmail'), inject('adminPassword'), '/simulations?sim_type=sequence');
    await waitForFocused(page, 'Simulations');
    expect(pathOf(page)).toBe('/simulations?sim_type=sequence');
  });

  it('opening a URL whose pane is already open focuses that pane instead of opening a second one', async () => {
    const { page } = b;
    await signInAsAdmin(page, '/jobs/12');
    await waitForFocused(page, 'Job 12');
    await runCommand(page, 'Open Jobs');
    await waitForFocused(page, 'Jobs');

    // In the page: the Go to URL path of the workbench.
    await page.evaluate(() => (window as unknown as { vigil: { openUrl(u: string): void } }).vigil.openUrl('/jobs/12'));
    await waitForFocused(page, 'Job 12');
    await waitForPath(page, '/jobs/12');
    expect(await tabs(page, 'Job 12').count()).toBe(1);

    // By typing the address again: the restored layout's pane is focused, not duplicated.
    await page.goto('/jobs');
    await waitForFocused(page, 'Jobs');
    await page.goto('/jobs/12');
    await waitForFocused(page, 'Job 12');
    expect(await tabs(page, 'Job 12').count()).toBe(1);
    expect(await tabs(page, 'Jobs').count()).toBe(1);
    expect(await allTabs(page).count()).toBe(3);
  });

  it('browser back and forward move the focus between the panes opened, and the URL follows', async () => {
    const { page } = b;
    await signInAsAdmin(page);
    await openJobsThenUsers(page);

    await page.goBack();
    await waitForPath(page, '/jobs');
    await waitForFocused(page, 'Jobs');
    await page.goForward();
    await waitForPath(page, '/admin/users');
    await waitForFocused(page, 'Users');
    await page.goBack();
    await page.goBack();
    await waitForPath(page, '/');
    await waitForFocused(page, 'Start');
    expect(await allTabs(page).count()).toBe(3);
  });

  it('going back after closing a pane reopens it', async () => {
    const { page } = b;
    await signInAsAdmin(page);
    await openJobsThenUsers(page);

    await page.locator('main').getByRole('button', { name: 'Close Users' }).click();
    await eventually(() => tabs(page, 'Users').count(), 0, 'the Users pane is closed');
    await waitForFocused(page, 'Jobs');
    await waitForPath(page, '/jobs');

    await page.goBack();
    await waitForPath(page, '/admin/users');
    await waitForFocused(page, 'Users');
    expect(await tabs(page, 'Users').count()).toBe(1);
  });

  const corruptLayouts: [string, string][] = [
    ['unreadable text', '{not json'],
    ['a layout dockview cannot rebuild', JSON.stringify({ version: 1, layout: { grid: { root: 'nonsense' }, panels: { x: 1 } } })],
  ];

  it.each(corruptLayouts)('JOB-030 a saved layout holding %s falls back to the Start pane with an info toast saying so', async (_what, garbage) => {
    const { page, context } = b;
    await signInAsAdmin(page);
    await openJobsThenUsers(page);
    const key = `vigil.layout.v1:${await currentUserId(page)}`;
    // Written before the app's scripts run, so the page's own save on unload cannot overwrite it.
    await context.addInitScript(([k, v]) => localStorage.setItem(k, v), [key, garbage] as const);
    await page.goto('/');

    const toast = page.getByRole('status').filter({ hasText: LAYOUT_RESTORE_FAILED });
    await toast.waitFor({ state: 'visible' });
    expect(await toast.getAttribute('data-kind')).toBe('info');
    await eventually(() => groupTabs(page), [['Start']], 'only the Start pane is open');
    await waitForFocused(page, 'Start');
    expect(await panel(page, 'Start').getByRole('heading', { name: 'Vigil workbench' }).isVisible()).toBe(true);
  });

  it('Alt+] and Alt+[ move the focus to the next and previous pane, and Alt+W closes the focused pane', async () => {
    const { page } = b;
    await signInAsAdmin(page);
    await openJobsThenUsers(page);

    await page.keyboard.press('Alt+BracketLeft');
    await waitForFocused(page, 'Jobs');
    await waitForPath(page, '/jobs');
    await page.keyboard.press('Alt+BracketRight');
    await waitForFocused(page, 'Users');
    await page.keyboard.press('Alt+BracketRight');
    await waitForFocused(page, 'Start');
    await waitForPath(page, '/');
    await page.keyboard.press('Alt+BracketRight');
    await waitForFocused(page, 'Jobs');

    await page.keyboard.press('Alt+w');
    await eventually(() => tabs(page, 'Jobs').count(), 0, 'Alt+W closed the Jobs pane');
    expect(await allTabs(page).count()).toBe(2);

    // Across groups too: move Users into its own group, then Alt+] crosses to the other group.
    await page.keyboard.press('Alt+BracketRight');
    await waitForFocused(page, 'Users');
    await page.keyboard.press('Alt+Shift+BracketRight');
    await eventually(() => groupTabs(page), [['Start'], ['Users']], 'Users has its own group');
    await page.keyboard.press('Alt+BracketRight');
    await waitForFocused(page, 'Start');
    await page.keyboard.press('Alt+BracketRight');
    await waitForFocused(page, 'Users');
  });
});
