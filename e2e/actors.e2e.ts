import { describe, expect, inject, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { signIn, useBrowser } from './browser';
import { sharedDirectorUrl } from './shared-director';
import { eventually, panel, runCommand, waitForFocused, lookAt } from './workbench';

const baseUrl = sharedDirectorUrl();

/** Registers an actor through the real actor API, the way actor/agent.ts does, without ever calling in after. */
const registerActor = (token: string, name: string) =>
  fetch(`${baseUrl}/api/actor/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ bulk_token: token, name, version: '1.0.0', os: 'Linux test', addresses: ['127.0.0.42'], capabilities: ['sleep'] }),
  });

const confirmYes = async (page: Page) => {
  const dialog = page.getByRole('dialog', { name: 'Please confirm' });
  await dialog.getByText('Are you sure?', { exact: true }).waitFor();
  await dialog.getByRole('button', { name: /^Clear (Token|Pending Actor)$/ }).click();
  await dialog.waitFor({ state: 'detached' });
};

/** Opens a row's ellipsis menu with the keyboard and picks an item by its visible text. */
async function menuItem(page: Page, row: Locator, label: string, name: string): Promise<void> {
  await row.getByRole('button', { name: `Actions for ${label}` }).focus();
  await page.keyboard.press('Enter');
  const item = page.getByRole('menuitem', { name, exact: true });
  await item.waitFor();
  await item.click();
}

describe('Actors pane', () => {
  const b = useBrowser(() => baseUrl);

  it('MON-016 MON-017 MON-117 MON-068 MON-069 MON-071 MON-135 MON-154 MON-002 create a token, see its installers, see a registered actor pending, clear it and the token', async () => {
    const { page } = b;
    await signIn(page, inject('adminEmail'), inject('adminPassword'), '/actors');
    await waitForFocused(page, 'Actors');
    const pane = panel(page, 'Actors');
    await pane.getByRole('heading', { name: 'Bulk Tokens' }).waitFor();
    await pane.getByText('No bulk tokens yet. Create one to register actors.').waitFor();

    // Create from the palette with the keyboard; the secret is shown once.
    await runCommand(page, 'Create bulk token…');
    const form = page.getByRole('form', { name: 'Create bulk token' });
    await form.getByLabel('Name').fill('E2E lab');
    await form.getByLabel('Hours valid').fill('0');
    await form.getByLabel('Hours valid').press('Enter');
    await form.getByText('Hours must be at least 1').waitFor();
    await form.getByLabel('Hours valid').fill('2');
    await form.getByLabel('Hours valid').press('Enter');
    const created = page.getByRole('dialog', { name: 'Create bulk token' });
    await created.getByRole('status').filter({ hasText: 'Bulk token E2E lab was created.' }).waitFor();
    const token = (await created.getByLabel('Bulk token', { exact: true }).innerText()).trim();
    expect(token).toMatch(/^vbt_[A-Za-z0-9_-]{20,}$/);
    expect(await created.getByLabel('Actor command', { exact: true }).innerText()).toBe(`VIGIL_BULK_TOKEN=${token} npm run actor -- --director ${baseUrl} --name "$(hostname)" --address <ACTOR_IP>`);
    await created.getByRole('button', { name: 'Done' }).click();
    await created.waitFor({ state: 'detached' });

    const table = pane.getByRole('table', { name: 'Bulk tokens' });
    const row = table.getByRole('row').filter({ hasText: 'E2E lab' });
    await row.waitFor();
    expect(await row.getByText('Active', { exact: true }).isVisible()).toBe(true);
    // Nothing pending yet: the row cannot expand.
    expect(await row.getByRole('button', { name: 'Show pending actors of E2E lab' }).isDisabled()).toBe(true);

    // The installer modal: one box per OS; unticking self-signed adds ?secure=1 to the link.
    await row.getByRole('button', { name: 'Installer for E2E lab' }).click();
    const modal = page.getByRole('dialog', { name: 'Download Actor Installer' });
    const linux = modal.getByRole('region', { name: 'Linux' });
    const link = linux.getByRole('link', { name: 'Download vigil-actor-linux.sh' });
    await link.waitFor();
    const href = await link.getAttribute('href');
    expect(href).toMatch(/^\/actor_installer\/\d+\/linux\.sh$/);
    expect(await modal.getByRole('region', { name: 'macOS' }).getByRole('link', { name: 'Download vigil-actor-macos.sh' }).isVisible()).toBe(true);
    await modal.getByRole('region', { name: 'Windows' }).getByText(/^No \.exe installer: this director cannot build one\./).waitFor();
    const selfSigned = modal.getByRole('checkbox', { name: /Self-signed certificate/ });
    expect(await selfSigned.isChecked()).toBe(true);
    await selfSigned.focus();
    await page.keyboard.press('Space');
    await eventually(() => link.getAttribute('href'), `${href}?secure=1`, 'the link asks for the secure script');
    expect(await linux.getByLabel('Linux install command', { exact: true }).innerText()).toContain(`${baseUrl}${href}?secure=1`);
    const script = await (await fetch(`${baseUrl}${href}?secure=1`)).text();
    expect(script).toContain(`DIRECTOR='${baseUrl}'`);
    await modal.getByRole('button', { name: 'Close', exact: true }).last().click();
    await modal.waitFor({ state: 'detached' });

    // Register Push shows the command line for this token.
    await menuItem(page, row, 'E2E lab', 'Register Push');
    const push = page.getByRole('dialog', { name: 'Register Push' });
    expect(await push.getByLabel('Register command', { exact: true }).innerText()).toBe(`VIGIL_BULK_TOKEN=<BULK_TOKEN> npm run actor -- --director ${baseUrl} --name "$(hostname)" --address <ACTOR_IP>`);
    await page.keyboard.press('Escape');
    await push.waitFor({ state: 'detached' });

    // An actor registers with the token and never calls in: the bulk table's poll shows it pending.
    const reg = await registerActor(token, 'e2e-pending-actor');
    expect(reg.status).toBe(200);
    await eventually(() => row.locator('td').nth(4).innerText(), '1', 'the row counts one pending actor', 20_000);
    await menuItem(page, row, 'E2E lab', 'Show Pending');
    const pending = pane.getByRole('table', { name: 'Pending actors of E2E lab' });
    const pendingRow = pending.getByRole('row').filter({ hasText: 'e2e-pending-actor' });
    await pendingRow.waitFor();
    expect(await pendingRow.getByText('pending', { exact: true }).isVisible()).toBe(true);
    expect(await row.getByRole('button', { name: 'Hide pending actors of E2E lab' }).getAttribute('aria-expanded')).toBe('true');
    await lookAt(page, { path: '/tmp/actors.png', fullPage: true });

    // While expanded, the pending list refreshes every 2000 ms and the bulk table every 5000 ms.
    const seen: { pending: number[]; tables: number[] } = { pending: [], tables: [] };
    const record = (r: { url(): string }) => {
      const u = new URL(r.url()).pathname;
      if (u.startsWith('/bulk_pending_nodes/')) seen.pending.push(Date.now());
      if (u === '/actors/tables.json') seen.tables.push(Date.now());
    };
    page.on('request', record);
    await eventually(() => seen.tables.length >= 3 && seen.pending.length >= 5, true, 'three table polls and five pending polls', 20_000);
    page.off('request', record);
    // Medians, so one late timer on a loaded machine does not decide.
    const median = (t: number[]) => {
      const g = t.slice(1).map((v, i) => v - t[i]!).sort((a, b) => a - b);
      return g.length % 2 ? g[(g.length - 1) / 2]! : (g[g.length / 2 - 1]! + g[g.length / 2]!) / 2;
    };
    expect(median(seen.pending)).toBeGreaterThan(1700);
    expect(median(seen.pending)).toBeLessThan(3500);
    expect(median(seen.tables)).toBeGreaterThan(4500);
    expect(median(seen.tables)).toBeLessThan(8000);

    await pendingRow.getByRole('button', { name: 'Clear pending actor e2e-pending-actor' }).click();
    await confirmYes(page);
    await page.getByRole('status').filter({ hasText: 'Pending actor e2e-pending-actor was cleared.' }).waitFor();
    await pending.waitFor({ state: 'detached' });
    await eventually(() => row.locator('td').nth(4).innerText(), '0', 'nothing is pending any more');

    // Clear the token: after the confirmation it is gone and refuses registrations.
    await menuItem(page, row, 'E2E lab', 'Clear');
    await confirmYes(page);
    await page.getByRole('status').filter({ hasText: 'Bulk token E2E lab was cleared.' }).waitFor();
    await pane.getByText('No bulk tokens yet. Create one to register actors.').waitFor();
    expect((await registerActor(token, 'too-late')).status).toBe(401);
  });
});
