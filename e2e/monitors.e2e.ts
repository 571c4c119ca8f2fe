import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn, useBrowser } from './browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startDirector, type Director } from './director';
import { eventually, runCommand, waitForFocused } from './workbench';
import type { LibraryListAnswer } from '../src/api/contracts/library';
import type { MonitorListAnswer, MonitorStatsAnswer } from '../src/api/contracts/monitors';

/** The Monitors list, the monitor editor and Monitor Stats, on a director of its own with the demo monitors. */
let director: Director | undefined;
let baseUrl = '';
beforeAll(async () => {
  director = await startDirector({ DEMO_MONITORS: '1' });
  baseUrl = director.url;
});
afterAll(async () => {
  await director?.stop();
});
const XHR = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };

async function get<T>(page: Page, url: string): Promise<T> {
  const res = await page.request.get(url, { headers: XHR });
  expect(res.status(), url).toBe(200);
  return (await res.json()) as T;
}

const monitorsList = (page: Page) => page.getByRole('listbox', { name: 'Monitors' });

describe('Monitors', () => {
  const b = useBrowser(() => baseUrl);
  const asAdmin = (page: Page, at: string) => signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD, at);

  it('MON-057 the list shows the demo monitors with schedule in words, status pills and drift; j/k move and the URL follows', async () => {
    const { page } = b;
    await asAdmin(page, '/monitors');
    await waitForFocused(page, 'Monitors');
    await monitorsList(page).waitFor();
    const perimeter = monitorsList(page).getByRole('option').filter({ hasText: 'DMZ perimeter checks' });
    await perimeter.waitFor();
    expect(await perimeter.innerText()).toContain('every 5 minutes from');
    expect(await perimeter.innerText()).toContain('1 drift');
    const weekly = monitorsList(page).getByRole('option').filter({ hasText: 'Weekly lateral movement' });
    expect(await weekly.innerText()).toContain('every week on M, Th at 09:00 Europe/Paris');
    await monitorsList(page).focus();
    await page.keyboard.press('j');
    await eventually(() => new URL(page.url()).searchParams.has('id'), true, 'the selection is in the URL');
    const detail = page.getByRole('region', { name: /^Monitor / });
    await detail.getByRole('heading', { name: 'Run history' }).waitFor();
    await page.screenshot({ path: '/tmp/monitors-list.png' });
  });

  it('MON-096 MON-057 the drift command lists the drifting step; search narrows the list', async () => {
    const { page } = b;
    await asAdmin(page, '/monitors');
    await monitorsList(page).waitFor();
    await runCommand(page, 'Show Drifting Monitor Steps');
    const drift = page.getByRole('region', { name: 'Drifting steps' });
    await drift.getByText('DMZ perimeter checks').waitFor();
    expect(await drift.innerText()).toMatch(/Step 2: .+\nPass\n→\nFail/);
    await drift.getByRole('button', { name: 'Close' }).click();
    await page.keyboard.press('/');
    await page.keyboard.type('weekly');
    await eventually(() => monitorsList(page).getByRole('option').count(), 1, 'one monitor matches');
  });

  it('MON-009 MON-010 MON-012 MON-013 MON-033 MON-096 MON-178 a monitor built from a sequence: weekday picker, strip with keys, panels, summary, validation on Ctrl+S, draft kept over a reload', async () => {
    const { page } = b;
    await asAdmin(page, '/monitors');
    const sims = await get<LibraryListAnswer>(page, '/v2/simulations/library_simulations_list?simulation_type=sequence&page_size=20&sort=name&direction=asc');
    const sim = sims.simulations[0];
    if (!sim) throw new Error('the demo data has no sequence');
    await page.goto(`${baseUrl}/monitors/new?simulation_id=${sim.id}`);
    const editor = page.getByTestId('monitor-editor');
    await editor.getByRole('region', { name: 'Monitor definition' }).waitFor();
    // MON-009: weeks show the weekday picker Su M T W Th F S; months the two selects.
    await editor.getByLabel('Repeat Period').selectOption('weeks');
    const days = editor.getByRole('group', { name: 'Weekdays' }).getByRole('button');
    expect(await days.allInnerTexts()).toEqual(['Su', 'M', 'T', 'W', 'Th', 'F', 'S']);
    await days.filter({ hasText: /^M$/ }).click();
    await days.filter({ hasText: /^Th$/ }).click();
    await editor.getByLabel('Repeat Period').selectOption('months');
    await editor.getByLabel('Frequency').waitFor();
    await editor.getByLabel('Day of the Week').waitFor();
    await editor.getByLabel('Repeat Period').selectOption('weeks');
    // MON-010: one marker per action, 'Step N: action name'; arrows move, Enter opens.
    const strip = editor.getByRole('listbox', { name: 'Steps' });
    const markers = strip.getByRole('option');
    const count = await markers.count();
    expect(count).toBeGreaterThan(0);
    expect(await markers.first().getAttribute('title')).toMatch(/^Step 1: .+/);
    expect(await markers.first().getAttribute('data-state')).toContain('end-cap');
    // MON-012: 'Action: name' with Runtime Parameters collapsed at first.
    await editor.getByRole('heading', { name: /^Action: / }).waitFor();
    const runtime = editor.getByRole('button', { name: 'Runtime Parameters' });
    expect(await runtime.getAttribute('aria-expanded')).toBe('false');
    // MON-011: the group panel's title.
    await editor.getByRole('heading', { name: /^Group 1: / }).waitFor();
    // MON-096: both 'Does not matter' is refused with the spec's text on save (Ctrl+S).
    await editor.getByLabel('Expected Blocked').selectOption('does_not_matter');
    await editor.getByLabel('Expected Detected').selectOption('does_not_matter');
    await page.keyboard.press('Control+s');
    await editor.getByText('You cannot select "Does not matter" for both expected options. At least one must be set to "Yes" or "No" to determine environmental drift between runs.').first().waitFor();
    expect(await markers.first().getAttribute('data-state')).toContain('has-error');
    await editor.getByLabel('Expected Blocked').selectOption('yes');
    // MON-013: the summary lists the steps by group with the timeout line.
    const summary = editor.getByRole('region', { name: 'Monitor summary' });
    await summary.getByText(/^Timeout for Monitor Event Detection \d+ seconds/).waitFor();
    if (count > 1) {
      await strip.focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Enter');
      expect(await markers.nth(1).getAttribute('aria-selected')).toBe('true');
    }
    await page.screenshot({ path: '/tmp/monitor-editor.png', fullPage: true });
    // The draft survives a reload.
    await editor.getByLabel('Name', { exact: true }).fill('E2E weekly monitor');
    await page.reload();
    await page.getByTestId('monitor-editor').getByLabel('Name', { exact: true }).waitFor();
    expect(await page.getByTestId('monitor-editor').getByLabel('Name', { exact: true }).inputValue()).toBe('E2E weekly monitor');
  });

  it('MON-033 MON-009 a weekly monitor built from an Action saves with Ctrl+S, shows in the list, and Run Monitor Now starts its job', async () => {
    const { page } = b;
    await asAdmin(page, '/monitors');
    const lib = await get<LibraryListAnswer>(page, '/manage_sims/v2/actions/library_actions_list?search=Port%20Scan&page_size=5');
    const action = lib.actions.find((a) => a.action_type === 'port_scan');
    if (!action) throw new Error('the demo data has no port scan');
    await page.goto(`${baseUrl}/monitors/new?action_ids=${action.id}`);
    const editor = page.getByTestId('monitor-editor');
    await editor.getByLabel('Name', { exact: true }).fill('E2E saved monitor');
    await editor.getByLabel('Repeat Period').selectOption('weeks');
    await editor.getByRole('group', { name: 'Weekdays' }).getByRole('button', { name: 'W', exact: true }).click();
    const options = await editor.getByLabel('Source Actor').locator('option').allInnerTexts();
    await editor.getByLabel('Source Actor').selectOption({ label: options[1] ?? '' });
    await editor.getByLabel('Destination Actor').selectOption({ label: options[2] ?? '' });
    await editor.getByLabel('Name', { exact: true }).focus();
    await page.keyboard.press('Control+s');
    await eventually(() => /^\/monitors\/\d+\/edit$/.test(new URL(page.url()).pathname), true, 'the editor shows the saved monitor');
    const list = await get<MonitorListAnswer>(page, '/monitors.json?search=E2E%20saved');
    expect(list.data[0]).toMatchObject({ name: 'E2E saved monitor', last_run_status: 'never', paused: false });
    expect(list.data[0]?.schedule).toMatch(/^every week on W at \d\d:00 /);
    await page.goto(`${baseUrl}/monitors?id=${list.data[0]?.id}`);
    await page.getByRole('region', { name: 'Monitor E2E saved monitor' }).waitFor();
    await runCommand(page, 'Run Monitor Now');
    await eventually(async () => (await get<MonitorListAnswer>(page, '/monitors.json?search=E2E%20saved')).data[0]?.last_job_id !== null, true, 'the run started a job');
  });

  it('JOB-028 JOB-045 JOB-093 Monitor Stats shows the counts of /monitor/update_data and draws alert and green paths', async () => {
    const { page } = b;
    await asAdmin(page, '/monitor');
    const stats = await get<MonitorStatsAnswer>(page, '/monitor/update_data');
    const pane = page.getByTestId('monitor-stats');
    await pane.getByText('Active Security Monitors').waitFor();
    await eventually(() => pane.getByText('Active Security Alerts').locator('..').innerText(), `${stats.stats.alert_count}\nActive Security Alerts`, 'the alert count');
    expect(await pane.getByText('Unique Checks').locator('..').innerText()).toBe(`${stats.stats.unique_count}\nUnique Checks`);
    expect(stats.map_data.alert_paths.length).toBeGreaterThan(0);
    const map = pane.getByRole('img', { name: 'Monitor paths between zones' });
    await map.waitFor();
    expect(await map.locator('[aria-label^="Alert path"]').count()).toBe(stats.map_data.alert_paths.length);
    await page.screenshot({ path: '/tmp/monitor-stats.png' });
    const list = await get<MonitorListAnswer>(page, '/monitors.json');
    expect(stats.stats.monitor_count).toBe(list.data.filter((m) => !m.paused).length);
  });
});
