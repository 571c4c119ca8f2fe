import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleMessage, Page } from 'playwright-core';
import { signIn, useBrowser } from './browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startDirector, type Director } from './director';
import { typeScript, transcriptRows } from './scripts-pane';
import { eventually, groupTabs, pathOf, runCommand, waitForFocused, waitForPath, lookAt } from './workbench';
import { CANCEL_CONFIRM } from '../src/api/contracts/jobs';

// Issue 21 items 6 and 7. A director of its own: the sequence needs the two local actors (the shared
// directors run none).
let director: Director;
beforeAll(async () => {
  director = await startDirector({ LOCAL_ACTORS: '1' });
}, 300_000);
afterAll(async () => {
  await director?.stop();
});

const SEQUENCE_ID = 7;
const SHOTS = process.env.VIGIL_SHOTS_DIR ?? '/tmp/wording';
const transcript = (page: Page) => page.getByRole('table', { name: 'Transcript' });

async function localActorIds(page: Page): Promise<[number, number]> {
  let ids: number[] = [];
  await eventually(
    async () => {
      const res = await page.request.get('/run/actors.json', { headers: { Accept: 'application/json' } });
      const rows = ((await res.json()) as { data: { id: number; name: string; status: string }[] }).data;
      ids = ['local-actor-1', 'local-actor-2'].map((n) => rows.find((r) => r.name === n && r.status === 'online')?.id ?? 0);
      return ids.every((x) => x > 0);
    },
    true,
    'both local actors are online',
    45_000,
  );
  return ids as [number, number];
}

/** A new, empty Scripts pane, by keyboard. */
async function newScript(page: Page) {
  await runCommand(page, 'New Script');
  await waitForFocused(page, 'Scripts');
}

