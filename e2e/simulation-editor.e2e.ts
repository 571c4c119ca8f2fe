import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn, useBrowser, useSession } from './browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD, DEMO_USERS, DEMO_USER_PASSWORD } from './director';
import { sharedDirectorUrl } from './shared-director';
import { eventually, panel, pathOf, waitForPath, lookAt } from './workbench';
import type { LibraryListAnswer } from '../src/api/contracts/library';
import type { SimulationPreview, SimulationPreviewAnswer } from '../src/api/contracts/simulations';

/**
 * The simulation editor (Edit, Clone and Edit) and the header buttons, on the shared director: each test
 * picks its sequence from the director when it starts (pickSequence) and compares with what it read
 * (names with the time in them, version + 1, the same steps), so sequences other files made or renamed
 * do not matter; the shared-director files that read sequences pick them at test time too.
 */
const baseUrl = sharedDirectorUrl();
const XHR = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };

async function get<T>(page: Page, url: string): Promise<T> {
  const res = await page.request.get(url, { headers: XHR });
  expect(res.status(), url).toBe(200);
  return (await res.json()) as T;
}

/** A demo sequence with at least two steps of Actions, with its preview. */
async function pickSequence(page: Page): Promise<SimulationPreview> {
  const list = await get<LibraryListAnswer>(page, '/v2/simulations/library_simulations_list?simulation_type=sequence&page_size=50&sort=name&direction=asc');
  for (const item of list.simulations) {
    const p = (await get<SimulationPreviewAnswer>(page, `/library/simulations.json?id=${item.id}`)).data.preview_props;
    if (p.steps.length >= 2 && p.steps.every((s) => s.actions.length > 0)) return p;
  }
  throw new Error('The demo data has no sequence with two steps of Actions');
}

const editorSteps = (page: Page) => page.getByTestId('simulation-editor').getByRole('list', { name: 'Steps' }).locator('[data-step-index]');
const stepLabels = (page: Page) => editorSteps(page).evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
const stepLabel = (i: number, name: string, n: number) => `Step ${i}: ${name} (${n} Action${n === 1 ? '' : 's'})`;
const header = (page: Page, vid: string) => panel(page, `Simulation ${vid}`).getByRole('toolbar', { name: 'Simulation header' });

