import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn, useBrowser } from './browser';
import { LOCAL_ACTOR_NAMES as ACTORS, localActorsOnline, SEQUENCE_ID, useLocalActorsDirector } from './local-actors';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './director';
import { eventually, panel, pathOf, waitForPath, lookAt } from './workbench';
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
    await lookAt(page, { path: 'test-results/select-nodes.png' });
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

  it('JOB-023 JOB-060 sequence mode on the map by keyboard: Tab to the map, arrows and Enter choose attacker then target, the valid targets are highlighted, back/forward walk the choice', async () => {
    const { page } = b;
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD, `/simulations/select_nodes?sim_id=${SEQUENCE_ID}`);
    await localActorsOnline(page);
    const p = (await get<SimulationPreviewAnswer>(page, `/library/simulations.json?id=${SEQUENCE_ID}`)).data.preview_props;
    const idOf = (name: string) => p.options.cttn_attackers.find((a) => a.name === name)!.id;
    const [attacker, target] = ACTORS.map(idOf) as [number, number];
    const canvas = page.getByTestId('network-map-canvas');
    await canvas.locator('[data-cell-id^="node_"]').first().waitFor();
    const stroke = (id: number) => canvas.locator(`[data-cell-id="node_${id}"] rect`).first().getAttribute('stroke');
    // Every actor that connected can attack: all are highlighted in the attacker phase.
    await eventually(() => stroke(attacker), '#22c55e', 'attackers are highlighted');

    // Keyboard only: the attackers list has the focus; Tab reaches the map.
    await page.getByRole('listbox', { name: 'Attackers for step 1' }).waitFor();
    await eventually(() => page.getByRole('listbox', { name: 'Attackers for step 1' }).evaluate((el) => el === document.activeElement), true, 'the attackers list has the focus');
    await page.keyboard.press('Tab');
    const map = page.getByRole('application', { name: 'Sequence map' });
    await eventually(() => map.evaluate((el) => el === document.activeElement), true, 'Tab reaches the map');
    const cursor = page.getByRole('status', { name: 'Map cursor' });
    const moveTo = async (name: string) => {
      for (let i = 0; i < 60 && !(await cursor.innerText()).startsWith(`${name}:`); i++) await page.keyboard.press(i % 12 < 6 ? 'ArrowRight' : 'ArrowDown');
      expect(await cursor.innerText()).toMatch(new RegExp(`^${name}: Enter chooses it`));
    };
    await moveTo(ACTORS[0]!);
    await page.keyboard.press('Enter');
    await eventually(() => new URL(page.url()).searchParams.get('attack_node_id_1'), String(attacker), 'the attacker is in the URL');

    // The target phase highlights exactly the actors the attacker can reach; the attacker is marked red.
    const valid = new Set(p.options.cttn_authorized_actors[String(attacker)]!.filter((id) => p.options.cttn_targets.some((t) => t.id === id)));
    expect(valid.has(target)).toBe(true);
    await eventually(() => stroke(attacker), '#ef4444', 'the attacker is marked');
    for (const a of p.options.cttn_attackers) if (a.id !== attacker) expect(await stroke(a.id), a.name).toBe(valid.has(a.id) ? '#22c55e' : '#475569');
    await page.getByRole('listbox', { name: 'Targets for step 1' }).waitFor();
    expect(await map.evaluate((el) => el === document.activeElement)).toBe(true);
    await moveTo(ACTORS[1]!);
    await page.keyboard.press('Enter');
    await eventually(() => new URL(page.url()).searchParams.get('target_node_id_1'), String(target), 'the target is in the URL');
    expect(await page.getByTestId('assignment-1').innerText()).toContain(`Attacker: ${ACTORS[0]}`);
    expect(await page.getByTestId('assignment-1').innerText()).toContain(`Target: ${ACTORS[1]}`);
    await lookAt(page, { path: 'test-results/select-nodes-map.png' });

    // Back drops the target (the map shows the target phase again), forward brings it back.
    await page.goBack();
    await eventually(() => new URL(page.url()).searchParams.get('target_node_id_1'), null, 'back drops the target');
    await page.getByRole('listbox', { name: 'Targets for step 1' }).waitFor();
    // The map's cursor is still on the target (drawn in the cursor's colour), which can be chosen again.
    await eventually(() => cursor.innerText(), `${ACTORS[1]}: Enter chooses it as the target of step 1`, 'the target is a choice again');
    expect(await stroke(attacker)).toBe('#ef4444');
    await page.goForward();
    await eventually(() => new URL(page.url()).searchParams.get('target_node_id_1'), String(target), 'forward restores the target');
    await eventually(async () => (await page.getByTestId('assignment-1').innerText()).includes(`Target: ${ACTORS[1]}`), true, 'the page follows');
  });
});
