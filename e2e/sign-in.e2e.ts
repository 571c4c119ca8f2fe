import { describe, expect, inject, it } from 'vitest';
import { signIn, signInThroughForm, submitSignIn, useBrowser, workbenchReady } from './browser';
import { sharedDirectorUrl } from './shared-director';
import { eventually, pathOf } from './workbench';

const baseUrl = sharedDirectorUrl();
const adminEmail = inject('adminEmail');
const adminPassword = inject('adminPassword');

describe('signing in and out', () => {
  const b = useBrowser(() => baseUrl);

  it('a user who mistypes the password is told "Invalid email or password.", keeps the typed email, and signs in on the next try', async () => {
    const { page } = b;
    // The wrong password is refused on purpose: its 401 is logged as a failed resource load.
    b.allowConsole(/Failed to load resource: the server responded with a status of 401 \(Unauthorized\) \(.*\/users\/sign_in\.json\)$/);
    await page.goto('/');
    await submitSignIn(page, adminEmail, 'not-the-password');
    const alert = page.getByRole('alert').filter({ hasText: 'Invalid email or password.' });
    await alert.waitFor({ state: 'visible' });
    expect((await alert.innerText()).trim()).toBe('Invalid email or password.');
    expect(await page.getByLabel('Email').inputValue()).toBe(adminEmail);
    expect(await workbenchReady(page).count()).toBe(0);

    await page.getByLabel('Password').fill(adminPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await workbenchReady(page).waitFor({ state: 'visible' });
    // The user menu's code arrives just after the workbench (its place shows the name until then).
    await page.getByRole('button', { name: 'User menu for Ada Admin' }).waitFor();
    expect(await page.getByRole('button', { name: 'User menu for Ada Admin' }).isVisible()).toBe(true);
    expect(await page.getByText('Invalid email or password.').count()).toBe(0);
    expect(await page.locator('main').getByRole('tab', { name: 'Start', exact: true }).isVisible()).toBe(true);
  });

  it('a user who signs out from the user menu is back on the sign-in page and stays signed out after a reload', async () => {
    const { page } = b;
    // Through the form: a session of this test's own, so signing it out ends no session other tests reuse.
    await signInThroughForm(page, adminEmail, adminPassword, '/jobs');
    await page.getByRole('button', { name: 'User menu for Ada Admin' }).click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor({ state: 'visible' });
    await eventually(() => pathOf(page), '/', 'signing out goes to /');
    expect(await workbenchReady(page).count()).toBe(0);

    await page.reload();
    await page.getByRole('button', { name: 'Sign in' }).waitFor({ state: 'visible' });
    expect(await workbenchReady(page).count()).toBe(0);
    // The session is gone on the director too, not only hidden in the page.
    const env = await page.request.get('/environment.json', { headers: { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' } });
    expect(env.status()).toBe(401);
  });

  it('MON-158 when the director cannot be reached on load the page says "An error occurred" with the reason, and Try again recovers', async () => {
    const { page } = b;
    await signIn(page, adminEmail, adminPassword);
    // The director is made unreachable on purpose: each refused load of /users/session.json (the
    // workbench's one call on load, which carries the environment) is logged. The director's page carries
    // that state itself (server/spa-index.ts), so the page is served here without it, as a page from
    // elsewhere (a cache, the dev server) would be, and the call is what the load depends on.
    b.allowConsole(/Failed to load resource: net::ERR_CONNECTION_REFUSED \(.*\/users\/session\.json\)$/);
    await page.route('**/users/session.json', (route) => route.abort('connectionrefused'));
    await page.route(
      (url) => url.pathname === '/',
      async (route) => {
        const res = await route.fetch();
        await route.fulfill({ response: res, body: (await res.text()).replace(/<script id="vigil-session"[^]*?<\/script>/, '') });
      },
    );
    await page.reload();
    const alert = page.getByRole('alert').filter({ hasText: 'An error occurred' });
    await alert.waitFor({ state: 'visible' });
    expect(await alert.getByText('The director could not be reached.', { exact: true }).isVisible()).toBe(true);
    expect(await workbenchReady(page).count()).toBe(0);

    await page.unroute('**/users/session.json');
    await alert.getByRole('button', { name: 'Try again' }).click();
    await workbenchReady(page).waitFor({ state: 'visible' });
    expect(await page.getByText('An error occurred').count()).toBe(0);
  });
});
