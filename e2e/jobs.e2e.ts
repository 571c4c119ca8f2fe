import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn, useBrowser, useSession } from './browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD, DEMO_USERS, DEMO_USER_PASSWORD, startDirector, type Director } from './director';
import { eventually, groups, panel, pathOf, runCommand, tabs, waitForFocused, lookAt } from './workbench';
import {
  CANCEL_CONFIRM,
  LOADING_EVENTS,
  NO_EVENTS,
  NO_JOB_RESULTS,
  POLLING_STOPPED,
  EVENTS_FILTER_LABELS,
  actionResult,
  canEditAction,
  deleteConfirmText,
  type JobAction,
  type JobDetail,
  type JobListAnswer,
  type JobListItem,
  type StepActionsAnswer,
} from '../src/api/contracts/jobs';
import { parseCsv } from '../tests/csv';
import { signIn as apiSignIn } from '../cli/sign-in';

// A director of its own (demo seed, 320 jobs): these tests cancel, delete and publish jobs.
// VIGIL_E2E_STATIC_DIR runs them against another build of the workbench.
let director: Director | null = null;
beforeAll(async () => {
  director = await startDirector();
});
afterAll(async () => {
  await director?.stop();
});

const grid = (page: Page) => page.getByRole('treegrid', { name: 'Jobs' });
const jobRows = (page: Page) => grid(page).locator('[role=row][data-row-kind=job]');
const shownIds = async (page: Page) => (await jobRows(page).locator('a[href^="/jobs/"]').allInnerTexts()).map(Number);
const footer = (page: Page) => page.locator('footer[aria-label="Pagination"] [role=status]');
const confirmDialog = (page: Page) => page.getByRole('dialog', { name: 'Please confirm' });

async function api<T>(page: Page, url: string): Promise<T> {
  const res = await page.request.get(url, { headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' } });
  expect(res.status(), `${url}: ${await res.text()}`).toBe(200);
  return (await res.json()) as T;
}
const listIds = async (page: Page, query: string) => {
  const a = await api<JobListAnswer>(page, `/jobs/list_page_data.json?${query}`);
  return { ids: (a.jobs ?? a.filtered_jobs ?? []).map((j) => j.id), answer: a };
};

/**
 * A job in progress that the engine really holds (the seeded jobs are all finished history): two actors
 * register (online by that call) and a 5-minute sleep is run on them. They never call in again, so
 * 20 s later they are offline and the job ends errored; the tests act on the job well within that.
 */
let busyActors = 0;
async function jobInProgress(): Promise<number> {
  const url = director!.url;
  const { cookie, answer } = await apiSignIn(url, ADMIN_EMAIL, ADMIN_PASSWORD);
  const headers = { Cookie: cookie, 'X-CSRF-Token': answer.csrf_token, 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json', 'Content-Type': 'application/json' };
  const call = async <T>(p: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${url}${p}`, body === undefined ? { headers } : { method: 'POST', headers, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const { token } = await call<{ token: string }>('/bulk_tokens.json', { name: `e2e busy ${busyActors}`, hours: 1 });
  const register = async () => {
    busyActors++;
    const registration = { bulk_token: token, name: `e2e-busy-${busyActors}`, version: '1.0.0', os: 'Linux test', addresses: [`127.0.0.${60 + busyActors}`], capabilities: ['sleep'] };
    const reg = await fetch(`${url}/api/actor/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(registration) });
    return ((await reg.json()) as { node_id: number }).node_id;
  };
  const [source, target] = [await register(), await register()];
  const list = await call<{ actions: { id: number; name: string }[] }>('/manage_sims/v2/actions/library_actions_list?page_size=500');
  const sleep = list.actions.find((a) => a.name === 'Sleep - 5 Minutes (Detection Window)')!;
  const run = await call<{ job_id: number }>(`/run/actions/${sleep.id}.json`, { attack_node_id_1: source, target_node_id_1: target });
  return run.job_id;
}

const asAdmin = (page: Page, at = '/jobs') => signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD, at);

/** Waits for the list of the Jobs pane to show exactly these job ids. */
const waitForIds = (page: Page, ids: number[], what: string) => eventually(() => shownIds(page), ids, what, 15_000);

