/**
 * A network map of over 400 actors (drawn on the canvas layer, not as X6 cells: src/ui/network-map),
 * seeded through the director's own calls: two labs (POST /lab/setups.json) of four zones and 232
 * actors each, registered with the labs' tokens (/api/actor/register) and put in their zones, plus a
 * lab of one lone actor. The two labs are separate networks, so an attacker of one reaches only its
 * own lab's actors. On the Network Map pane a click, the arrows, right-click, Shift+F10 and the
 * ContextMenu key act on the canvas's actors; in the sequence mode (/simulations/select_nodes) an
 * attacker then a target are chosen by keyboard; and the JOB-060/070/071 cases say so in the browser.
 * A director of the file's own: the seeded actors would change the demo map other files count.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn as apiSignIn } from '../cli/sign-in';
import { signIn, useBrowser } from './browser';
import { PAGE_VIEWPORT } from './chromium';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './director';
import { useOwnDirector } from './own-director';
import { eventually, lookAt, panel, pathOf, waitForFocused } from './workbench';
import type { LabSetupAnswer } from '../src/api/contracts/lab';
import type { LibraryItem } from '../src/api/contracts/library';
import type { SimulationPreview, SimulationPreviewAnswer } from '../src/api/contracts/simulations';
import type { NetworkMap } from '../src/api/contracts/topology';
import { layout, type ItemRects } from '../src/ui/network-map/layouts';

const director = useOwnDirector();
const XHR = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };
/** Per lab: zones x actors per zone (232 actors a lab). */
const ZONES = 4;
const PER_ZONE = 58;
const LABS = [
  { prefix: 'east', net: 201 },
  { prefix: 'west', net: 202 },
];
const LONE = { prefix: 'lone', net: 203 };
const NO_VALID_TARGETS = 'There are no Actors selectable as valid targets for the current group. Check that existing Actors can talk to each other and try again.';

interface Seeded {
  map: NetworkMap;
  rects: ItemRects;
  /** The two-step sequence aimed on the large map. */
  simId: number;
  /** A sequence with an emptied group and a DISABLED step (JOB-060, JOB-071). */
  casesId: number;
}
let seeded: Seeded;

/** The targets an attacker can reach, as the pane reads them (cttn_authorized_actors within cttn_targets). */
const validTargets = (p: SimulationPreview, attacker: number) => (p.options.cttn_authorized_actors[String(attacker)] ?? []).filter((id) => p.options.cttn_targets.some((t) => t.id === id));

/** A lab's zones and actors: `perZone` actors in each of `zones` zones, registered and placed. */
async function seedLab(url: string, headers: Record<string, string>, prefix: string, net: number, zones: number, perZone: number): Promise<void> {
  const events = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-large-map-')), 'events.json');
  fs.writeFileSync(events, '');
  const zoneList = Array.from({ length: zones }, (_, z) => ({ name: `z${z + 1}`, cidr: `10.${net}.${z + 1}.0/24`, gateway: `10.${net}.${z + 1}.1` }));
  const res = await fetch(`${url}/lab/setups.json`, { method: 'POST', headers, body: JSON.stringify({ prefix, events_path: events, zones: zoneList }) });
  expect(res.status, await res.clone().text()).toBe(201);
  const lab = (await res.json()) as LabSetupAnswer;
  const actors = zoneList.flatMap((_, z) => Array.from({ length: perZone }, (_, i) => ({ name: `${prefix}-${z + 1}-${String(i + 1).padStart(2, '0')}`, address: `10.${net}.${z + 1}.${i + 10}` })));
  // A few at a time: the director registers each in one statement.
  for (let i = 0; i < actors.length; i += 16) {
    await Promise.all(actors.slice(i, i + 16).map(async (a) => {
      const r = await fetch(`${url}/api/actor/register`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ bulk_token: lab.bulk_token, name: a.name, version: '1.0.0', os: 'Linux', addresses: [a.address], capabilities: ['socket', 'port_scan'] }),
      });
      expect(r.status, await r.clone().text()).toBe(200);
    }));
  }
  const placed = await fetch(`${url}/lab/setups/${prefix}/actors.json`, { method: 'POST', headers, body: '{}' });
  expect(placed.status, await placed.clone().text()).toBe(200);
  const { data } = (await placed.json()) as { data: { zone: string | null }[] };
  expect(data.filter((a) => a.zone).length).toBe(actors.length);
}

