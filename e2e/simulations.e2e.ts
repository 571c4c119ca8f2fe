import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn, useBrowser, useSession } from './browser';
import { sharedDirectorUrl } from './shared-director';
import { eventually, panel, pathOf, waitForFocused, waitForPath } from './workbench';
import type { LibraryListAnswer, SimulationLibraryItem } from '../src/api/contracts/library';
import type { SimulationPreview, SimulationPreviewAnswer } from '../src/api/contracts/simulations';

/** The Simulations panes and the Simulation preview modal, on the shared director's demo data (read only). */
const baseUrl = sharedDirectorUrl();
const XHR = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };

async function get<T>(page: Page, url: string): Promise<T> {
  const res = await page.request.get(url, { headers: XHR });
  expect(res.status(), url).toBe(200);
  return (await res.json()) as T;
}

/** A simulation of this type whose first step has Actions, with its preview. */
async function pickSimulation(page: Page, type: 'sequence' | 'eval'): Promise<{ item: SimulationLibraryItem; preview: SimulationPreview }> {
  const list = await get<LibraryListAnswer>(page, `/v2/simulations/library_simulations_list?simulation_type=${type}&page_size=50&sort=name&direction=desc`);
  for (const item of list.simulations) {
    const { preview_props: preview } = (await get<SimulationPreviewAnswer>(page, `/library/simulations.json?id=${item.id}`)).data;
    if (preview.steps[0]?.actions.length) return { item, preview };
  }
  throw new Error(`The demo data has no ${type} with Actions`);
}

const list = (page: Page, name: string) => page.getByRole('listbox', { name });
const steps = (page: Page) => page.getByRole('main').getByRole('list', { name: 'Steps' }).first();

