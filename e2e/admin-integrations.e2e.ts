import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn, useBrowser } from './browser';
import { sharedDirectorUrl } from './shared-director';
import { eventually, panel, runCommand, waitForFocused, waitForPath, lookAt } from './workbench';
import type { LibraryListAnswer } from '../src/api/contracts/library';

/** Issue 20: the integrations menu and the generic table, the site banner, and tagging many simulations at once. */
const baseUrl = sharedDirectorUrl();
const XHR = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };
const signInAsAdmin = (page: Page, at = '/') => signIn(page, inject('adminEmail'), inject('adminPassword'), at);

describe('admin integrations, tables and banners', () => {
  const b = useBrowser(() => baseUrl);

  it('JOB-029 MON-019 MON-173 adds a Suricata EVE integration from the integrations menu, then finds it with the generic table’s tabs, quick find and column resize', async () => {
    const { page } = b;
    await signInAsAdmin(page, '/integrations');
    // The deep link opens the pane (which group is active depends on the layout other tests of the
    // shared director left for this user; the steps below use the pane's own controls).
    await panel(page, 'Integrations').waitFor();
    const pane = panel(page, 'Integrations');
    // The director's engine runs the integration service, so the menu is enabled.
    const status = pane.getByRole('status', { name: 'Integration service' });
    await eventually(() => status.innerText(), 'Integration service: running', 'the status poller shows the running service');
    const menuButton = pane.getByRole('button', { name: /Add Integration/ });
    await menuButton.focus();
    await page.keyboard.press('Enter');
    const items = page.getByRole('menu').getByRole('menuitem');
    await eventually(async () => (await items.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim()), ['JSON webhook v1', 'Suricata EVE JSON v1', 'nftables/ulogd JSON v1', 'MISP', 'OpenCTI', 'STIX/TAXII 2.1', 'AlienVault OTX'], 'the menu lists the integrations to add, then the threat-intel kinds');
    await lookAt(page, { path: 'test-results/integrations-menu.png' });
    await page.getByRole('menuitem', { name: /Suricata EVE JSON/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Suricata EVE JSON' });
    const name = `E2E EVE ${Date.now()}`;
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('File the director tails').fill('relative/eve.json');
    await page.keyboard.press('Enter');
    await dialog.getByRole('alert').filter({ hasText: 'The file path must be absolute' }).waitFor();
    // The refusal is told once, in the form (no toast repeats it), and what was typed stays.
    expect(await page.getByText('The file path must be absolute').count()).toBe(1);
    expect(await dialog.getByLabel('Name').inputValue()).toBe(name);
    expect(await dialog.getByLabel('File the director tails').inputValue()).toBe('relative/eve.json');
    await dialog.getByLabel('File the director tails').fill('/tmp/vigil-e2e-eve.json');
    await lookAt(page, { path: 'test-results/integrations-create-modal.png' });
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    const table = pane.getByRole('table', { name: 'Integrations' });
    await table.getByRole('cell', { name }).waitFor();

    // MON-019: the tab menu and quick find.
    await pane.getByRole('tab', { name: 'Webhooks' }).click();
    await table.getByRole('cell', { name }).waitFor({ state: 'detached' }).catch(() => undefined);
    expect(await pane.getByRole('cell', { name }).count()).toBe(0);
    await page.keyboard.press('ArrowRight');
    expect(await pane.getByRole('tab', { name: 'File tails' }).getAttribute('aria-selected')).toBe('true');
    await table.getByRole('cell', { name }).waitFor();
    // The integrations table's own quick find (the Actor dependencies table below has one too).
    await pane.getByRole('region', { name: 'Integrations', exact: true }).getByRole('button', { name: 'Quick Find' }).click();
    const find = page.getByRole('dialog', { name: 'Quick find' });
    await find.getByRole('searchbox').fill('no such integration anywhere');
    await find.getByText('No Results').waitFor();
    await find.getByRole('searchbox').fill(name);
    await page.keyboard.press('Enter');
    await eventually(() => pane.getByRole('status', { name: 'Integrations status' }).innerText(), expect.stringMatching(/^Showing 1–1 of 1/) as unknown as string, 'quick find narrows to the new integration');

    // MON-173: a column widened with the keyboard; the widths are remembered as percentages summing to 100.
    await pane.getByRole('separator', { name: 'Resize Name' }).focus();
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    const widths = await page.evaluate(() => JSON.parse(localStorage.getItem('integrations-table-columnWidths') ?? '[]') as number[]);
    expect(widths).toHaveLength(6);
    expect(widths.reduce((a, c) => a + c, 0)).toBeCloseTo(100, 6);
    expect(widths[0]!).toBeGreaterThan(widths[1]!);
    await lookAt(page, { path: 'test-results/integrations-table.png' });
  });

  it('JOB-029 adds a MISP threat-intel source from the integrations menu (API key write-only), disables it from its edit modal, and deletes it', async () => {
    const { page } = b;
    await signInAsAdmin(page, '/integrations');
    const pane = panel(page, 'Integrations');
    await eventually(() => pane.getByRole('status', { name: 'Integration service' }).innerText(), 'Integration service: running', 'the integration service runs');
    await pane.getByRole('button', { name: /Add Integration/ }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('group', { name: 'Threat intel' }).getByRole('menuitem', { name: 'MISP' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add MISP' });
    const name = `E2E MISP ${Date.now()}`;
    const key = `e2e-misp-key-${Date.now()}`;
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('URL').fill('https://misp.e2e.example');
    await page.keyboard.press('Enter');
    await dialog.getByRole('alert').filter({ hasText: 'MISP needs an API key' }).waitFor();
    await dialog.getByLabel('API key').fill(key);
    await lookAt(page, { path: 'test-results/threat-intel-create-modal.png' });
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    const table = pane.getByRole('table', { name: 'Threat-intel sources' });
    const row = table.getByRole('row').filter({ hasText: name });
    await row.getByRole('cell', { name: 'Stored (encrypted)' }).waitFor();
    await lookAt(page, { path: 'test-results/threat-intel-table.png', fullPage: true });
    // The key never comes back: not in the page, not in the list call.
    expect(await page.content()).not.toContain(key);
    const listed = await page.request.get('/threat_intel_integrations.json', { headers: XHR });
    expect(listed.status()).toBe(200);
    expect(await listed.text()).not.toContain(key);

    // Enter on the selected row opens its edit modal; Enabled unticked and saved.
    await row.getByRole('cell', { name }).click();
    await page.keyboard.press('Enter');
    const edit = page.getByRole('dialog', { name: `Edit ${name}` });
    await edit.getByLabel('New API key (empty keeps the stored one)').waitFor();
    await edit.getByRole('checkbox', { name: 'Enabled' }).uncheck();
    await lookAt(page, { path: 'test-results/threat-intel-edit-modal.png' });
    await edit.getByRole('button', { name: 'Save Source' }).click();
    await edit.waitFor({ state: 'detached' });
    await row.getByRole('cell', { name: 'No', exact: true }).waitFor();

    // Delete on the selected row, confirmed.
    await row.getByRole('cell', { name }).click();
    await page.keyboard.press('Delete');
    const confirm = page.getByRole('dialog', { name: 'Please confirm' });
    await confirm.getByText(`Delete the threat-intel source ${name}? Its API key goes with it.`, { exact: true }).waitFor();
    await confirm.getByRole('button', { name: 'Delete Source' }).press('Enter');
    await row.waitFor({ state: 'detached' });
  });

  it("MON-027 MON-028 MON-029 MON-114 an administrator sets the site banner: preview placeholder, colour checks, and the warning banner in its colour", async () => {
    const { page } = b;
    await signInAsAdmin(page);
    await runCommand(page, 'Edit Site Banner…');
    const dialog = page.getByRole('dialog', { name: 'Site Banner' });
    const preview = dialog.getByRole('figure', { name: 'Banner preview' });
    await preview.getByText('Add a banner text to preview here').waitFor();
    const colour = dialog.getByRole('textbox', { name: 'Banner colour', exact: true });
    await colour.fill('');
    await colour.press('Tab');
    await dialog.getByText('Please select a color').waitFor();
    await colour.fill('#12');
    await dialog.getByText('Invalid format. Use example: #FFFFFF').waitFor();
    await colour.fill('#1D4ED8');
    await dialog.getByRole('checkbox', { name: 'Show the banner to everyone signed in' }).check();
    const text = `E2E maintenance window ${Date.now()}`;
    await dialog.getByRole('textbox', { name: 'Banner text' }).fill(text);
    await preview.getByRole('alert', { name: 'Warning' }).filter({ hasText: text }).waitFor();
    await lookAt(page, { path: 'test-results/site-banner-editor.png' });
    await dialog.getByRole('button', { name: 'Save Banner' }).click();
    await dialog.waitFor({ state: 'detached' });
    const banner = page.getByRole('alert', { name: 'Warning' }).filter({ hasText: text });
    await banner.waitFor();
    expect(await banner.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(29, 78, 216)');
    await lookAt(page, { path: 'test-results/site-banner.png' });
    // Hidden again from the editor, so other tests see no banner.
    await runCommand(page, 'Edit Site Banner…');
    await dialog.getByRole('checkbox', { name: 'Show the banner to everyone signed in' }).uncheck();
    await dialog.getByRole('button', { name: 'Save Banner' }).click();
    await banner.waitFor({ state: 'detached' });
  });

  it('MON-141 Add Tag… and Remove Tag… act on every simulation of a keyboard multi-selection', async () => {
    const { page } = b;
    await signInAsAdmin(page, '/simulations?sim_type=sequence');
    await waitForFocused(page, 'Simulations');
    const api = async () => {
      const res = await page.request.get('/v2/simulations/library_simulations_list?simulation_type=sequence&page_size=4&sort=name&direction=asc', { headers: XHR });
      expect(res.status()).toBe(200);
      return ((await res.json()) as LibraryListAnswer).simulations;
    };
    const picked = (await api()).slice(0, 3);
    const list = page.getByRole('listbox', { name: 'Sequences' });
    await list.getByRole('option', { name: `${picked[0]!.vid} ${picked[0]!.name}` }).click();
    await waitForPath(page, `/simulations?sim_type=sequence&vid=${encodeURIComponent(picked[0]!.vid)}`);
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowDown');
    await page.getByText('3 selected').waitFor();
    const selected = () => list.locator('[role=option][aria-selected=true]').evaluateAll((els) => els.map((e) => e.getAttribute('data-vid')));
    await eventually(selected, picked.map((s) => s.vid), 'shift+down extends the selection');
    const tag = `E2E Sims ${Date.now() % 100000}`;
    await runCommand(page, 'Add Tag…');
    await page.getByRole('form', { name: 'Arguments for Add Tag…' }).getByRole('textbox', { name: 'Tag' }).fill(tag);
    await page.keyboard.press('Enter');
    await page.getByText(`Tag "${tag}" added to 3 Simulations.`).waitFor();
    const tagged = async () => (await api()).filter((s) => s.tags.some((t) => t.name === tag)).map((s) => s.vid);
    await eventually(tagged, picked.map((s) => s.vid), 'every selected simulation carries the tag');
    await lookAt(page, { path: 'test-results/simulations-multi-select.png' });
    // Escape keeps the focused one alone; Remove Tag… acts on it only.
    await list.focus();
    await page.keyboard.press('Escape');
    await page.getByText(/\d+ selected/).waitFor({ state: 'hidden' });
    await runCommand(page, 'Remove Tag…');
    await page.getByRole('form', { name: 'Arguments for Remove Tag…' }).getByRole('textbox', { name: 'Tag' }).fill(tag);
    await page.keyboard.press('Enter');
    await eventually(async () => (await tagged()).length, 2, 'the tag left the one focused simulation');
  });
});
