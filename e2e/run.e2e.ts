import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn, useBrowser } from './browser';
import { DEMO_USERS, DEMO_USER_PASSWORD, startDirector, type Director } from './director';
import { eventually, groupTabs, panel, pathOf, runCommand, waitForFocused } from './workbench';
import { typeScript, transcriptRows } from './scripts-pane';

// A director of its own, with the two local actors (127.0.0.2, 127.0.0.3) the demo install starts.
let director: Director;
beforeAll(async () => {
  director = await startDirector({ LOCAL_ACTORS: '1' });
}, 120_000);
afterAll(async () => {
  await director?.stop();
});

interface JobStatus {
  status: string;
  progress: number;
  actions: { status: string; action_type: string; blocked: boolean | null }[];
}

const SEQUENCE_ID = 7; // 'Internal Segmentation - User to Server VLAN' in the demo seed

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Run All Actions' });
const source = (page: Page) => dialog(page).getByRole('combobox', { name: 'Source Actor' });
const destination = (page: Page) => dialog(page).getByRole('combobox', { name: 'Destination Actor' });
/** The dialog's root has no box of its own (its panel is fixed), so visibility is read from its section heading. */
const heading = (page: Page) => dialog(page).getByRole('heading', { name: 'Select Source and Destination Actors' });
const runNow = (page: Page) => dialog(page).getByRole('button', { name: /Run Now|Running\.\.\./ });

async function openModal(page: Page) {
  await runCommand(page, 'Run sequence…');
  const form = page.getByRole('form', { name: 'Arguments for Run sequence…' });
  await form.getByLabel('Sequence id').fill(String(SEQUENCE_ID));
  await form.getByLabel('Sequence id').press('Enter');
  await heading(page).waitFor({ state: 'visible' });
  // The local actors register a few seconds after the director starts; the modal refetches.
  await eventually(async () => (await source(page).locator('option').count()) >= 3, true, 'both local actors are listed', 30_000);
}