describe('the Simulations panes', () => {
  const b = useBrowser(() => baseUrl);
  const asAdmin = (page: Page, at: string) => signIn(page, inject('adminEmail'), inject('adminPassword'), at);

  it('JOB-018 JOB-043 finds a sequence by name, shows its steps in order, and the URL follows the selection', async () => {
    const { page } = b;
    await asAdmin(page, '/simulations?sim_type=sequence');
    await waitForFocused(page, 'Simulations');
    const { item, preview } = await pickSimulation(page, 'sequence');
    await list(page, 'Sequences').waitFor();
    await page.getByRole('searchbox', { name: 'Search Sequences' }).fill(item.name);
    const found = await get<LibraryListAnswer>(page, `/v2/simulations/library_simulations_list?simulation_type=sequence&search=${encodeURIComponent(item.name)}`);
    expect(found.total_count).toBeGreaterThan(0);
    const sequences = (n: number) => `${n} ${n === 1 ? 'Sequence' : 'Sequences'}`;
    await eventually(() => page.getByTestId('simulations-count').innerText(), sequences(found.total_count), 'the list shows the matches after the debounce');
    const row = list(page, 'Sequences').getByRole('option', { name: `${item.vid} ${item.name}` });
    await row.click();
    await waitForPath(page, `/simulations?sim_type=sequence&vid=${encodeURIComponent(item.vid)}`);
    await steps(page).waitFor();
    const stepNames = await steps(page).locator(':scope > li > div > span.font-medium').allInnerTexts();
    expect(stepNames).toEqual(preview.steps.map((s, i) => s.name || `Step ${i + 1}`));
    const firstAction = preview.steps[0]!.actions[0]!;
    expect(await steps(page).getByRole('link', { name: firstAction.vid }).first().getAttribute('href')).toBe(`/manage_sims/action/${firstAction.vid}`);
    if (preview.total_jobs > 0) expect(await page.getByRole('link', { name: `View All (${preview.total_jobs})` }).getAttribute('href')).toBe(`/jobs?vid=${item.vid}`);
  });

  it('MON-018 MON-001 the preview modal is titled from the simulation, loads, and an Action clicked in it opens /manage_sims/action/{vid} in a new tab', async () => {
    const { page, context } = b;
    await useSession(page.context(), inject('adminEmail'), inject('adminPassword'));
    const { item, preview } = await pickSimulation(page, 'sequence');
    await asAdmin(page, `/simulations?sim_type=sequence&vid=${encodeURIComponent(item.vid)}`);
    await steps(page).waitFor();
    await list(page, 'Sequences').focus();
    await page.keyboard.press('p');
    const dialog = page.getByRole('dialog', { name: `${preview.name} (${preview.vid})` });
    await page.getByTestId('simulation-preview').waitFor();
    expect(await dialog.count()).toBe(1);
    // 'Loading Details' shows while loading, then the preview (cached here, so it may be gone at once).
    await dialog.getByText('Loading Details').waitFor({ state: 'detached' });
    const action = preview.steps[0]!.actions[0]!;
    const link = dialog.getByRole('list', { name: 'Steps' }).getByRole('link', { name: action.vid }).first();
    const [tab] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await tab.waitForLoadState();
    expect(new URL(tab.url()).pathname).toBe(`/manage_sims/action/${action.vid}`);
    await tab.close();
    await page.keyboard.press('Escape');
    await page.getByTestId('simulation-preview').waitFor({ state: 'detached' });
  });

  it('JOB-018 switches to evaluations, moves with j/k, and a deep link /simulation/{vid}?sim_type=eval opens the one-simulation pane', async () => {
    const { page } = b;
    await asAdmin(page, '/simulations?sim_type=sequence');
    await list(page, 'Sequences').waitFor();
    await page.getByRole('radio', { name: 'Evaluations' }).click();
    await waitForPath(page, '/simulations?sim_type=eval');
    await list(page, 'Evaluations').waitFor();
    await list(page, 'Evaluations').focus();
    await page.keyboard.press('j');
    await eventually(async () => pathOf(page).startsWith('/simulations?sim_type=eval&vid='), true, 'j selects the first evaluation');
    const { item, preview } = await pickSimulation(page, 'eval');
    await page.goto(`/simulation/${encodeURIComponent(item.vid)}?sim_type=eval`);
    await waitForFocused(page, `Simulation ${item.vid}`);
    const pane = panel(page, `Simulation ${item.vid}`);
    await pane.getByRole('heading', { name: preview.name }).waitFor();
    expect(await pane.getByRole('list', { name: 'Steps' }).locator(':scope > li').count()).toBe(preview.steps.length);
    expect(await pane.getByText('This pane is not built yet.').count()).toBe(0);
  });

  it('MON-015 the Run All Actions button on the shown simulation opens the Run All Actions modal for it (closed without running)', async () => {
    const { page } = b;
    await useSession(page.context(), inject('adminEmail'), inject('adminPassword'));
    const { item } = await pickSimulation(page, 'sequence');
    await asAdmin(page, `/simulation/${encodeURIComponent(item.vid)}?sim_type=sequence`);
    const pane = panel(page, `Simulation ${item.vid}`);
    await pane.getByRole('button', { name: 'Run All Actions', exact: true }).click();
    const run = page.getByRole('dialog', { name: 'Run All Actions' });
    await run.getByRole('heading', { name: 'Select Source and Destination Actors' }).waitFor();
    await page.keyboard.press('Escape');
    await run.getByRole('heading', { name: 'Select Source and Destination Actors' }).waitFor({ state: 'detached' });
  });

  it('JOB-019 browser back and forward restore the selected sequence', async () => {
    const { page } = b;
    await asAdmin(page, '/simulations?sim_type=sequence');
    const listed = await get<LibraryListAnswer>(page, '/v2/simulations/library_simulations_list?simulation_type=sequence&page_size=2&sort=name&direction=asc');
    const [first, second] = listed.simulations;
    if (!first || !second) throw new Error('The demo data needs two sequences');
    await list(page, 'Sequences').waitFor();
    await list(page, 'Sequences').focus();
    await page.keyboard.press('j');
    await waitForPath(page, `/simulations?sim_type=sequence&vid=${encodeURIComponent(first.vid)}`);
    await page.keyboard.press('j');
    await waitForPath(page, `/simulations?sim_type=sequence&vid=${encodeURIComponent(second.vid)}`);
    await page.getByTestId('simulation-view').getByText(second.vid, { exact: true }).waitFor();
    await page.goBack();
    await waitForPath(page, `/simulations?sim_type=sequence&vid=${encodeURIComponent(first.vid)}`);
    await page.getByTestId('simulation-view').getByText(first.vid, { exact: true }).waitFor();
    expect(await list(page, 'Sequences').getByRole('option', { selected: true }).getAttribute('data-vid')).toBe(first.vid);
    await page.goForward();
    await page.getByTestId('simulation-view').getByText(second.vid, { exact: true }).waitFor();
  });
});
