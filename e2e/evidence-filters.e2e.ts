import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn, useBrowser, useSession } from './browser';
import { sharedDirectorUrl } from './shared-director';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './director';
import { eventually, lookAt } from './workbench';
import type { JobAction, JobDetail, JobListAnswer, StepActionsAnswer } from '../src/api/contracts/jobs';
import type { LibraryListAnswer } from '../src/api/contracts/library';

// Issue 21 items 4 and 5: one filter language in the Jobs pane, filters in the URL, evidence by keyboard.

async function api<T>(page: Page, url: string): Promise<T> {
  const res = await page.request.get(url, { headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' } });
  expect(res.status(), `${url}: ${await res.text()}`).toBe(200);
  return (await res.json()) as T;
}
const rules = (conditions: object[]) => `filter=adhoc&structuredFilter=${encodeURIComponent(JSON.stringify({ rules: [{ operator: 'and', conditions }] }))}`;
const listIds = async (page: Page, query: string) => {
  const a = await api<JobListAnswer>(page, `/jobs/list_page_data.json?size=10&${query}`);
  return (a.jobs ?? a.filtered_jobs ?? []).map((j) => j.id);
};

const grid = (page: Page) => page.getByRole('treegrid', { name: 'Jobs' });
const shownIds = async (page: Page) => (await grid(page).locator('[role=row][data-row-kind=job] a[href^="/jobs/"]').allInnerTexts()).map(Number);
const filterBox = (page: Page) => page.getByRole('searchbox', { name: 'Filter jobs' });
const param = (page: Page, name: string) => new URL(page.url()).searchParams.get(name);

/** Types a filter into the Jobs pane by keyboard: `/` focuses the box, Enter applies. */
async function typeFilter(page: Page, text: string): Promise<void> {
  await grid(page).focus();
  await page.keyboard.press('/');
  await eventually(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Filter jobs', 'the filter box has the focus');
  await page.keyboard.press('Control+a');
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

describe('issue 21: one filter language, filters in the URL', () => {
  const b = useBrowser(sharedDirectorUrl);

  it('the Jobs text filter understands status:, ran_by: and id: words like jobs.export filter=, and says which words it does not', async () => {
    const { page } = b;
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD, '/jobs');
    await grid(page).waitFor();
    const users = await api<JobListAnswer>(page, '/jobs/list_page_data.json?size=50').then((a) => (a.jobs ?? a.filtered_jobs ?? []).map((j) => j.job_user));
    const someone = users.find((u) => u && u !== 'Scheduled Process')!;
    const cases: [string, string][] = [
      ['status:completed', rules([{ match_object: 'job', match_field: 'status', operator: 'in', value: 'completed' }])],
      [`ran_by:"${someone}"`, rules([{ match_object: 'job', match_field: 'ran_by', operator: 'in', value: [someone] }])],
      ['id:300-321', rules([{ match_object: 'job', match_field: 'id', operator: 'in', value: '300-321' }])],
    ];
    for (const [text, query] of cases) {
      const want = await listIds(page, query);
      expect(want.length, text).toBeGreaterThan(0);
      await typeFilter(page, text);
      await eventually(() => shownIds(page), want, `"${text}" lists the jobs the director finds for it`);
      expect(param(page, 'filter')).toBe(text);
    }
    expect(await shownIds(page)).toEqual([320, 319, 318, 317, 316, 315, 314, 313, 312, 311]);
    await typeFilter(page, 'vendor:acme status:finished');
    const hint = page.getByText(/^Not understood:/);
    await hint.waitFor();
    expect(await hint.innerText()).toContain('"vendor:acme": vendor is not a filter word');
    expect(await hint.innerText()).toContain('"status:finished": job.status must be one of');
    expect(await hint.innerText()).toContain('Filter words: id:300-321 name:text status:completed ran_by:ada assessment_name:text published:yes');
  });

  it('the jobs filter is in the URL: back, forward and reload restore it', async () => {
    const { page } = b;
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD, '/jobs?filter=id%3A300-305');
    await eventually(() => shownIds(page), [305, 304, 303, 302, 301, 300], 'a deep link applies its filter');
    expect(await filterBox(page).inputValue()).toBe('id:300-305');
    await typeFilter(page, 'id:310-312');
    await eventually(() => shownIds(page), [312, 311, 310], 'the typed filter applies');
    expect(param(page, 'filter')).toBe('id:310-312');
    await page.goBack();
    await eventually(() => shownIds(page), [305, 304, 303, 302, 301, 300], 'back restores the previous filter');
    expect(await filterBox(page).inputValue()).toBe('id:300-305');
    await page.goForward();
    await eventually(() => shownIds(page), [312, 311, 310], 'forward restores the later filter');
    await page.reload();
    await grid(page).waitFor();
    await eventually(() => shownIds(page), [312, 311, 310], 'a reload keeps the filter');
    expect(await filterBox(page).inputValue()).toBe('id:310-312');
  });

  it('the library search and tag filter are in the URL: deep links, back and reload restore them', async () => {
    const { page } = b;
    const count = () => page.getByTestId('library-count').innerText();
    const search = () => page.getByRole('searchbox', { name: 'Search Actions' }).or(page.getByRole('textbox', { name: 'Search Actions' }));
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD, '/manage_sims/actions?q=mimikatz');
    const found = await api<LibraryListAnswer>(page, '/manage_sims/v2/actions/library_actions_list?search=mimikatz&page_size=100');
    expect(found.total_count).toBeGreaterThan(0);
    await eventually(() => count(), `${found.total_count} Action${found.total_count === 1 ? '' : 's'}`, 'the deep link searches');
    expect(await search().inputValue()).toBe('mimikatz');
    const tag = found.actions.flatMap((a) => a.tags)[0]!;
    const both = await api<LibraryListAnswer>(page, `/manage_sims/v2/actions/library_actions_list?search=mimikatz&tags[]=${tag.id}&page_size=100`);
    await page.goto(`/manage_sims/actions?q=mimikatz&tags=${tag.id}`);
    await eventually(() => count(), `${both.total_count} Action${both.total_count === 1 ? '' : 's'}`, 'the deep link filters by the tag');
    await search().focus();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('dns');
    await eventually(() => param(page, 'q'), 'dns', 'the search goes into the URL');
    expect(param(page, 'tags')).toBe(String(tag.id));
    await page.goBack();
    await eventually(() => search().inputValue(), 'mimikatz', 'back restores the search');
    await eventually(() => count(), `${both.total_count} Action${both.total_count === 1 ? '' : 's'}`, 'back restores the list');
    await page.reload();
    await eventually(() => search().inputValue(), 'mimikatz', 'a reload keeps the search');
    expect(param(page, 'tags')).toBe(String(tag.id));
  });
});

/** A finished job with a blocked action and a not-run action with a reason (the demo seed has many). */
async function jobWithEvidence(page: Page): Promise<{ jobId: number; blocked: JobAction; notRun: JobAction }> {
  const jobs = await api<JobListAnswer>(page, `/jobs/list_page_data.json?size=100&${rules([{ match_object: 'job', match_field: 'status', operator: 'in', value: 'completed' }])}`);
  for (const j of jobs.filtered_jobs ?? jobs.jobs ?? []) {
    const detail = await api<JobDetail>(page, `/jobs/${j.id}.json`);
    if (!detail.steps.length || detail.steps.length > 3) continue;
    const actions = Object.values(await api<StepActionsAnswer>(page, `/jobs/list_page_job_actions.json?job_step_ids=${detail.steps.map((s) => s.id).join(',')}`)).flat();
    const blocked = actions.find((a) => a.status === 'ran' && a.blocked && a.blocked_msg);
    const notRun = actions.find((a) => a.status === 'not run' && a.reason);
    if (blocked && notRun && actions.length <= 30) return { jobId: j.id, blocked, notRun };
  }
  throw new Error('No demo job has both a blocked and a not-run action');
}

/** Moves the Job pane's focused row down (j), expanding steps (l), until the action named is active. */
async function focusActionRow(page: Page, name: string): Promise<void> {
  const steps = page.getByRole('treegrid', { name: /^Steps of job/ });
  await steps.focus();
  await page.keyboard.press('Home');
  for (let i = 0; i < 80; i++) {
    const active = steps.locator('[role=row][data-active]');
    if ((await active.count()) && (await active.getAttribute('data-row-kind')) === 'action' && (await active.innerText()).includes(name)) return;
    if ((await active.count()) && (await active.getAttribute('data-row-kind')) === 'step' && (await active.getAttribute('aria-expanded')) === 'false') {
      await page.keyboard.press('ArrowRight');
      await eventually(() => active.getAttribute('aria-expanded'), 'true', 'ArrowRight expands the active step');
      continue;
    }
    // A step whose actions are still loading shows a note row that j skips: on a busy machine j
    // would pass the step before its actions arrive, so wait for them first.
    await eventually(() => steps.getByText(/^Loading (steps|actions)…$/).count(), 0, 'the open steps show their actions');
    // Waits on the move itself (the active row's key changes) instead of a fixed pause per key.
    const before = (await active.count()) ? await active.getAttribute('data-row-key') : null;
    await page.keyboard.press('j');
    await eventually(async () => (await active.getAttribute('data-row-key')) !== before, true, 'j moves the active row');
  }
  throw new Error(`The action row "${name}" was not reached by keyboard`);
}

describe('issue 21: evidence by keyboard', () => {
  const b = useBrowser(sharedDirectorUrl);

  it('Enter on a blocked and on a not-run action opens its evidence; y copies it, Escape closes it', async () => {
    const { page, context } = b;
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await useSession(context, ADMIN_EMAIL, ADMIN_PASSWORD);
    const { jobId, blocked, notRun } = await jobWithEvidence(page);
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD, `/jobs/${jobId}`);
    await page.getByRole('treegrid', { name: `Steps of job ${jobId}` }).waitFor();

    await focusActionRow(page, blocked.name);
    await page.keyboard.press('Enter');
    const panelOf = (name: string) => page.getByRole('region', { name: `Evidence: ${name}` });
    await panelOf(blocked.name).waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`Evidence: ${blocked.name}`);
    await panelOf(blocked.name).getByText(blocked.blocked_msg!, { exact: true }).waitFor();
    await lookAt(page, { path: '/tmp/evidence-blocked.png' });
    await page.keyboard.press('y');
    await eventually(() => page.evaluate(() => navigator.clipboard.readText()).then((t) => t.includes(blocked.blocked_msg!) && t.includes(`Job action ${blocked.id}: ${blocked.name}`)), true, 'y copies the evidence');
    await page.keyboard.press('Escape');
    await panelOf(blocked.name).waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('treegrid');

    await focusActionRow(page, notRun.name);
    // The not-run action shows its reason in its row, not only in a tooltip.
    await page.getByRole('treegrid', { name: `Steps of job ${jobId}` }).getByText(notRun.reason!, { exact: true }).first().waitFor();
    await page.keyboard.press('i');
    await panelOf(notRun.name).getByText(`Not Run: ${notRun.reason}`).waitFor();
    await lookAt(page, { path: '/tmp/evidence-not-run.png' });
    await page.keyboard.press('y');
    await eventually(() => page.evaluate(() => navigator.clipboard.readText()).then((t) => t.includes(`Result: Not Run: ${notRun.reason}`)), true, 'y copies the not-run reason');
    await page.keyboard.press('Escape');
    await panelOf(notRun.name).waitFor({ state: 'detached' });
  });
});
