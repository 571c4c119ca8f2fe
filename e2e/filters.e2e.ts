import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn, useBrowser } from './browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './director';
import { sharedDirectorUrl } from './shared-director';
import { eventually, openPalette, paletteInput, paletteOption, runCommand, waitForFocused } from './workbench';
import { INVALID_INPUT, PLEASE_ENTER_VALUE, RULE_NEEDS_CONDITION, type DimensionChildren, type FilterNode } from '../src/api/contracts/filters';
import type { JobListAnswer } from '../src/api/contracts/jobs';
import { type LibraryListAnswer } from '../src/api/contracts/library';
import { ACTION_TYPE_LABELS } from '../src/api/contracts/vocabulary';

/**
 * On the shared director: every count is read from the director at test time (allJobs: the demo's 320
 * jobs unless a file that ran before on it changed them), and the saved filter has a name of its own,
 * so the tests mean the same whatever ran before them.
 */
const baseUrl = sharedDirectorUrl();

const footer = (page: Page) => page.locator('footer[aria-label="Pagination"] [role=status]');
const filters = (page: Page) => page.getByRole('region', { name: 'Job filters' });
const summary = (page: Page) => filters(page).getByTestId('filter-summary');

async function api<T>(page: Page, url: string): Promise<T> {
  const res = await page.request.get(url, { headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' } });
  expect(res.status(), `${url}: ${await res.text()}`).toBe(200);
  return (await res.json()) as T;
}
/** How many jobs the director has, read from it now (the unfiltered list's total). */
const allJobs = async (page: Page) => (await api<JobListAnswer>(page, '/jobs/list_page_data.json')).total_jobs;
const showing = (n: number) => `Showing 1–10 of ${n} jobs`;
const totalOf = async (page: Page, rules: FilterNode[]) =>
  (await api<JobListAnswer>(page, `/jobs/list_page_data.json?filter=adhoc&structuredFilter=${encodeURIComponent(JSON.stringify({ rules }))}`)).total_filtered_jobs;

/** Presses Tab until the focused element matches (by its accessible label or text). */
async function tabTo(page: Page, matches: RegExp, back = false): Promise<void> {
  for (let i = 0; i < 60; i++) {
    const here = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return `${el?.getAttribute('aria-label') ?? ''}|${el?.innerText ?? ''}`;
    });
    if (matches.test(here)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`No focusable element matching ${matches}`);
}
const focusedLabel = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');

/**
 * Runs Focus Filter and waits for its focus to land in the pane's filter panel: the panel moves it there
 * a moment after the command (once it has opened), and a Tab pressed before that was undone by it.
 */
async function focusFilter(page: Page): Promise<void> {
  await runCommand(page, 'Focus Filter');
  await eventually(() => page.evaluate(() => !!document.activeElement?.closest('section[aria-label="Job filters"], section[aria-label="Action filters"]')), true, 'the focus in the filter panel');
}

const asAdmin = (page: Page) => signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD, '/jobs');

const useFiltersBrowser = () => useBrowser(() => baseUrl);

/** Signs in on the unfiltered Jobs pane, and adds a rule to its filter panel by keyboard (Focus Filter, then '+ Add rule'). */
async function jobsWithNewRule(page: Page): Promise<number> {
  await asAdmin(page);
  await waitForFocused(page, 'Jobs');
  const all = await allJobs(page);
  await eventually(async () => (await footer(page).innerText()).trim(), showing(all), 'the unfiltered list');
  await focusFilter(page);
  await tabTo(page, /\+ Add rule/);
  await page.keyboard.press('Enter');
  return all;
}