async function seed(url: string): Promise<Seeded> {
  const { cookie, answer } = await apiSignIn(url, ADMIN_EMAIL, ADMIN_PASSWORD);
  const headers = { ...XHR, Cookie: cookie, 'X-CSRF-Token': answer.csrf_token, 'Content-Type': 'application/json' };
  const get = async <T>(p: string): Promise<T> => {
    const r = await fetch(`${url}${p}`, { headers });
    expect(r.status, p).toBe(200);
    return (await r.json()) as T;
  };
  for (const lab of LABS) await seedLab(url, headers, lab.prefix, lab.net, ZONES, PER_ZONE);
  await seedLab(url, headers, LONE.prefix, LONE.net, 1, 1);

  const { actions } = await get<{ actions: LibraryItem[] }>('/manage_sims/v2/actions/library_actions_list?page_size=500&include_disabled=true');
  const find = (type: string, approved: boolean, disabled: boolean) => {
    const a = actions.find((x) => x.action_type === type && x.approved === approved && x.disabled === disabled && !x.decommissioned);
    if (!a) throw new Error(`The demo data has no ${type} action (approved ${approved}, disabled ${disabled})`);
    return a;
  };
  const socket = find('socket', true, false);
  const scan = find('port_scan', true, false);
  const dns = find('dns', true, false);
  const pending = find('socket', false, false);
  const disabled = find('dns', false, true);
  const create = async (body: object) => {
    const r = await fetch(`${url}/simulations.json`, { method: 'POST', headers, body: JSON.stringify(body) });
    expect(r.status, await r.clone().text()).toBe(201);
    return ((await r.json()) as { id: number }).id;
  };
  const simId = await create({ sim_type: 'sequence', sim_name: 'Across the large map', steps: [[socket.id], [scan.id]], step_names: ['Beacon', 'Scan'] });
  const casesId = await create({
    sim_type: 'sequence',
    sim_name: 'Steps that cannot all run',
    steps: [[socket.id], [pending.id], [dns.id], [disabled.id]],
    step_names: ['Beacon', 'Awaiting approval', 'Resolve', 'Switched off'],
  });
  // Rejecting the pending Action empties its group (JOB-071).
  const rejected = await fetch(`${url}/manage_sims/actions/${pending.id}.json`, { method: 'DELETE', headers, body: '{}' });
  expect(rejected.status, await rejected.clone().text()).toBe(200);

  const map = await get<NetworkMap>('/topology/network.json');
  expect(map.nodes.length).toBeGreaterThan(400);
  return { map, rects: layout('Standard', map), simId, casesId };
}

beforeAll(async () => {
  seeded = await seed(director().url);
}, 180_000);

const canvasOf = (page: Page, region: string) => page.getByRole('application', { name: region }).getByTestId('network-map-canvas');
/** The upper canvas layer: its data attributes say what it drew (data-boxes, data-selected, data-attacker, data-target, data-choosable, data-view). */
const layer = (page: Page, region: string) => canvasOf(page, region).locator('canvas[data-boxes]');
const nameOf = (key: string) => seeded.map.nodes.find((n) => `node_${n.id}` === key)?.name ?? key;
const keyOf = (name: string) => `node_${seeded.map.nodes.find((n) => n.name === name)!.id}`;

/** The map area in view (map units), as the canvas says once the view has settled. */
async function view(page: Page, region: string): Promise<{ x: number; y: number; width: number; height: number }> {
  let v = '';
  await eventually(async () => (v = (await layer(page, region).getAttribute('data-view')) ?? '') !== '', true, 'the canvas says what it shows');
  const [x, y, width, height] = v.split(' ').map(Number) as [number, number, number, number];
  return { x, y, width, height };
}

