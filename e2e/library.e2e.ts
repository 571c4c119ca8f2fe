import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn, useBrowser } from './browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD, DEMO_USERS, DEMO_USER_PASSWORD } from './director';
import { sharedDirectorUrl } from './shared-director';
import { eventually, groups, panel, pathOf, paletteInput, paletteOption, openPalette, runCommand, tabs, waitForPath, lookAt } from './workbench';
import { type ActionLibraryDetail, type LibraryListAnswer } from '../src/api/contracts/library';
import { ACTION_TYPES, ACTION_TYPE_LABELS } from '../src/api/contracts/vocabulary';

/**
 * The Action library on the shared director. These tests approve, reject, tag and rename Actions: each
 * picks its Actions from the director when it starts (by type and state, through the list call) and
 * compares with what it read, so Actions other files made or changed do not matter, and the other
 * files that read Actions pick theirs at test time too.
 */
const baseUrl = sharedDirectorUrl();

const XHR = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };

async function api(page: Page, query: string): Promise<LibraryListAnswer> {
  const res = await page.request.get(`/manage_sims/v2/actions/library_actions_list?${query}`, { headers: XHR });
  expect(res.status()).toBe(200);
  return (await res.json()) as LibraryListAnswer;
}

const list = (page: Page) => page.getByRole('listbox', { name: 'Actions' });
const row = (page: Page, vid: string) => list(page).locator(`[role=option][data-vid="${vid}"]`);
const search = (page: Page) => page.getByRole('searchbox', { name: 'Search Actions' });
const count = (page: Page) => page.getByTestId('library-count').innerText();
const detailHeading = (page: Page) => page.locator('article h2');
const preview = (page: Page) => page.getByTestId('action-preview');
const openUrl = (page: Page, url: string) => page.evaluate((u) => (window as unknown as { vigil: { openUrl(u: string): void } }).vigil.openUrl(u), url);

async function openLibrary(page: Page, who: 'admin' | keyof typeof DEMO_USERS, at = '/manage_sims/actions'): Promise<void> {
  if (who === 'admin') await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD, at);
  else await signIn(page, DEMO_USERS[who], DEMO_USER_PASSWORD, at);
  await list(page).waitFor();
}

async function openPreviewOf(page: Page, vid: string): Promise<void> {
  await openUrl(page, `/manage_sims/action/${vid}`);
  await eventually(async () => (await detailHeading(page).count()) > 0 && (await page.locator('article').getAttribute('aria-label')), `Action ${vid}`, `the detail shows ${vid}`);
  await page.locator('article').getByRole('button', { name: 'Preview' }).click();
  await preview(page).waitFor();
  await page.getByText('Loading Details').waitFor({ state: 'detached' });
}