describe('filters on the Jobs pane', () => {
  const b = useFiltersBrowser();

  it('JOB-016 JOB-063 JOB-064 JOB-065 builds a two-rule filter by keyboard, with the validation texts in place; the list narrows and the filter survives a reload', async () => {
    const { page } = b;
    const all = await jobsWithNewRule(page);
    // The new rule's first condition has the focus: its match object.
    expect(await focusedLabel(page)).toBe('Match object, rule 1, condition 1');
    await page.keyboard.type('Job');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Job Id');
    await tabTo(page, /Update Filter/);
    await page.keyboard.press('Enter');
    await filters(page).getByText(PLEASE_ENTER_VALUE).waitFor();

    // While typing a range only digits, commas, hyphens and spaces are taken, and no doubled separator.
    await tabTo(page, /^Value, rule 1, condition 1/, true);
    await page.keyboard.type('300--x');
    expect(await page.getByRole('textbox', { name: 'Value, rule 1, condition 1' }).inputValue()).toBe('300-');
    await tabTo(page, /Update Filter/);
    await page.keyboard.press('Enter');
    await filters(page).getByText(INVALID_INPUT).waitFor();
    await tabTo(page, /^Value, rule 1, condition 1/, true);
    await page.keyboard.press('End');
    await page.keyboard.type('320');

    // A second rule, emptied: 'Rule must have at least one condition.'
    await tabTo(page, /\+ Add rule/);
    await page.keyboard.press('Enter');
    await tabTo(page, /Remove condition 1 of rule 2/);
    await page.keyboard.press('Enter');
    await tabTo(page, /Update Filter/);
    await page.keyboard.press('Enter');
    await filters(page).getByText(RULE_NEEDS_CONDITION).waitFor();

    // Fill rule 2: Job Name contains the name of job 5.
    const name = (await api<{ name: string }>(page, '/jobs/5.json')).name;
    await tabTo(page, /Add condition/, true);
    await page.keyboard.press('Enter');
    expect(await focusedLabel(page)).toBe('Match object, rule 2, condition 1');
    await page.keyboard.type('Job');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Job Name');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.type(name);
    await tabTo(page, /Update Filter/);
    await page.keyboard.press('Enter');

    const rules: FilterNode[] = [
      {
        operator: 'or',
        conditions: [
          { operator: 'and', conditions: [{ match_object: 'job', match_field: 'id', operator: 'in', value: '300-320' }] },
          { operator: 'and', conditions: [{ match_object: 'job', match_field: 'name', operator: 'contains', value: name }] },
        ],
      },
    ];
    const total = await totalOf(page, rules);
    expect(total).toBeGreaterThan(20);
    expect(total).toBeLessThan(all);
    const shown = `Showing 1–10 of ${total} jobs`;
    await eventually(async () => (await footer(page).innerText()).trim(), shown, 'the list narrows to the two rules');
    expect(await summary(page).innerText()).toBe(`Job Id is any of 300-320 or Job Name contains ${name}`);
    expect(await filters(page).getByRole('alert').count()).toBe(0);

    await page.reload();
    await eventually(async () => (await footer(page).innerText()).trim(), shown, 'the filter survives a reload');
    expect(await summary(page).innerText()).toBe(`Job Id is any of 300-320 or Job Name contains ${name}`);

    await runCommand(page, 'Clear Filter');
    await eventually(async () => (await footer(page).innerText()).trim(), showing(all), 'Clear Filter shows every job again');
  });

  it('JOB-015 JOB-083 a page filter by a dimension child narrows the list; Reset Filter clears it', async () => {
    const { page } = b;
    await asAdmin(page);
    await waitForFocused(page, 'Jobs');
    const all = await allJobs(page);
    // The Jobs pane's code loads on first use; its filter host exists once the list is shown.
    await page.getByRole('toolbar', { name: 'Jobs toolbar' }).waitFor({ state: 'visible' });
    await focusFilter(page);
    const select = filters(page).getByLabel('Attack Vector', { exact: true });
    const children = await api<DimensionChildren>(page, `/reports/dimension_children.json?type=${encodeURIComponent('Attack Vector')}`);
    const phishing = children.find(([label]) => label === 'Phishing')!;
    await eventually(async () => (await select.locator('option').allInnerTexts()).includes('Phishing / Spearphishing Link'), true, 'the children of Attack Vector are offered');
    await select.focus();
    await page.keyboard.type('Phishing');
    expect(await select.inputValue()).toBe(String(phishing[1]));
    await tabTo(page, /Update Filter/);
    await page.keyboard.press('Enter');
    const total = await totalOf(page, [{ operator: 'and', conditions: [{ match_object: 'job_action', match_field: 'attack_vector', operator: 'in', value: [String(phishing[1])] }] }]);
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThan(all);
    await eventually(async () => (await footer(page).innerText()).trim(), `Showing 1–10 of ${total} jobs`, 'the list narrows to Phishing');
    expect(await summary(page).innerText()).toBe('Attack Vector: Phishing');
    await filters(page).getByRole('button', { name: 'Reset Filter' }).click();
    await eventually(async () => (await footer(page).innerText()).trim(), showing(all), 'Reset Filter clears it');
    expect(await summary(page).innerText()).toBe('No filter');
  });
});

