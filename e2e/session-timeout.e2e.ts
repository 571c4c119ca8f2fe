import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { submitSignIn, useBrowser } from './browser';
import { startDirector, type Director } from './director';
import { eventually } from './workbench';

// A director whose sessions last 90 s: right after sign-in time_left is at most 90, so the first check
// (made when the workbench mounts) already shows the warning.
let director: Director | null = null;
beforeAll(async () => {
  director = await startDirector({ SESSION_TIMEOUT_MIN: '1.5' });
});
afterAll(async () => {
  await director?.stop();
});

describe('the session timeout warning', () => {
  const b = useBrowser(() => {
    if (!director) throw new Error('The short-session director did not start');
    return director.url;
  });

  it('MON-024 MON-084 MON-085 MON-137 MON-138 with 90 s left the Session Timeout modal shows, cannot be dismissed, and Extend Session hides it', async () => {
    const { page } = b;
    let checks = 0;
    page.on('request', (r) => new URL(r.url()).pathname === '/users/verify_user_session' && checks++);
    const verified = page.waitForResponse((r) => new URL(r.url()).pathname === '/users/verify_user_session', { timeout: 45_000 });
    // Not signIn(): the modal opens as soon as the workbench mounts and hides the rest of the page from
    // role queries, so waiting for the palette button races with it. Wait for the modal instead.
    await page.goto('/');
    await submitSignIn(page, inject('adminEmail'), inject('adminPassword'));
    const verify = await verified;
    const { time_left } = (await verify.json()) as { time_left: number };
    expect(time_left).toBeGreaterThan(0);
    expect(time_left).toBeLessThanOrEqual(120);

    // The dialog element itself has no box (its panel is position: fixed), so wait on what it shows.
    const dialog = page.getByRole('dialog', { name: 'Session Timeout' });
    const message = dialog.getByText('Your session is about to expire.', { exact: true });
    await message.waitFor({ state: 'visible', timeout: 30_000 });
    expect((await dialog.getByRole('heading').innerText()).trim()).toBe('Session Timeout');
    const buttons = await dialog.getByRole('button').allInnerTexts();
    expect(buttons.map((t) => t.trim())).toEqual(['Extend Session']);
    expect(await dialog.getByRole('button', { name: 'Close' }).count()).toBe(0);

    await page.keyboard.press('Escape');
    await page.mouse.click(5, 5);
    await page.waitForTimeout(500);
    expect(await message.isVisible()).toBe(true);

    const reset = page.waitForResponse((r) => new URL(r.url()).pathname === '/users/reset_user_session_timeout');
    await dialog.getByRole('button', { name: 'Extend Session' }).click();
    expect((await reset).status()).toBe(200);
    await eventually(() => dialog.count(), 0, 'Extend Session hides the modal');
    expect(await page.getByRole('button', { name: 'Open command palette' }).isVisible()).toBe(true);
    // MON-084: one check when the workbench mounts, the next a minute later; none on re-renders.
    await page.waitForTimeout(1000);
    expect(await dialog.count()).toBe(0);
    expect(checks).toBe(1);
  });
});