/** The actors (of `names`, else all) drawn fully in view, nearest the view's centre first. */
async function inView(page: Page, region: string, names?: (name: string) => boolean): Promise<string[]> {
  const v = await view(page, region);
  const cx = v.x + v.width / 2;
  const cy = v.y + v.height / 2;
  return seeded.map.nodes
    .filter((n) => !names || names(n.name))
    .map((n) => ({ key: `node_${n.id}`, r: seeded.rects[`node_${n.id}`]! }))
    .filter(({ r }) => r && r.x > v.x && r.y > v.y + 60 && r.x + r.width < v.x + v.width && r.y + r.height < v.y + v.height - 60)
    .sort((a, b) => Math.hypot(a.r.x - cx, a.r.y - cy) - Math.hypot(b.r.x - cx, b.r.y - cy))
    .map(({ key }) => key);
}

/** Where an actor's box is on the screen (client coordinates of its centre). */
async function pointOf(page: Page, region: string, key: string): Promise<{ x: number; y: number }> {
  const v = await view(page, region);
  const box = (await canvasOf(page, region).boundingBox())!;
  const r = seeded.rects[key]!;
  const k = box.width / v.width;
  return { x: box.x + (r.x + r.width / 2 - v.x) * k, y: box.y + (r.y + r.height / 2 - v.y) * k };
}

describe('a network map of over 400 actors (drawn on the canvas)', () => {
  const b = useBrowser(() => director().url);
  const status = (page: Page) => page.getByRole('application', { name: 'Network map' }).getByRole('status').first();

  it('JOB-023 JOB-026 a click selects an actor drawn on the canvas, right-click opens its menu, arrows move the selection between actors, Shift+F10 and the ContextMenu key open the menu on it', async () => {
    const { page } = b;
    await page.setViewportSize(PAGE_VIEWPORT);
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD, '/topology');
    await waitForFocused(page, 'Network Map');
    const pane = panel(page, 'Network Map');
    await pane.getByText(`${seeded.map.zones.length} zones · ${seeded.map.nodes.length} actors · ${seeded.map.devices.length} devices`).waitFor();
    // The actors are drawn on the canvas, not as SVG cells.
    await eventually(async () => Number(await layer(page, 'Network map').getAttribute('data-boxes')) > 0, true, 'the canvas draws the actors');
    expect(await canvasOf(page, 'Network map').locator('[data-cell-id^="node_"]').count()).toBe(0);
    await lookAt(page, { path: 'test-results/large-map.png' });

    // A click on an actor's box selects it.
    const [first, second] = await inView(page, 'Network map');
    const at = await pointOf(page, 'Network map', first!);
    await page.mouse.click(at.x, at.y);
    await eventually(() => status(page).innerText(), `Selected: ${nameOf(first!)}`, 'the click selects the actor');
    expect(await layer(page, 'Network map').getAttribute('data-selected')).toBe(first);

    // Right-click on another opens its menu.
    const other = await pointOf(page, 'Network map', second!);
    await page.mouse.click(other.x, other.y, { button: 'right' });
    const menu = page.getByRole('menu', { name: `Actions for ${nameOf(second!)}` });
    await menu.waitFor();
    await menu.getByRole('menuitem', { name: 'Open actor' }).waitFor();
    await lookAt(page, { path: 'test-results/large-map-menu.png' });
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await status(page).innerText()).toBe(`Selected: ${nameOf(second!)}`);

    // The keyboard: the region has the focus back; each arrow moves to a neighbouring actor in its direction.
    const region = page.getByRole('application', { name: 'Network map' });
    expect(await region.evaluate((el) => el === document.activeElement)).toBe(true);
    let from = second!;
    for (const key of ['ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp'] as const) {
      await page.keyboard.press(key);
      await eventually(async () => (await layer(page, 'Network map').getAttribute('data-selected')) !== from, true, `${key} moves the selection`);
      const to = (await layer(page, 'Network map').getAttribute('data-selected'))!;
      expect(to, `${key} selects an actor or a device`).toMatch(/^(node|device)_\d+$/);
      const [a, z] = [seeded.rects[from]!, seeded.rects[to]!];
      const along = key === 'ArrowRight' ? z.x - a.x : key === 'ArrowLeft' ? a.x - z.x : key === 'ArrowDown' ? z.y - a.y : a.y - z.y;
      expect(along, `${key} from ${from} to ${to}`).toBeGreaterThan(0);
      from = to;
    }
    const selected = (await status(page).innerText()).replace('Selected: ', '');

    // Shift+F10, then the ContextMenu key, open the selected item's menu with its first item focused.
    for (const key of ['Shift+F10', 'ContextMenu']) {
      await page.keyboard.press(key);
      const keyMenu = page.getByRole('menu', { name: `Actions for ${selected}` });
      await keyMenu.waitFor();
      expect(await keyMenu.getByRole('menuitem').first().evaluate((el) => el === document.activeElement), `${key} focuses the menu`).toBe(true);
      await page.keyboard.press('Escape');
      await keyMenu.waitFor({ state: 'detached' });
    }
  });
});