describe('saved filters on the Jobs pane', () => {
  const b = useFiltersBrowser();
  const value = (page: Page) => filters(page).getByRole('textbox', { name: 'Value, rule 1, condition 1' });
  const field = (page: Page) => filters(page).getByRole('combobox', { name: 'Match field, rule 1, condition 1' });

  it('JOB-015 JOB-036 a saved filter is picked from the palette after a reload: the builder shows its rules, the list narrows, storage keeps the own filter, and it is deleted by name', async () => {
    const { page } = b;
    // Build Job Id in 1-50, apply it, save it as "First fifty".
    const all = await jobsWithNewRule(page);
    await filters(page).getByRole('combobox', { name: 'Match object, rule 1, condition 1' }).selectOption({ label: 'Job' });
    await field(page).selectOption({ label: 'Job Id' });
    await value(page).fill('1-50');
    await filters(page).getByRole('button', { name: 'Update Filter' }).click();
    const rules: FilterNode[] = [{ operator: 'or', conditions: [{ operator: 'and', conditions: [{ match_object: 'job', match_field: 'id', operator: 'in', value: '1-50' }] }] }];
    const total = await totalOf(page, rules);
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThan(all);
    const narrowed = `Showing 1–10 of ${total} jobs`;
    await eventually(async () => (await footer(page).innerText()).trim(), narrowed, 'the list narrows to Job Id in 1-50');
    await openPalette(page);
    await paletteInput(page).fill('Save Filter As');
    await paletteInput(page).press('Enter');
    await page.getByRole('textbox', { name: 'Filter name' }).fill('First fifty');
    await page.keyboard.press('Enter');
    // The palette closes once the save has answered; until then Ctrl+K finds it still open.
    await page.getByRole('textbox', { name: 'Filter name' }).waitFor({ state: 'hidden' });
    // Saved filters of other files on the shared director may be listed too: this one is there once.
    const savedNamed = async () => (await api<{ data: { name: string }[] }>(page, '/filters/saved.json')).data.filter((f) => f.name === 'First fifty').length;
    await eventually(savedNamed, 1, 'the filter is saved');

    // The user's own filter becomes no filter; a reload keeps that.
    await runCommand(page, 'Clear Filter');
    await eventually(async () => (await footer(page).innerText()).trim(), showing(all), 'Clear Filter shows every job');
    await page.reload();
    await waitForFocused(page, 'Jobs');
    await eventually(async () => (await footer(page).innerText()).trim(), showing(all), 'no filter after the reload');

    await runCommand(page, 'Apply filter: First fifty');
    await eventually(async () => (await footer(page).innerText()).trim(), narrowed, 'the saved filter narrows the list');
    expect(await summary(page).innerText()).toBe('Job Id is any of 1-50');
    // The builder shows the same rule.
    expect(await field(page).inputValue()).toBe('id');
    expect(await value(page).inputValue()).toBe('1-50');
    expect(await filters(page).getByRole('combobox', { name: 'Operator, rule 1, condition 1' }).inputValue()).toBe('in');

    // A supplied filter is not written to browser storage: opening /jobs afresh (without the filter the URL
    // carries since issue 21) shows the user's own (none).
    await page.goto(new URL('/jobs', page.url()).toString());
    await waitForFocused(page, 'Jobs');
    await eventually(async () => (await footer(page).innerText()).trim(), showing(all), 'the supplied filter is not kept after a reload');
    expect(await summary(page).innerText()).toBe('No filter');

    // Deleting picks the filter by name from the palette.
    await runCommand(page, 'Delete saved filter: First fifty');
    const confirm = page.getByRole('dialog', { name: 'Please confirm' });
    await confirm.getByText('Delete the saved filter "First fifty"?', { exact: true }).waitFor();
    await confirm.getByRole('button', { name: 'Delete Filter' }).click();
    await eventually(savedNamed, 0, 'the saved filter is deleted');
    await openPalette(page);
    await paletteInput(page).fill('Apply filter: First fifty');
    await eventually(() => paletteOption(page, 'Apply filter: First fifty').count(), 0, 'the palette no longer offers it');
    await page.keyboard.press('Escape');
  });
});

