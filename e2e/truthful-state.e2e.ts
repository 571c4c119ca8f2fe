import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn, useBrowser } from './browser';
import { useOwnDirector } from './own-director';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './director';
import { eventually, panel, runCommand, waitForFocused, lookAt } from './workbench';
import type { JobListAnswer } from '../src/api/contracts/jobs';
import type { ActorTables } from '../src/api/contracts/actors';

// A director of its own with the two local actors (127.0.0.2, 127.0.0.3) of the demo install: they
// send heartbeats; the 17 demo actors of the seed never do. (The shared directors run no local actors.)
const director = useOwnDirector({ LOCAL_ACTORS: '1' });

const LOCAL = ['local-actor-1', 'local-actor-2'];
/** The statuses of a job some engine must be working on. */
const ACTIVE = ['running', 'pending', 'preparing', 'reverting'];

/** Name → status word of every row of the Actors pane's Actors table. */
async function actorsTable(page: Page): Promise<Map<string, string>> {
  const rows = panel(page, 'Actors').getByRole('table', { name: 'Actors' }).locator('tbody tr');
  const out = new Map<string, string>();
  for (const cells of await rows.evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => (td.textContent ?? '').trim())))) {
    // Columns: ID, Name, Type, OS, Version, Zone, Status, ...
    if (cells[1] && cells[6]) out.set(cells[1], cells[6].replace(/i$/, ''));
  }
  return out;
}

