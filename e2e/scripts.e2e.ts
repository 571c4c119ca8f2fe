import { describe, expect, inject, it } from 'vitest';
import { signIn, useBrowser } from './browser';
import { sharedDirectorUrl } from './shared-director';
import { eventually, groupTabs, runCommand, waitForFocused, waitForPath } from './workbench';
import { typeScript, transcriptRows } from './scripts-pane';

const baseUrl = sharedDirectorUrl();

describe('scripted command sequences', () => {
  const b = useBrowser(() => baseUrl);

  it('a script written in the Scripts pane opens two panes side by side, is saved, runs with a transcript and a history, and runs again from the palette', async () => {
    const { page } = b;
    await signIn(page, inject('adminEmail'), inject('adminPassword'));
    await runCommand(page, 'New Script');
    await waitForFocused(page, 'Scripts');
    await typeScript(page, [
      '# two panes side by side',
      'pane.open.jobs',
      'pane.moveRight',
      'pane.open.admin-users',
      'let hello = script.echo text="tiled"',
      'script.echo text="panes ${hello}"',
    ]);
    await page.getByLabel('Script name').fill('Tile jobs and users');
    await page.keyboard.press('Control+s');
    await page.getByRole('status').filter({ hasText: 'Saved script "Tile jobs and users".' }).waitFor();
    await eventually(() => page.url().includes('/scripts?id='), true, 'the saved script is in the URL');

    await page.getByRole('button', { name: 'Run', exact: true }).click();
    // The script moved the focus to the Users pane; both panes sit side by side.
    await waitForFocused(page, 'Users');
    await waitForPath(page, '/admin/users');
    await eventually(async () => (await groupTabs(page)).length, 2, 'two groups side by side');
    const layout = await groupTabs(page);
    expect(layout.flat()).toEqual(expect.arrayContaining(['Jobs', 'Users', 'Scripts']));

    // Back in the Scripts pane the transcript shows every step.
    await page.getByRole('tab', { name: 'Scripts', exact: true }).click();
    await eventually(async () => (await transcriptRows(page).allInnerTexts()).length, 5, 'five transcript rows');
    const rows = await transcriptRows(page).allInnerTexts();
    expect(rows.map((r) => r.split('\t')[0])).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect(rows[4]).toContain('panes tiled');
    await page.getByRole('status').filter({ hasText: 'Script finished' }).waitFor();
    await eventually(async () => page.getByRole('table', { name: 'Run history' }).locator('tr').count(), 1, 'one run in the history');
    expect(await page.getByRole('table', { name: 'Run history' }).innerText()).toMatch(/ok\s+admin@example\.com\s+workbench/);

    // The saved script is in the palette.
    await runCommand(page, 'Run script: Tile jobs and users');
    await eventually(async () => page.getByRole('table', { name: 'Run history' }).locator('tr').count(), 2, 'a second run in the history');
  });

  it('unknown commands and invalid arguments are marked while typing, a dry run runs nothing, and a failure stops the script', async () => {
    const { page } = b;
    await signIn(page, inject('adminEmail'), inject('adminPassword'), '/scripts');
    await waitForFocused(page, 'Scripts');
    await typeScript(page, ['script.echo text=one', 'nope.command', 'script.wait ms=-5', 'script.echo text=never']);
    await eventually(async () => page.locator('.cm-lintRange-error').count(), 2, 'two lint marks');

    await page.getByRole('button', { name: 'Dry Run' }).click();
    await eventually(async () => (await transcriptRows(page).allInnerTexts()).length, 4, 'four dry-run rows');
    expect((await transcriptRows(page).allInnerTexts()).map((r) => r.split('\t')[0])).toEqual(['ok', 'failed', 'skipped', 'skipped']);

    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Script failed' }).waitFor();
    const rows = await transcriptRows(page).allInnerTexts();
    expect(rows.map((r) => r.split('\t')[0])).toEqual(['ok', 'failed', 'skipped', 'skipped']);
    expect(rows[1]).toContain('Unknown command "nope.command"');

    await page.getByLabel('Continue after a failure').check();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await eventually(async () => (await transcriptRows(page).allInnerTexts()).map((r) => r.split('\t')[0]).join(','), 'ok,failed,failed,ok', 'every step ran');
  });

  it('Stop interrupts a step that is waiting: the transcript shows it as stopped and the rest as skipped', async () => {
    const { page } = b;
    await signIn(page, inject('adminEmail'), inject('adminPassword'), '/scripts');
    await waitForFocused(page, 'Scripts');
    await typeScript(page, ['script.echo text=before', 'script.wait ms=3600000', 'script.echo text=never']);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    // The first step is done and the second waits (up to an hour): Stop ends the wait at once.
    await eventually(async () => (await transcriptRows(page).allInnerTexts()).length, 1, 'the first step in the transcript');
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByRole('status').filter({ hasText: 'Script stopped' }).waitFor();
    const rows = await transcriptRows(page).allInnerTexts();
    expect(rows.map((r) => r.split('\t')[0])).toEqual(['ok', 'stopped', 'skipped']);
    expect(rows[1]).toContain('Stopped before this step finished.');
    await page.getByRole('button', { name: 'Run', exact: true }).waitFor();
  });

  it("running someone else's shared script asks first, naming its author; Do Not Run runs nothing, Run Script runs it as the runner", async () => {
    const { page } = b;
    const XHR = { 'X-Requested-With': 'XMLHttpRequest' };
    // The operator shares a script (through the director, as the Scripts pane would).
    const operatorPage = await (await b.newContext()).newPage();
    await signIn(operatorPage, 'operator@example.com', inject('demoUserPassword'));
    const { csrfToken } = (await (await operatorPage.request.get('/environment.json', { headers: XHR })).json()) as { csrfToken: string };
    const name = `Operator shared ${Date.now()}`;
    const created = await operatorPage.request.post('/scripts.json', { headers: { ...XHR, 'X-CSRF-Token': csrfToken }, data: { name, body: 'script.echo text="ran by the runner"', shared: true } });
    expect(created.status()).toBe(201);
    const { data: script } = (await created.json()) as { data: { id: number } };
    await operatorPage.context().close();

    await signIn(page, inject('adminEmail'), inject('adminPassword'), `/scripts?id=${script.id}`);
    await waitForFocused(page, 'Scripts');
    const nav = page.getByRole('navigation', { name: 'Saved scripts' });
    expect(await nav.getByRole('button', { name: new RegExp(name) }).innerText()).toContain('by Oscar Operator (operator@example.com)');
    await page.getByText('Author: Oscar Operator (operator@example.com)').waitFor();

    const question = `"${name}" was written by Oscar Operator (operator@example.com). Its commands run with your permissions. Run it?`;
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Please confirm' });
    await dialog.getByText(question).waitFor();
    await dialog.getByRole('button', { name: 'Do Not Run' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await transcriptRows(page).count()).toBe(0);
    expect(await page.getByRole('table', { name: 'Run history' }).locator('tr').count()).toBe(0);

    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await dialog.getByText(question).waitFor();
    await dialog.getByRole('button', { name: 'Run Script' }).click();
    await page.getByRole('status').filter({ hasText: 'Script finished' }).waitFor();
    expect((await transcriptRows(page).allInnerTexts())[0]).toContain('ran by the runner');
    await eventually(async () => page.getByRole('table', { name: 'Run history' }).locator('tr').count(), 1, 'one run in the history');
    expect(await page.getByRole('table', { name: 'Run history' }).innerText()).toMatch(/ok\s+admin@example\.com\s+workbench/);
  });
});