describe('the simulation editor', () => {
  const b = useBrowser(() => baseUrl);

  it('JOB-024 JOB-080 the header shows Return to Sequences, Description, Run, Monitor, Clone and Edit and Edit by permission', async () => {
    const { page } = b;
    await useSession(page.context(), ADMIN_EMAIL, ADMIN_PASSWORD);
    const p = await pickSequence(page);
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD, `/simulation/${p.vid}?sim_type=sequence`);
    const bar = header(page, p.vid);
    await bar.getByRole('button', { name: 'Edit', exact: true }).waitFor();
    expect(await bar.getByRole('button').allInnerTexts()).toEqual(['Return to Sequences', 'Description', 'Run', 'Monitor', 'Clone and Edit', 'Edit']);
    await lookAt(page, { path: 'test-results/simulation-header.png' });
    await bar.getByRole('button', { name: 'Description' }).click();
    const dialog = page.getByRole('dialog', { name: `Description: ${p.name}` });
    await dialog.getByText(p.description.split('\n')[0]!.trim() || 'No description.').first().waitFor();
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await dialog.waitFor({ state: 'detached' });
    await bar.getByRole('button', { name: 'Monitor' }).click();
    await waitForPath(page, `/monitors/new?simulation_id=${p.id}`);
    await page.goBack();
    await header(page, p.vid).getByRole('button', { name: 'Return to Sequences' }).click();
    await waitForPath(page, `/simulations?sim_type=sequence&vid=${p.vid}`);
  });

  it('JOB-024 JOB-080 a viewer sees only Return to Sequences and Description', async () => {
    const { page } = b;
    await useSession(page.context(), DEMO_USERS.viewer, DEMO_USER_PASSWORD);
    const p = await pickSequence(page);
    await signIn(page, DEMO_USERS.viewer, DEMO_USER_PASSWORD, `/simulation/${p.vid}?sim_type=sequence`);
    const viewerBar = header(page, p.vid);
    await viewerBar.getByRole('button', { name: 'Description' }).waitFor();
    expect(await viewerBar.getByRole('button').allInnerTexts()).toEqual(['Return to Sequences', 'Description']);
  });

  it('JOB-024 Edit: edits a sequence by keyboard: reorders steps, regroups an Action, removes and undoes, adds an Action from a search, saves with Ctrl+S', async () => {
    const { page } = b;
    await useSession(page.context(), ADMIN_EMAIL, ADMIN_PASSWORD);
    const p = await pickSequence(page);
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD, `/simulation/${p.vid}?sim_type=sequence`);
    await header(page, p.vid).getByRole('button', { name: 'Edit', exact: true }).waitFor();
    await panel(page, `Simulation ${p.vid}`).getByTestId('simulation-view').click();
    await page.keyboard.press('e');
    await waitForPath(page, `/simulation/${p.vid}/edit?sim_type=sequence`);
    const name = (i: number) => p.steps[i]!.name || `Step ${i + 1}`;
    const n = (i: number) => p.steps[i]!.actions.length;
    await eventually(async () => (await stepLabels(page)).slice(0, 2), [stepLabel(1, name(0), n(0)), stepLabel(2, name(1), n(1))], 'the editor lists the steps');

    // Alt+ArrowDown on step 1 moves it below step 2; focus follows.
    await editorSteps(page).nth(0).focus();
    await page.keyboard.press('Alt+ArrowDown');
    await eventually(async () => (await stepLabels(page)).slice(0, 2), [stepLabel(1, name(1), n(1)), stepLabel(2, name(0), n(0))], 'Alt+ArrowDown moves the step');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-step-index'))).toBe('1');

    // The first Action of (new) step 2, moved up past its step's start, joins step 1 (grouping by keyboard).
    await editorSteps(page).nth(1).locator('[data-action-index="0"]').focus();
    await page.keyboard.press('Alt+ArrowUp');
    await eventually(async () => (await stepLabels(page)).slice(0, 2), [stepLabel(1, name(1), n(1) + 1), stepLabel(2, name(0), n(0) - 1)], 'the Action joins the step above');
    if (n(0) === 1) {
      // The emptied step blocks the save until it is removed.
      await page.getByRole('list', { name: 'Problems' }).getByText('Step 2 has no Actions: add one or remove the step.').waitFor();
      expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
      await editorSteps(page).nth(1).focus();
      await page.keyboard.press('Delete');
      await page.getByRole('list', { name: 'Problems' }).waitFor({ state: 'detached' });
    }

    // Delete removes the focused step; Alt+Z puts it back.
    const before = await stepLabels(page);
    await editorSteps(page).nth(0).focus();
    await page.keyboard.press('Delete');
    await eventually(async () => (await stepLabels(page)).length, before.length - 1, 'Delete removes the step');
    await page.keyboard.press('Alt+z');
    await eventually(() => stepLabels(page), before, 'Undo Remove restores it');

    // Add Action: search the library, Enter adds the highlighted match as a new step.
    const addName = p.steps[0]!.actions[0]!.name;
    const stepsBeforeAdd = (await stepLabels(page)).length;
    await page.getByRole('combobox', { name: 'Add Action' }).fill(addName);
    await page.getByRole('listbox', { name: 'Matching Actions' }).getByRole('option', { name: new RegExp(addName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) }).first().waitFor();
    await page.keyboard.press('Enter');
    await eventually(async () => (await stepLabels(page)).length, stepsBeforeAdd + 1, 'Enter adds the Action as a new step');
    expect((await stepLabels(page)).at(-1)).toMatch(/\(1 Action\)$/);

    const simName = `Edited by keyboard ${Date.now()}`;
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(simName);
    await lookAt(page, { path: 'test-results/simulation-editor.png' });
    await page.keyboard.press('Control+s');
    await waitForPath(page, `/simulation/${p.vid}?sim_type=sequence`);
    const saved = (await get<SimulationPreviewAnswer>(page, `/library/simulations.json?id=${p.id}`)).data.preview_props;
    expect(saved.name).toBe(simName);
    expect(saved.version).toBe(p.version + 1);
    expect(saved.steps.slice(0, 2).map((s) => s.actions.length)).toEqual(n(0) - 1 === 0 ? [n(1) + 1, saved.steps[1]!.actions.length] : [n(1) + 1, n(0) - 1]);
    expect(saved.steps.length).toBe(p.steps.length + (n(0) === 1 ? 0 : 1));
    expect(saved.steps.at(-1)!.actions.map((a) => a.name)).toEqual([addName]);
  });

  it('a stale edit is refused with a clear message, keeps what was typed, and Reload brings the other change', async () => {
    const { page } = b;
    // The stale edit is refused on purpose (409).
    b.allowConsole(/status of 409 \(Conflict\) \(.*\/simulations\/\d+\.json\)$/);
    await useSession(page.context(), ADMIN_EMAIL, ADMIN_PASSWORD);
    const p = await pickSequence(page);
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD, `/simulation/${p.vid}/edit?sim_type=sequence`);
    const nameBox = page.getByRole('textbox', { name: 'Name', exact: true });
    await eventually(() => nameBox.inputValue(), p.name, 'the editor opens on the simulation');
    await nameBox.fill('My unsaved name');
    // Someone else saves first.
    const { csrfToken } = await get<{ csrfToken: string }>(page, '/environment.json');
    const other = await page.request.put(`/simulations/${p.id}.json`, {
      headers: { ...XHR, 'X-CSRF-Token': csrfToken },
      data: { version: p.version, sim_type: 'sequence', sim_name: 'Changed elsewhere', sim_desc: p.description, steps: p.steps.map((s) => s.actions.map((a) => a.id)), step_names: p.steps.map((s) => s.name) },
    });
    expect(other.status(), await other.text()).toBe(200);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const alert = page.getByTestId('simulation-editor').getByRole('alert');
    await alert.getByText(`${p.vid} was changed by someone else since you opened it (your version ${p.version}, now ${p.version + 1}).`, { exact: false }).waitFor();
    expect(await nameBox.inputValue()).toBe('My unsaved name');
    expect(pathOf(page)).toBe(`/simulation/${p.vid}/edit?sim_type=sequence`);
    await lookAt(page, { path: 'test-results/simulation-editor-conflict.png' });
    await alert.getByRole('button', { name: 'Reload' }).click();
    await eventually(() => nameBox.inputValue(), 'Changed elsewhere', 'Reload shows the other change');
    await nameBox.fill('Second try');
    await page.keyboard.press('Control+s');
    await waitForPath(page, `/simulation/${p.vid}?sim_type=sequence`);
    expect((await get<SimulationPreviewAnswer>(page, `/library/simulations.json?id=${p.id}`)).data.preview_props.name).toBe('Second try');
  });

  it('JOB-024 Clone and Edit saves a new VID with the same steps and leaves the source alone', async () => {
    const { page } = b;
    await useSession(page.context(), ADMIN_EMAIL, ADMIN_PASSWORD);
    const p = await pickSequence(page);
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD, `/simulation/${p.vid}?sim_type=sequence`);
    await header(page, p.vid).getByRole('button', { name: 'Clone and Edit' }).click();
    await waitForPath(page, `/simulation/${p.vid}/clone?sim_type=sequence`);
    const nameBox = page.getByRole('textbox', { name: 'Name', exact: true });
    await eventually(() => nameBox.inputValue(), `Copy of ${p.name}`, 'the clone is named Copy of …');
    await page.getByRole('button', { name: 'Save as New Simulation' }).click();
    await eventually(() => /^\/simulation\/S\d{3}-\d{3}\?sim_type=sequence$/.test(pathOf(page)) && !pathOf(page).startsWith(`/simulation/${p.vid}?`), true, 'the new simulation opens');
    const vid = pathOf(page).split('/')[2]!.split('?')[0]!;
    const copy = (await get<SimulationPreviewAnswer>(page, `/library/simulations.json?vid=${vid}`)).data.preview_props;
    expect(copy.name).toBe(`Copy of ${p.name}`);
    expect(copy.steps.map((s) => s.actions.map((a) => a.id))).toEqual(p.steps.map((s) => s.actions.map((a) => a.id)));
    expect((await get<SimulationPreviewAnswer>(page, `/library/simulations.json?id=${p.id}`)).data.preview_props.vid).toBe(p.vid);
  });
});