describe('issue 21.6 scripts keep their place', () => {
  const b = useBrowser(() => director.url);

  it('issue 21.6 a script that runs a sequence opens the job beside the Scripts pane and its transcript stays visible; Cancel Job / Keep Job by keyboard', async () => {
    const { page } = b;
    await page.setViewportSize({ width: 1600, height: 1000 });
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    const [a, c] = await localActorIds(page);
    await newScript(page);
    await typeScript(page, [`let job = run.sequence id=${SEQUENCE_ID} attack_node_id_1=${a} target_node_id_1=${c}`, 'script.echo text="started job ${job.id}"']);
    await page.keyboard.press('Control+Enter');
    await eventually(() => /^\/jobs\/\d+$/.test(pathOf(page)), true, 'the job pane opens');
    const jobId = Number(pathOf(page).split('/').pop());
    await waitForFocused(page, `Job ${jobId}`);
    // The job opened in another group: the Scripts pane is still shown, alone in its group, with its transcript.
    const layout = await groupTabs(page);
    expect(layout.length).toBe(2);
    expect(layout.find((g) => g.includes('Scripts'))).not.toContain(`Job ${jobId}`);
    expect(layout.some((g) => g.includes(`Job ${jobId}`))).toBe(true);
    expect(await page.getByRole('tab', { name: 'Scripts', exact: true }).getAttribute('aria-selected')).toBe('true');
    await eventually(async () => (await transcriptRows(page).allInnerTexts()).length, 2, 'both steps in the transcript');
    expect(await transcript(page).isVisible()).toBe(true);
    expect((await transcriptRows(page).allInnerTexts())[1]).toContain(`started job ${jobId}`);
    await lookAt(page, { path: `${SHOTS}/script-beside.png` });

    // The focused job is highlighted on the map: open it by keyboard, read the highlight's text.
    await runCommand(page, 'Open Network Map');
    const highlight = page.getByRole('status', { name: 'Focused job on the map' });
    await eventually(async () => (await highlight.innerText()).startsWith(`Job #${jobId} `), true, 'the map names the focused job', 20_000);
    expect(await highlight.innerText()).toMatch(/actors .*local-actor-1.*local-actor-2|actors .*local-actor-2.*local-actor-1/);
    await page.waitForTimeout(600);
    await lookAt(page, { path: `${SHOTS}/map-job-highlight.png` });

    // Cancel the job from the palette: the question names its buttons.
    await page.getByRole('tab', { name: `Job ${jobId}`, exact: true }).focus();
    await page.keyboard.press('Enter');
    await waitForFocused(page, `Job ${jobId}`);
    // Its hotkey in the Job pane (the palette's Cancel Job first asks which job, the focused one chosen).
    await page.keyboard.press('c');
    const ask = page.getByRole('dialog', { name: 'Please confirm' });
    await ask.getByText(CANCEL_CONFIRM, { exact: true }).waitFor();
    expect((await ask.getByRole('button').allInnerTexts()).filter((t) => t !== '×')).toEqual(['Keep Job', 'Cancel Job']);
    await lookAt(page, { path: `${SHOTS}/cancel-job-dialog.png` });
    // The dialog moves the focus to its primary button a moment after it shows: Enter before that would go elsewhere.
    const cancelButton = ask.getByRole('button', { name: 'Cancel Job', exact: true });
    await eventually(() => cancelButton.evaluate((el) => el === document.activeElement), true, 'Cancel Job has the focus');
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: `Job ${jobId} was cancelled.` }).waitFor({ timeout: 20_000 });
  });

  it('issue 21.6 a pane.close step cannot close the Scripts pane running it: the step fails with a message', async () => {
    const { page } = b;
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await newScript(page);
    await typeScript(page, ['pane.close', 'script.echo text=never']);
    await page.keyboard.press('Control+Enter');
    await eventually(async () => (await transcriptRows(page).allInnerTexts()).length, 2, 'two transcript rows');
    const rows = await transcriptRows(page).allInnerTexts();
    expect(rows[0]).toMatch(/^failed/);
    expect(rows[0]).toContain('pane.close would close the Scripts pane running this script, so the step was refused.');
    expect(rows[1]).toMatch(/^skipped/);
    await waitForFocused(page, 'Scripts');
  });

  it('issue 21.6 an unsaved script survives a reload; closing it asks Discard Changes / Keep Editing', async () => {
    const { page } = b;
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await newScript(page);
    await typeScript(page, ['script.echo text="not saved yet"']);
    await page.getByRole('status').filter({ hasText: 'Unsaved changes' }).waitFor();
    await page.reload();
    await waitForFocused(page, 'Scripts');
    await eventually(async () => (await page.locator('.cm-content').innerText()).includes('script.echo text="not saved yet"'), true, 'the draft is back after the reload');
    await page.getByRole('status').filter({ hasText: 'Unsaved changes' }).waitFor();

    // Alt+W asks; Escape keeps the pane and its draft.
    await page.keyboard.press('Alt+w');
    const ask = page.getByRole('dialog', { name: 'Unsaved Script' });
    await ask.getByText('This new script has unsaved changes. Discard them and close the pane?', { exact: true }).waitFor();
    expect((await ask.getByRole('button').allInnerTexts()).filter((t) => t !== '×')).toEqual(['Keep Editing', 'Discard Changes']);
    await lookAt(page, { path: `${SHOTS}/unsaved-script-dialog.png` });
    await page.keyboard.press('Escape');
    await ask.waitFor({ state: 'detached' });
    await waitForFocused(page, 'Scripts');
    // Asked again, Enter discards: the pane closes and the draft is gone.
    await page.keyboard.press('Alt+w');
    await ask.getByText('This new script has unsaved changes. Discard them and close the pane?', { exact: true }).waitFor();
    await page.keyboard.press('Enter');
    await eventually(async () => (await groupTabs(page)).flat().includes('Scripts'), false, 'the Scripts pane is closed');
    await newScript(page);
    await eventually(async () => (await page.locator('.cm-content').innerText()).includes('not saved yet'), false, 'the discarded draft is not restored');
  });
});

describe('issue 21.7 wording and safety', () => {
  const b = useBrowser(() => director.url);

  it('issue 21.7 a signed-out load logs no console error (no 401 for /environment.json)', async () => {
    const { page } = b;
    const errors: string[] = [];
    const failed: string[] = [];
    page.on('console', (m: ConsoleMessage) => {
      if (m.type() === 'error' || m.type() === 'warning') errors.push(`${m.type()}: ${m.text()}`);
    });
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    await page.goto('/');
    await page.getByRole('button', { name: /sign in/i }).waitFor();
    await page.goto('/jobs');
    await page.getByRole('button', { name: /sign in/i }).waitFor();
    await page.waitForTimeout(500);
    expect(failed).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('issue 21.7 /users redirects to /admin/users', async () => {
    const { page } = b;
    await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD, '/users');
    await waitForPath(page, '/admin/users');
    await waitForFocused(page, 'Users');
  });
});
