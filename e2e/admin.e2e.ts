import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn, useBrowser } from './browser';
import { sharedDirectorUrl } from './shared-director';
import { eventually, panel, pathOf, runCommand, waitForFocused, waitForPath, lookAt } from './workbench';

const baseUrl = sharedDirectorUrl();
const signInAsAdmin = (page: Page, at = '/') => signIn(page, inject('adminEmail'), inject('adminPassword'), at);
const toast = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });
const confirmWith = async (page: Page, question: string, label: string) => {
  const dialog = page.getByRole('dialog', { name: 'Please confirm' });
  await dialog.getByText(question, { exact: true }).waitFor();
  await dialog.getByRole('button', { name: label }).press('Enter');
  await dialog.waitFor({ state: 'detached' });
};

describe('admin surfaces', () => {
  const b = useBrowser(() => baseUrl);

  it('JOB-005 MON-044 run-as user profiles: added from the palette, a refused username keeps what was typed, edited and deleted with the keyboard', async () => {
    const { page } = b;
    await signInAsAdmin(page);
    await runCommand(page, 'Add Run-as User Profile');
    await waitForFocused(page, 'Run-as User Profiles');
    await waitForPath(page, '/action_user_profiles');
    const form = page.getByRole('form', { name: 'Add run-as user profile' });
    await form.getByLabel('Friendly name').fill('E2E backup operator');
    await page.keyboard.press('Tab');
    await page.keyboard.type('not a user');
    await form.getByLabel('Password (optional)').fill('e2e-S3cret');
    await page.keyboard.press('Enter');
    await form.getByRole('alert').filter({ hasText: 'Username must be an account name such as alice, CORP\\alice or alice@corp.example' }).waitFor();
    expect(await form.getByLabel('Friendly name').inputValue()).toBe('E2E backup operator');
    await form.getByLabel('Username').fill('backup');
    await form.getByLabel('Username').press('Enter');
    await toast(page, 'Run-as user profile E2E backup operator (backup) was added.').waitFor();

    const pane = panel(page, 'Run-as User Profiles');
    const grid = pane.getByRole('grid', { name: 'Run-as user profiles' });
    const row = grid.getByRole('row').filter({ hasText: 'E2E backup operator' });
    await eventually(() => row.getAttribute('aria-selected'), 'true', 'the new profile is selected');
    expect(await row.innerText()).toContain('Stored (encrypted)');
    expect(await page.content()).not.toContain('e2e-S3cret');

    await row.click();
    await page.keyboard.press('Enter');
    const edit = page.getByRole('form', { name: 'Edit E2E backup operator' });
    await edit.getByLabel('Friendly name').fill('E2E backup admin');
    await edit.getByLabel('Friendly name').press('Enter');
    await toast(page, 'Run-as user profile E2E backup admin was saved.').waitFor();
    const renamed = grid.getByRole('row').filter({ hasText: 'E2E backup admin' });
    await renamed.waitFor();

    await renamed.click();
    await page.keyboard.press('Delete');
    await confirmWith(page, 'Delete the run-as user profile E2E backup admin?', 'Delete Profile');
    await toast(page, 'Run-as user profile E2E backup admin was deleted.').waitFor();
    await eventually(() => renamed.count(), 0, 'the deleted profile leaves the table');
    await lookAt(page, { path: 'test-results/admin-run-as-profiles.png' });
  });

  it('JOB-005 MON-021 MON-073 MON-110 actor edit: a tag added in the tag editor popover, a rename saved with Ctrl+S; retired and enabled from the palette', async () => {
    const { page } = b;
    await signInAsAdmin(page, '/topology/nodes/2/edit');
    const title = 'Actor 2';
    await waitForFocused(page, title);
    const pane = panel(page, title);
    const form = pane.getByRole('form', { name: 'Edit actor' });
    await form.waitFor();
    const original = await form.getByLabel('Name', { exact: true }).inputValue();
    const chips = pane.getByRole('list', { name: 'Tags of this actor' });

    // MON-021 MON-073 MON-110: the tag editor popover, by keyboard; a tag is saved at once, a duplicate is not added.
    await pane.getByRole('button', { name: 'Edit tags' }).focus();
    await page.keyboard.press('Enter');
    const newTag = pane.getByLabel('New tag');
    await newTag.fill('Group:E2E');
    await newTag.press('Enter');
    await toast(page, `Tag "Group:E2E" added to ${original}.`).waitFor();
    await newTag.fill('group:e2e');
    await newTag.press('Enter');
    expect(await chips.getByText('Group:E2E', { exact: true }).count()).toBe(1);
    expect(await newTag.inputValue()).toBe('group:e2e');
    await lookAt(page, { path: 'test-results/admin-tag-editor.png' });
    await page.keyboard.press('Escape');
    await eventually(() => newTag.count(), 0, 'Escape closes the tag editor');

    await form.getByLabel('Name', { exact: true }).fill(`${original}-e2e`);
    await form.getByLabel('Name', { exact: true }).press('Control+s');
    await toast(page, `Actor ${original}-e2e was saved.`).waitFor();
    expect(await chips.innerText()).toContain('Group:E2E');
    await pane.getByRole('heading', { name: `Actor ${original}-e2e` }).waitFor();

    await runCommand(page, 'Retire Actor');
    await confirmWith(page, `Retire ${original}-e2e? Its credential stops working and no job can use it until it is enabled again.`, 'Retire Actor');
    await toast(page, `Actor ${original}-e2e is retired.`).waitFor();
    await pane.getByText('Retired', { exact: true }).first().waitFor();
    await lookAt(page, { path: 'test-results/admin-actor-edit.png' });
    await runCommand(page, 'Enable Actor');
    await toast(page, `Actor ${original}-e2e is enabled.`).waitFor();

    await form.getByLabel('Name', { exact: true }).fill(original);
    await form.getByLabel('Name', { exact: true }).press('Control+s');
    await toast(page, `Actor ${original} was saved.`).waitFor();
    await pane.getByRole('button', { name: 'Edit tags' }).click();
    await pane.getByRole('button', { name: 'Remove tag Group:E2E' }).press('Enter');
    await toast(page, `Tag "Group:E2E" removed from ${original}.`).waitFor();
  });

  it('MON-042 actor edit: the sandbox actor chosen from the other actors and saved with Ctrl+S, then cleared; the username the actor reported is shown', async () => {
    const { page } = b;
    await signInAsAdmin(page, '/topology/nodes/2/edit');
    const title = 'Actor 2';
    await waitForFocused(page, title);
    const pane = panel(page, title);
    const form = pane.getByRole('form', { name: 'Edit actor' });
    const sandbox = form.getByLabel('Sandbox');
    await sandbox.waitFor();
    const name = await form.getByLabel('Name', { exact: true }).inputValue();
    const options = (await sandbox.locator('option').allInnerTexts()).map((o) => o.trim());
    expect(options[0]).toBe('No sandbox');
    expect(options).not.toContain(name);
    const chosen = options[1]!;
    await sandbox.selectOption({ label: chosen });
    await sandbox.press('Control+s');
    await toast(page, `Actor ${name} was saved.`).waitFor();
    await pane.getByRole('term').filter({ hasText: 'Runs as (username)' }).waitFor();
    await lookAt(page, { path: 'test-results/admin-actor-edit-sandbox.png', fullPage: true });
    const api = await page.request.get('/topology/nodes/2.json', { headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' } });
    expect(((await api.json()) as { data: { sandbox_name: string } }).data.sandbox_name).toBe(chosen);
    await sandbox.selectOption({ label: 'No sandbox' });
    await sandbox.press('Control+s');
    await eventually(async () => {
      const res = await page.request.get('/topology/nodes/2.json', { headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' } });
      return ((await res.json()) as { data: { sandbox_node_id: number | null } }).data.sandbox_node_id;
    }, null, 'the sandbox is cleared');
  });

  it('MON-006 operational status opens on the Content Service tab at tabIndex=3; arrow keys move between tabs and the URL follows', async () => {
    const { page } = b;
    await signInAsAdmin(page, '/operational_status?tabIndex=3');
    // The pane's own tabs are ARIA tabs too, so the pane is found by its panel rather than the dock's focused tab.
    const pane = panel(page, 'Operational Status');
    await pane.getByRole('tablist', { name: 'Operational status' }).waitFor();
    const selected = pane.getByRole('tab', { selected: true });
    await eventually(() => selected.innerText(), 'Content Service', 'tab 3 is the content service');
    await pane.getByText('Connected').waitFor();
    await selected.focus();
    await page.keyboard.press('ArrowRight');
    await eventually(() => selected.innerText(), 'Scheduler', 'ArrowRight selects the Scheduler tab');
    await waitForPath(page, '/operational_status?tabIndex=4');
    await page.keyboard.press('Home');
    await eventually(() => selected.innerText(), 'Background Processes', 'Home selects the first tab');
    await page.keyboard.press('ArrowRight');
    await pane.getByRole('table', { name: 'Actors by last contact' }).waitFor();
    await lookAt(page, { path: 'test-results/admin-operational-status.png' });
    expect(pathOf(page)).toBe('/operational_status?tabIndex=1');
  });

  it('JOB-006 a help page opens from the palette and renders its Markdown; an unknown page lists the pages', async () => {
    const { page } = b;
    await signInAsAdmin(page);
    await runCommand(page, 'Help: Run-as user profiles');
    await waitForFocused(page, 'Help: run-as-user-profiles');
    await waitForPath(page, '/help/run-as-user-profiles');
    const pane = panel(page, 'Help: run-as-user-profiles');
    await pane.getByRole('heading', { name: 'Run-as user profiles' }).waitFor();
    expect(await pane.innerText()).toContain('Empty means Run as System');
    await lookAt(page, { path: 'test-results/admin-help.png' });
    await page.goto('/help/nope.html');
    const missing = panel(page, 'Help: nope');
    await missing.getByRole('alert').filter({ hasText: 'There is no help page named nope.' }).waitFor();
    await missing.getByRole('link', { name: 'Endpoint actors' }).waitFor();
  });
});