describe('issue 21.1 truthful state in the workbench', () => {
  const b = useBrowser(() => director().url);

  it('issue 21.1 the Actors pane and the Network Map show the demo actors offline and only the local actors (fresh heartbeats) online', async () => {
    const { page } = b;
    await page.setViewportSize({ width: 1600, height: 1000 });
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD, '/actors');
    await waitForFocused(page, 'Actors');
    // The local actors register a few seconds after the director starts; the pane polls.
    await eventually(
      async () => {
        const t = await actorsTable(page);
        return LOCAL.every((n) => t.get(n) === 'online');
      },
      true,
      'both local actors are online in the Actors pane',
      45_000,
    );
    const table = await actorsTable(page);
    await lookAt(page, { path: '/tmp/truthful2-actors.png' });
    const online = [...table].filter(([, s]) => s === 'online').map(([n]) => n).sort();
    expect(online).toEqual(LOCAL);
    const demo = [...table].filter(([n]) => !LOCAL.includes(n));
    expect(demo.length).toBeGreaterThanOrEqual(17);
    for (const [name, status] of demo) expect(`${name}: ${status}`).not.toBe(`${name}: online`);
    // The Name cell shows the friendly name, then the name.
    for (const name of ['WIN10-FIN-WS01', 'EXT-ATTACKER-01', 'AWS-CLOUD-ACTOR']) expect(demo.find(([n]) => n.endsWith(name))?.[1]).toBe('offline');

    await runCommand(page, 'Open Network Map');
    await waitForFocused(page, 'Network Map');
    const map = panel(page, 'Network Map').getByRole('application', { name: 'Network map' });
    const box = (name: string) => map.locator('svg g[data-cell-id]').filter({ has: page.getByText(name, { exact: true }) });
    /** The status word an actor's box shows ("offline · 10.10.1.121"). */
    const statusOnMap = async (name: string) => /(online|offline|pending)\s·\s/.exec((await box(name).first().textContent()) ?? '')?.[1] ?? 'not drawn';
    await box('WIN10-FIN-WS01').first().waitFor();
    for (const name of ['WIN10-FIN-WS01', 'EXT-ATTACKER-01', 'AWS-CLOUD-ACTOR', 'SRV-DC01']) await eventually(() => statusOnMap(name), 'offline', `${name} is offline on the map`);
    for (const name of LOCAL) await eventually(() => statusOnMap(name), 'online', `${name} is online on the map`);
    // Across the whole map, only the two local actors read online (the map draws spaces as no-break spaces).
    expect(((await map.locator('svg').first().textContent()) ?? '').match(/online\s·\s/g)?.length).toBe(LOCAL.length);
    await lookAt(page, { path: '/tmp/truthful2-map.png' });
  });

  it('issue 21.1 the Jobs pane shows no job Running, Pending, Preparing or Reverting without engine work (the seeded jobs are finished)', async () => {
    const { page } = b;
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD, '/jobs');
    await waitForFocused(page, 'Jobs');
    const rows = page.getByRole('treegrid', { name: 'Jobs' }).locator('[role=row][data-row-kind=job]');
    await rows.first().waitFor();
    const shown = await rows.locator('[data-status]').evaluateAll((els) => els.map((e) => e.getAttribute('data-status') ?? ''));
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.filter((s) => ACTIVE.includes(s))).toEqual([]);
    // Every page of the list the pane reads, not only the first screen.
    const statuses: string[] = [];
    let after: string | null = null;
    let total = 0;
    for (let i = 0; i < 100; i++) {
      const res = await page.request.get(`/jobs/list_page_data.json?size=100${after ? `&after=${encodeURIComponent(after)}` : ''}`, { headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' } });
      expect(res.status()).toBe(200);
      const a = (await res.json()) as JobListAnswer;
      const rowsOfPage = a.jobs ?? a.filtered_jobs ?? [];
      total = a.total_jobs;
      statuses.push(...rowsOfPage.map((j) => j.job_status));
      if (rowsOfPage.length < 100 || !a.page_end) break;
      after = a.page_end;
    }
    expect(total).toBeGreaterThan(0);
    expect(statuses.length).toBe(total);
    expect(statuses.filter((s) => ACTIVE.includes(s))).toEqual([]);
  });

  it('issue 21.1 signed in, 30 s later on the page\'s clock: no actor is shown online without a fresh heartbeat, and no job waits in a non-final status', async () => {
    const { page } = b;
    // The page's clock is Playwright's: the 30 s pass at once (fastForward), and the checks poll what
    // the page shows and what its own polls read: no sleep.
    await page.clock.install();
    await page.setViewportSize({ width: 1600, height: 1000 });
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD, '/actors');
    await waitForFocused(page, 'Actors');
    await eventually(
      async () => {
        const now = await actorsTable(page);
        return LOCAL.every((n) => now.get(n) === 'online');
      },
      true,
      'both local actors are online in the Actors pane',
      45_000,
    );
    // Every answer the pane reads from now on, with the director's time of answering.
    const answers: { at: number; tables: ActorTables }[] = [];
    page.on('response', (res) => {
      if (!res.url().includes('/actors/tables.json') || res.status() !== 200) return;
      const at = Date.parse(res.headers()['date'] ?? '');
      void res.json().then((tables: ActorTables) => answers.push({ at, tables }), () => undefined);
    });
    await page.clock.fastForward('00:30');
    // The pane's polling ran during those 30 s of its clock: it has asked the director again.
    await eventually(() => answers.length > 0, true, 'the Actors pane polled after the 30 s', 30_000);
    const { at, tables } = answers.at(-1)!;
    const online = tables.nodes.data.filter((a) => a.status === 'online');
    expect(online.map((a) => a.name).sort()).toEqual(LOCAL);
    // Online means a heartbeat younger than 20 s when the director answered (its Date header has whole seconds).
    for (const a of online) expect(at - Date.parse(a.last_heartbeat_at!)).toBeLessThan(21_000);
    await eventually(async () => [...(await actorsTable(page))].filter(([, s]) => s === 'online').map(([n]) => n).sort(), LOCAL, 'the table shows only the local actors online');

    await runCommand(page, 'Open Jobs');
    await waitForFocused(page, 'Jobs');
    const rows = page.getByRole('treegrid', { name: 'Jobs' }).locator('[role=row][data-row-kind=job]');
    await rows.first().waitFor();
    await page.clock.fastForward('00:30');
    const shown = await rows.locator('[data-status]').evaluateAll((els) => els.map((e) => e.getAttribute('data-status') ?? ''));
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.filter((s) => ACTIVE.includes(s))).toEqual([]);
  });
});