describe('the Jobs pane', () => {
  const b = useBrowser(() => {
    if (!director) throw new Error('The jobs director did not start');
    return director.url;
  });

  it('JOB-001 JOB-008 JOB-012 JOB-013 shows page 1 of 10 jobs by Job Id descending in six columns, each row linking to /jobs/{id}', async () => {
    const { page } = b;
    await asAdmin(page);
    await waitForFocused(page, 'Jobs');
    await waitForIds(page, Array.from({ length: 10 }, (_, i) => 320 - i), 'the newest ten jobs');
    const headers = await grid(page).getByRole('columnheader').allInnerTexts();
    expect(headers.map((h) => h.replace(/[▲▼]/g, '').trim().toUpperCase())).toEqual(['JOB ID', 'JOB NAME', 'JOB STATUS', 'RAN BY', 'TIME STARTED', 'ROW ACTIONS']);
    expect(await grid(page).getByRole('columnheader').first().getAttribute('aria-sort')).toBe('descending');
    expect((await footer(page).innerText()).trim()).toBe('Showing 1–10 of 320 jobs');
    await jobRows(page).first().getByRole('link', { name: '320' }).click();
    await waitForFocused(page, 'Job 320');
    expect(pathOf(page)).toBe('/jobs/320');
    await panel(page, 'Job 320').getByRole('treegrid', { name: 'Steps of job 320' }).waitFor();
  });

  it('JOB-013 sorts by a column header, both ways, as the director orders the jobs', async () => {
    const { page } = b;
    await asAdmin(page);
    await jobRows(page).first().waitFor();
    await grid(page).getByRole('button', { name: 'Job Name' }).click();
    await waitForIds(page, (await listIds(page, 'sortCol=job_name&sortDir=desc&size=10')).ids, 'sorted by name, descending');
    await grid(page).getByRole('button', { name: 'Job Name' }).click();
    await waitForIds(page, (await listIds(page, 'sortCol=job_name&sortDir=asc&size=10')).ids, 'sorted by name, ascending');
    expect(await grid(page).getByRole('columnheader', { name: /Job Name/i }).getAttribute('aria-sort')).toBe('ascending');
    await grid(page).getByRole('button', { name: 'Ran By' }).click();
    await waitForIds(page, (await listIds(page, 'sortCol=job_user&sortDir=desc&size=10')).ids, 'sorted by Ran By');
    // The stored filter keeps the sort across a reload.
    await page.reload();
    await waitForIds(page, (await listIds(page, 'sortCol=job_user&sortDir=desc&size=10')).ids, 'the sort survives a reload');
  });

  it('JOB-007 the filter text box narrows the list, and a text matching nothing says "No Job results to display."', async () => {
    const { page } = b;
    await asAdmin(page);
    await jobRows(page).first().waitFor();
    await page.getByRole('searchbox', { name: 'Filter jobs' }).fill('hygiene');
    const expected = await listIds(page, 'filterVal=hygiene&size=10');
    expect(expected.ids.length).toBeGreaterThan(0);
    await waitForIds(page, expected.ids, 'only matching jobs');
    expect((await footer(page).innerText()).trim()).toBe(`Showing 1–${expected.ids.length} of ${expected.answer.total_filtered_jobs} jobs`);
    for (const name of await jobRows(page).locator('[role=gridcell]:nth-child(2) .font-medium').allInnerTexts()) expect(name.toLowerCase()).toContain('hygiene');
    await page.getByRole('searchbox', { name: 'Filter jobs' }).fill('no job is called this');
    await grid(page).getByText(NO_JOB_RESULTS).waitFor();
  });

  it('JOB-009 the date-range picker offers the six presets, and Last 7 Days keeps the jobs started in the last week', async () => {
    const { page } = b;
    await asAdmin(page);
    await jobRows(page).first().waitFor();
    await page.getByRole('button', { name: /^Date range:/ }).click();
    const presets = page.getByRole('list', { name: 'Presets' }).getByRole('button');
    expect(await presets.allInnerTexts()).toEqual(['Today', 'Yesterday', 'Last 7 Days', 'Last 30 Days', 'This Month', 'Last Month']);
    const start = page.locator('[aria-label="Choose a date range"]').getByLabel('Start');
    expect(await start.getAttribute('step')).toBe('60');
    expect(await start.getAttribute('max')).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    const req = page.waitForRequest((r) => r.url().includes('/jobs/list_page_data.json') && r.url().includes('filterRange='));
    await presets.filter({ hasText: 'Last 7 Days' }).click();
    const range = new URL((await req).url()).searchParams.get('filterRange') ?? '';
    const [from, to] = range.split(',');
    expect(Date.now() - Date.parse(from!)).toBeGreaterThan(6 * 86_400_000);
    expect(Date.now() - Date.parse(from!)).toBeLessThan(7 * 86_400_000 + 60_000);
    expect(Math.abs(Date.now() - Date.parse(to!))).toBeLessThan(60_000);
    const expected = await listIds(page, `filterRange=${encodeURIComponent(range)}&size=10`);
    await waitForIds(page, expected.ids, 'jobs of the last seven days');
    await eventually(async () => (await footer(page).innerText()).trim(), `Showing 1–10 of ${expected.answer.total_filtered_jobs} jobs`, 'the footer counts them');
    expect(expected.answer.total_filtered_jobs).toBeLessThan(320);
    expect(await page.getByRole('button', { name: /^Date range:/ }).innerText()).toMatch(/\d{4}-\d{2}-\d{2} 00:00 – \d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
  });

  it('JOB-008 JOB-062 JOB-115 page sizes 10, 20, 30; Next pages by keyset cursor and Last goes to the last page', async () => {
    const { page } = b;
    await asAdmin(page);
    await jobRows(page).first().waitFor();
    const size = page.getByLabel('Rows per page');
    expect(await size.locator('option').allInnerTexts()).toEqual(['10', '20', '30']);
    await size.selectOption('20');
    await waitForIds(page, (await listIds(page, 'size=20')).ids, 'twenty jobs');
    const next = page.waitForRequest((r) => r.url().includes('/jobs/list_page_data.json') && r.url().includes('page=1'));
    await page.getByRole('button', { name: 'Next page' }).click();
    expect(new URL((await next).url()).searchParams.get('after')).toBeTruthy();
    await waitForIds(page, (await listIds(page, 'size=20&page=1')).ids, 'the second page');
    expect(await page.getByText(/^Page 2 of \d+$/).count()).toBe(1);
    await page.getByRole('button', { name: 'Last page' }).click();
    const total = (await listIds(page, 'size=20')).answer.total_jobs;
    const lastPage = Math.ceil(total / 20) - 1;
    await waitForIds(page, (await listIds(page, `size=20&page=${lastPage}`)).ids, 'the last page');
    await page.getByRole('button', { name: 'Previous page' }).click();
    await waitForIds(page, (await listIds(page, `size=20&page=${lastPage - 1}`)).ids, 'the page before the last');
  });

  it('JOB-011 JOB-034 expanding a step fetches its actions once, and the expanded steps are remembered after a reload', async () => {
    const { page } = b;
    await asAdmin(page);
    await jobRows(page).first().waitFor();
    const calls: string[] = [];
    page.on('request', (r) => r.url().includes('/jobs/list_page_job_actions') && calls.push(r.url()));
    const first = (await shownIds(page))[0]!;
    await grid(page).getByRole('button', { name: `Expand job ${first}` }).click();
    const job = await api<JobDetail>(page, `/jobs/${first}.json`);
    const step = job.steps[0]!;
    const stepRow = grid(page).locator(`[data-row-key="job:${first}>step:${step.id}"]`);
    await stepRow.waitFor();
    expect(calls).toEqual([]);
    expect(await stepRow.innerText()).toContain(`Step ${step.group_order}`);
    expect(await stepRow.innerText()).toContain(`Run as ${step.action_user_profile_friendly_name ?? 'System'}`);
    expect(await stepRow.innerText()).toMatch(new RegExp(`Blocked\\s*${step.blocked}\\s*Detected\\s*${step.detected}`));
    await stepRow.getByRole('button', { name: `Expand step ${step.group_order}` }).click();
    await eventually(() => grid(page).locator(`[data-row-key^="job:${first}>step:${step.id}>action:"]`).count(), step.action_count, 'the step shows its actions');
    expect(calls).toHaveLength(1);
    expect(new URL(calls[0]!).searchParams.getAll('job_step_ids[]')).toEqual([String(step.id)]);
    await stepRow.getByRole('button', { name: `Collapse step ${step.group_order}` }).click();
    await eventually(() => grid(page).locator(`[data-row-key^="job:${first}>step:${step.id}>action:"]`).count(), 0, 'collapsed');
    await stepRow.getByRole('button', { name: `Expand step ${step.group_order}` }).click();
    await eventually(() => grid(page).locator(`[data-row-key^="job:${first}>step:${step.id}>action:"]`).count(), step.action_count, 'expanded again');
    expect(calls).toHaveLength(1);
    await page.reload();
    await eventually(() => grid(page).locator(`[data-row-key^="job:${first}>step:${step.id}>action:"]`).count(), step.action_count, 'still expanded after a reload');
    expect(await page.evaluate(() => localStorage.getItem('vigil.jobs.expanded.v1'))).toContain(String(step.id));
  });

  it('JOB-050 JOB-051 JOB-052 JOB-053 JOB-054 each result rule shows its text: Alerted, Blocked, Not Blocked, Events (n), No Events, Not Run, and capitalised statuses', async () => {
    const { page } = b;
    await useSession(page.context(), ADMIN_EMAIL, ADMIN_PASSWORD);
    const found = new Map<string, { job: number; step: JobDetail['steps'][number]; action: JobAction }>();
    const kindOf = (a: JobAction) => (a.status === 'ran' ? actionResult(a).text.replace(/\(\d+\)/, '(n)') : actionResult(a).text === 'Not Run' ? 'Not Run' : 'other');
    const list = await api<JobListAnswer>(page, '/jobs/list_page_data.json?size=100');
    for (const j of list.jobs ?? []) {
      if (found.size >= 7) break;
      const detail = await api<JobDetail>(page, `/jobs/${j.id}.json`);
      if (!detail.steps.length) continue;
      const actions = await api<StepActionsAnswer>(page, `/jobs/list_page_job_actions?${detail.steps.map((s) => `job_step_ids[]=${s.id}`).join('&')}`);
      for (const step of detail.steps) for (const a of actions[String(step.id)] ?? []) if (!found.has(kindOf(a))) found.set(kindOf(a), { job: j.id, step, action: a });
    }
    expect([...found.keys()].sort()).toEqual(['Alerted', 'Blocked', 'Events (n)', 'No Events', 'Not Blocked', 'Not Run', 'other']);
    for (const [kind, { job, step, action }] of found) {
      await page.goto(`/jobs/${job}`);
      await waitForFocused(page, `Job ${job}`);
      const p = panel(page, `Job ${job}`);
      const stepRow = p.locator(`[data-row-key="step:${step.id}"]`);
      if ((await stepRow.getAttribute('aria-expanded')) !== 'true') await stepRow.getByRole('button', { name: `Expand step ${step.group_order}` }).click();
      const badge = p.locator(`[data-row-key="step:${step.id}>action:${action.id}"] [data-result]`);
      await badge.waitFor();
      const expected = actionResult(action);
      expect((await badge.innerText()).trim(), kind).toBe(expected.text);
      expect(await badge.getAttribute('data-result'), kind).toBe(expected.tone);
      if (kind === 'other') expect(expected.text).toMatch(/^[A-Z]/);
    }
  });

  it('JOB-049 JOB-075 JOB-102 cancels a job that has not finished after the exact confirmation', async () => {
    const { page } = b;
    // Started before the pane loads, so its first page lists it.
    const running = { id: await jobInProgress() };
    await asAdmin(page);
    await jobRows(page).first().waitFor();
    const completed = ((await api<JobListAnswer>(page, '/jobs/list_page_data.json?size=10')).jobs ?? []).find((j) => j.job_status === 'completed');
    await grid(page).locator(`[data-row-key="job:${running.id}"]`).waitFor();
    await grid(page).getByRole('button', { name: `Actions for job ${running.id}` }).click();
    await page.getByRole('menuitem', { name: 'Cancel' }).click();
    await confirmDialog(page).getByText(CANCEL_CONFIRM, { exact: true }).waitFor();
    await confirmDialog(page).getByRole('button', { name: 'Cancel Job' }).click();
    const row = grid(page).locator(`[data-row-key="job:${running.id}"]`);
    await eventually(() => row.locator('[data-status]').getAttribute('data-status'), 'cancelled', 'the job shows Cancelled');
    expect((await api<JobDetail>(page, `/jobs/${running.id}.json`)).status).toBe('cancelled');
    // A finished job's Cancel is disabled.
    if (completed) {
      await page.getByRole('searchbox', { name: 'Filter jobs' }).fill('completed');
      await waitForIds(page, (await listIds(page, 'filterVal=completed&size=10')).ids, 'completed jobs');
      await grid(page).getByRole('button', { name: `Actions for job ${completed.id}` }).click();
      expect(await page.getByRole('menuitem', { name: 'Cancel' }).getAttribute('aria-disabled')).toBe('true');
      await page.keyboard.press('Escape');
    }
  });

  it('JOB-074 JOB-103 deletes the selected job results after "Are you sure you want to delete 2 selected job result(s)?"', async () => {
    const { page } = b;
    await asAdmin(page);
    await jobRows(page).first().waitFor();
    await page.getByRole('searchbox', { name: 'Filter jobs' }).fill('errored');
    const before = await listIds(page, 'filterVal=errored&size=10');
    await waitForIds(page, before.ids, 'errored jobs');
    const [a, c] = before.ids as [number, number];
    await grid(page).getByRole('checkbox', { name: `Select job ${a}` }).check();
    await grid(page).getByRole('checkbox', { name: `Select job ${c}` }).check();
    await page.getByRole('button', { name: 'Selected jobs' }).click();
    await page.getByRole('menuitem', { name: 'Delete Selected' }).click();
    await confirmDialog(page).getByText(deleteConfirmText(2), { exact: true }).waitFor();
    expect(deleteConfirmText(2)).toBe('Are you sure you want to delete 2 selected job result(s)? This cannot be undone.');
    await confirmDialog(page).getByRole('button', { name: 'Delete 2 Job Results' }).click();
    await eventually(async () => (await shownIds(page)).includes(a) || (await shownIds(page)).includes(c), false, 'both rows are gone');
    const after = await api<JobListAnswer>(page, '/jobs/list_page_data.json?filterVal=errored');
    expect(after.total_filtered_jobs).toBe(before.answer.total_filtered_jobs - 2);
    expect(await page.getByRole('button', { name: 'Selected jobs' }).innerText()).not.toMatch(/\(\d+\)/);
  });

  it('JOB-104 a refused delete shows the director\'s message as an alert', async () => {
    const { page } = b;
    // Deleting a running job is refused on purpose (409).
    b.allowConsole(/status of 409 \(Conflict\) \(.*\/jobs\/\d+\)$/);
    const running = { id: await jobInProgress() };
    await asAdmin(page);
    await jobRows(page).first().waitFor();
    await grid(page).locator(`[data-row-key="job:${running.id}"]`).waitFor();
    await grid(page).getByRole('checkbox', { name: `Select job ${running.id}` }).check();
    await page.getByRole('button', { name: 'Selected jobs' }).click();
    await page.getByRole('menuitem', { name: 'Delete Selected' }).click();
    await confirmDialog(page).getByRole('button', { name: 'Delete Job Result' }).click();
    const alert = page.getByRole('alert').filter({ hasText: new RegExp(`Job ${running.id} is (pending|preparing|running|waiting): only finished jobs can be deleted\\.`) });
    await alert.waitFor();
    expect(await alert.getAttribute('data-kind')).toBe('error');
    expect(await shownIds(page)).toContain(running.id);
  });

  it('JOB-073 publishes a finished job result to the pipeline chosen in the publish modal', async () => {
    const { page } = b;
    await asAdmin(page);
    await jobRows(page).first().waitFor();
    const candidates = (await api<JobListAnswer>(page, '/jobs/list_page_data.json?size=100&filterVal=completed')).filtered_jobs ?? [];
    const job = candidates.find((j) => j.published_status === 0)!;
    await page.getByRole('searchbox', { name: 'Filter jobs' }).fill(String(job.id));
    await eventually(async () => (await shownIds(page)).includes(job.id), true, 'the job is listed');
    await grid(page).getByRole('button', { name: `Actions for job ${job.id}` }).click();
    await page.getByRole('menuitem', { name: 'Publish Job Result' }).click();
    const modal = page.getByRole('dialog', { name: 'Publish Job Results' });
    await modal.getByLabel('Pipeline').selectOption('Executive Dashboard');
    const call = page.waitForRequest((r) => r.url().endsWith('/jobs/publish.json'));
    await modal.getByRole('button', { name: 'Publish' }).click();
    expect((await call).postDataJSON()).toMatchObject({ job_ids: [job.id], pipeline: 'Executive Dashboard', multisite_reporting: true });
    await grid(page).locator(`[data-row-key="job:${job.id}"]`).getByText('Published to Executive Dashboard').waitFor();
    const detail = await api<JobDetail>(page, `/jobs/${job.id}.json`);
    expect(detail.publish_job_pipeline).toMatchObject({ latest_published_status: 2, latest_published_pipeline: 'Executive Dashboard' });
  });

  it('JOB-073 JOB-074 JOB-075 JOB-076 JOB-077 a viewer sees View Job Result and Job Summary Report only, and no events modal', async () => {
    const { page } = b;
    await signIn(page, DEMO_USERS.viewer, DEMO_USER_PASSWORD, '/jobs');
    await jobRows(page).first().waitFor();
    const first = (await shownIds(page))[0]!;
    await grid(page).getByRole('button', { name: `Actions for job ${first}` }).click();
    const items = (await page.getByRole('menuitem').allInnerTexts()).map((t) => t.split('\n')[0]!.trim());
    expect(items.slice(0, 2)).toEqual(['View Job Result', 'Job Summary Report']);
    for (const hidden of ['Publish Job Result', 'Delete', 'Cancel']) expect(items).not.toContain(hidden);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Selected jobs' }).click();
    const bulk = (await page.getByRole('menuitem').allInnerTexts()).map((t) => t.split('\n')[0]!.trim());
    expect(bulk).not.toContain('Publish Selected');
    expect(bulk).not.toContain('Delete Selected');
    await page.keyboard.press('Escape');
    // Action rows: the events count is plain text, not a button that opens the modal.
    const withEvents = await findAction(page, (a) => a.events > 0);
    await page.goto(`/jobs/${withEvents.job}`);
    const p = panel(page, `Job ${withEvents.job}`);
    await p.getByRole('button', { name: `Expand step ${withEvents.step.group_order}` }).click();
    const row = p.locator(`[data-row-key="step:${withEvents.step.id}>action:${withEvents.action.id}"]`);
    await row.getByText(`Events (${withEvents.action.events})`).waitFor();
    expect(await row.getByRole('button', { name: /^Events/ }).count()).toBe(0);
    expect((await page.request.get(`/jobs/job_actions/${withEvents.action.id}/events.json`, { headers: { 'X-Requested-With': 'XMLHttpRequest' } })).status()).toBe(403);
  });

  it('JOB-105 the events modal says "Loading Events", then lists the events; a failed load shows its message; none shows "No Events Detected..."', async () => {
    const { page } = b;
    // The events load is made to fail on purpose (502 from the route below).
    b.allowConsole(/status of 502 \(Bad Gateway\) \(.*\/jobs\/job_actions\/\d+\/events\.json/);
    await useSession(page.context(), ADMIN_EMAIL, ADMIN_PASSWORD);
    const target = await findAction(page, (a) => a.events > 0 && a.suspect_events > 0);
    let release: () => void = () => undefined;
    let mode: 'slow' | 'fail' | 'empty' = 'slow';
    await page.route('**/jobs/job_actions/*/events.json*', async (route) => {
      if (mode === 'slow') {
        await new Promise<void>((r) => (release = r));
        return route.continue();
      }
      if (mode === 'fail') return route.fulfill({ status: 502, contentType: 'application/json', body: JSON.stringify({ error: 'The integration service did not answer.' }) });
      const real = await route.fetch();
      const body = (await real.json()) as { events: unknown[] };
      return route.fulfill({ response: real, json: { ...body, events: [] } });
    });
    const openModal = async () => {
      await page.goto(`/jobs/${target.job}`);
      const p = panel(page, `Job ${target.job}`);
      const stepRow = p.locator(`[data-row-key="step:${target.step.id}"]`);
      await stepRow.waitFor();
      if ((await stepRow.getAttribute('aria-expanded')) !== 'true') await stepRow.getByRole('button', { name: `Expand step ${target.step.group_order}` }).click();
      await p.locator(`[data-row-key="step:${target.step.id}>action:${target.action.id}"]`).getByRole('button', { name: `Events (${target.action.events})` }).click();
      return page.getByRole('dialog', { name: /^Detected Events:/ });
    };
    let modal = await openModal();
    await modal.getByText(LOADING_EVENTS, { exact: true }).waitFor();
    release();
    await eventually(() => modal.getByRole('list', { name: 'Events' }).getByRole('listitem').count(), target.action.events, 'the detected events are listed');
    expect(await modal.getByRole('link', { name: /suspicious event/ }).getAttribute('href')).toBe(`/suspect_events?job_action_id=${target.action.id}`);
    await page.keyboard.press('Escape');

    mode = 'fail';
    modal = await openModal();
    await modal.getByText('The integration service did not answer.', { exact: true }).waitFor();
    await page.keyboard.press('Escape');

    mode = 'empty';
    modal = await openModal();
    await modal.getByText(NO_EVENTS, { exact: true }).waitFor();
  });

  it('JOB-003 suspicious events open /suspect_events?job_action_id= in a new window that shows them', async () => {
    const { page, context } = b;
    await useSession(context, ADMIN_EMAIL, ADMIN_PASSWORD);
    const target = await findAction(page, (a) => a.suspect_events > 0);
    await asAdmin(page, `/jobs/${target.job}`);
    const p = panel(page, `Job ${target.job}`);
    await p.getByRole('button', { name: `Expand step ${target.step.group_order}` }).click();
    const popup = context.waitForEvent('page');
    await p.locator(`[data-row-key="step:${target.step.id}>action:${target.action.id}"]`).getByRole('link', { name: `Suspicious (${target.action.suspect_events})` }).click();
    const win = await popup;
    await win.waitForLoadState();
    expect(new URL(win.url()).pathname + new URL(win.url()).search).toBe(`/suspect_events?job_action_id=${target.action.id}`);
    await eventually(() => win.getByRole('list', { name: 'Events' }).getByRole('listitem').count(), target.action.suspect_events, 'the new window lists the suspicious events');
    expect(await win.getByText('suspicious', { exact: false }).count()).toBeGreaterThan(0);
    await win.close();
  });

  it('JOB-095 MON-140 exports the visible jobs as CSV with a semicolon separator that parses back to the rows shown', async () => {
    const { page } = b;
    await asAdmin(page);
    await jobRows(page).first().waitFor();
    const ids = await shownIds(page);
    await page.getByRole('button', { name: 'Export' }).click();
    await page.getByRole('menuitem', { name: 'Export to CSV…' }).click();
    const form = page.getByRole('form', { name: 'Export options' });
    await form.getByRole('radio', { name: 'Semicolon' }).check();
    await form.getByLabel('File name').fill('visible jobs');
    expect(await form.getByText('Saved as visible jobs.csv').count()).toBe(1);
    const download = page.waitForEvent('download');
    await form.getByRole('button', { name: 'Export' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('visible jobs.csv');
    const text = fs.readFileSync((await file.path())!, 'utf8');
    const rows = parseCsv(text, ';');
    expect(rows[0]!.slice(0, 6)).toEqual(['Job Id', 'Job Name', 'Job Status', 'Progress', 'Ran By', 'Time Started']);
    expect(rows.slice(1).map((r) => Number(r[0]))).toEqual(ids);
    expect(rows.slice(1).every((r) => r.length === rows[0]!.length)).toBe(true);
    const names = await jobRows(page).locator('[role=gridcell]:nth-child(2) .font-medium').allInnerTexts();
    expect(rows.slice(1).map((r) => r[1])).toEqual(names);
  });

  it('JOB-056 JOB-101 polling pauses while a modal is open and stops after the re-poll limit with the toast', async () => {
    const { page, context } = b;
    await context.addInitScript(() => localStorage.setItem('vigil.jobs.polling', JSON.stringify({ intervalMs: 600, limit: 2 })));
    const polls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/jobs/list_page_data.json') && r.headers()['x-background-task'] === 'true') polls.push(r.url());
    });
    await asAdmin(page);
    await jobRows(page).first().waitFor();
    await page.keyboard.press('e');
    await page.getByRole('form', { name: 'Export options' }).waitFor();
    // Polls sent before the modal was on screen (its code loads on first use, slower than one 600 ms
    // interval on a loaded machine) count towards the limit, but not as polls during the modal.
    const beforeModal = polls.splice(0).length;
    await page.waitForTimeout(2000);
    expect(polls).toHaveLength(0);
    await page.keyboard.press('Escape');
    const toast = page.getByRole('status').filter({ hasText: POLLING_STOPPED });
    await toast.waitFor({ timeout: 10_000 });
    expect(beforeModal + polls.length).toBe(2);
    await page.waitForTimeout(1500);
    expect(beforeModal + polls.length).toBe(2);
  });

  it('JOB-007 JOB-033 the events filter keeps the jobs with suspicious events, or with none, and All shows every job again', async () => {
    const { page } = b;
    await asAdmin(page);
    await jobRows(page).first().waitFor();
    const everything = (await listIds(page, 'size=10')).ids;
    const select = page.getByRole('combobox', { name: 'Filter job actions by events' });
    expect(await select.locator('option').allInnerTexts()).toEqual(['All', EVENTS_FILTER_LABELS.present, EVENTS_FILTER_LABELS.suspicious, EVENTS_FILTER_LABELS.none]);
    for (const events of ['suspicious', 'none'] as const) {
      await select.selectOption({ label: EVENTS_FILTER_LABELS[events] });
      const expected = await listIds(page, `filter=adhoc&structuredFilter=${encodeURIComponent(JSON.stringify({ events }))}&size=10`);
      expect(expected.ids.length, events).toBeGreaterThan(0);
      expect(expected.answer.total_filtered_jobs, events).toBeLessThan(expected.answer.total_jobs);
      await waitForIds(page, expected.ids, `the jobs with ${EVENTS_FILTER_LABELS[events]}`);
      await eventually(async () => (await footer(page).innerText()).trim(), `Showing 1–${expected.ids.length} of ${expected.answer.total_filtered_jobs} jobs`, 'the footer counts them');
    }
    await select.selectOption({ label: 'All' });
    await waitForIds(page, everything, 'every job again');
  });

  it('JOB-012 /jobs?vid= lists only the jobs of that simulation and says which VID it is limited to', async () => {
    const { page } = b;
    // The session first (no page load): the VID comes from the API, then the deep link is the one load.
    await useSession(page.context(), ADMIN_EMAIL, ADMIN_PASSWORD);
    const recent = await api<JobListAnswer>(page, '/jobs/list_page_data.json?size=30');
    const vid = (recent.jobs ?? []).find((j) => j.simulation)!.simulation!.vid;
    await asAdmin(page, `/jobs?vid=${encodeURIComponent(vid)}`);
    await waitForFocused(page, 'Jobs');
    const expected = await listIds(page, `vid=${encodeURIComponent(vid)}&size=10`);
    expect(expected.answer.total_filtered_jobs).toBeLessThan(expected.answer.total_jobs);
    await waitForIds(page, expected.ids, `the jobs of ${vid}`);
    expect((await page.getByTitle('Only jobs of this Action or Simulation').innerText()).replace(/\s+/g, ' ').trim()).toBe(`VID ${vid}`);
    for (const text of await jobRows(page).allInnerTexts()) expect(text).toContain(vid);
    await eventually(async () => (await footer(page).innerText()).trim(), `Showing 1–${expected.ids.length} of ${expected.answer.total_filtered_jobs} jobs`, 'the footer counts them');
    expect(pathOf(page)).toBe(`/jobs?vid=${encodeURIComponent(vid)}`);
  });

  it("JOB-010 JOB-078 a job action's Edit Action and Clone open the action form; vendor content cannot be edited; a viewer sees both disabled", async () => {
    const { page } = b;
    await useSession(page.context(), ADMIN_EMAIL, ADMIN_PASSWORD);
    const own = await findAction(page, (a) => canEditAction(a) && a.action_type !== 'cloud');
    const vendor = await findAction(page, (a) => !a.disabled && a.sim_action_id !== null && a.sim_action_vid.startsWith('A1'));
    const menuOf = async (t: typeof own) => {
      await page.goto(`/jobs/${t.job}`);
      const p = panel(page, `Job ${t.job}`);
      const stepRow = p.locator(`[data-row-key="step:${t.step.id}"]`);
      await stepRow.waitFor();
      if ((await stepRow.getAttribute('aria-expanded')) !== 'true') await stepRow.getByRole('button', { name: `Expand step ${t.step.group_order}` }).click();
      await p.locator(`[data-row-key="step:${t.step.id}>action:${t.action.id}"]`).getByRole('button', { name: `Actions for ${t.action.name}` }).click();
      return { edit: page.getByRole('menuitem', { name: 'Edit Action' }), clone: page.getByRole('menuitem', { name: 'Clone' }) };
    };

    let menu = await menuOf(own);
    expect(await menu.edit.getAttribute('aria-disabled')).toBeNull();
    await menu.edit.click();
    await waitForFocused(page, `Edit Action ${own.action.sim_action_vid}`);
    expect(pathOf(page)).toBe(`/manage_sims/actions/${own.action.sim_action_id}/edit`);
    menu = await menuOf(own);
    await menu.clone.click();
    await waitForFocused(page, `Clone Action ${own.action.sim_action_vid}`);
    expect(pathOf(page)).toBe(`/manage_sims/actions/${own.action.sim_action_id}/clone`);

    menu = await menuOf(vendor);
    expect(await menu.edit.getAttribute('aria-disabled')).toBe('true');
    expect(await menu.edit.getAttribute('title')).toBe('Vendor content (VID starting with A1) cannot be edited.');
    expect(await menu.clone.getAttribute('aria-disabled')).toBeNull();
    await page.keyboard.press('Escape');

    // The viewer's session replaces the administrator's in place (useSession): clearing the cookies first
    // left the open page signed out for a moment, and its session check's 401 sent it to the sign-in page,
    // a navigation racing the one below. Straight to the job's pane: at '/' the workbench reopens its last
    // pane (the vendor's job), a second navigation that could interrupt the first.
    await signIn(page, DEMO_USERS.viewer, DEMO_USER_PASSWORD, `/jobs/${own.job}`);
    menu = await menuOf(own);
    expect(await menu.edit.getAttribute('aria-disabled')).toBe('true');
    expect(await menu.edit.getAttribute('title')).toBe('Your role does not allow editing Actions.');
    expect(await menu.clone.getAttribute('aria-disabled')).toBe('true');
    expect(await menu.clone.getAttribute('title')).toBe('Your role does not allow cloning Actions.');
  });

  it("JOB-018 Open the Job's Simulation on a sequence job opens the simulation pane showing that simulation (never Not Found)", async () => {
    const { page } = b;
    await useSession(page.context(), ADMIN_EMAIL, ADMIN_PASSWORD);
    const recent = await api<JobListAnswer>(page, '/jobs/list_page_data.json?size=30');
    const job = (recent.jobs ?? []).find((j) => j.simulation)!;
    const sim = job.simulation!;
    await asAdmin(page, `/jobs/${job.id}`);
    await waitForFocused(page, `Job ${job.id}`);
    // Once the job is loaded, its header offers the same thing as a button.
    await panel(page, `Job ${job.id}`).getByRole('button', { name: 'Open Simulation' }).waitFor();
    await page.keyboard.press('s');
    await waitForFocused(page, `Simulation ${sim.vid}`);
    expect(pathOf(page)).toBe(`/simulation/${encodeURIComponent(sim.vid)}?sim_type=${sim.sim_type}`);
    const pane = panel(page, `Simulation ${sim.vid}`);
    await pane.getByTestId('simulation-view').getByText(sim.vid, { exact: true }).waitFor();
    await pane.getByRole('list', { name: 'Steps' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Not Found' }).count()).toBe(0);
    // The URL itself, loaded afresh, gives the same pane.
    await page.reload();
    await panel(page, `Simulation ${sim.vid}`).getByTestId('simulation-view').getByText(sim.vid, { exact: true }).waitFor();
    expect(await page.getByRole('heading', { name: 'Not Found' }).count()).toBe(0);
  });

  it('keyboard: j/k move, l/h expand and collapse, x selects, o opens the job beside the list, Shift+S opens the summary report of the selection', async () => {
    const { page } = b;
    await asAdmin(page);
    await jobRows(page).first().waitFor();
    const ids = await shownIds(page);
    const active = () => grid(page).locator('[role=row][data-active]').getAttribute('data-row-key');
    await page.keyboard.press('j');
    await eventually(active, `job:${ids[0]}`, 'j focuses the first row');
    await page.keyboard.press('j');
    await eventually(active, `job:${ids[1]}`, 'j moves down');
    await page.keyboard.press('k');
    await eventually(active, `job:${ids[0]}`, 'k moves up');
    await page.keyboard.press('l');
    await eventually(() => grid(page).locator(`[data-row-key="job:${ids[0]}"]`).getAttribute('aria-expanded'), 'true', 'l expands the job');
    await grid(page).locator(`[data-row-key^="job:${ids[0]}>step:"]`).first().waitFor();
    await page.keyboard.press('j');
    await eventually(async () => (await active())?.startsWith(`job:${ids[0]}>step:`), true, 'j moves into its steps');
    await page.keyboard.press('h');
    await eventually(active, `job:${ids[0]}`, 'h on a collapsed step goes to its job');
    await page.keyboard.press('h');
    await eventually(() => grid(page).locator(`[data-row-key="job:${ids[0]}"]`).getAttribute('aria-expanded'), 'false', 'h collapses the job');
    await page.keyboard.press('x');
    await page.keyboard.press('j');
    await page.keyboard.press('x');
    await eventually(async () => (await page.getByRole('button', { name: 'Selected jobs' }).innerText()).replace(/\s+/g, ' '), 'Actions (2) ▾', 'two jobs selected');
    await page.keyboard.press('Shift+S');
    await waitForFocused(page, 'Job Summary Report');
    const report = panel(page, 'Job Summary Report');
    await eventually(() => report.getByRole('region').count(), 2, 'a section per selected job');
    expect(await report.getByRole('button', { name: 'Print' }).count()).toBe(1);

    await page.goto('/jobs');
    await waitForFocused(page, 'Jobs');
    await jobRows(page).first().waitFor();
    await page.keyboard.press('j');
    await page.keyboard.press('o');
    await waitForFocused(page, `Job ${ids[0]}`);
    expect(await groups(page).count()).toBe(2);
    expect(await tabs(page, 'Jobs').count()).toBe(1);
  });

  it('Job Summary Report from the palette on the Start pane asks for its jobs with a searchable multiple pick, then opens their report', async () => {
    const { page } = b;
    await asAdmin(page, '/');
    await waitForFocused(page, 'Start');
    const { ids } = await listIds(page, 'size=10');
    const [first, second] = ids as [number, number];
    await runCommand(page, 'Job Summary Report');
    const form = page.getByRole('form', { name: 'Arguments for Job Summary Report' });
    const box = form.getByRole('combobox', { name: 'Jobs' });
    await box.waitFor();
    // Nothing chosen: Run asks for the jobs instead of failing with "Select job results first".
    await form.getByRole('button', { name: 'Run' }).click();
    await eventually(() => form.getByRole('alert').innerText(), 'Choose one or more jobs.', 'the form asks for the jobs');
    for (const id of [first, second]) {
      await box.fill(String(id));
      await form.getByRole('option', { name: new RegExp(`^Job ${id}(?!\\d)`) }).waitFor();
      await box.press('Enter');
    }
    await eventually(() => form.getByRole('list', { name: 'Chosen jobs' }).getByRole('listitem').count(), 2, 'two jobs chosen');
    await lookAt(page, { path: '/tmp/summary-report-pick.png' });
    await box.press('Enter');
    await waitForFocused(page, 'Job Summary Report');
    const report = panel(page, 'Job Summary Report');
    await eventually(() => report.getByRole('region').count(), 2, 'a section per picked job');
    await eventually(() => decodeURIComponent(pathOf(page)), `/reports/summary?job_ids=${first},${second}`, 'the URL names both jobs');
  });
});

/** A job action matching `pred` among the newest jobs, with its job and step. */
async function findAction(page: Page, pred: (a: JobAction) => boolean): Promise<{ job: number; step: JobDetail['steps'][number]; action: JobAction }> {
  const list = await api<JobListAnswer>(page, '/jobs/list_page_data.json?size=100&filterVal=completed');
  for (const j of (list.filtered_jobs ?? []) as JobListItem[]) {
    const detail = await api<JobDetail>(page, `/jobs/${j.id}.json`);
    if (!detail.steps.length) continue;
    const actions = await api<StepActionsAnswer>(page, `/jobs/list_page_job_actions?${detail.steps.map((s) => `job_step_ids[]=${s.id}`).join('&')}`);
    for (const step of detail.steps) {
      const a = (actions[String(step.id)] ?? []).find(pred);
      if (a) return { job: j.id, step, action: a };
    }
  }
  throw new Error('No job action matches');
}