describe('running a sequence from the palette', () => {
  const b = useBrowser(() => director.url);

  it('MON-015 MON-059 MON-060 MON-062 Run All Actions: Run Now waits for both actors, runs the sequence and the job reaches its final results', async () => {
    const { page } = b;
    await signIn(page, DEMO_USERS.operator, DEMO_USER_PASSWORD);
    await openModal(page);
    expect(await heading(page).count()).toBe(1);
    expect(await runNow(page).isDisabled()).toBe(true);
    await source(page).selectOption({ label: 'local-actor-1 (127.0.0.2)' });
    expect(await runNow(page).isDisabled()).toBe(true);
    await destination(page).selectOption({ label: 'local-actor-2 (127.0.0.3)' });
    expect(await runNow(page).isDisabled()).toBe(false);
    // Changing the source clears the destination.
    await source(page).selectOption({ label: 'local-actor-2 (127.0.0.3)' });
    expect(await destination(page).inputValue()).toBe('');
    await source(page).selectOption({ label: 'local-actor-1 (127.0.0.2)' });
    await destination(page).selectOption({ label: 'local-actor-2 (127.0.0.3)' });
    await runNow(page).click();
    await heading(page).waitFor({ state: 'detached' });
    await eventually(() => /^\/jobs\/\d+$/.test(pathOf(page)), true, 'the job pane opens');
    const jobId = Number(pathOf(page).split('/').pop());
    await waitForFocused(page, `Job ${jobId}`);

    let final: JobStatus | null = null;
    for (let i = 0; i < 120 && !final; i++) {
      const res = await page.request.get(`/run/jobs/${jobId}/status.json`, { headers: { 'X-Requested-With': 'XMLHttpRequest' } });
      const body = (await res.json()) as JobStatus;
      if (['completed', 'errored', 'cancelled'].includes(body.status)) final = body;
      else await new Promise((r) => setTimeout(r, 500));
    }
    expect(final?.status).toBe('completed');
    expect(final?.progress).toBe(100);
    expect(final?.actions.some((a) => a.status === 'ran')).toBe(true);
    expect(final?.actions.every((a) => ['ran', 'incompatible', 'not run', 'errored'].includes(a.status))).toBe(true);
  });

  it('MON-061 MON-063 the lock toggle clears the destination and Close clears both choices', async () => {
    const { page } = b;
    await signIn(page, DEMO_USERS.operator, DEMO_USER_PASSWORD);
    await openModal(page);
    await source(page).selectOption({ label: 'local-actor-1 (127.0.0.2)' });
    await destination(page).selectOption({ label: 'local-actor-2 (127.0.0.3)' });
    await dialog(page).getByRole('switch').click();
    expect(await destination(page).inputValue()).toBe('');
    expect(await runNow(page).isDisabled()).toBe(true);
    await dialog(page).getByRole('button', { name: 'Close', exact: true }).last().click();
    await heading(page).waitFor({ state: 'detached' });
    await openModal(page);
    expect(await source(page).inputValue()).toBe('');
    expect(await destination(page).inputValue()).toBe('');
  });

  it('a script run in the Scripts pane opens the Jobs pane beside it, runs a sequence between the two actors, waits for the job and downloads its results as CSV', async () => {
    const { page } = b;
    await signIn(page, DEMO_USERS.operator, DEMO_USER_PASSWORD, '/scripts');
    await waitForFocused(page, 'Scripts');
    let actors: { id: number; name: string; status: string }[] = [];
    await eventually(
      async () => {
        const res = await page.request.get('/run/actors.json', { headers: { 'X-Requested-With': 'XMLHttpRequest' } });
        actors = ((await res.json()) as { data: typeof actors }).data;
        return ['local-actor-1', 'local-actor-2'].every((n) => actors.some((a) => a.name === n && a.status === 'online'));
      },
      true,
      'both local actors are online',
      30_000,
    );
    const id = (name: string) => actors.find((a) => a.name === name)!.id;
    await typeScript(page, [
      'pane.open.jobs',
      'pane.moveRight',
      `let job = run.sequence id=${SEQUENCE_ID} attack_node_id_1=${id('local-actor-1')} target_node_id_1=${id('local-actor-2')}`,
      'let done = jobs.wait id=$job.id timeout_s=120',
      'script.echo text="job ${done.id} ${done.status}"',
      'jobs.export job_ids=$job.id format=csv filename=sequence-results',
    ]);
    const download = page.waitForEvent('download', { timeout: 150_000 });
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('sequence-results.csv');
    const csv = (await file.createReadStream().then((st) => new Response(st as unknown as ReadableStream).text())).replace(/^\uFEFF/, '');
    const [header, row, ...rest] = csv.trim().split('\r\n');
    expect(rest).toEqual([]);
    expect(header).toContain('Job Id');

    await page.getByRole('tab', { name: 'Scripts', exact: true }).click();
    await eventually(async () => (await transcriptRows(page).allInnerTexts()).length, 6, 'six transcript rows');
    const rows = await transcriptRows(page).allInnerTexts();
    expect(rows.map((r) => r.split('\t')[0])).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok']);
    const jobId = /job (\d+) completed/.exec(rows[4] ?? '')?.[1];
    expect(jobId, rows[4]).toBeTruthy();
    // The Jobs pane sits beside the Scripts pane, with the job the script ran opened next to it; the
    // job pane follows the job to its final results.
    expect(await groupTabs(page)).toEqual([['Start', 'Scripts'], ['Jobs', `Job ${jobId}`]]);
    await page.getByRole('tab', { name: `Job ${jobId}`, exact: true }).click();
    await panel(page, `Job ${jobId}`).getByText('Completed', { exact: true }).waitFor({ state: 'visible', timeout: 30_000 });
    expect(row?.startsWith(`${jobId},`) || row?.startsWith(`"${jobId}",`)).toBe(true);
  }, 180_000);
});