describe('the sequence mode on a map of over 400 actors', () => {
  const b = useBrowser(() => director().url);
  const cursor = (page: Page) => page.getByRole('status', { name: 'Map cursor' });

  it('JOB-023 JOB-060 JOB-027 an attacker then one of its valid targets are chosen on the map by keyboard; the canvas highlights what can be chosen', async () => {
    const { page } = b;
    await page.setViewportSize(PAGE_VIEWPORT);
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD, `/simulations/select_nodes?sim_id=${seeded.simId}`);
    const p = (await (await page.request.get(`/library/simulations.json?id=${seeded.simId}`, { headers: XHR })).json() as SimulationPreviewAnswer).data.preview_props;
    const onMap = new Set(seeded.map.nodes.map((n) => n.id));
    const region = 'Sequence map';
    // Attacker phase: every actor that connected is highlighted (drawn on the canvas).
    await eventually(async () => Number(await layer(page, region).getAttribute('data-choosable')), p.options.cttn_attackers.filter((a) => onMap.has(a.id)).length, 'every attacker is highlighted');
    expect(await canvasOf(page, region).locator('[data-cell-id^="node_"]').count()).toBe(0);

    // Keyboard only: the attackers list has the focus, Tab reaches the map.
    const attackers = page.getByRole('listbox', { name: 'Attackers for step 1' });
    await eventually(() => attackers.evaluate((el) => el === document.activeElement), true, 'the attackers list has the focus');
    await page.keyboard.press('Tab');
    const map = page.getByRole('application', { name: region });
    await eventually(() => map.evaluate((el) => el === document.activeElement), true, 'Tab reaches the map');
    // The first arrow puts the cursor on an actor; the others move it among the highlighted ones, in view.
    await page.keyboard.press('ArrowRight');
    await eventually(async () => /: Enter chooses it as the attacker of step 1$/.test(await cursor(page).innerText()), true, 'the cursor is on an attacker');
    for (const key of ['ArrowDown', 'ArrowRight']) {
      const before = await layer(page, region).getAttribute('data-selected');
      await page.keyboard.press(key);
      await eventually(async () => (await layer(page, region).getAttribute('data-selected')) !== before, true, `${key} moves the cursor`);
    }
    const attackerKey = (await layer(page, region).getAttribute('data-selected'))!;
    expect(await cursor(page).innerText()).toBe(`${nameOf(attackerKey)}: Enter chooses it as the attacker of step 1`);
    expect(await inView(page, region, (n) => n === nameOf(attackerKey))).toEqual([attackerKey]);
    await page.keyboard.press('Enter');
    const attacker = Number(attackerKey.slice(5));
    await eventually(() => new URL(page.url()).searchParams.get('attack_node_id_1'), String(attacker), 'the attacker is in the URL');

    // Target phase: the canvas marks the attacker and highlights exactly its valid targets; the map keeps the focus.
    const valid = validTargets(p, attacker).filter((id) => onMap.has(id));
    expect(valid.length).toBeGreaterThan(0);
    await eventually(() => layer(page, region).getAttribute('data-attacker'), attackerKey, 'the attacker is marked');
    expect(Number(await layer(page, region).getAttribute('data-choosable'))).toBe(valid.length);
    expect(await map.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('ArrowLeft');
    await eventually(async () => /: Enter chooses it as the target of step 1$/.test(await cursor(page).innerText()), true, 'the cursor is on a valid target');
    const before = await layer(page, region).getAttribute('data-selected');
    await page.keyboard.press('ArrowDown');
    await eventually(async () => (await layer(page, region).getAttribute('data-selected')) !== before, true, 'ArrowDown moves the cursor');
    const targetKey = (await layer(page, region).getAttribute('data-selected'))!;
    expect(await cursor(page).innerText()).toBe(`${nameOf(targetKey)}: Enter chooses it as the target of step 1`);
    const target = Number(targetKey.slice(5));
    expect(valid, `${nameOf(targetKey)} is a valid target`).toContain(target);
    await lookAt(page, { path: 'test-results/large-map-sequence-target.png' });
    await page.keyboard.press('Enter');
    await eventually(() => new URL(page.url()).searchParams.get('target_node_id_1'), String(target), 'the target is in the URL');
    await page.getByTestId('assignment-1').getByText(`Attacker: ${nameOf(attackerKey)}`, { exact: false }).waitFor();
    expect(await page.getByTestId('assignment-1').innerText()).toContain(`Target: ${nameOf(targetKey)}`);

    // Step 2 is active next: every attacker is highlighted again, and the map still has the focus.
    await page.getByRole('listbox', { name: 'Attackers for step 2' }).waitFor();
    await eventually(() => layer(page, region).getAttribute('data-attacker'), '', 'step 2 has no attacker yet');
    expect(await map.evaluate((el) => el === document.activeElement)).toBe(true);
  });

  it('JOB-070 clicking an actor on the canvas that reaches no other actor shows the spec\'s message; an actor of the other lab is refused as a target with the reason', async () => {
    const { page } = b;
    await page.setViewportSize(PAGE_VIEWPORT);
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD, `/simulations/select_nodes?sim_id=${seeded.simId}`);
    const region = 'Sequence map';
    await eventually(async () => Number(await layer(page, region).getAttribute('data-choosable')) > 400, true, 'the attackers are highlighted');
    // Zoomed out with the wheel until the lone actor is in view (boxes without texts), it is clicked on the canvas.
    const lone = keyOf(`${LONE.prefix}-1-01`);
    const box = (await canvasOf(page, region).boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    for (let i = 0; i < 30 && !(await inView(page, region, (n) => n.startsWith(LONE.prefix))).length; i++) {
      await page.mouse.wheel(0, 120);
      // The view settles (and the canvas says so) 150 ms after the last wheel step.
      await page.waitForTimeout(300);
    }
    const at = await pointOf(page, region, lone);
    await page.mouse.click(at.x, at.y);
    const alert = page.getByRole('application', { name: region }).locator('..').getByRole('alert');
    await eventually(() => alert.innerText(), NO_VALID_TARGETS, 'JOB-070 says no actor can be targeted');
    expect(new URL(page.url()).searchParams.get('attack_node_id_1')).toBeNull();
    // The message does not move the map: the operator's zoom is kept (the lone actor is still in view).
    await page.waitForTimeout(400);
    expect(await inView(page, region, (n) => n.startsWith(LONE.prefix))).toEqual([lone]);
    await lookAt(page, { path: 'test-results/large-map-no-valid-targets.png' });

    // An east actor is the attacker (a click); a west actor is not one of its targets.
    const east = (await inView(page, region, (n) => n.startsWith('east-')))[0]!;
    const eastAt = await pointOf(page, region, east);
    await page.mouse.click(eastAt.x, eastAt.y);
    await eventually(() => new URL(page.url()).searchParams.get('attack_node_id_1'), east.slice(5), 'the click chooses the attacker');
    // The URL moves a moment before the canvas draws the target phase; an operator clicks once the targets show.
    await eventually(() => layer(page, region).getAttribute('data-attacker'), east, 'the canvas marks the attacker');
    const west = (await inView(page, region, (n) => n.startsWith('west-')))[0]!;
    const westAt = await pointOf(page, region, west);
    await page.mouse.click(westAt.x, westAt.y);
    await eventually(() => alert.innerText(), `${nameOf(west)} (west z${nameOf(west).split('-')[1]}) cannot be reached from ${nameOf(east)} (east z${nameOf(east).split('-')[1]}): choose one of the highlighted actors.`, 'the unreachable actor is refused');
    expect(new URL(page.url()).searchParams.get('target_node_id_1')).toBeNull();
    expect(pathOf(page)).toContain(`sim_id=${seeded.simId}`);
  });

  it('JOB-060 JOB-070 JOB-071 a group emptied by a rejected Action is removed with the spec\'s message; a step whose Actions are all disabled shows DISABLED with the reason and is skipped; among 480 actors the lists find one by its typed name', async () => {
    const { page } = b;
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD, `/simulations/select_nodes?sim_id=${seeded.casesId}`);
    const groups = page.getByRole('region', { name: 'Groups' });
    await groups.getByText("Group 2 was removed since it doesn't contain any actions.", { exact: true }).waitFor();
    const steps = page.getByRole('listbox', { name: 'Steps' });
    const options = steps.getByRole('option');
    await eventually(() => options.evaluateAll((els) => els.map((e) => e.getAttribute('title'))), ['Step 1: Beacon', 'Step 2: Resolve (single actor)', 'DISABLED: Switched off: every Action of this step is disabled'], 'the steps, numbered as the run numbers them');
    const disabled = options.nth(2);
    expect(await disabled.getAttribute('aria-disabled')).toBe('true');
    expect(await disabled.innerText()).toContain('DISABLED Switched off');
    expect(await disabled.innerText()).toContain('every Action of this step is disabled');
    await lookAt(page, { path: 'test-results/select-nodes-cases.png' });

    // Type-ahead in the attackers list (it has the focus): the lone actor, chosen with Enter, has no valid target (JOB-070).
    const attackers = page.getByRole('listbox', { name: 'Attackers for step 1' });
    await eventually(() => attackers.evaluate((el) => el === document.activeElement), true, 'the attackers list has the focus');
    const alert = page.getByRole('region', { name: 'Map' }).getByRole('alert');
    await page.keyboard.type(LONE.prefix);
    await eventually(() => attackers.getAttribute('aria-activedescendant'), `assign-actor-${keyOf(`${LONE.prefix}-1-01`).slice(5)}`, 'typing finds the lone actor');
    await page.keyboard.press('Enter');
    await eventually(() => alert.innerText(), NO_VALID_TARGETS, 'JOB-070 from the list');
    // An east attacker, then an east target, each found by typing its name.
    await page.waitForTimeout(800);
    await page.keyboard.type('east-1-05');
    await page.keyboard.press('Enter');
    await eventually(() => new URL(page.url()).searchParams.get('attack_node_id_1'), keyOf('east-1-05').slice(5), 'the typed attacker is chosen');
    const targets = page.getByRole('listbox', { name: 'Targets for step 1' });
    await eventually(() => targets.evaluate((el) => el === document.activeElement), true, 'the targets list has the focus');
    await page.keyboard.type('east-4-20');
    await page.keyboard.press('Enter');
    await eventually(() => new URL(page.url()).searchParams.get('target_node_id_1'), keyOf('east-4-20').slice(5), 'the typed target is chosen');

    // The keyboard skips the DISABLED step: End in the steps list stops on step 2.
    await steps.focus();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.getByRole('listbox', { name: 'Attackers for step 2' }).waitFor();
    expect(await steps.getAttribute('aria-activedescendant')).toBe('assign-step-2');
  });
});
