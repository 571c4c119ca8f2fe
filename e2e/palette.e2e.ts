import { describe, expect, inject, it } from 'vitest';
import { signIn, useBrowser } from './browser';
import { sharedDirectorUrl } from './shared-director';
import { DEMO_USERS } from './director';
import type { SearchAnswer } from '@/api/contracts/search';
import { eventually, openPalette, paletteCount, paletteInput, paletteOption, paletteOptions, paletteTitles, panel, pathOf, runCommand, tabs, waitForFocused, waitForPath, lookAt } from './workbench';

const baseUrl = sharedDirectorUrl();

describe('the command palette', () => {
  const b = useBrowser(() => baseUrl);

  it('opens with Ctrl+K, filters as you type, moves with the arrow keys, and Enter on "Open Users" opens the Users pane at /admin/users', async () => {
    const { page } = b;
    await signIn(page, inject('adminEmail'), inject('adminPassword'));
    await openPalette(page);
    const input = paletteInput(page);
    expect(await input.evaluate((el) => el === document.activeElement)).toBe(true);
    const all = await paletteCount(page);
    expect(all).toBeGreaterThan(20);
    expect(await paletteOptions(page).count()).toBeGreaterThan(5);

    await input.pressSequentially('users');
    await eventually(async () => (await paletteCount(page)) < all, true, 'typing filters the commands');
    const titles = await paletteTitles(page);
    expect(titles).toContain('Open Users');
    expect(titles).toContain('Add User');
    expect(titles).not.toContain('Focus Next Pane');
    // The list is virtualized: the rendered rows are at most the number of matches.
    expect(titles.length).toBeLessThanOrEqual(await paletteCount(page));

    // The first match is selected; ArrowDown and ArrowUp move the selection (and the active descendant).
    const selected = () => paletteOptions(page).evaluateAll((els) => els.findIndex((el) => el.getAttribute('aria-selected') === 'true'));
    expect(await selected()).toBe(0);
    await input.press('ArrowDown');
    await eventually(selected, 1, 'ArrowDown selects the second command');
    expect(await input.getAttribute('aria-activedescendant')).toBe(await paletteOptions(page).nth(1).getAttribute('id'));
    await input.press('ArrowUp');
    await eventually(selected, 0, 'ArrowUp selects the first command again');

    const target = titles.indexOf('Open Users');
    for (let i = 0; i < target; i++) await input.press('ArrowDown');
    await eventually(() => paletteOption(page, 'Open Users').getAttribute('aria-selected'), 'true', '"Open Users" is selected');
    await input.press('Enter');
    await input.waitFor({ state: 'hidden' });

    await waitForFocused(page, 'Users');
    await waitForPath(page, '/admin/users');
    await panel(page, 'Users').getByRole('cell', { name: inject('adminEmail'), exact: true }).waitFor({ state: 'visible' });
    expect(await tabs(page, 'Users').count()).toBe(1);
  });

  it('Open Job… asks for the job with a searchable pick list, never a raw id: an option reads "Job N name · status", Enter chooses, Enter again opens /jobs/N', async () => {
    const { page } = b;
    await signIn(page, inject('adminEmail'), inject('adminPassword'));
    const res = await page.request.get('/search.json?kind=job&q=&limit=1', { headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' } });
    expect(res.status(), await res.text()).toBe(200);
    const job = ((await res.json()) as SearchAnswer).results[0]!;
    await runCommand(page, 'Open Job…');
    const form = page.getByRole('form', { name: 'Arguments for Open Job…' });
    const box = form.getByRole('combobox', { name: 'Job' });
    await box.waitFor();
    expect(await form.getByRole('textbox').count()).toBe(0);
    expect(await form.getByRole('spinbutton').count()).toBe(0);
    await box.fill(String(job.id));
    // The option's name reads as words: the label, a space, the detail.
    await form.getByRole('option', { name: `${job.label} ${job.detail}`, exact: true }).waitFor();
    await lookAt(page, { path: '/tmp/open-job-pick.png' });
    await box.press('Enter');
    await eventually(() => form.getByText(/^Chosen/).innerText(), `Chosen: ${job.label}`, 'the job is chosen');
    await box.press('Enter');
    await waitForPath(page, `/jobs/${job.id}`);
  });

  it('Escape closes the palette without running anything', async () => {
    const { page } = b;
    await signIn(page, inject('adminEmail'), inject('adminPassword'));
    await openPalette(page);
    await paletteInput(page).fill('Open Users');
    await page.keyboard.press('Escape');
    await paletteInput(page).waitFor({ state: 'hidden' });
    expect(pathOf(page)).toBe('/');
    expect(await tabs(page, 'Users').count()).toBe(0);
  });

  it('a viewer does not find "Open Users" in the palette, and /admin/users answers them with the permission refusal instead of a user list', async () => {
    const { page } = b;
    await signIn(page, DEMO_USERS.viewer, inject('demoUserPassword'));
    await openPalette(page);
    await paletteInput(page).fill('users');
    await eventually(async () => (await paletteTitles(page)).includes('Open Users'), false, 'the viewer has no "Open Users"');
    expect(await paletteTitles(page)).not.toContain('Add User');
    await page.keyboard.press('Escape');

    await page.goto('/admin/users');
    await waitForFocused(page, 'Users');
    const refusal = panel(page, 'Users').getByRole('alert');
    await refusal.waitFor({ state: 'visible' });
    expect((await refusal.innerText()).trim()).toBe("You don't have permission to open Users.");
    expect(await panel(page, 'Users').getByRole('button', { name: 'Add User' }).count()).toBe(0);
    expect(await panel(page, 'Users').getByRole('table').count()).toBe(0);
    expect(await panel(page, 'Users').getByText(DEMO_USERS.approver).count()).toBe(0);
  });
});
