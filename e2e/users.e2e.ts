import { describe, expect, inject, it } from 'vitest';
import { signIn, signInThroughForm, submitSignIn, useBrowser, workbenchReady } from './browser';
import { sharedDirectorUrl } from './shared-director';
import { panel, waitForFocused } from './workbench';

const baseUrl = sharedDirectorUrl();

describe('users administration', () => {
  const b = useBrowser(() => baseUrl);

  it('an administrator adds a user, makes them an approver and resets their password; the user then signs in with the new password as an approver', async () => {
    const { page } = b;
    // Provoked below: the reset with a common password is refused by the director (400).
    b.allowConsole(/status of 400 \(Bad Request\) \(.*\/admin\/users\/\d+\.json\)$/);
    await signIn(page, inject('adminEmail'), inject('adminPassword'), '/admin/users');
    await waitForFocused(page, 'Users');
    const users = panel(page, 'Users');

    await users.getByRole('button', { name: 'Add User' }).click();
    const form = page.getByRole('form', { name: 'Add user' });
    await form.getByLabel('Email').fill('not-an-email');
    await form.getByLabel('Password').fill('short');
    await form.getByRole('button', { name: 'Add User' }).click();
    expect(await form.getByText('Email is not a valid address').isVisible()).toBe(true);
    expect(await form.getByText('Password must be at least 12 characters').isVisible()).toBe(true);
    await form.getByLabel('Email').fill('dana@example.com');
    await form.getByLabel('First name').fill('Dana');
    await form.getByLabel('Last name').fill('Analyst');
    await form.getByLabel('Password').fill('first password 1');
    await form.getByRole('button', { name: 'Add User' }).click();
    await page.getByRole('status').filter({ hasText: 'User dana@example.com was added.' }).waitFor();
    const row = users.getByRole('row').filter({ hasText: 'dana@example.com' });
    await row.waitFor();
    expect(await row.innerText()).toContain('Dana Analyst');

    await users.getByLabel('Role of dana@example.com').selectOption('approver');
    await page.getByRole('status').filter({ hasText: 'dana@example.com is now Approver.' }).waitFor();

    await users.getByRole('button', { name: 'Reset password of dana@example.com' }).click();
    const reset = page.getByRole('form', { name: 'Reset password of dana@example.com' });
    await reset.getByLabel('New password').fill('password1234');
    await reset.getByRole('button', { name: 'Reset Password' }).click();
    await reset.getByText('Password is a commonly used password; choose another').waitFor();
    await reset.getByLabel('New password').fill('second password 2');
    await page.getByRole('button', { name: 'Reset Password', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'The password of dana@example.com was reset.' }).waitFor();

    // Dana signs in elsewhere: the old password fails, the new one works, and the role shows.
    // Dana's old password is refused on purpose: its 401 is logged as a failed resource load.
    b.allowConsole(/Failed to load resource: the server responded with a status of 401 \(Unauthorized\) \(.*\/users\/sign_in\.json\)$/);
    const other = await b.newContext();
    const danaPage = await other.newPage();
    await danaPage.goto('/');
    await submitSignIn(danaPage, 'dana@example.com', 'first password 1');
    await danaPage.getByRole('alert').filter({ hasText: 'Invalid email or password.' }).waitFor();
    await submitSignIn(danaPage, 'dana@example.com', 'second password 2');
    await workbenchReady(danaPage).waitFor();
    expect(await danaPage.getByRole('button', { name: /User menu for Dana Analyst/ }).innerText()).toContain('(Approver)');
  });

  it('a user changes their own password from the user menu: the current one is required, their other session ends, the new one signs in', async () => {
    const { page } = b;
    const XHR = { 'X-Requested-With': 'XMLHttpRequest' };
    // Provoked below: a wrong current password, and a sign-in with the old password.
    b.allowConsole(/status of 400 \(Bad Request\) \(.*\/users\/password\.json\)$/);
    b.allowConsole(/status of 401 \(Unauthorized\) \(.*\/users\/sign_in\.json\)$/);
    // The administrator adds Casey (through the director, as the Users pane would).
    await signIn(page, inject('adminEmail'), inject('adminPassword'), '/');
    await workbenchReady(page).waitFor();
    const { csrfToken } = (await (await page.request.get('/environment.json', { headers: XHR })).json()) as { csrfToken: string };
    const created = await page.request.post('/admin/users.json', {
      headers: { ...XHR, 'X-CSRF-Token': csrfToken },
      data: { email: 'casey@example.com', role: 'viewer', password: 'casey first passphrase', first_name: 'Casey', last_name: 'Changer' },
    });
    expect(created.status()).toBe(201);

    // Casey is signed in twice, through the form: here and in another browser (two sessions, where
    // signIn would share one API session between the two contexts).
    const elsewhere = await b.newContext();
    const otherPage = await elsewhere.newPage();
    await signInThroughForm(otherPage, 'casey@example.com', 'casey first passphrase', '/');
    await workbenchReady(otherPage).waitFor();
    const casey = await b.newContext();
    const caseyPage = await casey.newPage();
    await signInThroughForm(caseyPage, 'casey@example.com', 'casey first passphrase', '/');
    await workbenchReady(caseyPage).waitFor();

    await caseyPage.getByRole('button', { name: /User menu for Casey Changer/ }).click();
    await caseyPage.getByRole('menuitem', { name: 'Change Password' }).click();
    const form = caseyPage.getByRole('form', { name: 'Change password' });
    await form.getByLabel('Current password').fill('not my password at all');
    await form.getByLabel('New password', { exact: true }).fill('casey second passphrase');
    await form.getByLabel('Confirm new password').fill('casey second passphrase');
    await form.getByRole('button', { name: 'Change Password' }).click();
    await form.getByRole('alert').filter({ hasText: 'The current password is not correct.' }).waitFor();
    await form.getByLabel('Current password').fill('casey first passphrase');
    await form.getByLabel('New password', { exact: true }).fill('short');
    await form.getByRole('button', { name: 'Change Password' }).click();
    expect(await form.getByText('Password must be at least 12 characters').isVisible()).toBe(true);
    await form.getByLabel('New password', { exact: true }).fill('casey second passphrase');
    await form.getByRole('button', { name: 'Change Password' }).click();
    await caseyPage.getByRole('status').filter({ hasText: 'Your password was changed. 1 other session was signed out.' }).waitFor();
    expect(await form.count()).toBe(0);

    // The other browser's session has ended; this one goes on; only the new password signs in.
    expect((await otherPage.request.get('/users/verify_user_session', { headers: XHR })).status()).toBe(401);
    expect((await caseyPage.request.get('/users/verify_user_session', { headers: XHR })).status()).toBe(200);
    const fresh = await (await b.newContext()).newPage();
    await fresh.goto('/');
    await submitSignIn(fresh, 'casey@example.com', 'casey first passphrase');
    await fresh.getByRole('alert').filter({ hasText: 'Invalid email or password.' }).waitFor();
    await submitSignIn(fresh, 'casey@example.com', 'casey second passphrase');
    await workbenchReady(fresh).waitFor();
    await fresh.context().close();
    await elsewhere.close();
    await casey.close();
  });
});
