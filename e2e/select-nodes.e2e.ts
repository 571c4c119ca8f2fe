import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn, useBrowser, useSession } from './browser';
import { PAGE_VIEWPORT } from './chromium';
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

/** Moves the sequence map's cursor with the arrows until it is on `name`, as the attacker or the target of step n. */
async function cursorTo(page: Page, name: string, role: 'attacker' | 'target', n: number) {
  const cursor = page.getByRole('status', { name: 'Map cursor' });
  const want = `${name}: Enter chooses it as the ${role} of step ${n}`;
  for (let i = 0; i < 60 && (await cursor.innerText()) !== want; i++) await page.keyboard.press(i % 12 < 6 ? 'ArrowRight' : 'ArrowDown');
  expect(await cursor.innerText()).toBe(want);
}

describe('assigning actors step by step (select_nodes)', () => {
  const b = useBrowser(() => director().url);

  it('JOB-024 JOB-027 JOB-060 Run opens select_nodes; each step gets its own pair by keyboard; back/forward walk the assignment; the job runs each step between its pair', async () => {
    const { page } = b;
    await useSession(page.context(), ADMIN_EMAIL, ADMIN_PASSWORD);
    await localActorsOnline(page);
    const p = (await get<SimulationPreviewAnswer>(page, `/library/simulations.json?id=${SEQUENCE_ID}`)).data.preview_props;
    const steps = p.steps.filter((s) => s.actions.length > 0);
    expect(steps.length).toBeGreaterThanOrEqual(1);

    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD, `/simulation/${p.vid}?sim_type=sequence`);
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
    // The drawing follows the state a frame after the cursor's status: still the attacker's red.
    await eventually(() => stroke(attacker), '#ef4444', 'the attacker is still marked');
    await page.goForward();
    await eventually(() => new URL(page.url()).searchParams.get('target_node_id_1'), String(target), 'forward restores the target');
    await eventually(async () => (await page.getByTestId('assignment-1').innerText()).includes(`Target: ${ACTORS[1]}`), true, 'the page follows');
  });

  it('JOB-024 JOB-060 JOB-023 JOB-027 the walk of issue 19: a newcomer clones a demo sequence, regroups it (Alt+arrows, drag and drop), aims each step at its own pair on the map by keyboard, runs it with Ctrl+Enter and sees each step performed between its pair', async () => {
    const { page } = b;
    await page.setViewportSize(PAGE_VIEWPORT);
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD, '/simulations?sim_type=sequence');
    await localActorsOnline(page);
    // The Job pane re-reads its job every 30 s (JOB-055); the walk shortens that through the support override,
    // with a re-poll limit above the job's run time at load (the default 10 re-polls end after 10 s here).
    await page.evaluate(() => localStorage.setItem('vigil.jobs.polling', JSON.stringify({ intervalMs: 1000, limit: 300 })));
    const src = (await get<SimulationPreviewAnswer>(page, `/library/simulations.json?id=${SEQUENCE_ID}`)).data.preview_props;
    // The regrouping below moves step 2's last Action into step 3.
    expect(src.steps.length).toBe(3);
    expect(src.steps[1]!.actions.length).toBeGreaterThanOrEqual(2);
    const shot = (name: string) => lookAt(page, { path: `test-results/walk-${name}.png` });

    // 1. Clone and Edit from the demo sequence's header.
    await page.goto(`/simulation/${src.vid}?sim_type=sequence`);
    await panel(page, `Simulation ${src.vid}`).getByRole('toolbar', { name: 'Simulation header' }).getByRole('button', { name: 'Clone and Edit' }).click();
    await waitForPath(page, `/simulation/${src.vid}/clone?sim_type=sequence`);
    const editor = page.getByTestId('simulation-editor');
    // The editor takes the focus: its Name field.
    await eventually(() => editor.getByRole('textbox', { name: 'Name', exact: true }).evaluate((el) => el === document.activeElement), true, 'the Name field has the focus');
    const steps = editor.getByRole('list', { name: 'Steps' }).locator('[data-step-index]');
    const labels = () => steps.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    const label = (i: number, name: string, n: number) => `Step ${i}: ${name} (${n} Action${n === 1 ? '' : 's'})`;
    const [s1, s2, s3] = src.steps.map((s) => ({ name: s.name, ids: s.actions.map((a) => a.id) })) as [{ name: string; ids: number[] }, { name: string; ids: number[] }, { name: string; ids: number[] }];
    await eventually(labels, [label(1, s1.name, s1.ids.length), label(2, s2.name, s2.ids.length), label(3, s3.name, s3.ids.length)], 'the clone lists the steps');
    await shot('1-clone');

    // 2. Regroup: Alt+ArrowDown moves step 1 below step 2 (focus follows); step 2's last Action is dragged onto step 3.
    await steps.nth(0).focus();
    await page.keyboard.press('Alt+ArrowDown');
    await eventually(labels, [label(1, s2.name, s2.ids.length), label(2, s1.name, s1.ids.length), label(3, s3.name, s3.ids.length)], 'Alt+ArrowDown moves the step');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-step-index'))).toBe('1');
    const moved = s2.ids.at(-1)!;
    await steps.nth(0).locator(`[data-action-index="${s2.ids.length - 1}"]`).dragTo(steps.nth(2));
    await eventually(labels, [label(1, s2.name, s2.ids.length - 1), label(2, s1.name, s1.ids.length), label(3, s3.name, s3.ids.length + 1)], 'the dragged Action joins step 3');
    await shot('2-regrouped');
    await steps.nth(2).focus();
    await page.keyboard.press('Control+s');
    await eventually(() => /^\/simulation\/S\d{3}-\d{3}\?sim_type=sequence$/.test(pathOf(page)) && !pathOf(page).startsWith(`/simulation/${src.vid}?`), true, 'Ctrl+S saves the clone as a new simulation');
    const vid = pathOf(page).split('/')[2]!.split('?')[0]!;
    const copy = (await get<SimulationPreviewAnswer>(page, `/library/simulations.json?vid=${vid}`)).data.preview_props;
    expect(copy.steps.map((s) => s.actions.map((a) => a.id))).toEqual([s2.ids.slice(0, -1), s1.ids, [...s3.ids, moved]]);

    // 3. Run opens the assignment; each step is aimed on the map by keyboard, the pairs alternating.
    await panel(page, `Simulation ${vid}`).getByRole('toolbar', { name: 'Simulation header' }).getByRole('button', { name: 'Run', exact: true }).click();
    await waitForPath(page, `/simulations/select_nodes?sim_id=${copy.id}`);
    await page.getByRole('listbox', { name: 'Attackers for step 1' }).waitFor();
    await eventually(() => page.getByRole('listbox', { name: 'Attackers for step 1' }).evaluate((el) => el === document.activeElement), true, 'the attackers list has the focus');
    await page.keyboard.press('Tab');
    const map = page.getByRole('application', { name: 'Sequence map' });
    await eventually(() => map.evaluate((el) => el === document.activeElement), true, 'Tab reaches the map');
    const pairs = copy.steps.map((_, i) => (i % 2 === 0 ? [...ACTORS] : [...ACTORS].reverse()) as [string, string]);
    for (const [i, [attacker, target]] of pairs.entries()) {
      const n = i + 1;
      await cursorTo(page, attacker, 'attacker', n);
      await page.keyboard.press('Enter');
      await cursorTo(page, target, 'target', n);
      await page.keyboard.press('Enter');
      await eventually(() => page.getByTestId(`assignment-${n}`).innerText(), `Attacker: ${attacker} → Target: ${target}`, `step ${n} has its pair`);
    }
    await page.getByRole('heading', { name: 'Every step has its actors: Run (Ctrl+Enter) starts the job.' }).waitFor();
    expect(await map.evaluate((el) => el === document.activeElement)).toBe(true);
    await shot('3-assigned');

    // 4. One command runs it: Ctrl+Enter, with the focus still on the map.
    await page.keyboard.press('Control+Enter');
    await eventually(() => /^\/jobs\/\d+$/.test(pathOf(page)), true, 'the job opens');
    const jobId = Number(pathOf(page).split('/')[2]);
    const grid = page.getByRole('treegrid', { name: `Steps of job ${jobId}` });
    const stepRows = grid.getByRole('row').filter({ hasText: /Step \d/ });
    await eventually(() => stepRows.count(), pairs.length, 'the job lists its steps');
    for (const [i, [attacker, target]] of pairs.entries()) {
      const text = (await stepRows.nth(i).innerText()).replace(/\s+/g, ' ');
      expect(text, `step ${i + 1}`).toContain(`Step ${i + 1}`);
      expect(text, `step ${i + 1}`).toContain(`${attacker} → ${target}`);
    }
    // Each step performed between its own pair: the job ends with every Action run between the step's actors.
    let job: JobDetail | undefined;
    await eventually(async () => ['completed', 'errored', 'cancelled', 'failed'].includes((job = await get<JobDetail>(page, `/jobs/${jobId}`)).status), true, 'the job ends', 120_000);
    expect(job!.steps.map((s) => `${s.group_order}: ${s.source?.name} -> ${s.destination?.name}`)).toEqual(pairs.map(([a, t], i) => `${i + 1}: ${a} -> ${t}`));
    const ids = job!.steps.map((s) => s.id).join(',');
    const actions = await get<Record<string, { status: string; name: string }[]>>(page, `/jobs/list_page_job_actions?job_step_ids=${ids}`);
    for (const s of job!.steps) expect(actions[String(s.id)]!.map((a) => `${a.name}: ${a.status}`), `step ${s.group_order}`).toEqual(actions[String(s.id)]!.map((a) => `${a.name}: ${['ran', 'completed'].includes(a.status) ? a.status : 'ran or completed'}`));
    // The pane follows: the job at 100 %, and each step opened lists its Actions under its pair.
    const pane = page.getByTestId('job-pane');
    await eventually(async () => (await pane.innerText()).includes('100%'), true, 'the Job pane shows the job done', 15_000);
    for (const s of job!.steps) {
      await grid.getByRole('button', { name: `Expand step ${s.group_order}` }).click();
      for (const a of actions[String(s.id)]!) await grid.getByRole('row').filter({ hasText: a.name }).first().waitFor();
    }
    await shot('4-job');
  }, 240_000);
});
