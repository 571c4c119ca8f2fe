import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn, useBrowser } from './browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD, DEMO_USERS, DEMO_USER_PASSWORD } from './director';
import { sharedDirectorUrl } from './shared-director';
import { eventually, waitForPath } from './workbench';
import type { LibraryListAnswer } from '../src/api/contracts/library';

/**
 * Simulation drafts from an Action library selection, on the shared director: the draft is saved as a
 * new sequence under a name of its own (Draft e2e <time>), and the tests read the Actions they select
 * from the director at test time, so no other file's data matters and no other file counts sequences.
 */
const baseUrl = sharedDirectorUrl();

const XHR = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };
const list = (page: Page) => page.getByRole('listbox', { name: 'Actions' });
const row = (page: Page, vid: string) => list(page).locator(`[role=option][data-vid="${vid}"]`);
const queueSteps = (page: Page) => page.getByRole('list', { name: 'Steps' }).first().locator('[data-step]');

describe('simulation drafts from the Action library', () => {
  const b = useBrowser(() => baseUrl);

  it('JOB-022 JOB-042 JOB-118 JOB-018 Add all makes a draft of the selection, reordered by keyboard and saved as a new sequence', async () => {
    const { page } = b;
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD, '/manage_sims/actions');
    await list(page).waitFor();
    const res = await page.request.get('/manage_sims/v2/actions/library_actions_list?page_size=3', { headers: XHR });
    const actions = ((await res.json()) as LibraryListAnswer).actions;
    expect(actions.length).toBe(3);
    await row(page, actions[0]!.vid).click();
    await row(page, actions[1]!.vid).click({ modifiers: ['Control'] });
    await row(page, actions[2]!.vid).click({ modifiers: ['Control'] });
    await page.getByText('3 selected').waitFor();
    await page.getByRole('button', { name: 'Queue' }).click();
    await page.getByRole('menuitem', { name: 'Add all', exact: true }).click();
    await waitForPath(page, '/manage_sims/actions/queue');
    await page.getByText('Sequence generated from Action library selection.').waitFor();
    const name = page.getByRole('textbox', { name: 'Name' });
    expect(await name.inputValue()).toBe('Selected Actions (3)');
    const names = actions.map((a) => a.name);
    const shown = () => queueSteps(page).evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    await eventually(shown, names.map((n, i) => `Step ${i + 1}: ${n}`), 'one step per selected Action, in list order');
    // Alt+ArrowDown moves the first step down; focus follows it.
    await queueSteps(page).nth(0).focus();
    await page.keyboard.press('Alt+ArrowDown');
    const order = [names[1]!, names[0]!, names[2]!];
    await eventually(shown, order.map((n, i) => `Step ${i + 1}: ${n}`), 'Alt+ArrowDown moves the step');
    await page.reload();
    await eventually(shown, order.map((n, i) => `Step ${i + 1}: ${n}`), 'a reload keeps the draft');
    const simName = `Draft e2e ${Date.now()}`;
    await name.fill(simName);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await eventually(() => /^\/simulation\/S\d{3}-\d{3}\?sim_type=sequence$/.test(new URL(page.url()).pathname + new URL(page.url()).search), true, 'the new simulation opens');
    const stepNames = page.getByRole('main').getByRole('list', { name: 'Steps' }).first().locator(':scope > li > div > span.font-medium');
    await eventually(() => stepNames.allInnerTexts(), order, 'the simulation shows the steps in the new order');
    await page.goto('/simulations?sim_type=sequence');
    await page.getByRole('searchbox', { name: 'Search Sequences' }).fill(simName);
    await page.getByRole('listbox', { name: 'Sequences' }).getByRole('option', { name: new RegExp(simName) }).waitFor();
  });

  it('JOB-079 a viewer without edit permission has no Add all', async () => {
    const { page } = b;
    await signIn(page, DEMO_USERS.viewer, DEMO_USER_PASSWORD, '/manage_sims/actions');
    await list(page).waitFor();
    expect(await page.getByRole('button', { name: 'Queue' }).count()).toBe(0);
  });
});