describe('filters on the Action library', () => {
  const b = useFiltersBrowser();
  const panel = (page: Page) => page.getByRole('region', { name: 'Action filters' });
  const count = (page: Page) => page.getByTestId('library-count').innerText();
  const totalOfActions = async (page: Page, rules: FilterNode[]) =>
    (await api<LibraryListAnswer>(page, `/manage_sims/v2/actions/library_actions_list?page_size=1&rules=${encodeURIComponent(JSON.stringify(rules))}`)).total_count;
  const plural = (n: number) => `${n.toLocaleString()} Action${n === 1 ? '' : 's'}`;

  it('JOB-015 JOB-016 a rule and a page filter narrow the library list and survive a reload', async () => {
    const { page } = b;
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD, '/manage_sims/actions');
    await page.getByRole('listbox', { name: 'Actions' }).waitFor();
    const all = await totalOfActions(page, []);
    await eventually(() => count(page), plural(all), 'the library shows every Action');

    // The page filter: Action Type DNS.
    const byType: FilterNode[] = [{ operator: 'and', conditions: [{ match_object: 'action', match_field: 'action_type', operator: 'in', value: 'dns' }] }];
    const dns = await api<LibraryListAnswer>(page, `/manage_sims/v2/actions/library_actions_list?page_size=5&rules=${encodeURIComponent(JSON.stringify(byType))}`);
    expect(dns.total_count).toBeGreaterThan(1);
    expect(dns.total_count).toBeLessThan(all);
    await focusFilter(page);
    await tabTo(page, /\+ Add rule/);
    const typeSelect = panel(page).getByRole('combobox', { name: 'Action Type', exact: true });
    await eventually(async () => (await typeSelect.locator('option').allInnerTexts()).includes(ACTION_TYPE_LABELS.dns), true, 'the filter source offers the action types');
    await typeSelect.selectOption('dns');

    // The rule: Name contains the name of one DNS Action.
    const name = dns.actions[0]!.name;
    await tabTo(page, /\+ Add rule/);
    await page.keyboard.press('Enter');
    // One match object (Action): it is chosen already.
    expect(await panel(page).getByRole('combobox', { name: 'Match object, rule 1, condition 1' }).inputValue()).toBe('action');
    await panel(page).getByRole('combobox', { name: 'Match field, rule 1, condition 1' }).selectOption({ label: 'Name' });
    await panel(page).getByRole('textbox', { name: 'Value, rule 1, condition 1' }).fill(name);
    // Activated by keyboard, as in the other filter tests.
    await tabTo(page, /Update Filter/);
    await page.keyboard.press('Enter');

    const rules: FilterNode[] = [{ operator: 'or', conditions: [{ operator: 'and', conditions: [{ match_object: 'action', match_field: 'name', operator: 'contains', value: name }] }] }, ...byType];
    const total = await totalOfActions(page, rules);
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThan(dns.total_count);
    await eventually(() => count(page), plural(total), 'the rule and the page filter narrow the list');
    const line = `Action Type: ${ACTION_TYPE_LABELS.dns} · Name contains ${name}`;
    expect(await panel(page).getByTestId('filter-summary').innerText()).toBe(line);

    await page.reload();
    await page.getByRole('listbox', { name: 'Actions' }).waitFor();
    await eventually(() => count(page), plural(total), 'the filter survives a reload');
    await eventually(() => panel(page).getByTestId('filter-summary').innerText(), line, 'the summary survives a reload');

    await runCommand(page, 'Clear Filter');
    await eventually(() => count(page), plural(all), 'Clear Filter shows every Action again');
  });
});
