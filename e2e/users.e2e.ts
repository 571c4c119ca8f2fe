import { describe, expect, inject, it } from 'vitest';
import { signIn, submitSignIn, useBrowser, workbenchReady } from './browser';
import { sharedDirectorUrl } from './shared-director';
import { panel, waitForFocused } from './workbench';

const baseUrl = sharedDirectorUrl();

describe('users administration', () => {
  const b = useBrowser(() => baseUrl);

  it('an administrator adds a user, makes them an approver and resets their password; the user then signs in with the new password as an approver', async () => {
    const { page } = b;
    await signIn(page, inject('adminEmail'), inject('adminPassword'), '/admin/users');
    await waitForFocused(page, 'Users');
    const users = panel(page, 'Users');

    await users.getByRole('button', { name: 'Add User' }).click();
    const form = page.getByRole('form', { name: 'Add user' });
    await form.getByLabel('Email').fill('not-an-email');
    await form.getByLabel('Password').fill('short');
    await form.getByRole('button', { name: 'Add User' }).click();
    expect(await form.getByText('Email is not a valid address').isVisible()).toBe(true);
    expect(await form.getByText('Password must be at least 8 characters').isVisible()).toBe(true);
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
    await page.getByLabel('New password').fill('second password 2');
    await page.getByRole('button', { name: 'Reset Password' }).click();
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
});
