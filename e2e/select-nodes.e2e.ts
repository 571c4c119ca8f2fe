import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn, useBrowser } from './browser';
import { LOCAL_ACTOR_NAMES as ACTORS, localActorsOnline, SEQUENCE_ID, useLocalActorsDirector } from './local-actors';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './director';
import { eventually, panel, pathOf, waitForPath } from './workbench';
import type { JobDetail } from '../src/api/contracts/jobs';
import type { SimulationPreviewAnswer } from '../src/api/contracts/simulations';

// A director of its own with the two local actors (127.0.0.2, 127.0.0.3): the run really happens.
const director = useLocalActorsDirector();

const XHR = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };

async function get<T>(page: Page, url: string): Promise<T> {
  const res = await page.request.get(url, { headers: XHR });
  expect(res.status(), url).toBe(200);
  return (await res.json()) as T;
}

/** Highlights the option naming `name` in the focused listbox with the arrow keys and presses Enter. */
async function pick(page: Page, list: string, name: string) {
  const box = page.getByRole('listbox', { name: list });
  await box.waitFor();
  const names = await box.getByRole('option').allInnerTexts();
  const at = names.findIndex((n) => n.startsWith(name));
  expect(at, `${name} in ${names.join(' | ')}`).toBeGreaterThanOrEqual(0);
  await eventually(() => box.evaluate((el) => el === document.activeElement), true, `${list} has the focus`);
  for (let i = 0; i < at; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
}

describe('assigning actors step by step (select_nodes)', () => {
  const b = useBrowser(() => director().url);

  it('JOB-024 JOB-027 JOB-060 Run opens select_nodes; each step gets its own pair by keyboard; back/forward walk the assignment; the job runs each step between its pair', async () => {
    const { page } = b;
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD, '/simulations?sim_type=sequence');
    await localActorsOnline(page);
    const p = (await get<SimulationPreviewAnswer>(page, `/library/simulations.json?id=${SEQUENCE_ID}`)).data.preview_props;
    const steps = p.steps.filter((s) => s.actions.length > 0);
    expect(steps.length).toBeGreaterThanOrEqual(1);

    await page.goto(`/simulation/${p.vid}?sim_type=sequence`);
    await panel(page, `Simulation ${p.vid}`).getByRole('toolbar', { name: 'Simulation header' }).getByRole('button', { name: 'Run', exact: true }).click();
    await waitForPath(page, `/simulations/select_nodes?sim_id=${p.id}`);

    // Step n's attacker alternates between the two actors, so consecutive steps run between different pairs.
    const expected: string[] = [];
    for (const [i, s] of steps.entries()) {
      const n = i + 1;
      if (!s.can_run) continue;
      const [attacker, target] = i % 2 === 0 ? ACTORS : [...ACTORS].reverse();
      await pick(page, `Attackers for step ${n}`, attacker!);
      const single = s.dns_found || s.host_cli_found || s.cloud_validation_found;
      if (!single) await pick(page, `Targets for step ${n}`, target!);
      await eventually(() => new URL(page.url()).searchParams.get(`attack_node_id_${n}`) !== null, true, `step ${n} is in the URL`);
      expected.push(`${n}: ${attacker} -> ${single ? '-' : target}`);
    }
    await page.screenshot({ path: 'test-results/select-nodes.png' });
    const assigned = pathOf(page);

    // Back undoes the last choice in the URL and on the page; forward brings it back.
    const last = steps.length;
    await page.goBack();
    await eventually(() => pathOf(page) !== assigned, true, 'back leaves the full assignment');
    await page.getByRole('listbox', { name: new RegExp(`(Attackers|Targets) for step ${last}`) }).waitFor();
    await page.goForward();
    await waitForPath(page, assigned);
    await page.getByText('Choose the actors of every step to run.').waitFor({ state: 'detached' });

    // Ctrl+Enter runs with the assigned actors.
    await page.getByRole('listbox', { name: 'Steps' }).focus();
    await page.keyboard.press('Control+Enter');
    await eventually(() => /^\/jobs\/\d+$/.test(pathOf(page)), true, 'the job opens');
    const jobId = Number(pathOf(page).split('/')[2]);
    const job = await get<JobDetail>(page, `/jobs/${jobId}`);
    expect(job.steps.map((s) => `${s.group_order}: ${s.source?.name ?? '-'} -> ${s.destination?.name ?? '-'}`)).toEqual(expected);
  });
});
