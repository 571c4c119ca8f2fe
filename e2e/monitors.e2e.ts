import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn, useBrowser, useSession } from './browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD, DEMO_USER_PASSWORD, DEMO_USERS, startDirector, type Director } from './director';
import { eventually, runCommand, waitForFocused, lookAt } from './workbench';
import type { LibraryListAnswer } from '../src/api/contracts/library';
import type { ExpectedEventsAnswer, MonitorDetail, MonitorEditorOptions, MonitorListAnswer, MonitorStatsAnswer } from '../src/api/contracts/monitors';
import { validRunAsActor } from '../src/api/contracts/run-as-selection';
import type { NetworkMap } from '../src/api/contracts/topology';

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
    await lookAt(page, { path: '/tmp/monitors-list.png' });
  });

  it('MON-123 the monitor panel and its editor show an approver the same controls as an administrator: being an admin changes nothing there', async () => {
    const { page } = b;
    /** Every control of a region: its role, name and whether it is disabled (what an admin flag could change). */
    const controlsOf = (region: ReturnType<Page['getByRole']>) =>
      region.locator('button, input, select, textarea, a[href], [role=button], [role=checkbox], [role=option], [role=tab]').evaluateAll((els) =>
        els.map((el) => {
          const name = el.getAttribute('aria-label') || (el as HTMLInputElement).labels?.[0]?.textContent || el.textContent || '';
          const off = (el as HTMLButtonElement).disabled || el.getAttribute('aria-disabled') === 'true';
          return `${el.tagName.toLowerCase()}:${el.getAttribute('role') ?? ''}:${name.trim()}${off ? ' (disabled)' : ''}`;
        }),
      );
    const look = async (email: string, password: string) => {
      await useSession(page.context(), email, password);
      const list = await get<MonitorListAnswer>(page, '/monitors.json?sort=name&dir=asc');
      const m = list.data.find((x) => x.name === 'DMZ perimeter checks');
      if (!m) throw new Error('the demo monitors have no DMZ perimeter checks');
      await signIn(page, email, password, `/monitors?id=${m.id}`);
      const panel = page.getByRole('region', { name: `Monitor ${m.name}` });
      await panel.getByRole('heading', { name: 'Run history' }).waitFor();
      await eventually(() => panel.getByText('Loading…').count(), 0, 'the monitor panel is loaded');
      // The run history's job links are data (a scheduled run may add one between the two looks), not controls.
      const panelControls = (await controlsOf(panel)).filter((c) => !/^a::\d+$/.test(c));
      await panel.getByRole('button', { name: 'Monitor actions' }).click();
      const menu = page.getByRole('menu');
      await menu.waitFor();
      panelControls.push(...(await controlsOf(menu)));
      await page.keyboard.press('Escape');
      await page.goto(`${baseUrl}/monitors/${m.id}/edit`);
      const editor = page.getByTestId('monitor-editor');
      await editor.getByRole('region', { name: 'Monitor definition' }).waitFor();
      await editor.getByRole('region', { name: /^Group 1: / }).waitFor();
      return { panelControls, editorControls: await controlsOf(editor) };
    };
    const admin = await look(ADMIN_EMAIL, ADMIN_PASSWORD);
    // Leaves the workbench before its session cookie changes: a poll in between would be refused (401) and logged.
    await page.goto('about:blank');
    const approver = await look(DEMO_USERS.approver, DEMO_USER_PASSWORD);
    expect(admin.panelControls).toContain('button::Edit');
    expect(admin.panelControls).toContain('button::Run Now');
    expect(admin.panelControls.filter((c) => c.startsWith('button:menuitem:')).length).toBeGreaterThan(2);
    expect(admin.editorControls.length).toBeGreaterThan(10);
    expect(approver).toEqual(admin);
  });

  it('MON-096 MON-057 MON-019 the drift command lists the drifting step; search narrows the list, and no match shows the no-results panel', async () => {
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
    // MON-019: a search that matches nothing shows the no-results panel.
    await page.keyboard.type(' zzz-nothing');
    await page.getByText('No results found for the selected options.').waitFor();
  });

  it('MON-009 MON-010 MON-012 MON-013 MON-033 MON-096 MON-178 a monitor built from a sequence: weekday picker, strip with keys, panels, summary, validation on Ctrl+S, draft kept over a reload', async () => {
    const { page } = b;
    await useSession(page.context(), ADMIN_EMAIL, ADMIN_PASSWORD);
    const sims = await get<LibraryListAnswer>(page, '/v2/simulations/library_simulations_list?simulation_type=sequence&page_size=20&sort=name&direction=asc');
    const sim = sims.simulations[0];
    if (!sim) throw new Error('the demo data has no sequence');
    await asAdmin(page, `/monitors/new?simulation_id=${sim.id}`);
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
    await lookAt(page, { path: '/tmp/monitor-editor.png', fullPage: true });
    // The draft survives a reload.
    await editor.getByLabel('Name', { exact: true }).fill('E2E weekly monitor');
    await page.reload();
    await page.getByTestId('monitor-editor').getByLabel('Name', { exact: true }).waitFor();
    expect(await page.getByTestId('monitor-editor').getByLabel('Name', { exact: true }).inputValue()).toBe('E2E weekly monitor');
  });

  it('MON-033 MON-009 a weekly monitor built from an Action saves with Ctrl+S, shows in the list, and Run Monitor Now starts its job', async () => {
    const { page } = b;
    await useSession(page.context(), ADMIN_EMAIL, ADMIN_PASSWORD);
    const lib = await get<LibraryListAnswer>(page, '/manage_sims/v2/actions/library_actions_list?search=Port%20Scan&page_size=5');
    const action = lib.actions.find((a) => a.action_type === 'port_scan');
    if (!action) throw new Error('the demo data has no port scan');
    await asAdmin(page, `/monitors/new?action_ids=${action.id}`);
    const editor = page.getByTestId('monitor-editor');
    await editor.getByLabel('Name', { exact: true }).fill('E2E saved monitor');
    await editor.getByLabel('Repeat Period').selectOption('weeks');
    await editor.getByRole('group', { name: 'Weekdays' }).getByRole('button', { name: 'Wednesday' }).click();
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
    // The palette asks which monitor (a pick list), the selected one chosen at first: Enter runs on it.
    await runCommand(page, 'Run Monitor Now');
    const form = page.getByRole('form', { name: 'Arguments for Run Monitor Now' });
    await form.getByText('Chosen: E2E saved monitor').waitFor();
    await page.keyboard.press('Enter');
    await eventually(async () => (await get<MonitorListAnswer>(page, '/monitors.json?search=E2E%20saved')).data[0]?.last_job_id !== null, true, 'the run started a job');
  });

  it('MON-064 MON-066 MON-103 MON-104 MON-106 run-as rules in the editor from the keyboard; saved, reloaded, one Monitor tab', async () => {
    const { page } = b;
    await useSession(page.context(), ADMIN_EMAIL, ADMIN_PASSWORD);
    const lib = await get<LibraryListAnswer>(page, '/manage_sims/v2/actions/library_actions_list?search=Port%20Scan&page_size=5');
    const action = lib.actions.find((a) => a.action_type === 'port_scan');
    const opts = await get<MonitorEditorOptions>(page, '/monitors/options.json');
    const linux = opts.nodes.find((n) => n.os_base !== 'windows');
    const windows = opts.nodes.find((n) => validRunAsActor({ ...n, user_tags: n.user_tags }));
    const dest = opts.nodes.find((n) => n !== linux && n !== windows);
    const profile = opts.action_user_profiles[0];
    if (!action || !linux || !windows || !dest || !profile) throw new Error('the demo data lacks a port scan, a Linux and a Windows actor, or a run-as profile');
    await asAdmin(page, `/monitors/new?action_ids=${action.id}`);
    const editor = page.getByTestId('monitor-editor');
    await editor.getByLabel('Name', { exact: true }).fill('E2E run-as monitor');
    const runAs = editor.getByLabel('Run As');
    const session = editor.getByRole('checkbox', { name: 'Interactive Session' });
    // MON-103 MON-104 MON-106: a Linux source: no run-as, no session for port_scan.
    await editor.getByLabel('Source Actor').selectOption(String(linux.id));
    expect(await runAs.isDisabled()).toBe(true);
    expect(await session.isDisabled()).toBe(true);
    // A valid Windows actor: both apply; Space ticks the session.
    await editor.getByLabel('Source Actor').selectOption(String(windows.id));
    await editor.getByLabel('Destination Actor').selectOption(String(dest.id));
    expect(await runAs.isDisabled()).toBe(false);
    await session.focus();
    await page.keyboard.press('Space');
    expect(await session.isChecked()).toBe(true);
    await runAs.selectOption(String(profile.id));
    // MON-064: the profile recomputed the session; port_scan keeps it on a Windows actor.
    expect([await session.isChecked(), await session.isDisabled()]).toEqual([true, false]);
    // MON-066: zone mode has its own tick; actor mode keeps its own.
    const zones = editor.getByRole('radio', { name: 'Zones' });
    await zones.focus();
    await page.keyboard.press('Space');
    await editor.getByLabel('Source Zone').waitFor();
    expect(await session.isChecked()).toBe(false);
    await editor.getByRole('radio', { name: 'Actors' }).focus();
    await page.keyboard.press('Space');
    await editor.getByLabel('Source Actor').waitFor();
    expect(await session.isChecked()).toBe(true);
    // The zone without a selection could not run as a user: the select was emptied (Run as System); choose again.
    expect(await runAs.inputValue()).toBe('');
    await editor.getByLabel('Source Actor').selectOption(String(windows.id));
    await runAs.selectOption(String(profile.id));
    expect(await session.isChecked()).toBe(true);
    await lookAt(page, { path: '/tmp/monitor-run-as.png', fullPage: true });
    await editor.getByLabel('Name', { exact: true }).focus();
    await page.keyboard.press('Control+s');
    await eventually(() => /^\/monitors\/\d+\/edit$/.test(new URL(page.url()).pathname), true, 'the editor shows the saved monitor');
    const id = Number(new URL(page.url()).pathname.split('/')[2]);
    const saved = await get<MonitorDetail>(page, `/monitors/${id}.json`);
    expect(saved.steps[0]).toMatchObject({ attack_node: windows.id, action_user_profile: profile.id, interactive_desktop_session: true });
    expect(saved.steps[0]?.interactive_session_field).toMatchObject({ field_name: 'interactive_desktop_session', value: true });
    const monitorTabs = () => page.locator('main').getByRole('tab', { name: /^Monitor / }).allInnerTexts();
    await eventually(async () => (await monitorTabs()).length, 1, 'one Monitor tab after saving');
    await page.reload();
    await page.getByTestId('monitor-editor').getByLabel('Name', { exact: true }).waitFor();
    await new Promise((r) => setTimeout(r, 1000));
    expect(await monitorTabs()).toEqual([`Monitor ${id}`]);
    expect(await page.getByTestId('monitor-editor').getByLabel('Name', { exact: true }).inputValue()).toBe('E2E run-as monitor');
    expect(await page.getByTestId('monitor-editor').getByRole('checkbox', { name: 'Interactive Session' }).isChecked()).toBe(true);
  });

  it('JOB-028 JOB-045 JOB-093 Monitor Stats shows the counts of /monitor/update_data and draws its alert paths, green paths and zone stats on the network map', async () => {
    const { page } = b;
    await asAdmin(page, '/monitor?refresh=10');
    const stats = await get<MonitorStatsAnswer>(page, '/monitor/update_data');
    const network = await get<NetworkMap>(page, '/topology/network.json');
    const pane = page.getByTestId('monitor-stats');
    await pane.getByText('Active Security Monitors').waitFor();
    await eventually(() => pane.getByText('Active Security Alerts').locator('..').innerText(), `${stats.stats.alert_count}\nActive Security Alerts`, 'the alert count');
    expect(await pane.getByText('Unique Checks').locator('..').innerText()).toBe(`${stats.stats.unique_count}\nUnique Checks`);
    expect(stats.map_data.alert_paths.length).toBeGreaterThan(0);
    expect(await pane.getByRole('list', { name: 'Monitor paths' }).getByRole('listitem').count()).toBe(stats.map_data.alert_paths.length + stats.map_data.green_paths.length);
    // The real network map (X6), not a drawing of its own: every zone, actor and device of the map is a cell.
    const map = pane.getByRole('application', { name: 'Monitor Stats map' });
    const canvas = map.getByTestId('network-map-canvas');
    await eventually(() => canvas.locator('[data-cell-id^="zone_"], [data-cell-id^="node_"], [data-cell-id^="device_"]').count(), network.zones.length + network.nodes.length + network.devices.length, 'the map\'s zones, actors and devices are drawn');
    expect(await pane.getByRole('img', { name: 'Monitor paths between zones' }).count()).toBe(0);
    const between = (paths: MonitorStatsAnswer['map_data']['alert_paths']) => paths.filter((p) => p.source_zone_id !== null && p.target_zone_id !== null && p.source_zone_id !== p.target_zone_id).length;
    await eventually(() => canvas.locator('[data-cell-id^="aeda_alert_"]').count(), between(stats.map_data.alert_paths), 'the alert paths are drawn as edges between zones');
    expect(await canvas.locator('[data-cell-id^="aeda_green_"]').count()).toBe(between(stats.map_data.green_paths));
    // Each zone with results shows its pass and fail counts on its box.
    expect(stats.map_data.zone_stats.length).toBeGreaterThan(0);
    // (the demo monitors keep running: compared with the answer of the moment, the pane polls every 10 s)
    const zoneCounts = async () => {
      const now = await get<MonitorStatsAnswer>(page, '/monitor/update_data');
      const shown = await Promise.all(now.map_data.zone_stats.map((z) => canvas.locator(`[data-cell-id="zone_${z.zone_id}"]`).textContent()));
      // (X6 draws spaces as no-break spaces)
      return now.map_data.zone_stats.every((z, i) => shown[i]?.replace(/\u00a0/g, ' ').includes(`${z.passed} pass · ${z.failed} fail`));
    };
    await eventually(zoneCounts, true, 'each zone box shows its pass and fail counts', 25_000);
    // By keyboard: the arrows select a zone, which names its counts.
    await map.focus();
    await page.keyboard.press('ArrowDown');
    const first = network.zones[0]!;
    const named = new RegExp(`^Selected: ${first.name}${stats.map_data.zone_stats.some((z) => z.zone_id === first.id) ? ', \\d+ pass · \\d+ fail' : ''}$`);
    await eventually(async () => named.test(await map.getByRole('status', { name: 'Map selection' }).innerText()), true, 'the selected zone named with its counts');
    await lookAt(page, { path: '/tmp/monitor-stats.png' });
    const list = await get<MonitorListAnswer>(page, '/monitors.json');
    expect(stats.stats.monitor_count).toBe(list.data.filter((m) => !m.paused).length);
  });

  it('MON-014 MON-041 MON-080 MON-097 MON-020 expected events: shown for Expected Detected Yes, LOADING then grouped events; a selection saves, and reopening shows KEEP_EXISTING with Show Selections', async () => {
    const { page } = b;
    await useSession(page.context(), ADMIN_EMAIL, ADMIN_PASSWORD);
    // An Action whose earlier runs reported events (the demo jobs).
    const lib = await get<{ actions: { id: number; name: string }[] }>(page, '/manage_sims/v2/actions/library_actions_list?page_size=100&sort=name');
    let pick: { id: number; answer: ExpectedEventsAnswer } | null = null;
    for (const a of lib.actions) {
      const answer = await get<ExpectedEventsAnswer>(page, `/monitors/expected_events.json?action_id=${a.id}`);
      if (answer.groups.some((g) => g.events.length)) {
        pick = { id: a.id, answer };
        break;
      }
    }
    if (!pick) throw new Error('no demo Action has reported events');
    const firstGroup = pick.answer.groups[0]!;
    const event = firstGroup.events[0]!;
    await asAdmin(page, `/monitors/new?action_ids=${pick.id}`);
    const editor = page.getByTestId('monitor-editor');
    await editor.getByLabel('Name', { exact: true }).fill('E2E events monitor');
    // MON-097: with Expected Detected other than Yes there is only the hint.
    await editor.getByText('Value must be "Yes" to specify events to match in considering a monitor detected.').waitFor();
    await editor.getByLabel('Expected Detected').selectOption('yes');
    const table = editor.getByRole('region', { name: 'Expected events' });
    const groupName = firstGroup.key === 'endpoint' ? 'Events of endpoint' : `Events of ${firstGroup.integration?.name ?? ''}`;
    const group = table.getByRole('table', { name: groupName });
    await group.waitFor();
    const message = group.getByRole('textbox', { name: `Message for ${event.description}` }).first();
    expect(await message.isDisabled()).toBe(true);
    await group.getByRole('checkbox', { name: `Select ${event.description}` }).first().check();
    expect(await message.isDisabled()).toBe(false);
    await message.fill('must alert');
    if (event.raw_event) {
      await group.getByRole('button', { name: 'Show raw event' }).first().click();
      await group.locator('pre').first().waitFor();
      // MON-020: the raw event in the JSON viewer; Copy to Clipboard confirms.
      await group.getByRole('button', { name: 'Open in viewer' }).first().click();
      const viewer = page.getByRole('dialog', { name: `Raw event: ${event.description}` });
      await viewer.getByRole('checkbox', { name: 'Format JSON' }).waitFor();
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await viewer.getByRole('button', { name: 'Copy to Clipboard' }).click();
      await viewer.getByText('Copied JSON to clipboard').waitFor();
      await lookAt(page, { path: '/tmp/monitor-json-viewer.png' });
      await page.keyboard.press('Escape');
      await viewer.waitFor({ state: 'hidden' });
    }
    const summary = editor.getByRole('region', { name: 'Monitor summary' });
    await summary.getByRole('table', { name: 'Selected events' }).getByText(event.description).waitFor();
    await lookAt(page, { path: '/tmp/monitor-expected-events.png', fullPage: true });
    const options = await editor.getByLabel('Source Actor').locator('option').allInnerTexts();
    await editor.getByLabel('Source Actor').selectOption({ label: options[1] ?? '' });
    if (await editor.getByLabel('Destination Actor').isVisible()) await editor.getByLabel('Destination Actor').selectOption({ label: options[2] ?? '' });
    await editor.getByLabel('Name', { exact: true }).focus();
    await page.keyboard.press('Control+s');
    await eventually(() => /^\/monitors\/\d+\/edit$/.test(new URL(page.url()).pathname), true, 'the editor shows the saved monitor');
    const id = Number(new URL(page.url()).pathname.split('/')[2]);
    const saved = await get<MonitorDetail>(page, `/monitors/${id}.json`);
    expect(saved.steps[0]?.actions[0]?.expected_events).toEqual([{ integration_id: event.integration_id, description: event.description, message: 'must alert' }]);
    // Reopened: KEEP_EXISTING until Show Selections requests the data, with the selection ticked.
    await page.reload();
    const again = page.getByTestId('monitor-editor').getByRole('region', { name: 'Expected events' });
    await again.getByText('No changes made to expected events.').waitFor();
    expect(await again.getAttribute('data-state')).toBe('KEEP_EXISTING');
    await again.getByRole('button', { name: 'Show Selections' }).click();
    await again.getByRole('table', { name: groupName }).waitFor();
    expect(await again.getByRole('checkbox', { name: `Select ${event.description}` }).first().isChecked()).toBe(true);
    expect(await again.getByRole('textbox', { name: `Message for ${event.description}` }).first().inputValue()).toBe('must alert');
    await lookAt(page, { path: '/tmp/monitor-expected-events-kept.png', fullPage: true });
  });

  it('JOB-028 JOB-045 the network map in aeda mode draws the monitor alert and green paths between zones, from the palette', async () => {
    const { page } = b;
    await asAdmin(page, '/topology');
    await page.getByRole('application', { name: 'Network map' }).waitFor();
    await runCommand(page, 'Network Map: Show Monitor Stats');
    await eventually(() => new URL(page.url()).searchParams.get('chart'), 'aeda', 'the URL names the aeda chart');
    const stats = await get<MonitorStatsAnswer>(page, '/monitor/update_data');
    const bar = page.getByRole('region', { name: 'Monitor stats on the map' });
    await bar.getByRole('list', { name: 'Monitor paths' }).waitFor();
    expect(await bar.getByRole('listitem').count()).toBe(stats.map_data.alert_paths.length + stats.map_data.green_paths.length);
    expect(await bar.innerText()).toContain(`${stats.stats.alert_count} Active Security Alerts`);
    const between = (paths: MonitorStatsAnswer['map_data']['alert_paths']) => paths.filter((p) => p.source_zone_id !== null && p.target_zone_id !== null && p.source_zone_id !== p.target_zone_id).length;
    const canvas = page.getByTestId('network-map-canvas');
    await eventually(() => canvas.locator('[data-cell-id^="aeda_alert_"]').count(), between(stats.map_data.alert_paths), 'the alert paths are drawn');
    expect(await canvas.locator('[data-cell-id^="aeda_green_"]').count()).toBe(between(stats.map_data.green_paths));
    await lookAt(page, { path: '/tmp/network-map-aeda.png' });
    await runCommand(page, 'Network Map: Hide Monitor Stats');
    await eventually(() => canvas.locator('[data-cell-id^="aeda_"]').count(), 0, 'the overlay is gone in the default mode');
    expect(await bar.count()).toBe(0);
  });

  it('entity arguments are pick lists: Pause Monitor from the palette searches monitors by name and pauses the one picked', async () => {
    const { page } = b;
    await asAdmin(page, '/monitors');
    await monitorsList(page).waitFor();
    await runCommand(page, 'Pause Monitor');
    const form = page.getByRole('form', { name: 'Arguments for Pause Monitor' });
    const box = form.getByRole('combobox', { name: 'Monitor' });
    await box.waitFor();
    await page.keyboard.type('weekly lat');
    await form.getByRole('option', { name: /^Weekly lateral movement/ }).waitFor();
    await page.keyboard.press('Enter');
    await form.getByText('Chosen: Weekly lateral movement').waitFor();
    await lookAt(page, { path: '/tmp/monitor-pick-list.png' });
    await page.keyboard.press('Enter');
    await eventually(async () => (await get<MonitorListAnswer>(page, '/monitors.json?search=Weekly%20lateral')).data[0]?.paused, true, 'the picked monitor is paused');
    // The palette closes once the command has finished (Ctrl+K while it is still open would close it).
    await form.waitFor({ state: 'detached' });
    // Resume Monitor the same way: the pick list searches, Enter picks, Enter runs.
    await runCommand(page, 'Resume Monitor');
    await page.getByRole('form', { name: 'Arguments for Resume Monitor' }).getByRole('combobox', { name: 'Monitor' }).waitFor();
    await page.keyboard.type('weekly lat');
    await page.getByRole('form', { name: 'Arguments for Resume Monitor' }).getByRole('option', { name: /^Weekly lateral movement/ }).waitFor();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await eventually(async () => (await get<MonitorListAnswer>(page, '/monitors.json?search=Weekly%20lateral')).data[0]?.paused, false, 'the picked monitor is resumed');
  });
});
