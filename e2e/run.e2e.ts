import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn, useBrowser } from './browser';
import { localActorsOnline, SEQUENCE_ID, SEQUENCE_NAME, useLocalActorsDirector } from './local-actors';
import { DEMO_USERS, DEMO_USER_PASSWORD } from './director';
import { eventually, groupTabs, panel, pathOf, runCommand, waitForFocused } from './workbench';
import { typeScript, transcriptRows } from './scripts-pane';

// A director of its own, with the two local actors (127.0.0.2, 127.0.0.3) the demo install starts.
// A short detection window: a job completes one second after its last action.
const director = useLocalActorsDirector();

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Run All Actions' });
const source = (page: Page) => dialog(page).getByRole('combobox', { name: 'Source Actor' });
const destination = (page: Page) => dialog(page).getByRole('combobox', { name: 'Destination Actor' });
/** The dialog's root has no box of its own (its panel is fixed), so visibility is read from its section heading. */
const heading = (page: Page) => dialog(page).getByRole('heading', { name: 'Select Source and Destination Actors' });
const runNow = (page: Page) => dialog(page).getByRole('button', { name: /Run Now|Running\.\.\./ });

async function openModal(page: Page) {
  await runCommand(page, 'Run Sequence…');
  const form = page.getByRole('form', { name: 'Arguments for Run Sequence…' });
  // The sequence is a searchable pick list (by id, VID or name): type its id, Enter chooses once the
  // list shows the sequence found for it, Enter runs. (The form's actor pick lists show their own
  // options meanwhile: an option of any list is not the sign.)
  const pick = form.getByRole('combobox', { name: 'Sequence' });
  await pick.fill(String(SEQUENCE_ID));
  await form.getByRole('listbox', { name: 'Sequence choices' }).getByRole('option', { name: new RegExp(`^${SEQUENCE_NAME}`) }).waitFor();
  await pick.press('Enter');
  await form.getByText(`Chosen: ${SEQUENCE_NAME}`).waitFor();
  await pick.press('Enter');
  await heading(page).waitFor({ state: 'visible' });
  // The local actors register a few seconds after the director starts; the modal refetches.
  await eventually(async () => (await source(page).locator('option').count()) >= 3, true, 'both local actors are listed', 30_000);
}

describe('running a sequence from the palette', () => {
  const b = useBrowser(() => director().url);

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

    // The job pane follows the job to its final results (it polls; nothing else is asked).
    const pane = panel(page, `Job ${jobId}`);
    await pane.getByText('Completed', { exact: true }).waitFor({ state: 'visible', timeout: 150_000 });
    await pane.getByText('100%', { exact: true }).waitFor();
    const summary = await pane.getByText(/\d+ actions · Blocked \d+ · Detected \d+/).innerText();
    const total = Number(/(\d+) actions/.exec(summary)?.[1]);
    expect(total).toBeGreaterThan(0);
    for (const step of await pane.locator('[data-row-key^="step:"]:not([data-row-key*=">"])').all()) {
      if ((await step.getAttribute('aria-expanded')) !== 'true') await step.getByRole('button', { name: /^Expand step \d+$/ }).click();
    }
    const results = pane.locator('[data-row-key*=">action:"] [data-result]');
    await eventually(() => results.count(), total, 'every action of the job shows its result');
    const texts = (await results.allInnerTexts()).map((t) => t.trim());
    // Every action ended (Blocked / Not Blocked when it ran, Not Run for types the actors cannot perform), and some ran.
    expect(texts.filter((t) => !['Blocked', 'Not Blocked', 'Not Run', 'Errored'].includes(t))).toEqual([]);
    expect(texts.some((t) => t === 'Blocked' || t === 'Not Blocked')).toBe(true);
  }, 240_000);

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
    const actors = await localActorsOnline(page);
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
    await waitForFocused(page, `Job ${jobId}`);
    // The job pane polls every 30 s (STEPS_POLL_MS); the script saw the job complete, so Refresh Jobs
    // (the pane's own command) asks now instead of waiting for the next poll.
    await runCommand(page, 'Refresh Jobs');
    await panel(page, `Job ${jobId}`).getByText('Completed', { exact: true }).waitFor({ state: 'visible' });
    expect(row?.startsWith(`${jobId},`) || row?.startsWith(`"${jobId}",`)).toBe(true);
  }, 180_000);
});