describe('the Action library', () => {
  const b = useBrowser(() => baseUrl);

  it('JOB-017 JOB-047 ACT-006 finds an Action by search and by tag filter', async () => {
    const { page } = b;
    await openLibrary(page, 'admin');
    const all = await api(page, 'page_size=1');
    await eventually(() => count(page), `${all.total_count} Actions`, 'the library shows every enabled Action');
    await search(page).fill('MIMIKATZ');
    const found = await api(page, 'search=mimikatz&page_size=100');
    await eventually(() => count(page), `${found.total_count} Actions`, 'the search narrows the list');
    expect(found.total_count).toBeGreaterThan(0);
    await expect.poll(() => list(page).getByRole('option').count()).toBe(found.total_count);
    for (const a of found.actions) expect(await row(page, a.vid).isVisible()).toBe(true);

    await page.getByRole('button', { name: /^Tags and dimensions/ }).click();
    await page.getByRole('textbox', { name: 'Find a tag or dimension' }).fill('Threat Actor:APT29');
    await page.getByRole('checkbox', { name: /Threat Actor:APT29/ }).check();
    await page.keyboard.press('Escape');
    const tagId = found.actions.flatMap((a) => a.tags).find((t) => t.name === 'Threat Actor:APT29')?.id;
    const both = await api(page, `search=mimikatz&tags[]=${tagId}`);
    expect(both.total_count).toBeLessThan(found.total_count);
    await eventually(() => count(page), `${both.total_count} Action${both.total_count === 1 ? '' : 's'}`, 'the tag filter narrows the list further');
    expect(await row(page, both.actions[0]!.vid).isVisible()).toBe(true);
  });

  it('JOB-059 selects one row by click, a range with shift, and toggles with ctrl', async () => {
    const { page } = b;
    await openLibrary(page, 'admin');
    const first = await api(page, 'page_size=6');
    const vids: (string | null)[] = first.actions.map((a) => a.vid);
    await row(page, vids[0]!).click();
    await waitForPath(page, `/manage_sims/action/${vids[0]}`);
    await row(page, vids[3]!).click({ modifiers: ['Shift'] });
    const selected = () => list(page).locator('[role=option][aria-selected=true]').evaluateAll((els) => els.map((e) => e.getAttribute('data-vid')));
    await eventually(selected, vids.slice(0, 4), 'shift-click selects the range');
    await page.getByText('4 selected').waitFor();
    await row(page, vids[1]!).click({ modifiers: ['Control'] });
    await eventually(selected, [vids[0], vids[1], vids[2], vids[3]], 'ctrl-click on a selected row keeps it shown while it leaves the set');
    await eventually(() => page.getByText(/\d+ selected/).innerText(), '· 3 selected', 'three rows stay in the selection');
    await row(page, vids[5]!).click({ modifiers: ['Control'] });
    await eventually(() => page.getByText(/\d+ selected/).innerText(), '· 4 selected', 'ctrl-click adds a row');
    await waitForPath(page, `/manage_sims/action/${vids[5]}`);
    await row(page, vids[2]!).click();
    await eventually(selected, [vids[2]], 'a plain click selects one row');
    // Keyboard: down moves the selection, shift+down extends it.
    await page.keyboard.press('ArrowDown');
    await waitForPath(page, `/manage_sims/action/${vids[3]}`);
    await page.keyboard.press('Shift+ArrowDown');
    await eventually(selected, [vids[3], vids[4]], 'shift+down extends the selection');
  });

  it('MON-141 Add Tag… and Remove Tag… from the palette act on every Action of a keyboard multi-selection', async () => {
    const { page } = b;
    await openLibrary(page, 'admin');
    const first = await api(page, 'page_size=5');
    const picked = first.actions.slice(0, 5);
    await row(page, picked[0]!.vid).click();
    await waitForPath(page, `/manage_sims/action/${picked[0]!.vid}`);
    for (let i = 1; i < picked.length; i++) await page.keyboard.press('Shift+ArrowDown');
    await page.getByText(`${picked.length} selected`).waitFor();
    await runCommand(page, 'Add Tag…');
    const form = page.getByRole('form', { name: 'Arguments for Add Tag…' });
    await form.getByRole('textbox', { name: 'Tag' }).fill('E2E Batch');
    await page.keyboard.press('Enter');
    await page.getByText(`Tag "E2E Batch" added to ${picked.length} Actions.`).waitFor();
    const tagged = async () => (await api(page, 'page_size=5')).actions.filter((a) => a.tags.some((t) => t.name === 'E2E Batch')).map((a) => a.vid);
    await eventually(tagged, picked.map((a) => a.vid), 'every selected Action carries the tag');
    await lookAt(page, { path: '/tmp/library-tag-multi.png' });
    // Escape keeps the focused row alone: Remove Tag… acts on it only.
    await page.locator('[role=listbox][aria-label="Actions"]').focus();
    await page.keyboard.press('Escape');
    await page.getByText(/\d+ selected/).waitFor({ state: 'hidden' });
    await runCommand(page, 'Remove Tag…');
    await page.getByRole('form', { name: 'Arguments for Remove Tag…' }).getByRole('textbox', { name: 'Tag' }).fill('E2E Batch');
    await page.keyboard.press('Enter');
    await eventually(async () => (await tagged()).length, picked.length - 1, 'the tag left the one focused Action');
  });

  it('ACT-001 ACT-102 edits the name in place and it persists after a reload', async () => {
    const { page } = b;
    await openLibrary(page, 'admin');
    const target = (await api(page, 'action_types[]=port_scan&page_size=20')).actions.find((a) => !a.vendor)!;
    await openUrl(page, `/manage_sims/action/${target.vid}`);
    await eventually(() => detailHeading(page).innerText(), target.name, 'the detail shows the Action');
    await page.getByRole('button', { name: 'Edit name' }).click();
    const input = page.locator('article').getByRole('textbox', { name: 'Name' });
    await input.fill('Port Scan - Renamed in the Library');
    await input.press('Enter');
    await eventually(() => detailHeading(page).innerText(), 'Port Scan - Renamed in the Library', 'the new name is shown');
    await page.getByRole('button', { name: 'Edit notes' }).click();
    await page.getByRole('textbox', { name: 'Notes' }).fill('Checked by the e2e suite.');
    await page.getByRole('textbox', { name: 'Notes' }).press('Control+Enter');
    await page.getByText('Checked by the e2e suite.').waitFor();
    await page.reload();
    await list(page).waitFor();
    expect(pathOf(page)).toBe(`/manage_sims/action/${target.vid}`);
    await eventually(() => detailHeading(page).innerText(), 'Port Scan - Renamed in the Library', 'the name persists after a reload');
    expect(await page.getByText('Checked by the e2e suite.').isVisible()).toBe(true);
    await eventually(() => row(page, target.vid).getAttribute('aria-label'), `${target.vid} Port Scan - Renamed in the Library`, 'the list row shows the new name');
  });

  it('ACT-007 ACT-008 ACT-044..ACT-051 opens the preview of one Action of every type', async () => {
    const { page } = b;
    await openLibrary(page, 'admin');
    for (const type of ACTION_TYPES) {
      const [a] = (await api(page, `action_types[]=${type}&page_size=1`)).actions;
      expect(a, type).toBeTruthy();
      await openPreviewOf(page, a!.vid);
      const content = preview(page).locator('[data-action-type]');
      expect(await content.getAttribute('data-action-type'), type).toBe(type);
      expect(await page.getByRole('dialog').getByRole('heading', { name: 'Action Details' }).isVisible()).toBe(true);
      if (type === 'sleep') {
        expect(await preview(page).getByText('No preview available for Sleep Actions.').isVisible()).toBe(true);
        expect(await preview(page).getByText('Common Detection Alerts').count()).toBe(0);
      } else {
        expect(await preview(page).getByRole('heading', { name: `${ACTION_TYPE_LABELS[type]} Details` }).isVisible(), type).toBe(true);
        expect(await preview(page).getByRole('heading', { name: 'Common Detection Alerts' }).count(), type).toBe(1);
      }
      if (type === 'pcap') expect(await preview(page).getByRole('link', { name: 'Download' }).getAttribute('href')).toBe(`/manage_sims/actions/download/${a!.id}.pcap`);
      if (type === 'dns') expect(await preview(page).getByText('DNS server').isVisible()).toBe(true);
      await page.getByRole('dialog').getByRole('button', { name: 'Close' }).last().click();
      await preview(page).waitFor({ state: 'detached' });
    }
  });

  it('ACT-058 ACT-082 approves an Action as an approver; the detail records who approved which version', async () => {
    const { page } = b;
    await openLibrary(page, 'approver');
    const target = (await api(page, 'status=unapproved&action_types[]=dns&page_size=5')).actions.find((a) => !a.require_protected)!;
    await openPreviewOf(page, target.vid);
    const approval = preview(page).getByRole('group', { name: 'Approval' });
    expect(await approval.getByRole('button', { name: 'Approve and Require Protected Theater' }).isVisible()).toBe(true);
    await approval.getByRole('button', { name: 'Approve and Allow Anywhere' }).click();
    await page.getByText(`${target.vid} was approved to run anywhere.`).waitFor();
    await preview(page).getByText('Approved (anywhere)').waitFor();
    expect(await preview(page).getByRole('group', { name: 'Approval' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.locator('article').getByRole('table', { name: 'Approval History' }).getByText('Approved and allowed anywhere').waitFor();
    expect((await api(page, `content_uuids[]=${target.vid}`)).actions[0]?.approved).toBe(true);
  });

  it('refuses an approval when the Action changed after the approver opened it, and says why', async () => {
    const { page } = b;
    // The approval of a changed Action is refused on purpose (409).
    b.allowConsole(/status of 409 \(Conflict\) \(.*\/manage_sims\/actions\/\d+\/approve\?/);
    await openLibrary(page, 'approver');
    const target = (await api(page, 'status=unapproved&action_types[]=socket&page_size=5')).actions.find((a) => !a.require_protected)!;
    await openPreviewOf(page, target.vid);
    const version = Number(await preview(page).getByText('Version').locator('xpath=following-sibling::dd[1]').innerText());
    // Someone else edits the notes meanwhile (here: the same user from another tab).
    const detail = (await (await page.request.get(`/manage_sims/v2/actions/detail.json?vid=${target.vid}`, { headers: XHR })).json()) as { action: { id: number; auth_token: string; brt_license: string } };
    const { csrfToken: csrf } = (await (await page.request.get('/environment.json', { headers: XHR })).json()) as { csrfToken: string };
    const edit = await page.request.post('/manage_sims/actions/update_from_library.json', {
      headers: { ...XHR, 'X-CSRF-Token': csrf },
      data: { id: detail.action.id, param_name: 'notes', new_value: 'Changed in another tab.', brt_license: detail.action.brt_license, auth_token: detail.action.auth_token },
    });
    expect(edit.status()).toBe(200);
    await preview(page).getByRole('group', { name: 'Approval' }).getByRole('button', { name: 'Approve and Allow Anywhere' }).click();
    // The toast sits outside the open dialog, which hides the rest of the page from the accessibility tree.
    await page.locator('[data-kind="error"]').filter({ hasText: `you reviewed version ${version}; it is now version ${version + 1}` }).waitFor();
    expect((await api(page, `content_uuids[]=${target.vid}`)).actions[0]?.approved).toBe(false);
  });

  it('ACT-082 ACT-085 shows no approval controls and no approval commands to an operator', async () => {
    const { page } = b;
    await openLibrary(page, 'operator');
    const target = (await api(page, 'status=unapproved&page_size=1')).actions[0]!;
    await openPreviewOf(page, target.vid);
    expect(await preview(page).getByText('Awaiting Approval').isVisible()).toBe(true);
    expect(await preview(page).getByRole('group', { name: 'Approval' }).count()).toBe(0);
    expect(await preview(page).getByRole('button', { name: /^Approve/ }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Shift+A');
    await page.waitForTimeout(300);
    expect((await api(page, `content_uuids[]=${target.vid}`)).actions[0]?.approved).toBe(false);
    await openPalette(page);
    await paletteInput(page).fill('Approve and Allow Anywhere');
    expect(await paletteOption(page, 'Approve and Allow Anywhere').count()).toBe(0);
    await paletteInput(page).fill('Reject Action');
    expect(await paletteOption(page, 'Reject Action').count()).toBe(0);
  });

  it('ACT-059 ACT-010 rejects with the confirmation and returns to the list with the selection cleared', async () => {
    const { page } = b;
    await openLibrary(page, 'approver');
    const target = (await api(page, 'status=unapproved&action_types[]=port_scan&page_size=1')).actions[0]!;
    await openPreviewOf(page, target.vid);
    await preview(page).getByRole('group', { name: 'Approval' }).getByRole('button', { name: 'Reject' }).click();
    const confirm = page.getByRole('dialog', { name: 'Please confirm' });
    await confirm.getByText('Are you sure you want to reject this Action?').waitFor();
    await confirm.getByRole('button', { name: 'Keep Action' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect((await api(page, `content_uuids[]=${target.vid}`)).total_count).toBe(1);
    await preview(page).getByRole('group', { name: 'Approval' }).getByRole('button', { name: 'Reject' }).click();
    await page.getByRole('dialog', { name: 'Please confirm' }).getByRole('button', { name: 'Reject Action' }).click();
    await page.getByText(new RegExp(`^${target.vid} was rejected and deleted`)).waitFor();
    await waitForPath(page, '/manage_sims/actions');
    await preview(page).waitFor({ state: 'detached' });
    await page.getByText('Select an Action to see its details.').waitFor();
    expect(await list(page).locator('[role=option][aria-selected=true]').count()).toBe(0);
    expect((await api(page, `content_uuids[]=${target.vid}`)).total_count).toBe(0);
    expect(await row(page, target.vid).count()).toBe(0);
  });

  it('ACT-060 ACT-061 decides pending cloud files: approve as safe then approve the Action; restrict as malicious makes it ineligible', async () => {
    const { page } = b;
    await openLibrary(page, 'approver');
    const pending = (await api(page, 'status=pending_files&action_types[]=cloud&page_size=10')).actions.filter((a) => !a.approved);
    expect(pending.length).toBeGreaterThanOrEqual(2);
    const [safe, bad] = pending as [(typeof pending)[0], (typeof pending)[0]];

    await openPreviewOf(page, safe.vid);
    const approve = preview(page).getByRole('group', { name: 'Approval' }).getByRole('button', { name: 'Approve', exact: true });
    expect(await approve.isDisabled()).toBe(true);
    await preview(page).getByText('A file attached to this action is in a Pending status and requires approval by a user with permission before this action can be run.').waitFor();
    await preview(page).getByRole('button', { name: /as safe$/ }).first().click();
    await page.getByText(/was approved as safe\.$/).waitFor();
    await eventually(() => approve.isDisabled(), false, 'the Action becomes eligible once its file is approved');
    await approve.click();
    await page.getByText(`${safe.vid} was approved.`).waitFor();
    await page.keyboard.press('Escape');

    await openPreviewOf(page, bad.vid);
    await preview(page).getByRole('button', { name: /as malicious$/ }).first().click();
    await page.getByRole('dialog', { name: 'Please confirm' }).getByRole('button', { name: 'Restrict File' }).click();
    const group = preview(page).getByRole('group', { name: 'Approval' });
    await group.getByText('This Action is not eligible for approval because it has a file attached that is restricted as malicious.').waitFor();
    expect(await group.getByRole('button').allInnerTexts()).toEqual(['Edit']);
    expect(await preview(page).getByRole('img', { name: 'Restricted Malicious' }).count()).toBeGreaterThan(0);
  });

  it('JOB-059 the library hotkeys: j and k move the selection, p opens the preview, / focuses search, y copies the VID, r opens its runs', async () => {
    const { page, context } = b;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    await openLibrary(page, 'admin');
    const [first, second] = (await api(page, 'page_size=2')).actions;
    await row(page, first!.vid).click();
    await waitForPath(page, `/manage_sims/action/${first!.vid}`);
    await page.keyboard.press('j');
    await waitForPath(page, `/manage_sims/action/${second!.vid}`);
    await eventually(() => row(page, second!.vid).getAttribute('aria-selected'), 'true', 'j selects the next row');
    await page.keyboard.press('k');
    await waitForPath(page, `/manage_sims/action/${first!.vid}`);
    await eventually(() => row(page, first!.vid).getAttribute('aria-selected'), 'true', 'k selects the previous row');

    await page.keyboard.press('p');
    await preview(page).waitFor();
    await page.getByText('Loading Details').waitFor({ state: 'detached' });
    expect(await preview(page).getByText(first!.vid, { exact: true }).count()).toBeGreaterThan(0);
    await page.keyboard.press('Escape');
    await preview(page).waitFor({ state: 'detached' });

    await page.keyboard.press('/');
    await eventually(() => search(page).evaluate((el) => el === document.activeElement), true, '/ puts the focus in the search box');

    // Back on the row (keys typed into the search box stay there), y copies its VID and r opens its runs.
    await row(page, first!.vid).click();
    await page.keyboard.press('y');
    await page.getByText(`Copied ${first!.vid}.`).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first!.vid);
    await page.keyboard.press('r');
    await eventually(() => new URL(page.url()).pathname + '?vid=' + new URL(page.url()).searchParams.get('vid'), `/jobs?vid=${first!.vid}`, 'r opens the jobs of the Action');
    await tabs(page, 'Jobs').waitFor();
  });

  it('ACT-058 ACT-103 issue 21 Shift+A approves the selected Action to run anywhere after 10 s with an Undo, as an approver; z undoes it and nothing reaches the director', async () => {
    const { page } = b;
    // The page's clock is Playwright's: the 10 s are skipped with fastForward, not waited for.
    await page.clock.install();
    await openLibrary(page, 'approver');
    const taken = ['dns', 'socket', 'port_scan', 'cloud', 'host_cli', 'sleep'];
    const target = (await api(page, 'status=unapproved&page_size=100')).actions.find((a) => !a.require_protected && !taken.includes(a.action_type))!;
    expect(target).toBeTruthy();
    await search(page).fill(target.vid);
    await eventually(() => list(page).getByRole('option').count(), 1, 'the search shows the one Action');
    await row(page, target.vid).click();
    // The search is in the URL too (issue 21).
    await waitForPath(page, `/manage_sims/action/${target.vid}?q=${target.vid}`);
    await eventually(() => detailHeading(page).innerText(), target.name, 'the detail shows the Action the approver reviews');
    const approved = async () => (await api(page, `content_uuids[]=${target.vid}`)).actions[0]?.approved;
    // The hotkey asks nothing: a toast names the Action and the mode and offers Undo (its hotkey in the tooltip).
    await page.keyboard.press('Shift+A');
    const waiting = page.getByRole('status').filter({ hasText: `${target.vid} will be approved to run anywhere.` });
    await waiting.waitFor();
    // It counts down the seconds left (the page's clock stands still here).
    await waiting.getByText('in 10 s').waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await waiting.getByRole('button', { name: 'Undo' }).getAttribute('title')).toBe('Undo (Z)');
    expect(await approved()).toBe(false);
    // z undoes it; past the 10 s nothing was sent.
    await page.keyboard.press('z');
    await page.getByText(`Approving ${target.vid} was undone: it stays pending.`).waitFor();
    await waiting.waitFor({ state: 'detached' });
    await page.clock.fastForward(15_000);
    expect(await approved()).toBe(false);
    // Not undone: held back until the 10 s are over, then approved.
    await page.keyboard.press('Shift+A');
    await waiting.waitFor();
    expect(await approved()).toBe(false);
    await page.clock.fastForward(10_000);
    await page.getByText(`${target.vid} was approved to run anywhere.`).waitFor();
    expect(await approved()).toBe(true);
    await page.locator('article').getByRole('table', { name: 'Approval History' }).getByText('Approved and allowed anywhere').waitFor();
  });

  it('ACT-007 Open in Pane moves the preview into a pane beside the library', async () => {
    const { page } = b;
    await openLibrary(page, 'admin');
    const [a] = (await api(page, 'action_types[]=website&page_size=1')).actions;
    await openPreviewOf(page, a!.vid);
    await page.getByRole('dialog').getByRole('button', { name: 'Open in Pane' }).click();
    await eventually(() => page.getByRole('dialog').count(), 0, 'the modal closes');
    const pane = panel(page, `Action Details ${a!.id}`);
    await pane.locator('[data-action-type="website"]').waitFor();
    expect(await pane.getByRole('heading', { name: 'Action Details' }).isVisible()).toBe(true);
    expect(await pane.getByText(a!.vid, { exact: true }).count()).toBeGreaterThan(0);
    expect(await pane.getByRole('button', { name: 'Open in Pane' }).count()).toBe(0);
    // Beside the library, which stays open.
    expect(await groups(page).count()).toBe(2);
    expect(await tabs(page, 'Actions').count()).toBe(1);
    await tabs(page, `Action Details ${a!.id}`).click();
    await waitForPath(page, `/manage_sims/actions/${a!.id}/preview`);
  });

  it('ACT-004 the detail panel shows the Snort-style signatures of the Action', async () => {
    const { page } = b;
    await openLibrary(page, 'admin');
    let found: ActionLibraryDetail | null = null;
    for (const a of (await api(page, 'page_size=60')).actions) {
      const res = await page.request.get(`/manage_sims/v2/actions/detail.json?vid=${a.vid}`, { headers: XHR });
      const d = ((await res.json()) as { action: ActionLibraryDetail }).action;
      if (d.verodin_signatures.length) {
        found = d;
        break;
      }
    }
    expect(found, 'an Action with signatures').toBeTruthy();
    const d = found!;
    await openUrl(page, `/manage_sims/action/${d.vid}`);
    await eventually(() => detailHeading(page).innerText(), d.name, 'the detail shows the Action');
    const article = page.locator('article');
    await article.getByRole('heading', { name: 'Signatures' }).waitFor();
    const shown = await article.locator('[aria-label="Signatures"] pre').allInnerTexts();
    expect(shown).toEqual(d.verodin_signatures.map((x) => x.text));
    // Snort rule syntax: action protocol source port -> destination port (options).
    for (const text of shown) expect(text).toMatch(/^(alert|drop|reject|pass|log)\s+\w+\s+\S+\s+\S+\s+(->|<>)\s+\S+\s+\S+\s+\(.*\)\s*$/s);
    // The detail's toolbar renders from the registry: labels, the hotkey in each tooltip.
    const toolbar = article.getByRole('toolbar', { name: 'Action commands' });
    expect(await toolbar.getByRole('button', { name: 'Preview' }).getAttribute('title')).toBe('Preview Action (P)');
    expect(await toolbar.getByRole('button', { name: 'Copy VID' }).getAttribute('title')).toBe('Copy Action VID (Y)');
    await lookAt(page, { path: '/tmp/library-detail.png' });
  });

  it('JOB-019 browser back and forward restore the selected Action', async () => {
    const { page } = b;
    await openLibrary(page, 'admin');
    const [a, , c] = (await api(page, 'page_size=3')).actions;
    await row(page, a!.vid).click();
    await waitForPath(page, `/manage_sims/action/${a!.vid}`);
    await eventually(() => detailHeading(page).innerText(), a!.name, 'the first Action is shown');
    await row(page, c!.vid).click();
    await waitForPath(page, `/manage_sims/action/${c!.vid}`);
    await eventually(() => detailHeading(page).innerText(), c!.name, 'the second Action is shown');
    await page.goBack();
    await waitForPath(page, `/manage_sims/action/${a!.vid}`);
    await eventually(() => detailHeading(page).innerText(), a!.name, 'back shows the first Action again');
    await eventually(() => row(page, a!.vid).getAttribute('aria-selected'), 'true', 'back selects its row');
    await page.goForward();
    await waitForPath(page, `/manage_sims/action/${c!.vid}`);
    await eventually(() => detailHeading(page).innerText(), c!.name, 'forward shows the second Action again');
    await eventually(() => row(page, c!.vid).getAttribute('aria-selected'), 'true', 'forward selects its row');
  });

  it('ACT-046 ACT-117 a python host_cli Action previews its script in a read-only code viewer 400px high with tab size 4', async () => {
    const { page } = b;
    await openLibrary(page, 'admin');
    const [a] = (await api(page, 'action_types[]=host_cli&page_size=1')).actions;
    const form = await page.request.get(`/manage_sims/actions/${a!.id}/form.json`, { headers: XHR });
    expect(form.status()).toBe(200);
    const loaded = (await form.json()) as { version: number; values: { host_cli_action: Record<string, unknown> } & Record<string, unknown> };
    // The page's token of this session (the sign-in changed the session after the page was served).
    await page.reload();
    await list(page).waitFor();
    const csrf = await page.evaluate(() => document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? '');
    const script = "import os\nfor name in os.listdir('.'):\n    print(name)\n";
    const put = await page.request.put(`/manage_sims/actions/${a!.id}.json`, {
      headers: { ...XHR, 'X-CSRF-Token': csrf },
      data: { ...loaded.values, host_cli_action: { ...loaded.values.host_cli_action, shell: 'python', raw_text: script, cleanup_raw_text: '' }, lock_version: loaded.version },
    });
    expect(put.status(), await put.text()).toBe(200);
    await openPreviewOf(page, a!.vid);
    const viewer = preview(page).getByLabel('Python script (read-only)');
    await viewer.locator('.cm-content').waitFor();
    const shown = await viewer.evaluate((el) => {
      const content = el.querySelector<HTMLElement>('.cm-content')!;
      return {
        height: Math.round(el.querySelector<HTMLElement>('.cm-editor')!.getBoundingClientRect().height),
        tabSize: getComputedStyle(content).tabSize,
        editable: content.getAttribute('contenteditable'),
        text: content.innerText.trimEnd(),
      };
    });
    expect(shown).toEqual({ height: 400, tabSize: '4', editable: 'false', text: script.trimEnd() });
  });
});
